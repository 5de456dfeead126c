//! Rendering diagnostics the way rustc does:
//! `path:line:col: error[E0005]: message`, the source line, and a caret line under the range;
//! then a note block for each related location, and help lines.

use std::fmt::Write;

use pcl_diagnostics::{Diagnostic, Related, TextRange, TextSize};

/// Text of other files, by the name a related location gives (for notes in other files).
pub type FileLookup<'a> = &'a dyn Fn(&str) -> Option<&'a str>;

/// Renders the diagnostics of one file. Diagnostics come sorted by position, so line and column
/// are found by walking forward from the previous one, and only a window of the source line is
/// looked at: rendering stays linear even for thousands of errors on one very long line.
///
/// The form is rustc's, one block per diagnostic:
///
/// ```text
/// main.pp:3:1: error[E0025]: Attribute redefined: `a` is already set in this body; ...
///   |
/// 3 | a = 2
///   | ^
/// main.pp:1:1: note: `a` is first set here
///   |
/// 1 | a = 1
///   | ^
/// help: ...
/// ```
pub struct Renderer<'a> {
    path: &'a str,
    text: &'a str,
    /// Where the last primary range was found.
    cursor: Cursor,
    /// Where the last related range of this file was found (related ranges often point back,
    /// to a first definition, so they walk on their own).
    related_cursor: Cursor,
    others: Option<FileLookup<'a>>,
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
            related_cursor: START,
            others: None,
        }
    }

    /// Gives the texts of other files, for related locations outside this file.
    pub fn with_other_files(mut self, lookup: FileLookup<'a>) -> Renderer<'a> {
        self.others = Some(lookup);
        self
    }

    /// One diagnostic as one line of JSON: file, 1-based line and column of its start and end
    /// (columns count characters), severity, code and message.
    pub fn render_json(&mut self, diagnostic: &Diagnostic) -> String {
        let at = locate(self.text, &mut self.cursor, diagnostic.range.start());
        let mut end_cursor = at;
        let end = locate(self.text, &mut end_cursor, diagnostic.range.end());
        let object = serde_json::json!({
            "file": self.path,
            "line": at.line,
            "column": at.col,
            "end_line": end.line,
            "end_column": end.col,
            "severity": diagnostic.severity.to_string(),
            "code": diagnostic.code.as_str(),
            "message": diagnostic.message,
        });
        format!("{object}\n")
    }

    /// One diagnostic: its header and excerpt, a note block per related location, then its
    /// help lines (or, without any, its fix's title as a help line).
    pub fn render(&mut self, diagnostic: &Diagnostic) -> String {
        let mut out = String::new();
        let at = locate(self.text, &mut self.cursor, diagnostic.range.start());
        let _ = writeln!(
            out,
            "{}:{}:{}: {}[{}]: {}",
            self.path,
            at.line,
            at.col,
            diagnostic.severity,
            diagnostic.code.as_str(),
            diagnostic.message
        );
        excerpt(&mut out, self.text, at, diagnostic.range);
        for related in &diagnostic.related {
            self.render_related(&mut out, related);
        }
        for help in &diagnostic.help {
            let _ = writeln!(out, "help: {help}");
        }
        // A fix's title says what the help lines already say when there are any.
        if let Some(fix) = diagnostic
            .fix
            .as_ref()
            .filter(|_| diagnostic.help.is_empty())
        {
            let _ = writeln!(out, "help: {}", fix.title);
        }
        out
    }

    fn render_related(&mut self, out: &mut String, related: &Related) {
        let mut other_file_cursor = START;
        let (path, text, cursor) = match related.file.as_deref() {
            None => (self.path, self.text, &mut self.related_cursor),
            Some(file) if file == self.path => (self.path, self.text, &mut self.related_cursor),
            Some(file) => match self.others.and_then(|lookup| lookup(file)) {
                Some(text) => (file, text, &mut other_file_cursor),
                None => {
                    // The file is not at hand: name the place without an excerpt.
                    let _ = writeln!(
                        out,
                        "{file}: note: {} (at bytes {}..{})",
                        related.message,
                        u32::from(related.range.start()),
                        u32::from(related.range.end())
                    );
                    return;
                }
            },
        };
        let at = locate(text, cursor, related.range.start());
        let _ = writeln!(
            out,
            "{path}:{}:{}: note: {}",
            at.line, at.col, related.message
        );
        excerpt(out, text, at, related.range);
    }
}

/// Finds `offset` in `text`, walking forward from `cursor` when it is not past it, and leaves the
/// cursor there.
fn locate(text: &str, cursor: &mut Cursor, offset: TextSize) -> Cursor {
    let offset = floor_char_boundary(text, usize::from(offset).min(text.len()));
    let mut at = if offset < cursor.offset {
        START
    } else {
        *cursor
    };
    for (i, c) in text[at.offset..offset].char_indices() {
        if c == '\n' {
            at.line += 1;
            at.col = 1;
            at.line_start = at.offset + i + 1;
        } else {
            at.col += 1;
        }
    }
    at.offset = offset;
    *cursor = at;
    at
}

/// The gutter, the source line (a window of it when it is long) and a caret line under `range`.
fn excerpt(out: &mut String, text: &str, at: Cursor, range: TextRange) {
    let start = at.offset;
    let from = floor_char_boundary(text, start.saturating_sub(MAX_SHOWN / 2).max(at.line_start));
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
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use expect_test::expect;
    use pcl_diagnostics::{Code, Diagnostic, Severity, TextRange};

    use super::Renderer;

    fn range(start: u32, end: u32) -> TextRange {
        TextRange::new(start.into(), end.into())
    }

    #[test]
    fn related_locations_help_and_warnings() {
        let main = "a = 1\nb = {\n  c = 2\n}\na = 3\n";
        let other = "# component\nresource r \"t\" {}\n";
        let lookup = |name: &str| (name == "component.pp").then_some(other);
        let mut renderer = Renderer::new("main.pp", main).with_other_files(&lookup);
        let duplicate = Diagnostic::new(Code::DuplicateAttribute, range(22, 23), "`a` again")
            .with_related(range(0, 1), "first set here")
            .with_related_in(Arc::from("component.pp"), range(21, 22), "declared here")
            .with_related_in(Arc::from("absent.pp"), range(3, 5), "and here")
            .with_help("remove one of them");
        let warning = Diagnostic::new(Code::UnknownBlockType, range(14, 19), "unknown block")
            .with_fix("remove the block", range(14, 19), "");
        let downgraded = Diagnostic::new(Code::InvalidNumber, range(16, 17), "odd")
            .with_severity(Severity::Warning);
        let text = [duplicate, warning, downgraded]
            .iter()
            .map(|d| renderer.render(d))
            .collect::<String>();
        expect![[r#"
            main.pp:5:1: error[E0025]: `a` again
              |
            5 | a = 3
              | ^
            main.pp:1:1: note: first set here
              |
            1 | a = 1
              | ^
            component.pp:2:10: note: declared here
              |
            2 | resource r "t" {}
              |          ^
            absent.pp: note: and here (at bytes 3..5)
            help: remove one of them
            main.pp:3:3: warning[W0202]: unknown block
              |
            3 |   c = 2
              |   ^^^^^
            help: remove the block
            main.pp:3:5: warning[E0007]: odd
              |
            3 |   c = 2
              |     ^
        "#]]
        .assert_eq(&text);
    }
}
