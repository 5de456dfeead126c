//! `pcl check [--emit-types] PATH...`: check programs (a `.pp` file, or a directory whose
//! `.pp` files form one program) through the salsa database, and report rustc-style.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use pcl_db::RootDatabase;
use pcl_diagnostics::{Diagnostic, Severity};

use crate::render::{read_source, Renderer};

#[derive(Args)]
pub struct CheckArgs {
    /// After the diagnostics, print each config, local and output as `name: type`.
    #[arg(long)]
    emit_types: bool,
    /// Programs to check: `.pp` files (each a program of one file) or directories (the
    /// `.pp` files directly inside form one program).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

struct LoadedProgram {
    program: pcl_db::Program,
    /// Files whose bytes were not UTF-8: where the first bad byte is.
    encoding_errors: Vec<(PathBuf, pcl_syntax::TextRange)>,
}

fn load(db: &mut RootDatabase, path: &Path) -> Result<LoadedProgram, String> {
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .and_then(|entries| entries.map(|e| e.map(|e| e.path())).collect())
            .map_err(|e| format!("cannot read directory {}: {e}", path.display()))?;
        files.retain(|p| p.is_file() && p.extension().is_some_and(|e| e == "pp"));
        files.sort();
        if files.is_empty() {
            return Err(format!(
                "{}: no .pp files in this directory",
                path.display()
            ));
        }
        files
    } else {
        vec![path.to_path_buf()]
    };
    let mut inputs = Vec::new();
    let mut encoding_errors = Vec::new();
    for file in &files {
        let source = read_source(file)?;
        if let Some(range) = source.encoding_error {
            encoding_errors.push((file.clone(), range));
        }
        inputs.push(db.set_file_text(file, source.text));
    }
    let program = db.set_program_files(path, inputs);
    Ok(LoadedProgram {
        program,
        encoding_errors,
    })
}

pub fn run(args: CheckArgs) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let mut db = RootDatabase::default();
    let mut io_error = false;
    let mut errors = 0;
    let mut warnings = 0;
    for path in &args.paths {
        let loaded = match load(&mut db, path) {
            Ok(loaded) => loaded,
            Err(message) => {
                let _ = writeln!(err, "error: {message}");
                io_error = true;
                continue;
            }
        };
        let report = pcl_ty::check_program(&db, loaded.program);
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
                let _ = err.write_all(renderer.render(diagnostic).as_bytes());
            }
        }
        if args.emit_types {
            for line in &report.types {
                let _ = writeln!(out, "{}: {}", line.name, line.ty);
            }
        }
    }
    if errors + warnings > 0 {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let summary = match (errors, warnings) {
            (0, w) => plural(w, "warning"),
            (e, 0) => plural(e, "error"),
            (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
        };
        let _ = writeln!(err, "{summary}");
    }
    if io_error {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
