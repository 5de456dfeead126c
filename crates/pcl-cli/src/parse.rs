//! `pcl parse [--tree[=text|json]] FILE...`: report syntax errors, optionally print trees.
//! `-` reads standard input, named `<stdin>` in diagnostics.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
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
    let (sources, mut had_io_error) = if args.files.iter().any(|p| inputs::is_stdin(p)) {
        if args.files.len() > 1 {
            let _ = write!(err, "{}", crate::term::error_line(inputs::STDIN_AND_PATHS));
            return ExitCode::from(2);
        }
        let source = inputs::read_stdin().map(Source::from_bytes);
        (vec![(inputs::STDIN.to_owned(), source)], false)
    } else {
        let (files, io_error) = find_files(&args.files, &mut err);
        // Every file is read first, so that a diagnostic of one file can show a related
        // location in another (a program and its components). Reading and parsing use every
        // core; the output keeps the order of the files.
        let sources: Vec<(String, Result<Source, String>)> = files
            .par_iter()
            .map(|path| (path.display().to_string(), read_source(path)))
            .collect();
        (sources, io_error)
    };
    let by_name: HashMap<&str, &str> = sources
        .iter()
        .filter_map(|(name, source)| Some((name.as_str(), source.as_ref().ok()?.text.as_str())))
        .collect();
    let tree = args.tree;
    let outputs: Vec<FileOutput> = sources
        .par_iter()
        .map(|(path, source)| match source {
            Ok(source) => parse_one(path, source, tree, &by_name),
            Err(message) => FileOutput {
                io_error: Some(message.clone()),
                ..FileOutput::default()
            },
        })
        .collect();
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

/// The files `paths` name, a directory standing for the `.pp` files below it, each file once;
/// and whether there were I/O errors (printed to `err`, with the warnings).
fn find_files(paths: &[PathBuf], err: &mut impl Write) -> (Vec<PathBuf>, bool) {
    let mut walk = crate::walk::Walk::default();
    for path in paths {
        if !path.is_dir() {
            walk.files.push(path.clone());
            continue;
        }
        let errors = walk.errors.len();
        if walk.add_dir(path, &["pp"], true) == 0 && walk.errors.len() == errors {
            // The words of `pcl check` for a directory with no program, so that the two
            // commands agree (`tests/parse_cli.rs` compares them).
            walk.errors
                .push(pcl_project::LoadError::NoProgram(path.to_path_buf()).to_string());
        }
    }
    for message in &walk.warnings {
        let _ = write!(err, "{}", crate::term::warning_line(message));
    }
    for message in &walk.errors {
        let _ = write!(err, "{}", crate::term::error_line(message));
    }
    let mut files = walk.files;
    // A file named twice (by two arguments, or through a link) is parsed once.
    let mut seen = std::collections::HashSet::new();
    files.retain(|file| seen.insert(file.canonicalize().unwrap_or_else(|_| file.clone())));
    (files, !walk.errors.is_empty())
}

/// Reads a source file by the rules of `pcl_project::files::read_source` (lossy UTF-8, the
/// place of the first bad byte kept), with the messages of every command.
fn read_source(path: &std::path::Path) -> Result<Source, String> {
    inputs::read_file(path).map(|(bytes, _)| Source::from_bytes(bytes))
}

/// What parsing one file prints.
#[derive(Default)]
struct FileOutput {
    tree: String,
    diagnostics: String,
    syntax_error: bool,
    io_error: Option<String>,
}

/// Parses one file; `texts` are every file's text by name, for related locations.
fn parse_one(
    path: &str,
    source: &Source,
    tree: Option<TreeFormat>,
    texts: &HashMap<&str, &str>,
) -> FileOutput {
    let lookup = |name: &str| texts.get(name).copied();
    let parse = pcl_syntax::parse(&source.text);
    let tree = match tree {
        Some(TreeFormat::Text) => pcl_syntax::debug_tree(&parse.syntax(), &[]),
        Some(TreeFormat::Json) => format!("{}\n", pcl_syntax::json_tree(&parse.syntax())),
        None => String::new(),
    };
    let mut diagnostics = parse.diagnostics();
    if let Some(range) = source.encoding_error {
        diagnostics.insert(0, SyntaxError::invalid_encoding(range).to_diagnostic());
    }
    let mut renderer = Renderer::new(path, &source.text)
        .with_other_files(&lookup)
        .with_palette(crate::term::stderr_palette());
    let rendered: String = diagnostics.iter().map(|d| renderer.render(d)).collect();
    FileOutput {
        tree,
        diagnostics: rendered,
        syntax_error: diagnostics.iter().any(Diagnostic::is_error),
        io_error: None,
    }
}
