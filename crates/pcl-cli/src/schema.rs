//! `pcl schema check` and `pcl schema show`: argument parsing only; the work is done by
//! `pcl_schema::{run_check, run_show, run_list}`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use pcl_schema::{run_check, run_list, run_show, Outcome, SchemaRegistry};

#[derive(Subcommand)]
pub enum SchemaCommand {
    /// Load schema files and report every problem in them (exit 1 if any has an error).
    Check {
        /// A directory of NAME-VERSION.json schema files (repeatable). Without FILEs, every
        /// schema in these directories is checked; with FILEs, they resolve cross-package
        /// references.
        #[arg(long = "schemas", value_name = "DIR")]
        schemas: Vec<PathBuf>,
        /// Schema files to check.
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Describe resources, functions and types as a program sees them.
    Show {
        /// A directory of NAME-VERSION.json schema files (repeatable).
        #[arg(long = "schemas", value_name = "DIR")]
        schemas: Vec<PathBuf>,
        /// List every token of this package instead.
        #[arg(long = "list", value_name = "PACKAGE", conflicts_with = "tokens")]
        list: Option<String>,
        /// Tokens such as `aws:s3:Bucket`, `random::RandomPet` or `kubernetes:core/v1:Pod`.
        #[arg(value_name = "TOKEN", required_unless_present = "list")]
        tokens: Vec<String>,
    },
}

pub fn run(cmd: SchemaCommand) -> ExitCode {
    let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr().lock());
    let result = match cmd {
        SchemaCommand::Check { schemas, files } => run_check(&schemas, &files, &mut out, &mut err),
        SchemaCommand::Show {
            schemas,
            list,
            tokens,
        } => {
            let registry = SchemaRegistry::from_dirs(&schemas);
            for d in registry.scan_diagnostics() {
                eprintln!("error: {d}");
            }
            if !registry.scan_diagnostics().is_empty() {
                return ExitCode::from(Outcome::UsageOrIo.exit_code());
            }
            match list {
                Some(package) => run_list(&registry, &package, &mut out, &mut err),
                None => run_show(&registry, &tokens, &mut out, &mut err),
            }
        }
    };
    match result {
        Ok(outcome) => ExitCode::from(outcome.exit_code()),
        Err(e) => {
            // Writing to stdout failed (e.g. a closed pipe).
            eprintln!("error: {e}");
            ExitCode::from(Outcome::UsageOrIo.exit_code())
        }
    }
}
