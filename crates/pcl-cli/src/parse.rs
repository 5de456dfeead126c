//! `pcl parse [--tree[=text|json]] FILE...`: report syntax errors, optionally print trees.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use pcl_diagnostics::Diagnostic;
use pcl_syntax::SyntaxError;

use crate::inputs;
use crate::render::Renderer;
use pcl_project::files::Source;

#[derive(Args)]
pub struct ParseArgs {
    /// Print each file's syntax tree: `text` (the snapshot form) or `json` (for other tools).
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "text")]
    tree: Option<TreeFormat>,
    /// Files to parse; a directory means every `.pp` file below it (a program and its components).
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
    let mut had_io_error = false;
    let mut walk = crate::walk::Walk::default();
    for path in &args.files {
        if path.is_dir() {
            walk.add_dir(path, &["pp"]);
        } else {
            walk.files.push(path.clone());
        }
    }
    for message in &walk.warnings {
        let _ = writeln!(err, "warning: {message}");
    }
    for message in &walk.errors {
        let _ = writeln!(err, "error: {message}");
        had_io_error = true;
    }
    let files = walk.files;
    // Every file is read first, so that a diagnostic of one file can show a related location
    // in another (a program and its components). Reading and parsing use every core; the
    // output keeps the order of the files.
    use rayon::prelude::*;
    let sources: Vec<(String, Result<Source, String>)> = files
        .par_iter()
        .map(|path| (path.display().to_string(), read_source(path)))
        .collect();
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
            let _ = writeln!(err, "error: {message}");
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
    let mut renderer = Renderer::new(path, &source.text).with_other_files(&lookup);
    let rendered: String = diagnostics.iter().map(|d| renderer.render(d)).collect();
    FileOutput {
        tree,
        diagnostics: rendered,
        syntax_error: diagnostics.iter().any(Diagnostic::is_error),
        io_error: None,
    }
}
