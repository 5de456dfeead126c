//! `pcl fmt [--check] [--diff] [-q] [--no-recursive] [-] [PATH...]`: rewrite files in the
//! canonical HCL layout, naming each file rewritten (with `--check`, each file that fails it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::inputs;

#[derive(Args)]
#[command(after_help = "\
Directories are walked recursively unless --no-recursive is given (`terraform fmt` needs \
`-recursive` for it).

Exit status: 0 every file is formatted (or was rewritten) and parses cleanly; 1 a file has \
syntax errors (formatted except the items that have them, which are left as written) or, \
with --check, formatting would change a file; 2 usage or I/O errors, or a file that cannot \
be formatted (not UTF-8, nested too deeply).")]
pub struct FmtArgs {
    /// Change nothing; list the files that are not formatted or have syntax errors, and exit
    /// with status 1 if there are any.
    #[arg(long)]
    check: bool,
    /// Change nothing; print a unified diff of what formatting would change.
    #[arg(long)]
    diff: bool,
    /// Do not list the files rewritten (with --check, the files that fail it); errors,
    /// warnings and diffs are still printed.
    #[arg(short, long)]
    quiet: bool,
    /// Take only the files directly in each directory given, not those in its subdirectories.
    #[arg(long, overrides_with = "recursive")]
    no_recursive: bool,
    /// Take the files in subdirectories too: the default, for scripts written for `terraform
    /// fmt -recursive`.
    #[arg(long, overrides_with = "no_recursive")]
    recursive: bool,
    /// Files or directories (every .pp, .tf, .hcl and .tfvars file in a directory and its
    /// subdirectories, hidden directories skipped); `-` formats standard input to standard
    /// output. Default: `.`.
    paths: Vec<PathBuf>,
}

/// Extensions formatted when a directory is given (an explicitly named file is always formatted).
const EXTENSIONS: [&str; 4] = ["pp", "tf", "hcl", "tfvars"];

/// What happened to one file.
#[derive(Default)]
struct Outcome {
    /// The formatted text, when it differs from the file's.
    changed: Option<String>,
    original: String,
    /// The file's metadata when it was read: with `original`, what it must still be when it
    /// is replaced.
    metadata: Option<std::fs::Metadata>,
    /// The syntax errors, if it has any.
    syntax_errors: Option<SyntaxErrors>,
    error: Option<String>,
}

/// What a file with syntax errors (those `pcl parse` reports) keeps as written.
struct SyntaxErrors {
    /// How many (at least 1).
    count: usize,
    /// Lines (1-based) of the items left as written (none when every error is one that does not
    /// damage the layout, such as an attribute set twice).
    damaged_lines: Vec<usize>,
    /// The whole file was left as written (`pcl_fmt::Formatted::kept_whole`).
    kept_whole: bool,
}

pub fn run(args: FmtArgs) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    if args.paths.iter().any(|p| inputs::is_stdin(p)) {
        if args.paths.len() > 1 {
            let _ = write!(err, "{}", crate::term::error_line(inputs::STDIN_AND_PATHS));
            return ExitCode::from(2);
        }
        return run_stdin(&args, &mut out, &mut err);
    }

    let mut had_error = false;
    let mut files = Vec::new();
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let mut walk = crate::walk::Walk::default();
    for path in &paths {
        if path.is_dir() {
            // A directory with nothing to format is no error (as for `terraform fmt`).
            walk.add_dir(path, &EXTENSIONS, !args.no_recursive);
            let root = path.canonicalize().unwrap_or_else(|_| path.clone());
            for file in walk.files.drain(..) {
                if let Some(warning) = link_out_of(&file, &root, path) {
                    walk.warnings.push(warning);
                } else {
                    files.push(file);
                }
            }
        } else {
            // A path that is missing or cannot be read is reported when it is read.
            files.push(path.clone());
        }
    }
    for message in &walk.warnings {
        let _ = write!(err, "{}", crate::term::warning_line(message));
    }
    for message in &walk.errors {
        let _ = write!(err, "{}", crate::term::error_line(message));
        had_error = true;
    }

    let files = once_each(files);

    use rayon::prelude::*;
    let outcomes: Vec<Outcome> = files.par_iter().map(|path| format_file(path)).collect();
    // Files that fail: with syntax errors, or (under `--check`) not formatted.
    let mut failed = false;
    for (path, outcome) in files.iter().zip(outcomes) {
        let name = path.display().to_string();
        if let Some(message) = outcome.error {
            let _ = write!(err, "{}", crate::term::error_line(message));
            had_error = true;
            continue;
        }
        if let Some(errors) = &outcome.syntax_errors {
            report_syntax_errors(&mut err, &name, &name, errors);
            failed = true;
        }
        if args.check && (outcome.changed.is_some() || outcome.syntax_errors.is_some()) {
            failed = true;
            if !args.quiet {
                let _ = writeln!(out, "{name}");
            }
        }
        let Some(formatted) = outcome.changed else {
            continue;
        };
        if args.diff {
            let _ = write!(
                out,
                "{}",
                unified_diff(&outcome.original, &formatted, &name)
            );
        }
        if !args.check && !args.diff {
            let Some(metadata) = outcome.metadata else {
                continue;
            };
            let read = crate::replace::Original {
                bytes: outcome.original.into_bytes(),
                metadata,
            };
            match crate::replace::replace(path, &read, &formatted) {
                Ok(crate::replace::Replaced::Written) => {
                    if !args.quiet {
                        let _ = writeln!(out, "{name}");
                    }
                }
                Ok(crate::replace::Replaced::ChangedMeanwhile) => {
                    let _ = write!(
                        err,
                        "{}",
                        crate::term::warning_line(format_args!(
                            "`{name}`: changed while it was being formatted; left as it is now (run `pcl fmt` again)"
                        ))
                    );
                }
                Err(message) => {
                    let _ = write!(err, "{}", crate::term::error_line(message));
                    had_error = true;
                }
            }
        }
    }
    exit_code(had_error, failed)
}

fn run_stdin(args: &FmtArgs, out: &mut impl Write, err: &mut impl Write) -> ExitCode {
    let read = inputs::read_stdin().map_err(|e| e.to_string());
    let text = match read.and_then(|bytes| decode(bytes, inputs::STDIN).map_err(|e| e.to_string()))
    {
        Ok(text) => text,
        Err(message) => {
            let _ = write!(err, "{}", crate::term::error_line(message));
            return ExitCode::from(2);
        }
    };
    let formatted = match pcl_fmt::format(&text) {
        Ok(formatted) => formatted,
        Err(e) => {
            let _ = write!(
                err,
                "{}",
                crate::term::error_line(format_args!("`{}`: {e}", inputs::STDIN))
            );
            return ExitCode::from(2);
        }
    };
    let syntax_errors = syntax_errors(&text, &formatted);
    if let Some(errors) = &syntax_errors {
        report_syntax_errors(err, inputs::STDIN, "-", errors);
    }
    let changed = formatted.is_changed();
    if args.check && (changed || syntax_errors.is_some()) && !args.quiet {
        let _ = writeln!(out, "{}", inputs::STDIN);
    }
    if args.diff {
        if changed {
            let _ = write!(
                out,
                "{}",
                unified_diff(&text, &formatted.text, inputs::STDIN)
            );
        }
    } else if !args.check {
        let _ = out.write_all(formatted.text.as_bytes());
    }
    exit_code(false, (args.check && changed) || syntax_errors.is_some())
}

/// A file named twice (directly, through a link, or by two arguments) is formatted once, under
/// its first name that is not a symbolic link if it has one (the name printed when it is
/// rewritten), else its first name; the order is kept.
fn once_each(files: Vec<PathBuf>) -> Vec<PathBuf> {
    let is_link: Vec<bool> = files
        .iter()
        .map(|file| std::fs::symlink_metadata(file).is_ok_and(|m| m.is_symlink()))
        .collect();
    let mut chosen = std::collections::HashMap::new();
    for (i, file) in files.iter().enumerate() {
        let first = chosen.entry(pcl_fs::FileId::of(file)).or_insert(i);
        if is_link[*first] && !is_link[i] {
            *first = i;
        }
    }
    let keep: std::collections::HashSet<usize> = chosen.into_values().collect();
    files
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep.contains(i))
        .map(|(_, file)| file)
        .collect()
}

/// 2 for usage and I/O errors, else 1 for files that fail (syntax errors; under `--check`,
/// files not formatted), else 0.
fn exit_code(had_error: bool, failed: bool) -> ExitCode {
    if had_error {
        ExitCode::from(2)
    } else if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn format_file(path: &Path) -> Outcome {
    let name = path.display().to_string();
    let read = inputs::read_file(path).map_err(|e| e.to_string());
    let (text, metadata) = match read.and_then(|(bytes, metadata)| {
        Ok((decode(bytes, &name).map_err(|e| e.to_string())?, metadata))
    }) {
        Ok(read) => read,
        Err(message) => {
            return Outcome {
                error: Some(message),
                ..Outcome::default()
            }
        }
    };
    let formatted = match pcl_fmt::format(&text) {
        Ok(formatted) => formatted,
        Err(e) => {
            return Outcome {
                error: Some(format!("`{name}`: {e}; the file was left unchanged")),
                ..Outcome::default()
            }
        }
    };
    Outcome {
        syntax_errors: syntax_errors(&text, &formatted),
        changed: formatted.is_changed().then_some(formatted.text),
        original: text,
        metadata: Some(metadata),
        error: None,
    }
}

/// A file that is not UTF-8: it is left alone (a formatter must not guess at an encoding and
/// rewrite it).
struct NotUtf8 {
    name: String,
    offset: usize,
}

impl std::fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}`: not valid UTF-8 (invalid byte at offset {}); the file was left unchanged",
            self.name, self.offset
        )
    }
}

/// The text of a file, or why it cannot be formatted.
fn decode(bytes: Vec<u8>, name: &str) -> Result<String, NotUtf8> {
    String::from_utf8(bytes).map_err(|e| NotUtf8 {
        name: name.to_owned(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// The syntax errors of `text`, if it has any: those `pcl parse` reports, so that a file passes
/// `pcl fmt --check` only if it passes `pcl parse` too. The formatter finds only the errors
/// that damage the layout; the others (an attribute set twice, an invalid escape or number)
/// come from the syntax layer's validation, which `pcl parse` runs too (both without a tree).
fn syntax_errors(text: &str, formatted: &pcl_fmt::Formatted) -> Option<SyntaxErrors> {
    let count = pcl_syntax::syntax_errors(text).len();
    let damaged = !formatted.damaged.is_empty();
    (count > 0 || damaged).then(|| SyntaxErrors {
        count: count.max(1),
        damaged_lines: damaged_lines(text, formatted),
        kept_whole: formatted.kept_whole,
    })
}

fn damaged_lines(text: &str, formatted: &pcl_fmt::Formatted) -> Vec<usize> {
    let mut lines = Vec::new();
    let mut line = 1;
    let mut offset = 0;
    for range in &formatted.damaged {
        let start = usize::from(range.start());
        line += text.as_bytes()[offset..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        offset = start;
        if lines.last() != Some(&line) {
            lines.push(line);
        }
    }
    lines
}

/// Says that `name` has syntax errors, which command shows them (`pcl parse ARG`), and what
/// was left as written.
fn report_syntax_errors(err: &mut impl Write, name: &str, arg: &str, errors: &SyntaxErrors) {
    let count = match errors.count {
        1 => format!("1 syntax error (`pcl parse {arg}` shows it)"),
        n => format!("{n} syntax errors (`pcl parse {arg}` shows them)"),
    };
    let kept = if errors.kept_whole {
        "; the whole file was left as written (with these errors, where a block ends depends on \
         indentation, which formatting would change)"
            .to_owned()
    } else {
        match errors.damaged_lines.as_slice() {
            [] => String::new(),
            [line] => format!("; the item on line {line} was left as written"),
            lines => format!(
                "; the items on lines {} were left as written",
                list_lines(lines)
            ),
        }
    };
    let _ = write!(
        err,
        "{}",
        crate::term::error_line(format_args!("`{name}`: {count}{kept}"))
    );
}

/// "2, 5 and 9"; past ten lines, "1, 2, ..., 10 and 990 more".
fn list_lines(lines: &[usize]) -> String {
    const SHOWN: usize = 10;
    let shown: Vec<String> = lines.iter().take(SHOWN).map(|l| l.to_string()).collect();
    if lines.len() > SHOWN {
        return format!("{} and {} more", shown.join(", "), lines.len() - SHOWN);
    }
    let (last, rest) = shown.split_last().expect("at least two lines");
    format!("{} and {last}", rest.join(", "))
}

/// Why a file found below `dir` is not formatted: it is a symbolic link to a file outside
/// `dir` (whose canonical path is `root`). A walk does not lead `pcl fmt` out of the tree it
/// was given (nor does it enter linked directories); a link named on the command line is
/// followed.
fn link_out_of(file: &Path, root: &Path, dir: &Path) -> Option<String> {
    let is_link = std::fs::symlink_metadata(file).is_ok_and(|m| m.is_symlink());
    if !is_link {
        return None;
    }
    let target = file.canonicalize().ok()?;
    (!target.starts_with(root)).then(|| {
        format!(
            "skipped `{}`: it is a symbolic link to `{}`, outside `{}` (name it to format it)",
            file.display(),
            target.display(),
            dir.display()
        )
    })
}

fn unified_diff(old: &str, new: &str, name: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(name, name)
        .to_string()
}
