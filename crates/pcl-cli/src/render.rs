//! Rendering diagnostics the way rustc does:
//! `path:line:col: error[E0005]: message`, the source line, and a caret line under the range;
//! then a note block for each related location, and help lines.

use std::fmt::Write;

use pcl_diagnostics::{Diagnostic, Related, Severity, TextRange, TextSize};
use unicode_width::UnicodeWidthChar;

use crate::term::Palette;

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
    palette: Palette,
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
            palette: Palette::PLAIN,
        }
    }

    /// Colours what [`Renderer::render`] writes with `palette`.
    pub fn with_palette(mut self, palette: Palette) -> Renderer<'a> {
        self.palette = palette;
        self
    }

    /// Gives the texts of other files, for related locations outside this file.
    pub fn with_other_files(mut self, lookup: FileLookup<'a>) -> Renderer<'a> {
        self.others = Some(lookup);
        self
    }

    /// One diagnostic as one line of JSON (`docs/json.md`, version [`JSON_VERSION`]): the
    /// file and the 1-based line and column of its start and end (columns count characters)
    /// with the byte range, severity, code and message, its notes (related locations, each
    /// located the same way), help lines, fixes as edits, and the text [`Renderer::render`]
    /// shows, without colour.
    pub fn render_json(&mut self, diagnostic: &Diagnostic) -> String {
        let at = locate(self.text, &mut self.cursor, diagnostic.range.start());
        let mut end_cursor = at;
        let end = locate(self.text, &mut end_cursor, diagnostic.range.end());
        let notes: Vec<serde_json::Value> = diagnostic
            .related
            .iter()
            .map(|related| self.json_note(related))
            .collect();
        // Edits are in the diagnostic's file; they are located from the start, in any order.
        let fixes: Vec<serde_json::Value> = diagnostic
            .fixes
            .iter()
            .map(|fix| {
                let edits: Vec<serde_json::Value> = fix
                    .edits
                    .iter()
                    .map(|edit| {
                        let mut cursor = at;
                        let mut location =
                            json_location(self.path, self.text, &mut cursor, edit.range);
                        location["replacement"] = edit.replacement.clone().into();
                        location
                    })
                    .collect();
                serde_json::json!({ "title": fix.title, "edits": edits })
            })
            .collect();
        // The plain rendering walks its own cursors, so that this one's are left as they were.
        let mut plain = Renderer {
            cursor: at,
            palette: Palette::PLAIN,
            ..*self
        };
        let rendered = plain.render(diagnostic);
        self.related_cursor = plain.related_cursor;
        let object = serde_json::json!({
            "object": "diagnostic",
            "version": JSON_VERSION,
            "file": self.path,
            "line": at.line,
            "column": at.col,
            "end_line": end.line,
            "end_column": end.col,
            "byte_start": u32::from(diagnostic.range.start()),
            "byte_end": u32::from(diagnostic.range.end()),
            "severity": diagnostic.severity.to_string(),
            "code": diagnostic.code.as_str(),
            "message": diagnostic.message,
            "notes": notes,
            "help": diagnostic.help,
            "fixes": fixes,
            "rendered": rendered,
        });
        format!("{object}\n")
    }

    /// A related location as JSON: located in its file when that file's text is at hand, else
    /// with its byte range only (`line` and the columns `null`).
    fn json_note(&mut self, related: &Related) -> serde_json::Value {
        let file = related.file.as_deref().unwrap_or(self.path);
        // Notes in this file walk on the renderer's cursor for them, as in `render`.
        let mut other_file_cursor = START;
        let (text, cursor) = if file == self.path {
            (Some(self.text), &mut self.related_cursor)
        } else {
            (
                self.others.and_then(|lookup| lookup(file)),
                &mut other_file_cursor,
            )
        };
        let mut note = match text {
            Some(text) => json_location(file, text, cursor, related.range),
            None => serde_json::json!({
                "file": file,
                "line": null,
                "column": null,
                "end_line": null,
                "end_column": null,
                "byte_start": u32::from(related.range.start()),
                "byte_end": u32::from(related.range.end()),
            }),
        };
        note["message"] = related.message.clone().into();
        note
    }

    /// One diagnostic: its header and excerpt, a note block per related location, then its
    /// help lines (or, without any, its fix's title as a help line).
    pub fn render(&mut self, diagnostic: &Diagnostic) -> String {
        let p = self.palette;
        let mut out = String::new();
        let at = locate(self.text, &mut self.cursor, diagnostic.range.start());
        let level = match diagnostic.severity {
            Severity::Error => p.error,
            Severity::Warning => p.warning,
        };
        let _ = writeln!(
            out,
            "{} {}{}",
            p.paint(
                p.bold,
                format_args!("{}:{}:{}:", self.path, at.line, at.col)
            ),
            p.paint(
                level,
                format_args!("{}[{}]", diagnostic.severity, diagnostic.code.as_str())
            ),
            p.paint(p.bold, format_args!(": {}", diagnostic.message)),
        );
        excerpt(&mut out, &p, level, self.text, at, diagnostic.range);
        for related in &diagnostic.related {
            self.render_related(&mut out, related);
        }
        for help in &diagnostic.help {
            let _ = writeln!(out, "{}: {help}", p.paint(p.help, "help"));
        }
        // A fix's title says what the help lines already say when there are any.
        if let Some(fix) = diagnostic
            .fixes
            .first()
            .filter(|_| diagnostic.help.is_empty())
        {
            let _ = writeln!(out, "{}: {}", p.paint(p.help, "help"), fix.title);
        }
        out
    }

    fn render_related(&mut self, out: &mut String, related: &Related) {
        let p = self.palette;
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
                        "{} {}: {} (at bytes {}..{})",
                        p.paint(p.bold, format_args!("{file}:")),
                        p.paint(p.note, "note"),
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
            "{} {}: {}",
            p.paint(p.bold, format_args!("{path}:{}:{}:", at.line, at.col)),
            p.paint(p.note, "note"),
            related.message
        );
        excerpt(out, &p, p.note, text, at, related.range);
    }
}

/// The version of the JSON objects `pcl` prints (`docs/json.md`): raised when a field changes
/// meaning or goes away, not when one is added.
pub const JSON_VERSION: u32 = 1;

/// `range` of `text` as the JSON objects give a place: file, 1-based lines and columns (in
/// characters), byte offsets.
/// Walks from `cursor` (from the start when the range is before it) and leaves it at the end.
fn json_location(
    file: &str,
    text: &str,
    cursor: &mut Cursor,
    range: TextRange,
) -> serde_json::Value {
    let at = locate(text, cursor, range.start());
    let end = locate(text, cursor, range.end());
    serde_json::json!({
        "file": file,
        "line": at.line,
        "column": at.col,
        "end_line": end.line,
        "end_column": end.col,
        "byte_start": u32::from(range.start()),
        "byte_end": u32::from(range.end()),
    })
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

/// The gutter, the source line (a window of it when it is long) and a caret line under `range`,
/// in `level`'s colour. Carets are placed by display width (`日本語` is six columns wide), with
/// a tab shown as four spaces, and control and bidirectional-override characters shown as `�`
/// so that the source cannot drive the terminal.
fn excerpt(
    out: &mut String,
    p: &Palette,
    level: &'static str,
    text: &str,
    at: Cursor,
    range: TextRange,
) {
    let start = at.offset;
    let from = floor_char_boundary(text, start.saturating_sub(MAX_SHOWN / 2).max(at.line_start));
    let window_end = floor_char_boundary(text, (from + MAX_SHOWN).min(text.len()).max(start));
    let to = text[start..window_end]
        .find('\n')
        .map_or(window_end, |i| start + i);
    let shown = text[from..to].trim_end_matches('\r');
    let gutter = at.line.to_string();
    let pad = " ".repeat(gutter.len());
    let bar = p.paint(p.gutter, format_args!("{pad} |"));
    let _ = writeln!(out, "{bar}");
    let mut line = String::with_capacity(shown.len());
    for c in shown.chars() {
        push_shown(&mut line, c);
    }
    let _ = writeln!(
        out,
        "{} {}",
        p.paint(p.gutter, format_args!("{gutter} |")),
        line
    );
    let caret_col = width(&text[from..start]);
    let end = floor_char_boundary(text, usize::from(range.end()).clamp(start, to));
    let carets = width(text[start..end].trim_end_matches('\r')).max(1);
    let _ = writeln!(
        out,
        "{bar} {}{}",
        " ".repeat(caret_col),
        p.paint(level, "^".repeat(carets))
    );
}

/// Characters shown as `�`: controls, and those that reorder text on screen (CVE-2021-42574).
fn hidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Shows `c` as [`char_width`] counts it.
fn push_shown(line: &mut String, c: char) {
    match c {
        '\t' => line.push_str("    "),
        c if hidden(c) => line.push('\u{FFFD}'),
        c => line.push(c),
    }
}

/// How many columns a character of a source line takes as shown.
fn char_width(c: char) -> usize {
    match c {
        '\t' => 4,
        c if hidden(c) => 1,
        c => c.width().unwrap_or(0),
    }
}

/// The display width of `text` as shown.
fn width(text: &str) -> usize {
    text.chars().map(char_width).sum()
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

    /// Carets sit under the range as a terminal shows the line: wide characters take two
    /// columns, a tab four, and a control character (shown as `�`) one.
    #[test]
    fn carets_are_placed_by_display_width() {
        let text = "x = \"日本語日本語\" ** 2\ny = \"🦀\t\u{1b}[31m\" & 1\nz = \"e\u{301}\" ! 1\n";
        let at = |needle: &str| {
            let start = text.find(needle).expect("in the text") as u32;
            range(start, start + needle.len() as u32)
        };
        let mut renderer = Renderer::new("w.pp", text);
        let rendered: String = ["**", "&", "!"]
            .iter()
            .map(|op| renderer.render(&Diagnostic::new(Code::UnsupportedOperator, at(op), "op")))
            .collect();
        expect![[r#"
            w.pp:1:14: error[E0004]: op
              |
            1 | x = "日本語日本語" ** 2
              |                    ^^
            w.pp:2:15: error[E0004]: op
              |
            2 | y = "🦀    �[31m" & 1
              |                   ^
            w.pp:3:10: error[E0004]: op
              |
            3 | z = "é" ! 1
              |         ^
        "#]]
        .assert_eq(&rendered);
    }

    /// With a palette, the header, the gutter and the carets are painted, and taking the
    /// escapes out gives the plain rendering.
    #[test]
    fn colour_changes_nothing_but_the_escapes() {
        let text = "a = 1\na = 2\n";
        let diagnostic = Diagnostic::new(Code::DuplicateAttribute, range(6, 7), "`a` again")
            .with_related(range(0, 1), "first set here")
            .with_help("remove one");
        let plain = Renderer::new("m.pp", text).render(&diagnostic);
        let coloured = Renderer::new("m.pp", text)
            .with_palette(crate::term::Palette::ANSI)
            .render(&diagnostic);
        assert!(
            coloured.contains("\u{1b}[1;91merror[E0025]\u{1b}[0m"),
            "{coloured:?}"
        );
        assert!(
            coloured.contains("\u{1b}[1;92mnote\u{1b}[0m"),
            "{coloured:?}"
        );
        let mut stripped = String::new();
        let mut chars = coloured.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                chars.by_ref().find(|&c| c == 'm');
            } else {
                stripped.push(c);
            }
        }
        assert_eq!(stripped, plain);
    }
}
