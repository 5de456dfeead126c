//! The `pcl` command-line tool. Each subcommand lives in its own module; this file only dispatches.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// mimalloc: a fifth of a check's instructions went to glibc's malloc and free (small,
/// short-lived type and tree allocations on two threads). Its entry points and options: `pcl-alloc`. The
/// `system-alloc` feature keeps the system allocator, for heap profilers that hook `malloc`
/// (heaptrack: `docs/benchmarks.md`).
#[cfg(not(feature = "system-alloc"))]
#[global_allocator]
static ALLOCATOR: pcl_alloc::Mimalloc = pcl_alloc::Mimalloc;

mod bench;
mod check;
mod fmt;
mod inputs;
mod parse;
mod render;
mod replace;
mod schema;
mod term;
mod walk;

const EXAMPLES: &str = "\
Examples:
  pcl check .                          Check the program in this directory
  pcl check --schemas ./schemas main.pp
                                       Check against package schemas in ./schemas
  pcl check --format json . | jq .     Diagnostics as JSON lines (docs/json.md)
  pcl fmt .                            Format every .pp file below this directory
  pcl fmt --check .                    Fail when a file is not formatted (for CI)
  pcl parse - < main.pp                Report the syntax errors of standard input
  pcl completions bash > ~/.local/share/bash-completion/completions/pcl

Exit status:
  0  no errors
  1  problems found: errors in a program or a schema, syntax errors, files that `fmt --check`
     would change
  2  usage or I/O errors: bad arguments, files that cannot be read or written

Colour: --color auto|always|never; with auto, NO_COLOR turns colour off and CLICOLOR_FORCE on.";

#[derive(Parser)]
#[command(
    name = "pcl",
    version = env!("PCL_LONG_VERSION"),
    about = "Pulumi PCL compiler frontend: check, format and parse PCL programs",
    after_help = EXAMPLES
)]
struct Cli {
    /// When to colour diagnostics on standard error.
    #[arg(long, value_enum, global = true, default_value_t = term::ColorChoice::Auto, value_name = "WHEN")]
    color: term::ColorChoice,
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
    /// Print a completion script for a shell (bash, zsh, fish, powershell or elvish).
    #[command(after_help = "\
Install, for example:
  bash:  pcl completions bash > ~/.local/share/bash-completion/completions/pcl
  zsh:   pcl completions zsh > ~/.zfunc/_pcl   (with fpath+=~/.zfunc in ~/.zshrc)
  fish:  pcl completions fish > ~/.config/fish/completions/pcl.fish")]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// `--color` as written on the command line, read before clap parses it, so that clap's own
/// help and errors follow it too.
fn color_flag(args: &[std::ffi::OsString]) -> term::ColorChoice {
    let mut choice = term::ColorChoice::Auto;
    let mut iter = args.iter().skip(1).filter_map(|a| a.to_str());
    while let Some(arg) = iter.next() {
        let value = match arg.strip_prefix("--color") {
            Some("") => iter.next(),
            Some(rest) => rest.strip_prefix('='),
            None if arg == "--" => break,
            None => continue,
        };
        match value {
            Some("always") => choice = term::ColorChoice::Always,
            Some("never") => choice = term::ColorChoice::Never,
            Some("auto") => choice = term::ColorChoice::Auto,
            _ => {}
        }
    }
    choice
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let early_color = color_flag(&args);
    term::init(early_color);
    let clap_color = match early_color {
        term::ColorChoice::Always => clap::ColorChoice::Always,
        term::ColorChoice::Never => clap::ColorChoice::Never,
        term::ColorChoice::Auto if term::stderr_palette().reset.is_empty() => {
            clap::ColorChoice::Never
        }
        term::ColorChoice::Auto => clap::ColorChoice::Auto,
    };
    let parsed = Cli::command()
        .color(clap_color)
        .try_get_matches_from(&args)
        .and_then(|mut matches| Cli::from_arg_matches_mut(&mut matches));
    let cli = match parsed {
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
    term::init(cli.color);
    if matches!(cli.command, Command::Parse(_) | Command::Fmt(_)) {
        pcl_alloc::streaming();
    }
    match cli.command {
        Command::Parse(args) => parse::run(args),
        Command::Check(args) => check::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Bench(cmd) => bench::run(cmd),
        Command::Schema(cmd) => schema::run(cmd),
        Command::Lsp => ExitCode::from(pcl_lsp::run_stdio().clamp(0, 255) as u8),
        Command::Completions { shell } => {
            let mut command = Cli::command();
            clap_complete::generate(shell, &mut command, "pcl", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
    }
}
