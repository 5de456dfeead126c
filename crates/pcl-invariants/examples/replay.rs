//! Runs one fuzz target's checks on saved inputs, without the nightly toolchain: to reproduce,
//! time or profile what a fuzzer found.
//!
//! ```text
//! cargo run --release -p pcl-invariants --example replay -- TARGET FILE...
//! ```

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((target, files)) = args.split_first() else {
        eprintln!(
            "usage: replay TARGET FILE...  (targets: {})",
            pcl_invariants::targets::TARGETS.join(", ")
        );
        std::process::exit(2);
    };
    for file in files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let start = Instant::now();
        pcl_invariants::targets::run(target, &data);
        println!("{file}: ok in {:.3} s", start.elapsed().as_secs_f64());
    }
}
