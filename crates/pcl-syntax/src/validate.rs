//! Checks that need more than the token stream: number literals, string escapes, block labels,
//! duplicate attributes. hclsyntax reports these at parse time, so they are syntax errors here
//! too. The tree builder calls them as it replays the parse, so they cost no extra tree walk.

use crate::ast;
use crate::{SyntaxError, TextRange, TextSize};

pub(crate) struct Validator<'e> {
    pub(crate) errors: &'e mut Vec<SyntaxError>,
}

fn range(start: u32, end: u32) -> TextRange {
    TextRange::new(TextSize::from(start), TextSize::from(end))
}

impl Validator<'_> {
    fn error(&mut self, start: u32, end: u32, message: impl Into<String>) {
        self.errors.push(SyntaxError {
            range: range(start, end),
            message: message.into(),
        });
    }

    /// `digits ('.' digits)? ([eE] [+-]? digits)?`: the lexer accepts looser forms (`1.2.3`).
    pub(crate) fn check_number(&mut self, text: &str, start: u32) {
        if !is_valid_number(text) {
            self.error(
                start,
                start + text.len() as u32,
                format!("Invalid number literal `{text}`"),
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
            start,
            end,
            "Invalid string literal: template sequences are not allowed in a block label; to include a literal `$`, double it (`$${`)",
        );
    }

    pub(crate) fn attribute_redefined(&mut self, name: &str, start: u32) {
        self.error(
            start,
            start + name.len() as u32,
            format!(
                "Attribute redefined: `{name}` is already set in this body; each argument may be set only once"
            ),
        );
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
