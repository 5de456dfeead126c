//! The formatter's view of the token stream: hclsyntax's token classes, with the whitespace
//! between tokens kept apart as gaps.
//!
//! The layout rules are hclwrite's, and they are written against hclsyntax's tokens, so the lexer's
//! tokens are regrouped to match them: a `#`/`//` comment takes its line break with it (hclsyntax's
//! comment token ends with the newline), keywords are identifiers, and quoted and heredoc literal
//! text are one class.

use pcl_parser::{Lexed, SyntaxKind};

/// A token class, as far as the layout rules tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    Newline,
    /// A `#` or `//` comment with the line break that ends it; acts as a newline.
    LineComment,
    /// A `/* */` comment, or a line comment at the end of the input (no line break).
    Comment,
    Ident,
    Number,
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    Dot,
    Comma,
    Ellipsis,
    DoubleColon,
    Equal,
    Colon,
    Question,
    Bang,
    Minus,
    Plus,
    Star,
    Slash,
    Percent,
    EqualOp,
    NotEqual,
    Greater,
    GreaterEq,
    Less,
    LessEq,
    And,
    Or,
    FatArrow,
    OQuote,
    CQuote,
    /// Literal text of a quoted string or heredoc.
    Literal,
    OHeredoc,
    CHeredoc,
    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,
    /// Bytes the lexer could not make a token of.
    Invalid,
    /// The end of the input (an empty token that only carries the trailing gap).
    Eof,
}

impl Class {
    /// +1 for openers, -1 for closers: the indentation rules count these per line.
    pub(crate) fn bracket_change(self) -> i32 {
        match self {
            Class::OBrace
            | Class::OBrack
            | Class::OParen
            | Class::TemplateInterp
            | Class::TemplateControl => 1,
            Class::CBrace | Class::CBrack | Class::CParen | Class::TemplateSeqEnd => -1,
            _ => 0,
        }
    }

    /// Whether the token ends a line.
    pub(crate) fn is_line_end(self) -> bool {
        matches!(self, Class::Newline | Class::LineComment)
    }

    pub(crate) fn is_comment(self) -> bool {
        matches!(self, Class::LineComment | Class::Comment)
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Token {
    pub(crate) class: Class,
    /// Byte range of the token itself.
    pub(crate) start: u32,
    pub(crate) end: u32,
    /// Where the whitespace before the token starts (the previous token's end).
    pub(crate) gap_start: u32,
}

/// Tokens of the input in order, ending with one [`Class::Eof`] token. `prefix` is the length of
/// a leading byte order mark, which is kept as it is and is not part of any gap.
pub(crate) fn tokens(lexed: &Lexed<'_>, prefix: u32) -> Vec<Token> {
    let text = lexed.source();
    let mut out = Vec::with_capacity(lexed.len() / 2 + 1);
    let mut gap_start = prefix;
    let mut i = 0;
    let n = lexed.len();
    while i < n {
        let kind = lexed.kind(i);
        let (start, mut end) = lexed.range(i);
        i += 1;
        if start < prefix {
            // The byte order mark.
            continue;
        }
        let class = match kind {
            SyntaxKind::WHITESPACE => continue,
            SyntaxKind::COMMENT => {
                if lexed.kind(i) == SyntaxKind::NEWLINE {
                    end = lexed.range(i).1;
                    i += 1;
                    Class::LineComment
                } else {
                    Class::Comment
                }
            }
            kind => class_of(kind),
        };
        out.push(Token {
            class,
            start,
            end,
            gap_start,
        });
        gap_start = end;
    }
    let len = text.len() as u32;
    out.push(Token {
        class: Class::Eof,
        start: len,
        end: len,
        gap_start,
    });
    out
}

fn class_of(kind: SyntaxKind) -> Class {
    use SyntaxKind::*;
    match kind {
        NEWLINE => Class::Newline,
        BLOCK_COMMENT | COMMENT => Class::Comment,
        IDENT | TRUE_KW | FALSE_KW | NULL_KW | FOR_KW | IN_KW | IF_KW | ELSE_KW | ENDIF_KW
        | ENDFOR_KW => Class::Ident,
        NUMBER => Class::Number,
        L_BRACE => Class::OBrace,
        R_BRACE => Class::CBrace,
        L_BRACK => Class::OBrack,
        R_BRACK => Class::CBrack,
        L_PAREN => Class::OParen,
        R_PAREN => Class::CParen,
        DOT => Class::Dot,
        COMMA => Class::Comma,
        STAR => Class::Star,
        SLASH => Class::Slash,
        PERCENT => Class::Percent,
        PLUS => Class::Plus,
        MINUS => Class::Minus,
        EQ => Class::Equal,
        EQ2 => Class::EqualOp,
        NEQ => Class::NotEqual,
        LT => Class::Less,
        LTEQ => Class::LessEq,
        GT => Class::Greater,
        GTEQ => Class::GreaterEq,
        AMP2 => Class::And,
        PIPE2 => Class::Or,
        BANG => Class::Bang,
        QUESTION => Class::Question,
        COLON => Class::Colon,
        COLON2 => Class::DoubleColon,
        ELLIPSIS => Class::Ellipsis,
        FAT_ARROW => Class::FatArrow,
        OQUOTE => Class::OQuote,
        CQUOTE => Class::CQuote,
        TEMPLATE_LITERAL => Class::Literal,
        TEMPLATE_INTERP => Class::TemplateInterp,
        TEMPLATE_CONTROL => Class::TemplateControl,
        TEMPLATE_SEQ_END => Class::TemplateSeqEnd,
        HEREDOC_START => Class::OHeredoc,
        HEREDOC_END => Class::CHeredoc,
        _ => Class::Invalid,
    }
}
