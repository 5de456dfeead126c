//! `pcl schema check` and `pcl schema show`: arguments, loading, error reporting and exit
//! statuses. The descriptions themselves are `pcl_schema::describe`'s.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use pcl_diagnostics::style::count;
use pcl_diagnostics::Severity;
use pcl_schema::token::{closest_tokens, package_of_token};
use pcl_schema::{
    check_package, describe, has_errors, load_schema_file, LoadError, Package, SchemaRegistry,
};

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
        SchemaCommand::Check { schemas, files } => run_check(&schemas, &files, &mut err),
        SchemaCommand::Show {
            schemas,
            list,
            tokens,
        } => {
            let registry = SchemaRegistry::from_dirs(&schemas);
            for d in registry.scan_diagnostics() {
                let _ = err.write_all(schema_line(d).as_bytes());
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
            let _ = err.write_all(
                crate::term::error_line(format_args!("cannot write the output: {e}")).as_bytes(),
            );
            ExitCode::from(Outcome::UsageOrIo.exit_code())
        }
    }
}

/// How a command ended, mapped to the exit status by the CLI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Exit 0.
    Ok,
    /// Exit 1: a schema has errors, or a token or package is unknown.
    Problems,
    /// Exit 2: usage or I/O error.
    UsageOrIo,
}

impl Outcome {
    fn exit_code(self) -> u8 {
        match self {
            Outcome::Ok => 0,
            Outcome::Problems => 1,
            Outcome::UsageOrIo => 2,
        }
    }
}

/// `pcl schema check`: checks `files`, or every schema file of `dirs` if no file is named.
/// Writes each problem as `file: /json/path: severity: message`, then a summary, to `err`
/// (where `pcl check` writes its diagnostics too).
fn run_check(dirs: &[PathBuf], files: &[PathBuf], err: &mut dyn Write) -> io::Result<Outcome> {
    if dirs.is_empty() && files.is_empty() {
        err.write_all(
            crate::term::error_line("name schema files, or directories with `--schemas`")
                .as_bytes(),
        )?;
        return Ok(Outcome::UsageOrIo);
    }
    let registry = SchemaRegistry::from_dirs(dirs);
    let mut io_error = false;
    for d in registry.scan_diagnostics() {
        err.write_all(schema_line(d).as_bytes())?;
        io_error = true;
    }
    let targets: Vec<PathBuf> = if files.is_empty() {
        registry.files().map(|f| f.path.clone()).collect()
    } else {
        files.to_vec()
    };
    let (mut errors, mut warnings, mut failed) = (0, 0, 0);
    for path in &targets {
        let diagnostics = match load_schema_file(path) {
            Ok(package) => check_package(&package, &registry),
            Err(diagnostics) => {
                if !path.is_file() {
                    io_error = true;
                }
                diagnostics
            }
        };
        for d in &diagnostics {
            err.write_all(schema_line(d).as_bytes())?;
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
        }
        if has_errors(&diagnostics) {
            failed += 1;
        }
    }
    writeln!(
        err,
        "checked {}: {failed} with errors ({}, {})",
        count(targets.len(), "schema file"),
        count(errors, "error"),
        count(warnings, "warning"),
    )?;
    Ok(if io_error {
        Outcome::UsageOrIo
    } else if failed > 0 {
        Outcome::Problems
    } else {
        Outcome::Ok
    })
}

/// `pcl schema show TOKEN...`: describes each token as a program sees it.
fn run_show(
    registry: &SchemaRegistry,
    tokens: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<Outcome> {
    let mut outcome = Outcome::Ok;
    let mut shown = 0;
    for token in tokens {
        let Some(package) = load_package_for(registry, token, err)? else {
            outcome = Outcome::Problems;
            continue;
        };
        match package.lookup_any(token) {
            Ok(found) => {
                if shown > 0 {
                    writeln!(out)?;
                }
                shown += 1;
                out.write_all(describe(registry, &package, &found).as_bytes())?;
            }
            Err(unknown) => {
                err.write_all(crate::term::error_line(unknown.message()).as_bytes())?;
                if let Some(help) = unknown.help() {
                    err.write_all(crate::term::help_line(help).as_bytes())?;
                }
                outcome = Outcome::Problems;
            }
        }
    }
    Ok(outcome)
}

/// `pcl schema show --list PACKAGE`: every token of a package, as programs write them.
fn run_list(
    registry: &SchemaRegistry,
    package_name: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<Outcome> {
    let package = match registry.package(package_name, None) {
        Ok(p) => p,
        Err(e) => {
            report_load_error(registry, package_name, &e, err)?;
            return Ok(Outcome::Problems);
        }
    };
    header(&package, out)?;
    writeln!(out, "resources:")?;
    if package.has_provider() {
        writeln!(out, "  {}", package.provider_token())?;
    }
    for token in package.resource_tokens() {
        writeln!(out, "  {}", package.canonicalize(token))?;
    }
    writeln!(out, "functions:")?;
    for token in package.function_tokens() {
        writeln!(out, "  {}", package.canonicalize(token))?;
    }
    writeln!(out, "types:")?;
    for token in package.type_tokens() {
        writeln!(out, "  {}", package.canonicalize(token))?;
    }
    Ok(Outcome::Ok)
}

fn load_package_for(
    registry: &SchemaRegistry,
    token: &str,
    err: &mut dyn Write,
) -> io::Result<Option<std::sync::Arc<Package>>> {
    let Some(name) = package_of_token(token) else {
        err.write_all(
            crate::term::error_line(format_args!(
                "malformed token `{token}`: expected `pkg:module:member` or `pkg:member`"
            ))
            .as_bytes(),
        )?;
        return Ok(None);
    };
    match registry.package(name, None) {
        Ok(p) => Ok(Some(p)),
        Err(e) => {
            report_load_error(registry, name, &e, err)?;
            Ok(None)
        }
    }
}

fn report_load_error(
    registry: &SchemaRegistry,
    name: &str,
    error: &LoadError,
    err: &mut dyn Write,
) -> io::Result<()> {
    err.write_all(crate::term::error_line(error).as_bytes())?;
    if let LoadError::NotFound { .. } = error {
        let mut names: Vec<&str> = registry.files().map(|f| f.name.as_str()).collect();
        names.dedup();
        let close = closest_tokens(&[name], names, 3);
        if !close.is_empty() {
            let close: Vec<String> = close.iter().map(|c| format!("`{c}`")).collect();
            err.write_all(
                crate::term::help_line(format_args!(
                    "packages with close names: {}",
                    close.join(", ")
                ))
                .as_bytes(),
            )?;
        }
    }
    Ok(())
}

/// A schema problem as `pcl schema` prints it: `file: /json/path: severity: message`.
fn schema_line(d: &pcl_schema::SchemaDiagnostic) -> String {
    let p = crate::term::stderr_palette();
    let (style, label) = match d.severity {
        Severity::Error => (p.error, "error"),
        Severity::Warning => (p.warning, "warning"),
    };
    let place = if d.file.is_empty() {
        format!("{}:", d.path)
    } else {
        format!("{}: {}:", d.file, d.path)
    };
    format!(
        "{} {}{}\n",
        p.paint(p.bold, place),
        p.paint(style, label),
        p.paint(p.bold, format_args!(": {}", d.message))
    )
}

fn header(package: &Package, out: &mut dyn Write) -> io::Result<()> {
    let version = package.version().unwrap_or("(no version)");
    writeln!(
        out,
        "package {} {version} ({})",
        package.name(),
        package.file()
    )
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
