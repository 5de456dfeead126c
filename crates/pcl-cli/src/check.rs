//! `pcl check [--schemas DIR]... [--lenient] [--format human|json] [--emit-types] PATH...`:
//! check programs (a `.pp` file, or a directory whose `.pp` files form one program, with the
//! programs of its components) against package schemas, and report.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use pcl_db::{CheckOptions, RootDatabase};
use pcl_diagnostics::{Code, Severity};

use crate::render::Renderer;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-style diagnostics with source lines and carets, and a summary (on stderr).
    Human,
    /// One JSON object per diagnostic per line (on stdout).
    Json,
}

#[derive(Args)]
pub struct CheckArgs {
    /// A directory of package schemas named NAME-VERSION.json (as `pulumi package
    /// get-schema` writes them). May be given several times; searched before
    /// $PCL_SCHEMA_PATH and ~/.pcl/schemas.
    #[arg(long = "schemas", value_name = "DIR")]
    schemas: Vec<PathBuf>,
    /// For programs whose schemas are not all available: unknown packages and resources,
    /// unsupported and missing properties and mismatched inputs are warnings.
    #[arg(long)]
    lenient: bool,
    /// How diagnostics are printed.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// After the diagnostics, print each top-level node as `name: type` (with `--format
    /// json`: `{"node", "kind", "type"}` objects).
    #[arg(long)]
    emit_types: bool,
    /// Programs to check: `.pp` files (each a program of one file) or directories (the
    /// `.pp` files directly inside form one program; a Pulumi.yaml's `main:` is honoured).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

pub fn run(args: CheckArgs) -> ExitCode {
    // A check runs once and exits (its database is never dropped either): names need no
    // counts, which both threads would otherwise write for every name a program repeats.
    pcl_hir::Name::never_free();
    // Nor types: both threads copy the handles of the same schema types.
    pcl_types::never_free();
    // Standard error is locked only after the progress bar is gone: the bar's tick thread
    // writes to it, and a lock held across the run hung every check big enough for a bar on a
    // terminal.
    let mut db = RootDatabase::checking_once();
    db.set_options(CheckOptions {
        lenient: args.lenient,
    });
    let dirs = match pcl_project::SchemaSearch::new(args.schemas.clone()).dirs() {
        Ok(dirs) => dirs,
        Err(pcl_project::NotADirectory(dir)) => {
            eprint!(
                "{}",
                crate::term::error_line(format_args!(
                    "`--schemas {}`: not a directory",
                    dir.display()
                ))
            );
            return ExitCode::from(2);
        }
    };
    pcl_project::use_schema_dirs(&mut db, dirs);

    let mut io_errors = 0usize;
    let mut loaded = Vec::new();
    let mut loader = pcl_project::Loader::new();
    for path in &args.paths {
        // A path that cannot be read is reported in the words of every command.
        if let Err(message) = crate::inputs::readable(path) {
            eprint!("{}", crate::term::error_line(message));
            io_errors += 1;
            continue;
        }
        // Loading stops at its first error, so a path's warnings come before its error.
        let programs = loader.load(&mut db, path);
        for warning in &programs.warnings {
            eprint!("{}", crate::term::warning_line(warning));
        }
        for error in &programs.errors {
            eprint!("{}", crate::term::error_line(error));
            io_errors += 1;
        }
        loaded.extend(programs.programs);
    }

    let total_nodes: usize = loaded
        .iter()
        .map(|&program| pcl_sema::node_count(&db, program))
        .sum();
    let progress = progress_bar(total_nodes);
    let mut reports = Vec::new();
    for &program in &loaded {
        let tick = |n: usize| {
            if let Some(bar) = &progress {
                bar.inc(n as u64);
            }
        };
        pcl_sema::infer_program_parallel(&db, program, &tick);
        let types = if args.emit_types {
            pcl_sema::NodeTypes::Listed
        } else {
            pcl_sema::NodeTypes::Omitted
        };
        reports.push(pcl_sema::program_report(&db, program, types));
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();

    let mut errors = 0;
    let mut warnings = 0;
    for report in &reports {
        // Every file's text, for excerpts of related locations in other files: borrowed
        // from the database (a copy was the size of the program, 48 MB at 100k resources).
        let texts: Vec<(String, &str)> = report
            .files
            .iter()
            .map(|f| {
                let text = db.files().get(&f.path).map_or("", |s| s.text(&db).as_ref());
                (f.path.display().to_string(), text)
            })
            .collect();
        let lookup = |name: &str| texts.iter().find(|(p, _)| p == name).map(|(_, t)| *t);
        for (file, (path_text, text)) in report.files.iter().zip(&texts) {
            let mut renderer = Renderer::new(path_text, text)
                .with_other_files(&lookup)
                .with_palette(crate::term::stderr_palette());
            for diagnostic in &file.diagnostics {
                let with_hint;
                let diagnostic = if diagnostic.code == Code::UnknownPackage && !args.lenient {
                    // The library's help says how to get the schema; only here is there a
                    // flag to check without it.
                    with_hint = diagnostic.clone().with_help(
                        "to check the rest of the program without this schema, run with \
                         `--lenient` (its resources are then `dynamic`)",
                    );
                    &with_hint
                } else {
                    diagnostic
                };
                match diagnostic.severity {
                    Severity::Error => errors += 1,
                    Severity::Warning => warnings += 1,
                }
                match args.format {
                    Format::Human => {
                        let _ = err.write_all(renderer.render(diagnostic).as_bytes());
                    }
                    Format::Json => {
                        let _ = out.write_all(renderer.render_json(diagnostic).as_bytes());
                    }
                }
            }
        }
    }
    if args.emit_types {
        for report in &reports {
            for line in &report.types {
                match args.format {
                    Format::Human => {
                        let _ = writeln!(out, "{}: {}", line.name, line.ty);
                    }
                    // One object per node, so that the output stays one JSON value per line.
                    Format::Json => {
                        let object = serde_json::json!({
                            "object": "node",
                            "version": crate::render::JSON_VERSION,
                            "node": line.name,
                            "kind": line.kind.keyword(),
                            "type": line.ty,
                        });
                        let _ = writeln!(out, "{object}");
                    }
                }
            }
        }
    }
    if args.format == Format::Json {
        let files: usize = reports.iter().map(|r| r.files.len()).sum();
        let summary = serde_json::json!({
            "object": "summary",
            "version": crate::render::JSON_VERSION,
            "programs": reports.len(),
            "files": files,
            "errors": errors,
            "warnings": warnings,
            "io_errors": io_errors,
        });
        let _ = writeln!(out, "{summary}");
    }
    if errors + warnings > 0 && args.format == Format::Human {
        let plural = pcl_diagnostics::style::count;
        let summary = match (errors, warnings) {
            (0, w) => plural(w, "warning"),
            (e, 0) => plural(e, "error"),
            (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
        };
        let _ = writeln!(err, "{summary}");
    }
    // Freeing every memoized result one by one takes longer than the process's exit.
    std::mem::forget(reports);
    std::mem::forget(db);
    if io_errors > 0 {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A progress bar on stderr for checks big enough to take a moment, when stderr is a
/// terminal (never in pipes, files or CI logs).
fn progress_bar(nodes: usize) -> Option<indicatif::ProgressBar> {
    if nodes < 5_000 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(nodes as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} checking {pos}/{len} nodes {wide_bar} {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(100));
    Some(bar)
}
