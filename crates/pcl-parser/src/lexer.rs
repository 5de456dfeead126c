//! The modal lexer: HCL native syntax into a lossless token stream.
//!
//! Normal (expression) mode is a logos automaton. Template text (quoted strings and heredocs) is
//! scanned by hand, because what ends it depends on a mode stack: `${`/`%{` push normal mode with
//! a brace count, `}` at count zero pops back to the template, `"` closes a quoted string and a line
//! holding only the marker closes a heredoc. Lexing never fails: bytes that form no token become an
//! `ERROR_TOKEN` with a [`LexError`] saying why, so the tokens always cover the whole input.
//!
//! Where a mistake would throw every later token off (a `}` missing before the next `${`, a
//! label's closing quote missing, a heredoc marker misspelt), the lexer decides where the
//! construct ends at the point of the decision, looking no further than the line (or, for
//! heredocs, at an index of the lines that could close one, built once), and the parser reports
//! the mistake from the tokens as lexed. Valid input never meets these decisions.

use logos::Logos;

use crate::error::SyntaxErrorKind;
use crate::syntax_kind::SyntaxKind::{self, *};

/// The tokens of one input, trivia included, and the lexer's error messages.
#[derive(Debug, Clone)]
pub struct Lexed<'a> {
    text: &'a str,
    kinds: Vec<SyntaxKind>,
    /// `starts[i]` is the byte offset of token `i`; one extra entry holds the input length.
    starts: Vec<u32>,
    errors: Vec<LexError>,
    /// The `${` tokens (indices) met inside an interpolation's expression whose `}` is followed
    /// by the outer interpolation's (`"${upper(${prefix})}"`): the parser reads each as its
    /// expression in parentheses. In order; usually empty.
    nested_interps: Vec<u32>,
    /// The `HEREDOC_START` tokens (indices) of heredocs that no line further on closes, cut
    /// where their closing line is most likely missing (see `cut_end`). In order; usually empty.
    cut_heredocs: Vec<u32>,
}

/// Why a span of input is an error token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    pub kind: SyntaxErrorKind,
    pub start: u32,
    pub end: u32,
    pub message: String,
    /// A suggestion shown after the message ("did you mean `&&`?"), never part of it.
    pub help: Option<String>,
}

impl<'a> Lexed<'a> {
    /// Lexes a whole configuration file (normal mode at the top).
    ///
    /// Offsets are `u32`: inputs of 4 GiB or more are cut off at that length by the caller.
    pub fn new(text: &'a str) -> Lexed<'a> {
        assert!(
            text.len() < u32::MAX as usize,
            "inputs must be smaller than 4 GiB"
        );
        let mut lexer = Lexer {
            src: text,
            pos: 0,
            modes: Vec::new(),
            out: Lexed {
                text,
                kinds: Vec::with_capacity(text.len() / 4),
                starts: Vec::with_capacity(text.len() / 4 + 1),
                errors: Vec::new(),
                nested_interps: Vec::new(),
                cut_heredocs: Vec::new(),
            },
            in_invalid_run: false,
            marker_lines: None,
        };
        lexer.run();
        let mut out = lexer.out;
        out.starts.push(text.len() as u32);
        out
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    #[inline]
    pub fn kind(&self, i: usize) -> SyntaxKind {
        self.kinds.get(i).copied().unwrap_or(EOF)
    }

    pub fn kinds(&self) -> &[SyntaxKind] {
        &self.kinds
    }

    #[inline]
    pub fn text(&self, i: usize) -> &'a str {
        let (start, end) = self.range(i);
        &self.text[start as usize..end as usize]
    }

    /// Byte range of token `i`; the empty range at the end for `i >= len()`.
    #[inline]
    pub fn range(&self, i: usize) -> (u32, u32) {
        let n = self.kinds.len();
        let i = i.min(n);
        let end = if i < n {
            self.starts[i + 1]
        } else {
            self.starts[n]
        };
        (self.starts[i], end)
    }

    pub fn source(&self) -> &'a str {
        self.text
    }

    pub fn errors(&self) -> &[LexError] {
        &self.errors
    }

    /// Whether token `i` opens a heredoc that no line closes, cut where its closing line is
    /// most likely missing (the parser reports it).
    #[inline]
    pub fn is_cut_heredoc(&self, i: usize) -> bool {
        !self.cut_heredocs.is_empty() && self.cut_heredocs.binary_search(&(i as u32)).is_ok()
    }

    /// Whether token `i` is a `${` written inside an interpolation's expression (see
    /// `nested_interps`).
    #[inline]
    pub fn is_nested_interp(&self, i: usize) -> bool {
        !self.nested_interps.is_empty() && self.nested_interps.binary_search(&(i as u32)).is_ok()
    }
}

/// Normal-mode tokens, as logos sees them. Several need a second look by the driver (identifiers
/// that continue with non-ASCII letters, numbers in hclsyntax's loose form, comments, `<<`).
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
enum NormalToken {
    #[regex("[ \t]+")]
    Whitespace,
    #[token("\n")]
    #[token("\r\n")]
    Newline,
    #[token("#")]
    #[token("//")]
    LineComment,
    #[token("/*")]
    BlockComment,
    #[regex("[A-Za-z_][A-Za-z0-9_-]*")]
    Ident,
    #[regex("[0-9]+")]
    Number,
    #[regex("[^\x00-\x7F]")]
    NonAscii,
    #[token("\"")]
    Quote,
    #[token("<<")]
    LtLt,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("~}")]
    TildeRBrace,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token(".")]
    Dot,
    #[token("...")]
    Ellipsis,
    #[token(",")]
    Comma,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("=")]
    Eq,
    #[token("==")]
    Eq2,
    #[token("!=")]
    Neq,
    #[token("<")]
    Lt,
    #[token("<=")]
    LtEq,
    #[token(">")]
    Gt,
    #[token(">=")]
    GtEq,
    #[token("&&")]
    Amp2,
    #[token("||")]
    Pipe2,
    #[token("!")]
    Bang,
    #[token("?")]
    Question,
    #[token(":")]
    Colon,
    #[token("::")]
    Colon2,
    #[token("=>")]
    FatArrow,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("'")]
    Apostrophe,
    #[token("**")]
    StarStar,
    #[token("`")]
    Backtick,
    #[token(";")]
    Semicolon,
}

#[derive(Debug, Clone, Copy)]
enum Mode {
    /// Inside `${ ... }` or `%{ ... }`: normal tokens, counting braces to find the closing `}`,
    /// and the `(` and `[` open (only to tell where a `${` may end the sequence).
    Sequence { depth: u32, brackets: u32 },
    /// Inside `"..."`.
    Quoted,
    /// Inside a heredoc body. `line_start` is true while nothing but literal text has been seen on
    /// the current line, the condition for a closing marker.
    Heredoc {
        marker_start: u32,
        marker_end: u32,
        line_start: bool,
        /// Where the heredoc ends when no line further on holds its marker (see
        /// `Lexer::cut_end`): the start of the first line after it; `u32::MAX` otherwise.
        cut: u32,
    },
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    modes: Vec<Mode>,
    out: Lexed<'a>,
    /// Whether the last error is a run of plain invalid characters, which the next invalid
    /// character right after it joins.
    in_invalid_run: bool,
    /// For each text that a line holds alone (trimmed) and that could be a heredoc marker, the
    /// start of the last such line that ends with a line break: whether a heredoc can still be
    /// closed further on. Built on first use, which only broken input needs (a heredoc line that
    /// looks like its marker misspelt, `<< EOT`), so a file is scanned for it at most once.
    marker_lines: Option<std::collections::HashMap<&'a str, u32>>,
}

impl<'a> Lexer<'a> {
    fn run(&mut self) {
        // One leading byte order mark is dropped by hclsyntax; keep it as trivia.
        if self.src.starts_with('\u{feff}') {
            self.push(WHITESPACE, 3);
        }
        while self.pos < self.src.len() {
            match self.modes.last().copied() {
                None => self.lex_normal(false),
                Some(Mode::Sequence { .. }) => self.lex_normal(true),
                Some(Mode::Quoted) => self.lex_quoted(),
                Some(Mode::Heredoc {
                    marker_start,
                    marker_end,
                    line_start,
                    cut,
                }) => self.lex_heredoc(marker_start, marker_end, line_start, cut),
            }
        }
    }

    fn push(&mut self, kind: SyntaxKind, len: usize) {
        debug_assert!(len > 0);
        self.out.kinds.push(kind);
        self.out.starts.push(self.pos as u32);
        self.pos += len;
    }

    fn push_error(&mut self, kind: SyntaxErrorKind, len: usize, message: String) {
        self.push_error_token(kind, len, message);
        self.in_invalid_run = false;
    }

    /// A plain invalid character (no more specific explanation): runs of them (binary garbage)
    /// become one token and one error.
    fn push_invalid_char(&mut self, len: usize, message: String) {
        let start = self.pos as u32;
        if self.in_invalid_run && self.out.kinds.last() == Some(&ERROR_TOKEN) {
            if let Some(last) = self.out.errors.last_mut() {
                if last.end == start {
                    self.pos += len;
                    last.end = self.pos as u32;
                    last.message = "invalid characters".to_string();
                    return;
                }
            }
        }
        self.push_error_token(SyntaxErrorKind::InvalidCharacter, len, message);
        self.in_invalid_run = true;
    }

    fn push_error_token(&mut self, kind: SyntaxErrorKind, len: usize, message: String) {
        let start = self.pos as u32;
        self.out.errors.push(LexError {
            kind,
            start,
            end: start + len as u32,
            message,
            help: None,
        });
        self.push(ERROR_TOKEN, len);
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    /// `in_sequence`: inside `${ }` or `%{ }` (the checks for a missing `}` apply only there,
    /// so tokens outside strings pay nothing for them).
    fn lex_normal(&mut self, in_sequence: bool) {
        let rest = self.rest();
        if in_sequence
            && rest
                .as_bytes()
                .first()
                .is_some_and(|&b| b == b'$' || is_separator(b))
            && self.in_template_interpolation()
            && runs_into_interpolation(rest)
        {
            // `"${a-${b}"`: a `${` (never a token of an expression) in an interpolation directly
            // in a template, with no bracket of its own open, after nothing but separators and
            // spaces: the interpolation lacks its `}`, which belongs before them. It ends here,
            // and the template goes on with the separators as text and the `${` as its next
            // interpolation; the parser reports the missing `}`.
            self.modes.pop();
            return;
        }
        if in_sequence && rest.as_bytes().first() == Some(&b'$') && self.open_nested_interp(rest) {
            return;
        }
        let mut logos = NormalToken::lexer(rest);
        let Some(token) = logos.next() else { return };
        let len = logos.span().end;
        let Ok(token) = token else {
            self.invalid_char();
            return;
        };
        use NormalToken as T;
        let kind = match token {
            T::Whitespace => WHITESPACE,
            T::Newline => NEWLINE,
            T::LineComment => {
                let end = rest.find('\n').unwrap_or(rest.len());
                let end = if rest[..end].ends_with('\r') && end < rest.len() {
                    end - 1
                } else {
                    end
                };
                return self.push(COMMENT, end);
            }
            T::BlockComment => match rest[2..].find("*/") {
                Some(i) => return self.push(BLOCK_COMMENT, i + 4),
                // An unterminated `/*` is not a comment (hclsyntax): it is `/` then `*`.
                None => return self.push(SLASH, 1),
            },
            T::Ident => {
                // logos matched the ASCII part; only a non-ASCII letter can continue it.
                let len = if rest.as_bytes().get(len).is_some_and(|b| !b.is_ascii()) {
                    ident_len(rest)
                } else {
                    len
                };
                // `"${name-${b}"`: the `-` before the `${` is text after the `}` missing
                // (see `runs_into_interpolation`), not part of the name.
                if in_sequence
                    && rest.as_bytes()[len - 1] == b'-'
                    && rest[len..].starts_with("${")
                    && (self.in_template_interpolation() || closes_as_nested(&rest[len..]))
                {
                    return self.push(IDENT, rest[..len].trim_end_matches('-').len());
                }
                return self.push(IDENT, len);
            }
            T::NonAscii => {
                let c = rest.chars().next().unwrap_or('\u{fffd}');
                if unicode_ident::is_xid_start(c) {
                    return self.push(IDENT, ident_len(rest));
                }
                return self.invalid_char();
            }
            T::Number => return self.push(NUMBER, number_len(rest)),
            T::Quote => {
                if self.quote_closes_outer_string(rest) {
                    // `"${x"`: the interpolation lacks its `}`. This quote cannot open a nested
                    // string (no other quote follows on the line, and strings end with their
                    // line), so it closes the outer one; the parser reports the missing `}`.
                    self.modes.truncate(self.modes.len() - 2);
                    return self.push(CQUOTE, 1);
                }
                self.modes.push(Mode::Quoted);
                OQUOTE
            }
            T::LtLt => {
                if let Some((flush_len, marker_len, total)) = heredoc_intro(rest) {
                    let marker_start = (self.pos + 2 + flush_len) as u32;
                    let junk_start = marker_start as usize + marker_len;
                    let line_end = self.pos + total;
                    let junk = self.src[junk_start..line_end].trim_end_matches(['\r', '\n']);
                    if !junk.is_empty() {
                        self.in_invalid_run = false;
                        self.out.errors.push(LexError {
                            kind: SyntaxErrorKind::InvalidHeredoc,
                            start: junk_start as u32,
                            end: (junk_start + junk.len()) as u32,
                            message: "invalid heredoc introducer: the marker must be followed \
                                      directly by a newline"
                                .into(),
                            help: None,
                        });
                    }
                    let marker_end = marker_start + marker_len as u32;
                    return self.open_heredoc(marker_start, marker_end, total);
                }
                if let Some(intro) = spaced_heredoc_intro(rest) {
                    // `<< EOT`: a space before the marker, one error there. It is the heredoc
                    // it looks like (hclsyntax reads `<` `<`: an invalid expression either
                    // way); when no line further on holds only the marker, the heredoc is cut
                    // like any other that no line closes, and the parser's one error says both.
                    let marker_start = self.pos + intro.marker_start;
                    let marker_end = marker_start + intro.marker_len;
                    let marker = &self.src[marker_start..marker_end];
                    let flush = if intro.flush { "-" } else { "" };
                    let error = LexError {
                        kind: SyntaxErrorKind::InvalidHeredoc,
                        start: (marker_start - intro.gap) as u32,
                        end: marker_start as u32,
                        message: "invalid heredoc introducer: there must be no space between \
                                  `<<` and the marker"
                            .into(),
                        help: Some(format!("write `<<{flush}{marker}`")),
                    };
                    self.in_invalid_run = false;
                    // With no line further on holding the marker either, the heredoc is cut
                    // (see `open_heredoc`), and the parser reports both mistakes at once.
                    if self.marker_line_after(marker, self.pos + intro.total) {
                        self.out.errors.push(error);
                    }
                    return self.open_heredoc(marker_start as u32, marker_end as u32, intro.total);
                }
                return self.push(LT, 1);
            }
            T::LBrace => {
                if let Some(Mode::Sequence { depth, .. }) = self.modes.last_mut() {
                    *depth += 1;
                }
                L_BRACE
            }
            T::RBrace | T::TildeRBrace => {
                if let Some(Mode::Sequence { depth, .. }) = self.modes.last_mut() {
                    if *depth == 0 {
                        self.modes.pop();
                        return self.push(TEMPLATE_SEQ_END, len);
                    }
                    if token == T::RBrace {
                        *depth -= 1;
                    }
                }
                if token == T::TildeRBrace {
                    // `~}` outside a template sequence: report the `~`, then lex `}` normally.
                    return self.unsupported_operator('~');
                }
                R_BRACE
            }
            T::LBrack | T::LParen => {
                if let Some(Mode::Sequence { brackets, .. }) = self.modes.last_mut() {
                    *brackets += 1;
                }
                if token == T::LBrack {
                    L_BRACK
                } else {
                    L_PAREN
                }
            }
            T::RBrack | T::RParen => {
                if let Some(Mode::Sequence { brackets, .. }) = self.modes.last_mut() {
                    *brackets = brackets.saturating_sub(1);
                }
                if token == T::RBrack {
                    R_BRACK
                } else {
                    R_PAREN
                }
            }
            T::Dot => DOT,
            T::Ellipsis => ELLIPSIS,
            T::Comma => COMMA,
            T::Star => STAR,
            T::Slash => SLASH,
            T::Percent => PERCENT,
            T::Plus => PLUS,
            T::Minus => MINUS,
            T::Eq => EQ,
            T::Eq2 => EQ2,
            T::Neq => NEQ,
            T::Lt => LT,
            T::LtEq => LTEQ,
            T::Gt => GT,
            T::GtEq => GTEQ,
            T::Amp2 => AMP2,
            T::Pipe2 => PIPE2,
            T::Bang => BANG,
            T::Question => QUESTION,
            T::Colon => COLON,
            T::Colon2 => COLON2,
            T::FatArrow => FAT_ARROW,
            T::Amp => return self.unsupported_operator('&'),
            T::Pipe => return self.unsupported_operator('|'),
            T::Caret => return self.unsupported_operator('^'),
            T::Tilde => return self.unsupported_operator('~'),
            T::Apostrophe => {
                let len = foreign_string_len(rest, '\'', '\'');
                return self.push_error(
                    SyntaxErrorKind::InvalidQuote,
                    len,
                    "invalid character: single quotes are not valid; use double quotes (`\"`) \
                     to write a string"
                        .into(),
                );
            }
            T::Backtick => {
                let len = foreign_string_len(rest, '`', '`');
                return self.push_error(
                    SyntaxErrorKind::InvalidQuote,
                    len,
                    "invalid character: backticks are not valid; use double quotes (`\"`) or a \
                     heredoc to write a string"
                        .into(),
                );
            }
            T::StarStar => {
                return self.push_error(
                    SyntaxErrorKind::UnsupportedOperator,
                    2,
                    "unsupported operator `**`: there is no exponent operator; use the `pow` \
                     function"
                        .into(),
                )
            }
            T::Semicolon => {
                return self.push_error(
                    SyntaxErrorKind::InvalidCharacter,
                    1,
                    "invalid character: semicolons are not valid; end an argument or block \
                     with a newline"
                        .into(),
                )
            }
        };
        self.push(kind, len);
    }

    /// `"${upper(${prefix})}"`: at a `${` in an interpolation's expression whose `}` the outer
    /// interpolation's follows (`closes_as_nested`), a sequence of its own, which the parser
    /// reads as its expression in parentheses, and reports. Whether it did. Out of line: only
    /// a `$` inside a sequence asks.
    #[cold]
    #[inline(never)]
    fn open_nested_interp(&mut self, rest: &str) -> bool {
        if !(rest.starts_with("${") && closes_as_nested(rest)) {
            return false;
        }
        self.out.nested_interps.push(self.out.kinds.len() as u32);
        self.modes.push(Mode::Sequence {
            depth: 0,
            brackets: 0,
        });
        self.push(TEMPLATE_INTERP, sequence_start(rest).unwrap_or(2));
        true
    }

    /// Whether a `"` met inside `${ }` (at brace depth zero, directly in a quoted string) must
    /// close that string rather than open a nested one.
    fn quote_closes_outer_string(&self, rest: &str) -> bool {
        let [.., Mode::Quoted, Mode::Sequence { depth: 0, .. }] = self.modes.as_slice() else {
            return false;
        };
        // It opens a nested string when another quote follows before the line ends; a line
        // break inside an interpolation the nested string opens does not end it (`"${"${`,
        // a line break, `1}"}"`, as hclsyntax reads it). The scan stops at the first quote,
        // at any depth, so that scans cover the text between quotes once: linear.
        let mut depth = 0u32;
        let mut bytes = rest.as_bytes()[1..].iter().peekable();
        while let Some(&b) = bytes.next() {
            match b {
                b'"' => return false,
                b'\n' | b'\r' if depth == 0 => return true,
                b'$' | b'%' if bytes.peek() == Some(&&b'{') => {
                    bytes.next();
                    depth += 1;
                }
                b'}' if depth > 0 => depth -= 1,
                _ => {}
            }
        }
        true
    }

    /// Whether the lexer is in a `${ }` or `%{ }` directly in a quoted string or a heredoc, with
    /// no bracket of its own open.
    fn in_template_interpolation(&self) -> bool {
        matches!(
            self.modes.as_slice(),
            [
                ..,
                Mode::Quoted | Mode::Heredoc { .. },
                Mode::Sequence {
                    depth: 0,
                    brackets: 0
                }
            ]
        )
    }

    /// Whether a line starting at or after `from` holds only `marker` and ends with a line
    /// break, as a heredoc's closing line must: the first question builds the index of such
    /// lines (one pass over the input), every later one is a lookup.
    fn marker_line_after(&mut self, marker: &str, from: usize) -> bool {
        let src = self.src;
        let lines = self.marker_lines.get_or_insert_with(|| {
            let mut lines = std::collections::HashMap::new();
            let mut start = 0;
            while let Some(nl) = src[start..].find('\n') {
                let line = src[start..start + nl].trim();
                if could_be_marker(line) {
                    lines.insert(line, start as u32);
                }
                start += nl + 1;
            }
            lines
        });
        lines.get(marker).is_some_and(|&last| last as usize >= from)
    }

    fn invalid_char(&mut self) {
        let c = self.rest().chars().next().unwrap_or('\u{fffd}');
        if c == '\u{201c}' {
            // A string in curly quotes: one error for the whole string, not one per quote.
            let len = foreign_string_len(self.rest(), '\u{201c}', '\u{201d}');
            return self.push_error(
                SyntaxErrorKind::InvalidQuote,
                len,
                "invalid character: curly quotes are not valid; use straight double quotes (`\"`) \
                 to write a string"
                    .into(),
            );
        }
        let (kind, message) = match c {
            '\u{201d}' => (
                SyntaxErrorKind::InvalidQuote,
                "invalid character: curly quotes are not valid; use straight double quotes (`\"`) \
                 to write a string",
            ),
            '\u{feff}' => (
                SyntaxErrorKind::InvalidCharacter,
                "invalid character: a byte order mark is only allowed at the very start of the \
                 file",
            ),
            '\r' => (
                SyntaxErrorKind::InvalidCharacter,
                "invalid character: a carriage return must be followed by a line feed",
            ),
            c if c.is_control() => {
                let message = format!("invalid character `{}`", c.escape_unicode());
                return self.push_invalid_char(c.len_utf8(), message);
            }
            c => {
                let message = format!("invalid character `{c}` (U+{:04X})", c as u32);
                return self.push_invalid_char(c.len_utf8(), message);
            }
        };
        self.push_error(kind, c.len_utf8(), message.to_string());
    }

    fn lex_quoted(&mut self) {
        let rest = self.rest();
        let bytes = rest.as_bytes();
        match bytes[0] {
            b'"' => {
                self.modes.pop();
                return self.push(CQUOTE, 1);
            }
            b'\n' | b'\r' => {
                // A string broken over two lines (`"${a}-⏎${b}"`): the next line holds one
                // quote, at its end. The line break is part of the string, with one error, so
                // that the next line is not read as code (an invalid `$`, and its `"` opening a
                // string of its own).
                let break_len = if rest.starts_with("\r\n") { 2 } else { 1 };
                if self.modes.len() == 1 && continues_on_next_line(&rest[break_len..]) {
                    self.out.errors.push(LexError {
                        kind: SyntaxErrorKind::UnterminatedString,
                        start: self.pos as u32,
                        end: (self.pos + break_len) as u32,
                        message: "a quoted string cannot span lines: join the lines (`\\n` writes a line break), or use a heredoc".to_string(),
                        help: None,
                    });
                    self.in_invalid_run = false;
                    return self.push(TEMPLATE_LITERAL, break_len);
                }
                // Otherwise a quoted string ends at the end of its line. hclsyntax carries on
                // into the next line, which turns every later quote inside out; stopping here
                // confines the damage to one line. The parser reports the missing quote.
                self.modes.pop();
                return;
            }
            _ => {}
        }
        if let Some(len) = sequence_start(rest) {
            return self.open_sequence(rest, len);
        }
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'"' | b'\n' | b'\r' => break,
                b'\\' => {
                    // An escape takes the next character with it, unless that ends the line.
                    match rest[i + 1..].chars().next() {
                        Some(c) if c != '\n' && c != '\r' => i += 1 + c.len_utf8(),
                        _ => i += 1,
                    }
                }
                b'$' | b'%' => match sigil_len(&rest[i..]) {
                    Some(len) => i += len,
                    None => break,
                },
                _ => i += 1,
            }
        }
        if i < bytes.len() && bytes[i] == b'"' && self.modes.len() == 1 {
            // `config "replicas "int" {`: a space, then a `"` right before a word and a `"`, the
            // last quote of a line that ends with `{`. That last quote would open a string
            // that never ends: the `"` missing is this string's, before the space, and this one
            // opens the next label. The string ends before the space; the parser reports it.
            let text = &rest[..i];
            let kept = text.trim_end_matches([' ', '\t']).len();
            if kept < text.len() && quoted_label_follows(&rest[i..]) {
                self.modes.pop();
                if kept > 0 {
                    self.push(TEMPLATE_LITERAL, kept);
                }
                return;
            }
        }
        if i < bytes.len() && bytes[i] != b'"' {
            // The line ends inside the string. When it ends with ` {` (or `, {`), the string's
            // `"` was most likely left out before it (`resource r "pkg:index:Type {`): the
            // string ends there, so that the `{` still opens the block (or the object) and its
            // body keeps its structure.
            let line = rest[..i].trim_end();
            if let Some(before) = line.strip_suffix('{') {
                // `invoke("pkg:index:fn, {`: the `"` belongs before the `,`.
                let text = before.trim_end();
                let text = text.strip_suffix(',').unwrap_or(text);
                if text.len() < before.len() {
                    self.modes.pop();
                    if !text.is_empty() {
                        self.push(TEMPLATE_LITERAL, text.len());
                    }
                    return;
                }
            }
        }
        self.push(TEMPLATE_LITERAL, i);
    }

    fn lex_heredoc(&mut self, marker_start: u32, marker_end: u32, line_start: bool, cut: u32) {
        // A heredoc cut where its closing line is missing ends before the line break of its
        // last line, which is lexed as the line break after the argument.
        let cut_at = if cut == u32::MAX {
            usize::MAX
        } else {
            line_break_before(self.src, cut as usize)
        };
        if self.pos >= cut_at {
            self.modes.pop();
            return;
        }
        let rest = self.rest();
        let rest = &rest[..rest.len().min(cut_at - self.pos)];
        if line_start {
            let nl = rest.find('\n');
            let line = &rest[..nl.unwrap_or(rest.len())];
            let line = line.strip_suffix('\r').unwrap_or(line);
            let marker = &self.src[marker_start as usize..marker_end as usize];
            let text = line.trim();
            if text == marker && nl.is_some() {
                self.modes.pop();
                return self.push(HEREDOC_END, line.len());
            }
            // A line that looks like the marker misspelt (`EOF` for `EOT`), when no line
            // further on can close the heredoc: it would run to the end of the input, so it
            // ends here instead. The parser reports the misspelt marker.
            if !line.is_empty()
                && misspelt_marker(text, marker)
                && !self.marker_line_after(marker, self.pos + line.len())
            {
                self.modes.pop();
                return self.push(HEREDOC_END, line.len());
            }
        }
        if let Some(len) = sequence_start(rest) {
            self.set_heredoc_line_start(false);
            return self.open_sequence(rest, len);
        }
        // One literal per line (up to and including its newline), or up to a template sequence.
        let bytes = rest.as_bytes();
        let mut i = 0;
        let mut ends_line = false;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => {
                    i += 1;
                    ends_line = true;
                    break;
                }
                b'$' | b'%' => match sigil_len(&rest[i..]) {
                    Some(len) => i += len,
                    None => break,
                },
                _ => i += 1,
            }
        }
        self.set_heredoc_line_start(ends_line);
        self.push(TEMPLATE_LITERAL, i);
    }

    /// A heredoc introducer of `total` bytes (its line break included) at the current position,
    /// its marker at `marker_start..marker_end`. When no line further on holds only the marker,
    /// the heredoc is cut where its closing line is most likely missing (`cut_end`), and the
    /// parser reports it.
    #[inline(never)]
    fn open_heredoc(&mut self, marker_start: u32, marker_end: u32, total: usize) {
        let body = self.pos + total;
        let marker = &self.src[marker_start as usize..marker_end as usize];
        let cut = if body > self.src.len()
            || !self.src[..body].ends_with('\n')
            || self.closing_line_after(marker, body)
        {
            None
        } else {
            // None too for a line that looks like the marker misspelt, which ends it (see
            // `lex_heredoc`).
            cut_end(self.src, body, line_indent_at(self.src, self.pos), marker)
        };
        let Some(cut) = cut else {
            self.modes.push(Mode::Heredoc {
                marker_start,
                marker_end,
                line_start: true,
                cut: u32::MAX,
            });
            return self.push(HEREDOC_START, total);
        };
        self.out.cut_heredocs.push(self.out.kinds.len() as u32);
        if cut == body {
            // Nothing in the body: the introducer's line break is the argument's.
            let line_break = body - line_break_before(self.src, body);
            return self.push(HEREDOC_START, total - line_break);
        }
        self.modes.push(Mode::Heredoc {
            marker_start,
            marker_end,
            line_start: true,
            cut: cut as u32,
        });
        self.push(HEREDOC_START, total)
    }

    /// Whether a line at or after `from` holds only `marker` and ends with a line break (or is
    /// the input's last line). Asked
    /// for every heredoc: the text up to the first such line is searched (the heredoc's own,
    /// which is lexed anyway); once a search finds none, the index of `marker_line_after`
    /// answers the later questions, so a file of many unclosed heredocs stays linear.
    fn closing_line_after(&mut self, marker: &str, from: usize) -> bool {
        let src = self.src;
        // The input's last line holding the marker with no line break after it closes nothing,
        // but the heredoc is not cut for it: its error says the line break is missing.
        let last_line = src.rfind('\n').map_or(0, |i| i + 1);
        if last_line >= from && src[last_line..].trim() == marker {
            return true;
        }
        if self.marker_lines.is_none() {
            let mut start = from;
            while let Some(n) = src[start..].find('\n') {
                if src[start..start + n].trim() == marker {
                    return true;
                }
                start += n + 1;
            }
        }
        self.marker_line_after(marker, from)
    }

    /// `${` or `%{` (with its optional `~`) in a template: back to expression tokens until `}`.
    fn open_sequence(&mut self, rest: &str, len: usize) {
        let kind = if rest.starts_with('$') {
            TEMPLATE_INTERP
        } else {
            TEMPLATE_CONTROL
        };
        self.modes.push(Mode::Sequence {
            depth: 0,
            brackets: 0,
        });
        self.push(kind, len);
    }

    fn set_heredoc_line_start(&mut self, value: bool) {
        if let Some(Mode::Heredoc { line_start, .. }) = self.modes.last_mut() {
            *line_start = value;
        }
    }
}

/// Length of an identifier at the start of `s`: `(ID_Start | '_') (ID_Continue | '-')*`.
fn ident_len(s: &str) -> usize {
    let mut chars = s.char_indices();
    chars.next();
    for (i, c) in chars {
        let continues = if c.is_ascii() {
            c.is_ascii_alphanumeric() || c == '_' || c == '-'
        } else {
            unicode_ident::is_xid_continue(c)
        };
        if !continues {
            return i;
        }
    }
    s.len()
}

/// Length of a number literal in hclsyntax's loose form: a digit, then digits, dots and exponent
/// groups in any order, never ending in a dot (`1.2.3` is one token that the parser rejects).
fn number_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 1;
    loop {
        match b.get(i) {
            Some(b'0'..=b'9' | b'.') => i += 1,
            Some(b'e' | b'E') => {
                let digit_at = if matches!(b.get(i + 1), Some(b'+' | b'-')) {
                    i + 2
                } else {
                    i + 1
                };
                if matches!(b.get(digit_at), Some(b'0'..=b'9')) {
                    i = digit_at + 1;
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    while b[i - 1] == b'.' {
        i -= 1;
    }
    i
}

/// `${`, `${~`, `%{` or `%{~` at the start of `s`: the token length.
fn sequence_start(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() >= 2 && (b[0] == b'$' || b[0] == b'%') && b[1] == b'{' {
        Some(if b.get(2) == Some(&b'~') { 3 } else { 2 })
    } else {
        None
    }
}

/// How much literal text a `$` or `%` in a template takes: 3 for the escapes `$${` and `%%{`, 1
/// for a lone sigil, `None` where it opens a sequence (the literal ends before it).
fn sigil_len(s: &str) -> Option<usize> {
    if escaped_sequence(s) {
        Some(3)
    } else if sequence_start(s).is_some() {
        None
    } else {
        Some(1)
    }
}

/// `$${` or `%%{`: an escaped template sequence, literal text.
fn escaped_sequence(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 3 && (b[0] == b'$' || b[0] == b'%') && b[1] == b[0] && b[2] == b'{'
}

/// A heredoc introducer `<<` `-`? Ident ... Newline at the start of `s`:
/// (length of the `-`, length of the marker, total length including the line break).
fn heredoc_intro(s: &str) -> Option<(usize, usize, usize)> {
    let after = &s[2..];
    let flush = usize::from(after.starts_with('-'));
    let ident = &after[flush..];
    let first = ident.chars().next()?;
    if !(first == '_' || first.is_ascii_alphabetic() || unicode_ident::is_xid_start(first)) {
        return None;
    }
    let marker_len = ident_len(ident);
    // `<<` never means anything else in HCL, so text after the marker is an error inside the
    // introducer (reported by the caller) rather than a reason to give up on the heredoc.
    let line_len = ident.find('\n').map_or(ident.len(), |i| i + 1);
    Some((flush, marker_len, 2 + flush + line_len))
}

/// `<<` `-`? spaces Ident spaces? Newline at the start of `s`: a heredoc introducer with a space
/// before its marker.
struct SpacedHeredocIntro {
    flush: bool,
    /// The length of the spaces.
    gap: usize,
    /// Where the marker starts in `s`, and its length.
    marker_start: usize,
    marker_len: usize,
    /// The length of the introducer, line break included.
    total: usize,
}

fn spaced_heredoc_intro(s: &str) -> Option<SpacedHeredocIntro> {
    let after = &s[2..];
    let flush = after.starts_with('-');
    let spaced = &after[usize::from(flush)..];
    let ident = spaced.trim_start_matches([' ', '\t']);
    let gap = spaced.len() - ident.len();
    let first = ident.chars().next()?;
    if gap == 0 || !(first == '_' || unicode_ident::is_xid_start(first)) {
        return None;
    }
    let marker_len = ident_len(ident);
    let after_marker = &ident[marker_len..];
    let line_len = after_marker.find('\n')?;
    if !after_marker[..line_len]
        .trim_end_matches('\r')
        .trim()
        .is_empty()
    {
        return None;
    }
    let marker_start = 2 + usize::from(flush) + gap;
    Some(SpacedHeredocIntro {
        flush,
        gap,
        marker_start,
        marker_len,
        total: marker_start + marker_len + line_len + 1,
    })
}

/// The start of the line break (`\n` or `\r\n`) that ends just before `line` (a line's start,
/// or the end of the input, which has none when its last line has no line break).
fn line_break_before(src: &str, line: usize) -> usize {
    if src[..line].ends_with("\r\n") {
        line - 2
    } else if src[..line].ends_with('\n') {
        line - 1
    } else {
        line
    }
}

/// The indentation (spaces and tabs, in bytes) of the line holding `offset`: the lexer's
/// heredoc rule and the parser's rules for a missing opener read the same.
pub(crate) fn line_indent_at(src: &str, offset: usize) -> usize {
    let start = src[..offset].rfind('\n').map_or(0, |i| i + 1);
    src[start..]
        .bytes()
        .take_while(|&b| b == b' ' || b == b'\t')
        .count()
}

/// For a heredoc whose body starts at `body` (a line start) and that no line further on
/// closes, opened on a line indented by `indent`: the start of the first line after it. The
/// body ends before the first line that reads as the next argument (`name = ...`, indented no
/// deeper than the heredoc's line), as the header of a top-level block (`resource b "t" {`,
/// unindented, as `Parser::at_top_level_block_header` reads it), or at the end of the input;
/// and before the lines just above that which hold only a `}` each, indented less than the
/// heredoc's line and each less than the one above (the closers of the blocks around it), and
/// the blank lines above those. `None` when a line before that looks like the marker misspelt
/// (the heredoc ends there, see `lex_heredoc`).
fn cut_end(src: &str, body: usize, indent: usize, marker: &str) -> Option<usize> {
    let mut start = body;
    // The start of the line after the body's last line of text so far.
    let mut after_text = body;
    // The indentation of the last of the lines of closers just above, if the last lines of
    // text were such, and the start of the line after it.
    let mut closers: Option<(usize, usize)> = None;
    // The indentation of the line the body ends before (0 at the end of the input).
    let mut stop_indent = 0;
    while start < src.len() {
        let end = src[start..].find('\n').map_or(src.len(), |i| start + i);
        let line = &src[start..end];
        let text = line.trim();
        let line_indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        if line_indent <= indent
            && (reads_as_argument(text) || (line_indent == 0 && reads_as_top_level_header(text)))
        {
            stop_indent = line_indent;
            break;
        }
        if !text.is_empty() && misspelt_marker(text, marker) {
            return None;
        }
        if text == "}" && line_indent < indent {
            if closers.is_some_and(|(above, _)| line_indent >= above) {
                // Not the closer of a block around the one above: those are the body's.
                after_text = start;
            }
            closers = Some((line_indent, (end + 1).min(src.len())));
        } else if !text.is_empty() {
            closers = None;
            after_text = (end + 1).min(src.len());
        }
        start = end + 1;
    }
    // Closers indented less than the line after them close blocks that line is still inside
    // of: they are the body's (a JSON object's `}` unindented, before the next argument).
    if let Some((last, closers_end)) = closers {
        if last < stop_indent {
            after_text = closers_end;
        }
    }
    Some(after_text)
}

/// Whether a line's text reads as an argument of a body: a name, spaces, `=` (not `==`), a
/// space and a value (`acl = "private"`; not `FOO=bar`).
fn reads_as_argument(text: &str) -> bool {
    let name_len = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(text.len());
    if name_len == 0 || !text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return false;
    }
    let after = &text[name_len..];
    let value = after.trim_start_matches(' ');
    value.len() < after.len() && value.starts_with("= ") && !value[2..].trim().is_empty()
}

/// Whether a line's text reads as the header of a top-level block of PCL: one of
/// `BLOCK_KEYWORDS`, its labels (names or plain quoted strings; at least one but for
/// `pulumi`), and a `{` ending the line. The text form of `Parser::at_top_level_block_header`,
/// for the lexer, which decides before the tokens of the lines below exist.
fn reads_as_top_level_header(text: &str) -> bool {
    let Some(header) = text.strip_suffix('{') else {
        return false;
    };
    let mut words = header.split_whitespace();
    let Some(keyword) = words.next() else {
        return false;
    };
    if !crate::BLOCK_KEYWORDS.contains(&keyword) {
        return false;
    }
    let mut labels = 0;
    for word in words {
        let quoted = word.len() >= 2
            && word.starts_with('"')
            && word.ends_with('"')
            && !word[1..word.len() - 1].contains(['"', '$', '%', '\\']);
        if !(quoted || could_be_marker(word)) {
            return false;
        }
        labels += 1;
    }
    labels > 0 || keyword == "pulumi"
}

/// Whether a line's trimmed text could be a heredoc marker (an identifier), and so close one.
fn could_be_marker(text: &str) -> bool {
    text.chars()
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic() || unicode_ident::is_xid_start(c))
        && ident_len(text) == text.len()
}

/// Whether a heredoc line's trimmed text looks like `marker` misspelt: an identifier other than
/// the marker, the same ignoring case or within an edit of it per three characters (at least
/// one), as `pcl_diagnostics::suggest` accepts names.
fn misspelt_marker(text: &str, marker: &str) -> bool {
    // The edit distance costs the product of the lengths: markers are short, and a line much
    // longer than its marker is not one.
    const LONGEST: usize = 64;
    if text == marker || marker.len() > LONGEST || text.len() > marker.len() + 8 {
        return false;
    }
    if !could_be_marker(text) {
        return false;
    }
    let limit = pcl_diagnostics::suggest::threshold(marker.chars().count());
    let lower = |s: &str| s.chars().flat_map(char::to_lowercase).collect::<Vec<_>>();
    lower(text) == lower(marker) || pcl_diagnostics::suggest::edit_distance(text, marker) <= limit
}

/// Whether `s`, the text after a quoted string's closing `"`, is a word of a label (letters,
/// digits and `_ - . : /`) and a `"`, after which the line holds no quote and ends with `{`.
/// Looks no further than the line, and no further than the next quote.
fn quoted_label_follows(s: &str) -> bool {
    let after = &s[1..];
    if !after.starts_with(|c: char| c == '_' || c.is_ascii_alphabetic()) {
        return false;
    }
    let word_len = after
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/')))
        .unwrap_or(after.len());
    let word = &after[..word_len];
    if word.contains("//") || word.contains("/*") || !after[word_len..].starts_with('"') {
        return false;
    }
    // The scan stops at the first quote, so that scans cover the text between quotes once.
    let rest = &after[word_len + 1..];
    let end = rest.find(['"', '\n']).unwrap_or(rest.len());
    !rest[end..].starts_with('"') && rest[..end].trim_end().ends_with('{')
}

/// What may stand between an interpolation whose `}` is missing and the next `${`.
fn is_separator(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'-' | b'.' | b'/' | b':' | b',' | b'+' | b'@' | b'='
    )
}

/// Whether `s`, met in an interpolation with no bracket of its own open, is a few separators
/// and spaces (`-./:,+@=`, no comment) and then a `${`: the interpolation's `}` is missing
/// before them. Looks at most 16 bytes ahead.
fn runs_into_interpolation(s: &str) -> bool {
    let b = s.as_bytes();
    let run = b.iter().take(16).take_while(|&&c| is_separator(c)).count();
    // The `${` first: it is almost never there (this runs for each token of an interpolation).
    if !s[run..].starts_with("${") {
        return false;
    }
    let seps = &s[..run];
    !seps.contains("//") && !seps.contains("/*") && !closes_as_nested(&s[run..])
}

/// For `s` starting with a `${` met in an interpolation's expression: whether, on its line, its
/// `}` is followed by one more `}` (`"${upper(${prefix})}"`, `"${a + ${b}}"`,
/// `"${join("-", [${a}, "b"])}"`): the `${` was written inside the interpolation, whose `}`
/// that is. Otherwise (`"${a-${b}"`: a quote no other closes on the line comes first) the
/// interpolation lacks its own `}` (see `runs_into_interpolation`). A quote and the next on the
/// line are skipped as a string; looks at most 1 KiB ahead. Never asked on valid input: a `${`
/// is never a token of an expression.
#[inline(never)]
fn closes_as_nested(s: &str) -> bool {
    let b = s.as_bytes();
    let mut depth = 1u32;
    let mut i = 2;
    while i < b.len().min(1024) {
        match b[i] {
            b'\n' | b'\r' => return false,
            b'{' => depth += 1,
            b'}' if depth == 0 => return true,
            b'}' => depth -= 1,
            b'"' => match b[i + 1..].iter().position(|&c| matches!(c, b'"' | b'\n')) {
                Some(at) if b[i + 1 + at] == b'"' => i += at + 1,
                _ => return false,
            },
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether `next` (the text after a quoted string's line break) goes on with that string: its
/// first line holds exactly one `"`, at the line's end, and no `\` before it (which could
/// escape it). Looks at most 4 KiB ahead.
fn continues_on_next_line(next: &str) -> bool {
    let line = next.split('\n').next().unwrap_or("");
    let line = line.strip_suffix('\r').unwrap_or(line).trim_end();
    line.len() <= 4096
        && line.ends_with('"')
        && line.bytes().filter(|&b| b == b'"').count() == 1
        && !line.contains('\\')
}

/// Length of a string written with foreign quotes (`'x'`, `` `x` ``, curly quotes): up to the
/// closing quote on the same line, or just the opening quote when there is none. The scan stops at
/// the line end or another opening quote, and looks at most a few KiB ahead, so a line of unpaired
/// quotes stays linear.
fn foreign_string_len(s: &str, open: char, close: char) -> usize {
    const WINDOW: usize = 4096;
    let after = &s[open.len_utf8()..];
    for (i, c) in after.char_indices() {
        if c == close {
            return open.len_utf8() + i + close.len_utf8();
        }
        if c == open || c == '\n' || c == '\r' || i > WINDOW {
            break;
        }
    }
    open.len_utf8()
}

impl Lexer<'_> {
    fn unsupported_operator(&mut self, op: char) {
        let help = match op {
            '&' => Some("did you mean `&&`?"),
            '|' => Some("did you mean `||`?"),
            '~' => Some("did you mean `!`?"),
            _ => None,
        };
        self.push_error(
            SyntaxErrorKind::UnsupportedOperator,
            1,
            format!("unsupported operator `{op}`: bitwise operators are not supported"),
        );
        if let Some(last) = self.out.errors.last_mut() {
            last.help = help.map(str::to_string);
        }
    }
}
