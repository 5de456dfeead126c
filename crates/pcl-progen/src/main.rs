//! `pcl-progen --resources N [--files F] [--seed S] [--overwrite] OUT_DIR`: writes a generated
//! PCL program (see the crate documentation of `pcl_progen`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "pcl-progen",
    about = "Generate a large, deterministic, schema-valid PCL program (kubernetes 3.7.2 + random 4.11.2)"
)]
struct Args {
    /// Number of `resource` blocks in the main program.
    #[arg(long)]
    resources: usize,
    /// Number of `.pp` files of the main program (default: max(1, resources / 500)).
    #[arg(long)]
    files: Option<usize>,
    /// Seed of the generator; the same arguments always give the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Replace `.pp` files already in OUT_DIR (and its component directory).
    #[arg(long)]
    overwrite: bool,
    /// Output directory: the program's files, and the component in `components/app/`.
    out_dir: PathBuf,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let options = pcl_progen::Options {
        resources: args.resources,
        files: args.files,
        seed: args.seed,
    };
    let start = Instant::now();
    let program = pcl_progen::generate(&options);
    let generated = start.elapsed();
    if let Err(err) = program.write_to(&args.out_dir, args.overwrite) {
        eprintln!("pcl-progen: {}: {err}", args.out_dir.display());
        return ExitCode::from(2);
    }
    let total = start.elapsed();
    let s = &program.stats;
    eprintln!(
        "pcl-progen: {} resources ({} ranged), {} locals, {} configs, {} outputs, {} components in {} files + {} component files; {} bytes; generated in {:.1} ms, written in {:.1} ms",
        s.resources,
        s.ranged_resources,
        s.locals,
        s.configs,
        s.outputs,
        s.components,
        program.files.len(),
        program.component_files.len(),
        s.bytes,
        generated.as_secs_f64() * 1e3,
        (total - generated).as_secs_f64() * 1e3,
    );
    ExitCode::SUCCESS
}
