//! Formatting throughput over a list of files, in the output format of the `go-hclfmt` anchor, so
//! that both run over the same list in one session (docs/benchmarks.md).
//!
//! usage: cargo run --release -p pcl-fmt --example fmtbench -- [--iters N] [--out DIR] LISTFILE
//! With `--out`, each file's formatted text is written to DIR/<its path as listed>.

use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut iters = 3;
    let mut out_dir = None;
    let mut list = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--iters" => iters = args.next().and_then(|n| n.parse().ok()).unwrap_or(3),
            "--out" => out_dir = args.next(),
            _ => list = Some(arg),
        }
    }
    let Some(list) = list else {
        eprintln!("usage: fmtbench [--iters N] [--out DIR] LISTFILE");
        std::process::exit(2);
    };
    let list = std::fs::read_to_string(&list).expect("list file");
    let mut files = Vec::new();
    for name in list.lines().filter(|l| !l.is_empty()) {
        let bytes = std::fs::read(name).expect("listed file");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        files.push((name.to_string(), text));
    }
    let total: usize = files.iter().map(|(_, t)| t.len()).sum();
    let mut changed = 0;
    for (name, text) in &files {
        let formatted = match pcl_fmt::format(text) {
            Ok(formatted) => formatted,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        changed += usize::from(formatted.text != *text);
        if let Some(dir) = &out_dir {
            let dst = Path::new(dir).join(name.trim_start_matches('/'));
            std::fs::create_dir_all(dst.parent().expect("parent")).expect("mkdir");
            std::fs::write(&dst, &formatted.text).expect("write");
        }
    }
    let mut best = Duration::MAX;
    let mut sum = Duration::ZERO;
    for _ in 0..iters {
        let start = Instant::now();
        for (_, text) in &files {
            let _ = std::hint::black_box(pcl_fmt::format(text));
        }
        let took = start.elapsed();
        sum += took;
        best = best.min(took);
    }
    let mb = total as f64 / 1e6;
    let mean = sum.as_secs_f64() / iters.max(1) as f64;
    println!(
        "formatter=pcl-fmt files={} bytes={total} changed={changed} iters={iters} best_s={:.4} mean_s={mean:.4} best_MBps={:.2} mean_MBps={:.2}",
        files.len(),
        best.as_secs_f64(),
        mb / best.as_secs_f64(),
        mb / mean,
    );
}
