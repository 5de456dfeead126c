//! `pcl bench parse [--iters N] LISTFILE`: parse throughput over a list of files, printed in the
//! line format of the peer-parser anchors (`shared/anchors/run.sh --ours`), so that our parser
//! runs in the same session as theirs and the figures compare as ratios.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use pcl_project::files::io_reason;

use crate::inputs::cannot_read;

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Parse every file of LISTFILE (one path a line) ITERS times, as `pcl parse` does (its
    /// errors, no tree); print the best and mean times.
    Parse(ParseBenchArgs),
}

#[derive(Args)]
pub struct ParseBenchArgs {
    /// Timed iterations over the whole list (after one untimed warm-up pass).
    #[arg(long, default_value_t = 3)]
    iters: u32,
    /// Build each file's lossless tree too (`pcl_syntax::parse`, what `pcl parse --tree`, the
    /// editor and `pcl check` do), named `pcl-tree` in the output.
    #[arg(long)]
    tree: bool,
    /// A file holding one path per line.
    list: PathBuf,
}

pub fn run(cmd: BenchCommand) -> ExitCode {
    match cmd {
        BenchCommand::Parse(args) => parse_bench(args),
    }
}

fn parse_bench(args: ParseBenchArgs) -> ExitCode {
    let list = match std::fs::read_to_string(&args.list) {
        Ok(list) => list,
        Err(e) => {
            eprint!(
                "{}",
                crate::term::error_line(cannot_read(args.list.display(), io_reason(&e)))
            );
            return ExitCode::from(2);
        }
    };
    let mut sources = Vec::new();
    for path in list.lines().filter(|l| !l.is_empty()) {
        match std::fs::read(path) {
            // The same lossy decoding as `pcl parse`; the peers also reject invalid UTF-8.
            Ok(bytes) => sources.push(String::from_utf8_lossy(&bytes).into_owned()),
            Err(e) => {
                eprint!(
                    "{}",
                    crate::term::error_line(cannot_read(path, io_reason(&e)))
                );
                return ExitCode::from(2);
            }
        }
    }
    let total: usize = sources.iter().map(String::len).sum();
    let rejected = sources
        .iter()
        .filter(|s| pcl_syntax::parse(s).has_errors())
        .count();
    let parse_one = |source: &str| {
        if args.tree {
            std::hint::black_box(pcl_syntax::parse(source));
        } else {
            std::hint::black_box(pcl_syntax::syntax_errors(source));
        }
    };
    let iters = args.iters.max(1);
    let mut best = Duration::MAX;
    let mut sum = Duration::ZERO;
    for _ in 0..iters {
        let start = Instant::now();
        for source in &sources {
            parse_one(source);
        }
        let elapsed = start.elapsed();
        sum += elapsed;
        best = best.min(elapsed);
    }
    let mean = sum / iters;
    let mb = total as f64 / 1e6;
    println!(
        "parser={} files={} bytes={total} rejected={rejected} iters={iters} best_s={:.4} mean_s={:.4} best_MBps={:.2} mean_MBps={:.2}",
        if args.tree { "pcl-tree" } else { "pcl" },
        sources.len(),
        best.as_secs_f64(),
        mean.as_secs_f64(),
        mb / best.as_secs_f64(),
        mb / mean.as_secs_f64()
    );
    ExitCode::SUCCESS
}
