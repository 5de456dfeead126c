//! The kinds of syntax errors: one per kind of problem, each with a stable diagnostic code.
//!
//! Every error the lexer, the parser and the tree validation report has a kind, so tools tell
//! errors apart by kind (and code), never by message text. The message says what exactly is wrong
//! and what was expected; the kind says which family of problem it is.

use pcl_diagnostics::Code;

/// What kind of syntax problem an error is. See `docs/diagnostics.md` for an example of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SyntaxErrorKind {
    /// The file is not valid UTF-8 (reported by whoever decodes it, before lexing).
    InvalidEncoding,
    /// A character that starts no token (`;`, a control character, a stray byte order mark, a
    /// carriage return without a line feed), or a run of them.
    InvalidCharacter,
    /// A string in single quotes, backticks or curly quotes.
    InvalidQuote,
    /// `&`, `|`, `^`, `~` or `**`.
    UnsupportedOperator,
    /// A quoted string that its line does not close.
    UnterminatedString,
    /// An escape sequence HCL does not have (`\q`, `\u12`).
    InvalidEscape,
    /// A number literal HCL does not accept (`1.2.3`, `1e`, `.5`).
    InvalidNumber,
    /// Text after the marker of a heredoc introducer (`<<EOT junk`).
    InvalidHeredoc,
    /// A heredoc that no marker line closes.
    UnterminatedHeredoc,
    /// A token where the grammar expects another one (the message says which).
    UnexpectedToken,
    /// An expression is missing or cannot start here.
    ExpectedExpression,
    /// A missing `,` between elements or arguments, a missing newline or `,` between object
    /// items, a missing `=`/`:` between an object key and its value, or a missing `=` between
    /// an argument's name and its value.
    MissingSeparator,
    /// An argument or block that does not end its line.
    MissingNewline,
    /// A `(`, `[`, `{`, `${` or `%{` that nothing closes (reported at the opener, or after the
    /// last token of a list left open before the next item).
    UnclosedBracket,
    /// A block whose `{` nothing closes.
    UnclosedBlock,
    /// A malformed block header or one-line block body.
    InvalidBlock,
    /// A block label that is a number, or a string with template sequences.
    MalformedLabel,
    /// An argument name written as a quoted string.
    QuotedArgumentName,
    /// A malformed traversal step: `.` without a name, `.0.1`, a nested splat, `[*` without `]`.
    MalformedTraversal,
    /// A malformed `[for ...]` or `{for ...}`.
    InvalidForExpression,
    /// A malformed template directive: an unknown keyword, a broken `for` header, extra tokens.
    InvalidDirective,
    /// `%{ else }`, `%{ endif }` or `%{ endfor }` with no directive to continue or close.
    UnexpectedDirective,
    /// `%{ if }` or `%{ for }` without its closing directive.
    UnclosedDirective,
    /// Nesting beyond [`crate::MAX_DEPTH`] levels.
    NestingTooDeep,
    /// An argument set twice in one body.
    DuplicateAttribute,
}

impl SyntaxErrorKind {
    /// Every kind, in the order of their codes.
    pub const ALL: &'static [SyntaxErrorKind] = &[
        SyntaxErrorKind::InvalidEncoding,
        SyntaxErrorKind::InvalidCharacter,
        SyntaxErrorKind::InvalidQuote,
        SyntaxErrorKind::UnsupportedOperator,
        SyntaxErrorKind::UnterminatedString,
        SyntaxErrorKind::InvalidEscape,
        SyntaxErrorKind::InvalidNumber,
        SyntaxErrorKind::InvalidHeredoc,
        SyntaxErrorKind::UnterminatedHeredoc,
        SyntaxErrorKind::UnexpectedToken,
        SyntaxErrorKind::ExpectedExpression,
        SyntaxErrorKind::MissingSeparator,
        SyntaxErrorKind::MissingNewline,
        SyntaxErrorKind::UnclosedBracket,
        SyntaxErrorKind::UnclosedBlock,
        SyntaxErrorKind::InvalidBlock,
        SyntaxErrorKind::MalformedLabel,
        SyntaxErrorKind::QuotedArgumentName,
        SyntaxErrorKind::MalformedTraversal,
        SyntaxErrorKind::InvalidForExpression,
        SyntaxErrorKind::InvalidDirective,
        SyntaxErrorKind::UnexpectedDirective,
        SyntaxErrorKind::UnclosedDirective,
        SyntaxErrorKind::NestingTooDeep,
        SyntaxErrorKind::DuplicateAttribute,
    ];

    /// The diagnostic code of this kind (`E0001`..`E0099`).
    pub fn code(self) -> Code {
        match self {
            SyntaxErrorKind::InvalidEncoding => Code::InvalidEncoding,
            SyntaxErrorKind::InvalidCharacter => Code::InvalidCharacter,
            SyntaxErrorKind::InvalidQuote => Code::InvalidQuote,
            SyntaxErrorKind::UnsupportedOperator => Code::UnsupportedOperator,
            SyntaxErrorKind::UnterminatedString => Code::UnterminatedString,
            SyntaxErrorKind::InvalidEscape => Code::InvalidEscape,
            SyntaxErrorKind::InvalidNumber => Code::InvalidNumber,
            SyntaxErrorKind::InvalidHeredoc => Code::InvalidHeredoc,
            SyntaxErrorKind::UnterminatedHeredoc => Code::UnterminatedHeredoc,
            SyntaxErrorKind::UnexpectedToken => Code::UnexpectedToken,
            SyntaxErrorKind::ExpectedExpression => Code::ExpectedExpression,
            SyntaxErrorKind::MissingSeparator => Code::MissingSeparator,
            SyntaxErrorKind::MissingNewline => Code::MissingNewline,
            SyntaxErrorKind::UnclosedBracket => Code::UnclosedBracket,
            SyntaxErrorKind::UnclosedBlock => Code::UnclosedBlock,
            SyntaxErrorKind::InvalidBlock => Code::InvalidBlock,
            SyntaxErrorKind::MalformedLabel => Code::MalformedLabel,
            SyntaxErrorKind::QuotedArgumentName => Code::QuotedArgumentName,
            SyntaxErrorKind::MalformedTraversal => Code::MalformedTraversal,
            SyntaxErrorKind::InvalidForExpression => Code::InvalidForExpression,
            SyntaxErrorKind::InvalidDirective => Code::InvalidDirective,
            SyntaxErrorKind::UnexpectedDirective => Code::UnexpectedDirective,
            SyntaxErrorKind::UnclosedDirective => Code::UnclosedDirective,
            SyntaxErrorKind::NestingTooDeep => Code::NestingTooDeep,
            SyntaxErrorKind::DuplicateAttribute => Code::DuplicateAttribute,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind has its own code, in the syntax section, and every syntax code has a kind.
    #[test]
    fn kinds_and_syntax_codes_correspond() {
        let codes: Vec<Code> = SyntaxErrorKind::ALL.iter().map(|k| k.code()).collect();
        let syntax_codes: Vec<Code> = Code::ALL
            .iter()
            .copied()
            .filter(|c| c.as_str()[1..].starts_with("00"))
            .collect();
        assert_eq!(codes, syntax_codes);
    }
}
