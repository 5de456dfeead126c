//! `pcl parse [--tree[=text|json]] FILE...`: report syntax errors, optionally print trees.
//! `-` reads standard input, named `<stdin>` in diagnostics.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use pcl_diagnostics::Diagnostic;
use pcl_syntax::SyntaxError;

use rayon::prelude::*;

use crate::inputs;
use crate::render::Renderer;
use pcl_project::files::Source;

#[derive(Args)]
pub struct ParseArgs {
    /// Print each file's syntax tree: `text` (the snapshot form) or `json` (for other tools).
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "text")]
    tree: Option<TreeFormat>,
    /// Files to parse; a directory means every `.pp` file below it, recursively (a program and
    /// its components; one with none is an error); `-` reads standard input (named `<stdin>`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum TreeFormat {
    Text,
    Json,
}

pub fn run(args: ParseArgs) -> ExitCode {
    // Output errors (a closed pipe: `pcl parse --tree f | head`) are ignored, never a panic: the
    // exit status still reports the syntax check.
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let mut had_syntax_error = false;
    let tree = args.tree;
    let (outputs, mut had_io_error) = if args.files.iter().any(|p| inputs::is_stdin(p)) {
        if args.files.len() > 1 {
            let _ = write!(err, "{}", crate::term::error_line(inputs::STDIN_AND_PATHS));
            return ExitCode::from(2);
        }
        let output = match inputs::read_stdin() {
            Ok(bytes) => parse_one(inputs::STDIN, &Source::from_bytes(bytes), tree),
            Err(message) => FileOutput::io_error(message),
        };
        (vec![output], false)
    } else {
        // Each argument is read as a file (one open, no stat before it); only one that turns
        // out to be a directory is walked, and its files take its place. Each file is read,
        // parsed and rendered on its own (a syntax error's notes are in its own file), on every
        // core, and only what it prints is kept: memory is the output, not the sources.
        let first: Vec<Parsed> = args
            .files
            .par_iter()
            .map(|path| parse_path(path, tree))
            .collect();
        let mut walk = crate::walk::Walk::default();
        let mut outputs: Vec<(Option<pcl_fs::FileId>, FileOutput)> = Vec::new();
        for parsed in first {
            match parsed {
                Parsed::File(id, output) => outputs.push((id, output)),
                Parsed::Directory(dir) => {
                    let errors = walk.errors.len();
                    let from = walk.files.len();
                    if walk.add_dir(&dir, &["pp"], true) == 0 && walk.errors.len() == errors {
                        // The words of `pcl check` for a directory with no program, so that the
                        // two commands agree (`tests/parse_cli.rs` compares them).
                        walk.errors
                            .push(pcl_project::LoadError::NoProgram(dir).to_string());
                    }
                    let files = &walk.files[from..];
                    outputs.extend(
                        files
                            .par_iter()
                            .map(|path| match parse_path(path, tree) {
                                Parsed::File(id, output) => (id, output),
                                // Found as a regular file by the walk, and a directory by now.
                                Parsed::Directory(path) => (
                                    None,
                                    FileOutput::io_error(pcl_project::LoadError::CannotRead {
                                        path,
                                        reason: pcl_fs::ReadError::directory(),
                                    }),
                                ),
                            })
                            .collect::<Vec<_>>(),
                    );
                }
            }
        }
        for message in &walk.warnings {
            let _ = write!(err, "{}", crate::term::warning_line(message));
        }
        for message in &walk.errors {
            let _ = write!(err, "{}", crate::term::error_line(message));
        }
        // A file named twice (by two arguments, or through a link) is reported once.
        let mut seen = HashSet::new();
        let outputs = outputs
            .into_iter()
            .filter(|(identity, _)| identity.as_ref().is_none_or(|id| seen.insert(id.clone())))
            .map(|(_, output)| output)
            .collect();
        (outputs, !walk.errors.is_empty())
    };
    for output in outputs {
        if let Some(message) = output.io_error {
            let _ = write!(err, "{}", crate::term::error_line(message));
            had_io_error = true;
            continue;
        }
        let _ = out.write_all(output.tree.as_bytes());
        let _ = err.write_all(output.diagnostics.as_bytes());
        had_syntax_error |= output.syntax_error;
    }
    if had_io_error {
        ExitCode::from(2)
    } else if had_syntax_error {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// What reading a path gave: a file parsed (with its identity, to report it once), or a
/// directory to walk.
enum Parsed {
    File(Option<pcl_fs::FileId>, FileOutput),
    Directory(PathBuf),
}

/// Reads and parses the file at `path`; a directory is left to the caller to walk.
fn parse_path(path: &Path, tree: Option<TreeFormat>) -> Parsed {
    match inputs::read_file(path) {
        Ok((bytes, metadata)) => Parsed::File(
            Some(pcl_fs::FileId::from_metadata(path, &metadata)),
            parse_one(
                &path.display().to_string(),
                &Source::from_bytes(bytes),
                tree,
            ),
        ),
        Err(pcl_project::LoadError::CannotRead { reason, .. }) if reason.is_directory() => {
            Parsed::Directory(path.to_path_buf())
        }
        Err(error) => Parsed::File(None, FileOutput::io_error(error)),
    }
}

/// What parsing one file prints.
#[derive(Default)]
struct FileOutput {
    tree: String,
    diagnostics: String,
    syntax_error: bool,
    io_error: Option<String>,
}

impl FileOutput {
    fn io_error(error: impl std::fmt::Display) -> FileOutput {
        FileOutput {
            io_error: Some(error.to_string()),
            ..FileOutput::default()
        }
    }
}

/// Parses one file and renders what it prints.
fn parse_one(path: &str, source: &Source, tree: Option<TreeFormat>) -> FileOutput {
    // Without `--tree`, only the errors: the same errors without building the tree (half the
    // cost of a parse).
    let (tree, errors) = match tree {
        Some(format) => {
            let parse = pcl_syntax::parse(&source.text);
            let tree = match format {
                TreeFormat::Text => pcl_syntax::debug_tree(&parse.syntax(), &[]),
                TreeFormat::Json => format!("{}\n", pcl_syntax::json_tree(&parse.syntax())),
            };
            (tree, parse.errors().to_vec())
        }
        None => (String::new(), pcl_syntax::syntax_errors(&source.text)),
    };
    let mut diagnostics: Vec<Diagnostic> = errors.iter().map(SyntaxError::to_diagnostic).collect();
    if let Some(range) = source.encoding_error {
        diagnostics.insert(0, SyntaxError::invalid_encoding(range).to_diagnostic());
    }
    let mut renderer =
        Renderer::new(path, &source.text).with_palette(crate::term::stderr_palette());
    let rendered: String = diagnostics.iter().map(|d| renderer.render(d)).collect();
    FileOutput {
        tree,
        diagnostics: rendered,
        syntax_error: diagnostics.iter().any(Diagnostic::is_error),
        io_error: None,
    }
}
