//! `pcl fmt [--check] [--diff] [-] [PATH...]`: rewrite files in the canonical HCL layout.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::inputs;

#[derive(Args)]
pub struct FmtArgs {
    /// Change nothing; list the files that are not formatted and exit with status 1 if there are any.
    #[arg(long)]
    check: bool,
    /// Change nothing; print a unified diff of what formatting would change.
    #[arg(long)]
    diff: bool,
    /// Files or directories (every .pp, .tf, .hcl and .tfvars file below a directory, hidden
    /// directories skipped); `-` formats standard input to standard output. Default: `.`.
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
    /// Lines (1-based) of the items left as written because of syntax errors.
    damaged_lines: Vec<usize>,
    /// The whole file was left as written (`pcl_fmt::Formatted::kept_whole`).
    kept_whole: bool,
    error: Option<String>,
}

pub fn run(args: FmtArgs) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let stdin_requested = args.paths.iter().any(|p| inputs::is_stdin(p));
    if stdin_requested && args.paths.len() > 1 {
        let _ = writeln!(err, "error: {}", inputs::STDIN_AND_PATHS);
        return ExitCode::from(2);
    }
    if stdin_requested {
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
            walk.add_dir(path, &EXTENSIONS);
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
        let _ = writeln!(err, "warning: {message}");
    }
    for message in &walk.errors {
        let _ = writeln!(err, "error: {message}");
        had_error = true;
    }

    // A file named twice (directly, through a link, or by two arguments) is formatted once.
    let mut seen = std::collections::HashSet::new();
    files.retain(|file| seen.insert(file.canonicalize().unwrap_or_else(|_| file.clone())));

    use rayon::prelude::*;
    let outcomes: Vec<Outcome> = files.par_iter().map(|path| format_file(path)).collect();
    let mut any_changed = false;
    for (path, outcome) in files.iter().zip(outcomes) {
        let name = path.display().to_string();
        if let Some(message) = outcome.error {
            let _ = writeln!(err, "error: {message}");
            had_error = true;
            continue;
        }
        report_damage(&mut err, &name, &outcome.damaged_lines, outcome.kept_whole);
        let Some(formatted) = outcome.changed else {
            continue;
        };
        any_changed = true;
        if args.check {
            let _ = writeln!(out, "{name}");
        }
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
                Ok(crate::replace::Replaced::Written) => {}
                Ok(crate::replace::Replaced::ChangedMeanwhile) => {
                    let _ = writeln!(
                        err,
                        "warning: `{name}`: changed while it was being formatted; left as it is now (run `pcl fmt` again)"
                    );
                }
                Err(message) => {
                    let _ = writeln!(err, "error: {message}");
                    had_error = true;
                }
            }
        }
    }
    exit_code(had_error, args.check && any_changed)
}

fn run_stdin(args: &FmtArgs, out: &mut impl Write, err: &mut impl Write) -> ExitCode {
    let text = match inputs::read_stdin().and_then(|bytes| decode(bytes, inputs::STDIN)) {
        Ok(text) => text,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            return ExitCode::from(2);
        }
    };
    let formatted = match pcl_fmt::format(&text) {
        Ok(formatted) => formatted,
        Err(e) => {
            let _ = writeln!(err, "error: `{}`: {e}", inputs::STDIN);
            return ExitCode::from(2);
        }
    };
    report_damage(
        err,
        "<stdin>",
        &damaged_lines(&text, &formatted),
        formatted.kept_whole,
    );
    let changed = formatted.is_changed();
    if args.check && changed {
        let _ = writeln!(out, "<stdin>");
    }
    if args.diff {
        if changed {
            let _ = write!(out, "{}", unified_diff(&text, &formatted.text, "<stdin>"));
        }
    } else if !args.check {
        let _ = out.write_all(formatted.text.as_bytes());
    }
    exit_code(false, args.check && changed)
}

fn exit_code(had_error: bool, unformatted: bool) -> ExitCode {
    if had_error {
        ExitCode::from(2)
    } else if unformatted {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn format_file(path: &Path) -> Outcome {
    let name = path.display().to_string();
    let (text, metadata) = match inputs::read_file(path)
        .and_then(|(bytes, metadata)| Ok((decode(bytes, &name)?, metadata)))
    {
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
        damaged_lines: damaged_lines(&text, &formatted),
        kept_whole: formatted.kept_whole,
        changed: formatted.is_changed().then_some(formatted.text),
        original: text,
        metadata: Some(metadata),
        error: None,
    }
}

/// The text of a file, or why it cannot be formatted (a file that is not UTF-8 is left alone: a
/// formatter must not guess at an encoding and rewrite it).
fn decode(bytes: Vec<u8>, name: &str) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "`{name}`: not valid UTF-8 (invalid byte at offset {}); the file was left unchanged",
            e.utf8_error().valid_up_to()
        )
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

fn report_damage(err: &mut impl Write, name: &str, lines: &[usize], kept_whole: bool) {
    if kept_whole {
        let _ = writeln!(
            err,
            "warning: {name}: left as written: its syntax errors make the layout ambiguous (where a \
             block ends depends on indentation); `pcl parse {name}` shows the errors"
        );
        return;
    }
    if lines.is_empty() {
        return;
    }
    let list: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let _ = writeln!(
        err,
        "warning: {name}: {} with syntax errors left as written (line{} {}); `pcl parse {name}` \
         shows the errors",
        if lines.len() == 1 { "an item" } else { "items" },
        if lines.len() == 1 { "" } else { "s" },
        list.join(", ")
    );
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
            "`{}`: skipped: a symbolic link to `{}`, outside `{}` (name it to format it)",
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
