//! `pcl check [--schemas DIR]... [--lenient] [--format human|json] [--emit-types] PATH...`:
//! check programs (a `.pp` file, or a directory whose `.pp` files form one program, with the
//! programs of its components) against package schemas, and report.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use pcl_db::{CheckOptions, RootDatabase};
use pcl_diagnostics::{Diagnostic, Severity};

use crate::files::read_source;
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

/// The schema directories: those given, then `$PCL_SCHEMA_PATH`, then `~/.pcl/schemas`.
fn schema_dirs(given: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut dirs = Vec::new();
    for dir in given {
        if !dir.is_dir() {
            return Err(format!("--schemas {}: not a directory", dir.display()));
        }
        dirs.push(dir.clone());
    }
    if let Some(path) = std::env::var_os("PCL_SCHEMA_PATH") {
        dirs.extend(std::env::split_paths(&path).filter(|d| d.is_dir()));
    }
    if let Some(home) = std::env::var_os("HOME") {
        let default = Path::new(&home).join(".pcl").join("schemas");
        if default.is_dir() {
            dirs.push(default);
        }
    }
    Ok(dirs)
}

struct LoadedProgram {
    program: pcl_db::Program,
    /// Files whose bytes were not UTF-8: where the first bad byte is.
    encoding_errors: Vec<(PathBuf, pcl_syntax::TextRange)>,
}

fn pp_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .and_then(|entries| entries.map(|e| e.map(|e| e.path())).collect())
        .map_err(|e| format!("cannot read directory {}: {e}", dir.display()))?;
    files.retain(|p| p.extension().is_some_and(|e| e == "pp"));
    files.retain(|p| match crate::files::regular_entry(p) {
        Ok(regular) => regular,
        Err(warning) => {
            eprintln!("warning: {warning}");
            false
        }
    });
    files.sort();
    Ok(files)
}

fn load(db: &mut RootDatabase, root: &Path, files: &[PathBuf]) -> Result<LoadedProgram, String> {
    let mut inputs = Vec::new();
    let mut encoding_errors = Vec::new();
    for file in files {
        let source = read_source(file)?;
        if let Some(range) = source.encoding_error {
            encoding_errors.push((file.clone(), range));
        }
        inputs.push(db.set_file_text(file, source.text));
    }
    let program = db.set_program_files(root, inputs);
    Ok(LoadedProgram {
        program,
        encoding_errors,
    })
}

/// The directories loaded so far, by their canonical path (symbolic links resolved): a
/// directory reached again through a link is registered as another name of the program
/// already loaded there, never loaded twice, so links that loop end at once.
#[derive(Default)]
struct Loaded {
    programs: Vec<LoadedProgram>,
    by_canonical: std::collections::HashMap<PathBuf, PathBuf>,
}

/// Loads the program at `path` (and, transitively, the programs of its components).
fn load_with_components(
    db: &mut RootDatabase,
    path: &Path,
    loaded: &mut Loaded,
) -> Result<(), String> {
    // A project file's `main:` says where the program in a directory is.
    let path = &match path.is_dir() {
        true => crate::project::pulumi_yaml_main(path)?.unwrap_or_else(|| path.to_path_buf()),
        false => path.to_path_buf(),
    };
    let (root, files) = if path.is_dir() {
        let root = path.to_path_buf();
        let files = pp_files(&root)?;
        if files.is_empty() {
            return Err(format!(
                "{}: no .pp files in this directory",
                root.display()
            ));
        }
        (root, files)
    } else {
        // A file that is missing or not a regular file is refused when it is read.
        (path.to_path_buf(), vec![path.to_path_buf()])
    };
    let mut pending = vec![(root, Some(files))];
    while let Some((root, files)) = pending.pop() {
        if db.program(&root).is_some() {
            continue;
        }
        let canonical = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
        if let Some(first) = loaded.by_canonical.get(&canonical) {
            if let Some(program) = db.program(first) {
                db.set_program_alias(&root, program);
            }
            continue;
        }
        let files = match files {
            Some(files) => files,
            // A component directory that cannot be read or holds no .pp files is reported by
            // the binder at the component block.
            None => match pp_files(&root) {
                Ok(files) if !files.is_empty() => files,
                _ => continue,
            },
        };
        loaded.by_canonical.insert(canonical, root.clone());
        let program = load(db, &root, &files)?;
        pcl_ty::lower_program_parallel(db, program.program);
        for dir in pcl_ty::component::component_dirs(db, program.program) {
            if db.program(&dir).is_none() && dir.is_dir() {
                pending.push((dir, None));
            }
        }
        loaded.programs.push(program);
    }
    Ok(())
}

pub fn run(args: CheckArgs) -> ExitCode {
    // Standard error is locked only after the progress bar is gone: the bar's tick thread
    // writes to it, and a lock held across the run hung every check big enough for a bar on a
    // terminal.
    let mut db = RootDatabase::default();
    db.set_options(CheckOptions {
        lenient: args.lenient,
    });
    let dirs = match schema_dirs(&args.schemas) {
        Ok(dirs) => dirs,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let specs = pcl_ty::packages::schema_files_in(&dirs);
    db.set_schema_files(dirs, specs);

    let mut io_error = false;
    let mut loaded = Vec::new();
    let mut state = Loaded::default();
    for path in &args.paths {
        if let Err(message) = load_with_components(&mut db, path, &mut state) {
            eprintln!("error: {message}");
            io_error = true;
        }
        // The program itself first, then its components by directory.
        let mut programs = std::mem::take(&mut state.programs);
        if programs.len() > 1 {
            programs[1..].sort_by(|a, b| a.program.root(&db).cmp(b.program.root(&db)));
        }
        loaded.extend(programs);
    }

    let total_nodes: usize = loaded
        .iter()
        .map(|p| pcl_ty::node_count(&db, p.program))
        .sum();
    let progress = progress_bar(total_nodes);
    let mut reports = Vec::new();
    for program in &loaded {
        let tick = |n: usize| {
            if let Some(bar) = &progress {
                bar.inc(n as u64);
            }
        };
        pcl_ty::infer_program_parallel(&db, program.program, &tick);
        let types = if args.emit_types {
            pcl_ty::NodeTypes::Listed
        } else {
            pcl_ty::NodeTypes::Omitted
        };
        reports.push(pcl_ty::program_report(&db, program.program, types));
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
    for (loaded, report) in loaded.iter().zip(&reports) {
        // Every file's text, for excerpts of related locations in other files.
        let texts: Vec<(String, String)> = report
            .files
            .iter()
            .map(|f| {
                let text = db
                    .files()
                    .get(&f.path)
                    .map(|s| s.text(&db).clone())
                    .unwrap_or_default();
                (f.path.display().to_string(), text)
            })
            .collect();
        let lookup = |name: &str| {
            texts
                .iter()
                .find(|(p, _)| p == name)
                .map(|(_, t)| t.as_str())
        };
        for (file, (path_text, text)) in report.files.iter().zip(&texts) {
            let mut renderer = Renderer::new(path_text, text).with_other_files(&lookup);
            let mut diagnostics: Vec<Diagnostic> = file.diagnostics.clone();
            for (bad, range) in &loaded.encoding_errors {
                if bad == &file.path {
                    let error = pcl_syntax::SyntaxError::new(
                        pcl_syntax::SyntaxErrorKind::InvalidEncoding,
                        *range,
                        "Invalid character encoding: the file is not valid UTF-8 (the bad bytes are read as U+FFFD)",
                    );
                    diagnostics.insert(0, error.to_diagnostic());
                }
            }
            for diagnostic in &diagnostics {
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
    if errors + warnings > 0 && args.format == Format::Human {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
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
    if io_error {
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
