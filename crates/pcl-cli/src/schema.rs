//! `pcl schema check` and `pcl schema show`.

use std::process::ExitCode;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum SchemaCommand {
    /// Load schema files and report every problem in them.
    Check,
}

pub fn run(cmd: SchemaCommand) -> ExitCode {
    match cmd {
        SchemaCommand::Check => {
            eprintln!("error: `pcl schema check` is being built");
            ExitCode::from(2)
        }
    }
}
