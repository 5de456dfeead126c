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

/// Renders the diagnostics of one file. Diagnostics come sorted by position, so line and column
/// are found by walking forward from the previous one, and only a window of the source line is
/// looked at: rendering stays linear even for thousands of errors on one very long line.
pub struct Renderer<'a> {
    path: &'a str,
    text: &'a str,
    cursor: Cursor,
}

/// A located position: byte offset, 1-based line and column (in characters), line start.
#[derive(Clone, Copy)]
struct Cursor {
    offset: usize,
    line: usize,
    col: usize,
    line_start: usize,
}

const START: Cursor = Cursor {
    offset: 0,
    line: 1,
    col: 1,
    line_start: 0,
};

/// How much of a long source line is shown around the error.
const MAX_SHOWN: usize = 160;

impl<'a> Renderer<'a> {
    pub fn new(path: &'a str, text: &'a str) -> Renderer<'a> {
        Renderer {
            path,
            text,
            cursor: START,
        }
    }

    fn locate(&mut self, offset: usize) -> Cursor {
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        let mut cursor = if offset < self.cursor.offset {
            START
        } else {
            self.cursor
        };
        for (i, c) in self.text[cursor.offset..offset].char_indices() {
            if c == '\n' {
                cursor.line += 1;
                cursor.col = 1;
                cursor.line_start = cursor.offset + i + 1;
            } else {
                cursor.col += 1;
            }
        }
        cursor.offset = offset;
        self.cursor = cursor;
        cursor
    }

    pub fn render(&mut self, range: TextRange, severity: Severity, message: &str) -> String {
        let text = self.text;
        let severity = match severity {
            Severity::Error => "error",
        };
        let at = self.locate(usize::from(range.start()));
        let start = at.offset;
        let mut out = format!(
            "{}:{}:{}: {severity}: {message}\n",
            self.path, at.line, at.col
        );
        let from =
            floor_char_boundary(text, start.saturating_sub(MAX_SHOWN / 2).max(at.line_start));
        let window_end = floor_char_boundary(text, (from + MAX_SHOWN).min(text.len()).max(start));
        let to = text[start..window_end]
            .find('\n')
            .map_or(window_end, |i| start + i);
        let shown = &text[from..to];
        let gutter = at.line.to_string();
        let pad = " ".repeat(gutter.len());
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(
            out,
            "{gutter} | {}",
            shown.trim_end_matches('\r').replace('\t', " ")
        );
        let caret_col = text[from..start].chars().count();
        let end = floor_char_boundary(text, usize::from(range.end()).clamp(start, to));
        let width = text[start..end]
            .trim_end_matches('\r')
            .chars()
            .count()
            .max(1);
        let _ = writeln!(
            out,
            "{pad} | {}{}",
            " ".repeat(caret_col),
            "^".repeat(width)
        );
        out
    }
}

impl Renderer<'_> {
    /// A diagnostic of the shared model: `path:line:col: error[E0301]: message`, the source
    /// line with carets, then related locations and help lines.
    pub fn render_diagnostic(&mut self, diagnostic: &pcl_diagnostics::Diagnostic) -> String {
        let severity = match diagnostic.severity {
            pcl_diagnostics::Severity::Error => "error",
            pcl_diagnostics::Severity::Warning => "warning",
        };
        let label = format!(
            "{severity}[{}]: {}",
            diagnostic.code.as_str(),
            diagnostic.message
        );
        let mut out = self.render_labelled(diagnostic.range, &label);
        for related in &diagnostic.related {
            match &related.file {
                None => out.push_str(
                    &self.render_labelled(related.range, &format!("note: {}", related.message)),
                ),
                Some(file) => out.push_str(&format!("{file}: note: {}\n", related.message)),
            }
        }
        for help in &diagnostic.help {
            out.push_str(&format!("  = help: {help}\n"));
        }
        out
    }

    fn render_labelled(&mut self, range: TextRange, label: &str) -> String {
        // `render` prints `severity: message`; the label already holds both.
        let rendered = self.render(range, Severity::Error, label);
        rendered.replacen(&format!("error: {label}"), label, 1)
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
