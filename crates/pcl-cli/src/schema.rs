//! `pcl schema check` and `pcl schema show`: argument parsing only; the work is done by
//! `pcl_schema::{run_check, run_show, run_list}`.

use std::io::{self, Write};
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

/// Runs a `pcl schema` command.
///
/// Output goes through two forgiving writers: stdout stops quietly when its reader goes away
/// (`pcl schema show ... | head -1`), and stderr ignores every write error, so a closed pipe never
/// panics or turns into an error message. After stdout closes, the command still runs to the
/// end (its output discarded), so the exit status is the one it would have had.
pub fn run(cmd: SchemaCommand) -> ExitCode {
    let mut out = QuietOnClosedPipe {
        inner: std::io::stdout().lock(),
        closed: false,
    };
    let mut err = IgnoreErrors(std::io::stderr().lock());
    let result = match cmd {
        SchemaCommand::Check { schemas, files } => run_check(&schemas, &files, &mut out, &mut err),
        SchemaCommand::Show {
            schemas,
            list,
            tokens,
        } => {
            let registry = SchemaRegistry::from_dirs(&schemas);
            for d in registry.scan_diagnostics() {
                let _ = writeln!(err, "error: {d}");
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
    let result = result.and_then(|outcome| out.flush().map(|()| outcome));
    match result {
        Ok(outcome) => ExitCode::from(outcome.exit_code()),
        Err(e) => {
            // Writing to stdout failed for another reason than a closed pipe (a full disk).
            let _ = writeln!(err, "error: cannot write the output: {e}");
            ExitCode::from(Outcome::UsageOrIo.exit_code())
        }
    }
}

/// Stdout that treats a closed pipe as the end of the output: the write that finds the pipe
/// closed and every later one succeed without writing anything. Other errors are returned.
struct QuietOnClosedPipe<W: Write> {
    inner: W,
    closed: bool,
}

impl<W: Write> Write for QuietOnClosedPipe<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        match self.inner.write(buf) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(buf.len())
            }
            other => other,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match self.inner.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

/// Stderr that never fails: there is nowhere left to report a failure to write a diagnostic.
struct IgnoreErrors<W: Write>(W);

impl<W: Write> Write for IgnoreErrors<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _ = self.0.write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = self.0.flush();
        Ok(())
    }
}
