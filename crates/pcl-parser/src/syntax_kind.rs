//! Every token and node kind of the concrete syntax tree.

/// Kinds of tokens (lexer output) and nodes (parser output), in one enum so that the tree layer can
/// store both as `u16`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u16)]
#[allow(non_camel_case_types)]
pub enum SyntaxKind {
    // Trivia.
    WHITESPACE = 0,
    /// `# ...` or `// ...`, without the line break (which follows as a NEWLINE).
    COMMENT,
    /// `/* ... */`; never acts as a line break.
    BLOCK_COMMENT,

    // Tokens.
    NEWLINE,
    IDENT,
    NUMBER,
    L_BRACE,
    R_BRACE,
    L_BRACK,
    R_BRACK,
    L_PAREN,
    R_PAREN,
    DOT,
    COMMA,
    STAR,
    SLASH,
    PERCENT,
    PLUS,
    MINUS,
    EQ,
    EQ2,
    NEQ,
    LT,
    LTEQ,
    GT,
    GTEQ,
    AMP2,
    PIPE2,
    BANG,
    QUESTION,
    COLON,
    COLON2,
    ELLIPSIS,
    FAT_ARROW,
    /// `"` opening a quoted template.
    OQUOTE,
    /// `"` closing a quoted template.
    CQUOTE,
    /// Literal text of a template, escapes still encoded.
    TEMPLATE_LITERAL,
    /// `${` or `${~`.
    TEMPLATE_INTERP,
    /// `%{` or `%{~`.
    TEMPLATE_CONTROL,
    /// `}` or `~}` closing an interpolation or directive.
    TEMPLATE_SEQ_END,
    /// `<<EOT` or `<<-EOT` plus its line break.
    HEREDOC_START,
    /// The closing marker line of a heredoc, without its line break.
    HEREDOC_END,
    /// Bytes the lexer cannot turn into a token; the lexer reports why.
    ERROR_TOKEN,

    // Contextual keywords: lexed as IDENT, remapped by the parser where they act as keywords.
    TRUE_KW,
    FALSE_KW,
    NULL_KW,
    FOR_KW,
    IN_KW,
    IF_KW,
    ELSE_KW,
    ENDIF_KW,
    ENDFOR_KW,

    /// End of input; never stored in a tree.
    EOF,

    // Nodes.
    SOURCE_FILE,
    BODY,
    ATTRIBUTE,
    BLOCK,
    BLOCK_LABEL,
    LITERAL_EXPR,
    VARIABLE_EXPR,
    FUNCTION_CALL,
    ARG_LIST,
    PAREN_EXPR,
    TUPLE_EXPR,
    OBJECT_EXPR,
    OBJECT_ITEM,
    OBJECT_KEY,
    FOR_EXPR,
    FOR_INTRO,
    FOR_COND,
    CONDITIONAL_EXPR,
    BINARY_EXPR,
    UNARY_EXPR,
    GET_ATTR_EXPR,
    INDEX_EXPR,
    LEGACY_INDEX_EXPR,
    SPLAT_EXPR,
    TEMPLATE_EXPR,
    HEREDOC_EXPR,
    TEMPLATE_INTERPOLATION,
    TEMPLATE_IF,
    TEMPLATE_FOR,
    TEMPLATE_DIRECTIVE,
    TEMPLATE_BODY,
    /// Input the parser skipped while recovering from an error.
    ERROR,
}

use SyntaxKind::*;

impl SyntaxKind {
    /// The last kind; the tree layer uses it to bound raw `u16` values.
    pub const LAST: SyntaxKind = ERROR;

    pub fn is_trivia(self) -> bool {
        matches!(self, WHITESPACE | COMMENT | BLOCK_COMMENT)
    }

    pub fn is_keyword(self) -> bool {
        (TRUE_KW as u16..=ENDFOR_KW as u16).contains(&(self as u16))
    }

    pub fn is_token(self) -> bool {
        (self as u16) < (EOF as u16)
    }

    /// Converts a raw value produced by `kind as u16`; `None` for values out of range.
    pub fn from_raw(raw: u16) -> Option<SyntaxKind> {
        if raw <= SyntaxKind::LAST as u16 {
            // SAFETY: `SyntaxKind` is `repr(u16)` with contiguous discriminants from 0 to LAST.
            Some(unsafe { std::mem::transmute::<u16, SyntaxKind>(raw) })
        } else {
            None
        }
    }

    /// A short human name for the token, used in "expected ..." messages.
    pub fn describe(self) -> &'static str {
        match self {
            NEWLINE => "newline",
            IDENT => "identifier",
            NUMBER => "number",
            L_BRACE => "`{`",
            R_BRACE => "`}`",
            L_BRACK => "`[`",
            R_BRACK => "`]`",
            L_PAREN => "`(`",
            R_PAREN => "`)`",
            DOT => "`.`",
            COMMA => "`,`",
            EQ => "`=`",
            COLON => "`:`",
            QUESTION => "`?`",
            FAT_ARROW => "`=>`",
            ELLIPSIS => "`...`",
            OQUOTE | CQUOTE => "`\"`",
            TEMPLATE_SEQ_END => "`}`",
            EOF => "end of file",
            _ => "token",
        }
    }
}
