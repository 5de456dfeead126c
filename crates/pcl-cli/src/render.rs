//! Reading source files and rendering diagnostics the way rustc does:
//! `path:line:col: error: message`, the source line, and a caret line under the range.

use std::fmt::Write;
use std::path::Path;

use pcl_syntax::{TextRange, TextSize};

pub struct Source {
    pub text: String,
    /// Where the first invalid UTF-8 byte was, if the file is not valid UTF-8.
    pub encoding_error: Option<TextRange>,
}

/// Reads a file. Invalid UTF-8 is decoded lossily and reported by the caller, so that one bad
/// byte does not hide every other diagnostic of the file.
pub fn read_source(path: &Path) -> Result<Source, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() >= u32::MAX as usize {
        return Err(format!(
            "{}: files of 4 GiB or more are not supported",
            path.display()
        ));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source {
            text,
            encoding_error: None,
        }),
        Err(err) => {
            let valid_up_to = err.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(err.as_bytes()).into_owned();
            let start = TextSize::from(valid_up_to as u32);
            let end = start + TextSize::of(text[valid_up_to..].chars().next().unwrap_or(' '));
            Ok(Source {
                text,
                encoding_error: Some(TextRange::new(start, end)),
            })
        }
    }
}

#[derive(Clone, Copy)]
pub enum Severity {
    Error,
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: TextSize) -> (usize, usize) {
    let offset = usize::from(offset).min(text.len());
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

pub fn render_diagnostic(
    path: &str,
    text: &str,
    range: TextRange,
    severity: Severity,
    message: &str,
) -> String {
    let severity = match severity {
        Severity::Error => "error",
    };
    let (line, col) = line_col(text, range.start());
    let mut out = format!("{path}:{line}:{col}: {severity}: {message}\n");
    let start = usize::from(range.start()).min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line_text = text[line_start..line_end].trim_end_matches('\r');
    // Very long lines (minified or generated files) are cut around the error.
    const MAX_SHOWN: usize = 160;
    let (shown, shown_start) = if line_text.len() > MAX_SHOWN {
        let from = floor_char_boundary(
            line_text,
            (start - line_start).saturating_sub(MAX_SHOWN / 2),
        );
        let to = floor_char_boundary(line_text, (from + MAX_SHOWN).min(line_text.len()));
        (&line_text[from..to], line_start + from)
    } else {
        (line_text, line_start)
    };
    let gutter = line.to_string();
    let pad = " ".repeat(gutter.len());
    let _ = writeln!(out, "{pad} |");
    let _ = writeln!(out, "{gutter} | {}", shown.replace('\t', " "));
    let caret_col = text[shown_start..start.max(shown_start)].chars().count();
    let end = usize::from(range.end())
        .min(shown_start + shown.len())
        .max(start);
    let width = text[start..end].chars().count().max(1);
    let _ = writeln!(
        out,
        "{pad} | {}{}",
        " ".repeat(caret_col),
        "^".repeat(width)
    );
    out
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
