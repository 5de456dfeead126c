//! The `pcl` command-line tool. Each subcommand lives in its own module; this file only dispatches.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc: a fifth of a check's instructions went to glibc's malloc and free (small,
/// short-lived type and tree allocations on two threads).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod bench;
mod check;
mod fmt;
mod inputs;
mod parse;
mod render;
mod replace;
mod schema;
mod walk;

#[derive(Parser)]
#[command(name = "pcl", version, about = "Pulumi PCL compiler frontend")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse files and report syntax errors (exit status 1 if any).
    Parse(parse::ParseArgs),
    /// Check programs: syntax, names, types (exit status 1 if there are errors).
    Check(check::CheckArgs),
    /// Format files in the canonical HCL layout (that of `terraform fmt`), in place.
    Fmt(fmt::FmtArgs),
    /// Benchmarks, printed in the format of the peer-parser anchors.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Load, validate and inspect Pulumi package schemas.
    #[command(subcommand)]
    Schema(schema::SchemaCommand),
    /// Run the language server (the Language Server Protocol on standard input and output).
    Lsp,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr; usage errors
            // exit 2, the status for usage and I/O errors throughout the tool.
            let _ = err.print();
            return if err.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Parse(args) => parse::run(args),
        Command::Check(args) => check::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Bench(cmd) => bench::run(cmd),
        Command::Schema(cmd) => schema::run(cmd),
        Command::Lsp => ExitCode::from(pcl_lsp::run_stdio().clamp(0, 255) as u8),
    }
}
