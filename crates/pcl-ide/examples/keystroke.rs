//! What an editor's keystroke costs through the analysis API, on a program from `pcl-progen`:
//! the cold check, then edits of a literal in one open file, each followed by a hover, a
//! completion and the edited file's diagnostics (the order an editor asks in), and every
//! `--full-every` edits the diagnostics of every file. Prints percentiles and the ratios to
//! the cold check, and the resident memory before and after the edits.
//!
//! ```sh
//! cargo run --release -p pcl-ide --example keystroke -- \
//!     --resources 10000 --edits 200 --schemas SCHEMA_DIR
//! ```
//! (`SCHEMA_DIR` holds kubernetes-3.7.2.json and random-4.11.2.json from the
//! corpus, as in `docs/benchmarks.md`.)

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pcl_ide::{AnalysisHost, Change, FilePosition, TextSize};
use pcl_test_support::measure;

struct Args {
    resources: usize,
    edits: usize,
    full_every: usize,
    /// A directory with kubernetes-3.7.2.json and random-4.11.2.json.
    schemas: Option<PathBuf>,
}

fn parse_args() -> Args {
    let mut args = Args {
        resources: 10_000,
        edits: 200,
        full_every: 50,
        schemas: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--resources" => args.resources = value.parse().expect("a number"),
            "--edits" => args.edits = value.parse().expect("a number"),
            "--full-every" => args.full_every = value.parse().expect("a number"),
            "--schemas" => args.schemas = Some(PathBuf::from(value)),
            _ => panic!("unknown flag {flag}"),
        }
    }
    if args.schemas.is_none() {
        eprintln!(
            "--schemas DIR is required: a directory with kubernetes-3.7.2.json and random-4.11.2.json from the corpus (docs/benchmarks.md)"
        );
        std::process::exit(2);
    }
    args
}

fn rss_mb() -> f64 {
    measure::resident_mb(None)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let args = parse_args();
    let dir = std::env::temp_dir().join(format!("pcl-keystroke-{}", args.resources));
    let program = pcl_progen::generate(&pcl_progen::Options {
        resources: args.resources,
        files: None,
        seed: 1,
    });
    program.write_to(&dir, true).expect("write the program");
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(args.schemas.iter().cloned().collect());

    let start = Instant::now();
    let problems = host.load_program(&dir);
    assert!(problems.is_empty(), "{problems:?}");
    let all = host.analysis().workspace_diagnostics().unwrap();
    let cold = start.elapsed();
    let files = all.len();
    let errors: usize = all.iter().map(|(_, d)| d.len()).sum();
    println!(
        "program: {} resources, {files} files, {errors} diagnostics; cold load and check {:.0} ms; {:.0} MB",
        args.resources,
        ms(cold),
        rss_mb()
    );

    // The file being edited: the first one, opened in the editor.
    let path: PathBuf = dir.join(&program.files[0].path);
    let mut text = std::fs::read_to_string(&path).unwrap();
    let mut change = Change::new();
    change.set_file_text(path.clone(), text.clone());
    host.apply_change(change);
    host.analysis().diagnostics(&path).unwrap();

    // Where the literal is, where to hover (a resource's name) and where to complete (the
    // value of a resource's first attribute: every name in scope and the builtins).
    let literal = text.find("LOG_LEVEL = \"").expect("a literal") + "LOG_LEVEL = \"".len();
    let hover_at = text.find("resource ").expect("a resource") + "resource ".len() + 1;
    let first_attr = hover_at + text[hover_at..].find("\n  ").expect("an attribute") + 3;
    let complete_at = first_attr + text[first_attr..].find("= ").expect("a value") + 2;
    let position = |offset: usize| FilePosition {
        file: path.clone(),
        offset: TextSize::from(offset as u32),
    };

    let rss_before = rss_mb();
    let (mut hovers, mut completions, mut diagnostics, mut full) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for edit in 0..args.edits {
        // Toggle one character of the literal (`info` ↔ `infp`): same length, so every
        // other position stays put.
        let c = if edit % 2 == 0 { "p" } else { "o" };
        text.replace_range(literal + 3..literal + 4, c);
        let mut change = Change::new();
        change.set_file_text(path.clone(), text.clone());
        host.apply_change(change);
        let analysis = host.analysis();

        let t = Instant::now();
        analysis.hover(&position(hover_at)).unwrap();
        hovers.push(t.elapsed());
        let t = Instant::now();
        let items = analysis.completions(&position(complete_at)).unwrap();
        completions.push(t.elapsed());
        assert!(!items.items.is_empty(), "no completion at {complete_at}");
        let t = Instant::now();
        analysis.diagnostics(&path).unwrap();
        diagnostics.push(t.elapsed());
        if (edit + 1) % (args.edits / 10).max(1) == 0 {
            eprintln!("after {} edits: {:.0} MB", edit + 1, rss_mb());
        }
        if args.full_every > 0 && edit % args.full_every == 0 {
            let t = Instant::now();
            analysis.workspace_diagnostics().unwrap();
            full.push(t.elapsed());
        }
    }
    let rss_after = rss_mb();
    for (name, samples) in [
        ("hover after an edit", &mut hovers),
        ("completion after an edit", &mut completions),
        ("edited file's diagnostics", &mut diagnostics),
        ("all files' diagnostics", &mut full),
    ] {
        if samples.is_empty() {
            continue;
        }
        let p50 = measure::percentile_ms(samples, 0.5);
        let p99 = measure::percentile_ms(samples, 0.99);
        println!(
            "{name}: p50 {p50:.2} ms, p99 {p99:.2} ms ({:.2}% of the cold check at p50)",
            100.0 * p50 / ms(cold)
        );
    }
    println!(
        "memory: {rss_before:.0} MB before {} edits, {rss_after:.0} MB after",
        args.edits
    );
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}
