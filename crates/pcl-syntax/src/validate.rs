//! Checks that need more than the token stream: number literals, string escapes, block labels,
//! duplicate attributes. hclsyntax reports these at parse time, so they are syntax errors here
//! too. The tree builder calls them as it replays the parse, so they cost no extra tree walk.

use crate::ast;
use crate::{SyntaxError, SyntaxErrorKind, TextRange, TextSize};

pub(crate) struct Validator<'e> {
    pub(crate) errors: &'e mut Vec<SyntaxError>,
}

fn range(start: u32, end: u32) -> TextRange {
    TextRange::new(TextSize::from(start), TextSize::from(end))
}

impl Validator<'_> {
    fn error(&mut self, kind: SyntaxErrorKind, start: u32, end: u32, message: impl Into<String>) {
        self.errors
            .push(SyntaxError::new(kind, range(start, end), message));
    }

    /// `digits ('.' digits)? ([eE] [+-]? digits)?`: the lexer accepts looser forms (`1.2.3`).
    pub(crate) fn check_number(&mut self, text: &str, start: u32) {
        if !is_valid_number(text) {
            self.error(
                SyntaxErrorKind::InvalidNumber,
                start,
                start + text.len() as u32,
                format!("invalid number literal `{text}`"),
            );
        }
    }

    /// Reports every bad escape of a quoted-string literal, not just the first.
    pub(crate) fn check_escapes(&mut self, text: &str, start: u32) {
        if !text.contains('\\') {
            return;
        }
        let mut offset = 0;
        while offset < text.len() {
            match ast::unescape_quoted(&text[offset..]) {
                Ok(_) => break,
                Err((bad_start, bad_end, message)) => {
                    self.error(
                        SyntaxErrorKind::InvalidEscape,
                        start + (offset + bad_start) as u32,
                        start + (offset + bad_end) as u32,
                        message,
                    );
                    offset += bad_end.max(bad_start + 1);
                }
            }
        }
    }

    pub(crate) fn label_template(&mut self, start: u32, end: u32) {
        self.error(
            SyntaxErrorKind::MalformedLabel,
            start,
            end,
            "invalid string literal: template sequences are not allowed in a block label; to include a literal `$`, double it (`$${`)",
        );
    }

    /// `name` at `start` was first set at `first`.
    pub(crate) fn attribute_redefined(&mut self, name: &str, start: u32, first: u32) {
        let len = name.len() as u32;
        let mut error = SyntaxError::new(
            SyntaxErrorKind::DuplicateAttribute,
            range(start, start + len),
            format!(
                "attribute redefined: `{name}` is already set in this body; each argument may be set only once"
            ),
        );
        error.related.push((
            range(first, first + len),
            format!("`{name}` is first set here"),
        ));
        self.errors.push(error);
    }
}

fn is_valid_number(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |mut i: usize| {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > start).then_some(i)
    };
    let end = (|| {
        let mut i = digits(0)?;
        if b.get(i) == Some(&b'.') {
            i = digits(i + 1)?;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            i = digits(i)?;
        }
        Some(i)
    })();
    end == Some(b.len())
}
