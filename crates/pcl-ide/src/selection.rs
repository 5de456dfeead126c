//! Expanding a selection: from the word at the cursor outwards through the syntax tree, one
//! step per enclosing construct (an editor's "expand selection").

use std::path::Path;

use pcl_db::RootDatabase;
use pcl_diagnostics::{TextRange, TextSize};
use pcl_syntax::{SyntaxKind, SyntaxNode, SyntaxToken};
use rowan::TokenAtOffset;

/// The ranges around `offset`, innermost first, each strictly larger than the one before:
/// the token (a name, a number, a string's text), the inside of each bracket, quote or block
/// around it and that construct whole, up to the whole file (without the whitespace at its
/// ends). Empty for an unknown file.
pub(crate) fn selection_ranges(db: &RootDatabase, path: &Path, offset: TextSize) -> Vec<TextRange> {
    let Some(file) = db.files().get(path) else {
        return Vec::new();
    };
    let text = file.text(db);
    let parse = pcl_db::parse(db, file);
    let root = parse.syntax();
    let mut out: Vec<TextRange> = Vec::new();
    let mut push = |range: TextRange| {
        // Each step grows the selection; equal or smaller ranges add nothing.
        if out
            .last()
            .is_none_or(|last| range != *last && range.contains_range(*last))
        {
            out.push(range);
        }
    };
    if offset > root.text_range().end() {
        return Vec::new();
    }
    let Some(token) = token_at(&root, offset) else {
        push(root.text_range());
        return out;
    };
    if !matches!(token.kind(), SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE) {
        push(trim(text, token.text_range()));
    }
    let mut node = token.parent();
    while let Some(current) = node {
        if let Some(inner) = inside_brackets(&current, text) {
            push(inner);
        }
        push(trim(text, current.text_range()));
        node = current.parent();
    }
    // A chain of operators nests as deep as it is long (`1 + 1 + ... + 1`): keep the steps
    // near the cursor and the whole file, so that an answer stays small (the protocol nests
    // each step in the next, and clients' JSON readers limit nesting).
    if out.len() > MAX_STEPS {
        let file = out[out.len() - 1];
        out.truncate(MAX_STEPS - 1);
        out.push(file);
    }
    out
}

/// At most this many ranges from one position.
pub(crate) const MAX_STEPS: usize = 100;

/// The token at `offset`, preferring, where two meet, the one that is not trivia (the end of
/// a name typed just before the cursor selects that name).
fn token_at(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    let rank = |t: &SyntaxToken| match t.kind() {
        SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE => 0,
        k if k.is_trivia() => 1,
        SyntaxKind::IDENT | SyntaxKind::NUMBER | SyntaxKind::TEMPLATE_LITERAL => 3,
        k if k.is_keyword() => 3,
        _ => 2,
    };
    match root.token_at_offset(offset) {
        TokenAtOffset::None => None,
        TokenAtOffset::Single(token) => Some(token),
        TokenAtOffset::Between(left, right) => {
            if rank(&left) > rank(&right) {
                Some(left)
            } else {
                Some(right)
            }
        }
    }
}

/// What lies between a construct's opening and closing brackets or quotes (or a block's
/// braces), without the whitespace at its ends; `None` when there is nothing inside, or the
/// construct is not bracketed (or lost its closer).
fn inside_brackets(node: &SyntaxNode, text: &str) -> Option<TextRange> {
    use SyntaxKind::*;
    let (open, close) = match node.kind() {
        BLOCK | OBJECT_EXPR => (L_BRACE, R_BRACE),
        TUPLE_EXPR => (L_BRACK, R_BRACK),
        ARG_LIST | PAREN_EXPR => (L_PAREN, R_PAREN),
        TEMPLATE_EXPR => (OQUOTE, CQUOTE),
        TEMPLATE_INTERPOLATION => (TEMPLATE_INTERP, TEMPLATE_SEQ_END),
        HEREDOC_EXPR => (HEREDOC_START, HEREDOC_END),
        _ => return None,
    };
    let tokens = || node.children_with_tokens().filter_map(|e| e.into_token());
    let start = tokens().find(|t| t.kind() == open)?.text_range().end();
    let end = tokens()
        .filter(|t| t.kind() == close)
        .last()?
        .text_range()
        .start();
    if start >= end {
        return None;
    }
    let inner = trim(text, TextRange::new(start, end));
    (!inner.is_empty()).then_some(inner)
}

/// `range` without the whitespace and line breaks at its ends (a node's range takes in the
/// line break that ends it).
fn trim(text: &str, range: TextRange) -> TextRange {
    let Some(slice) = text.get(usize::from(range.start())..usize::from(range.end())) else {
        return range;
    };
    let trimmed_start = slice.len() - slice.trim_start().len();
    let trimmed = slice.trim();
    if trimmed.is_empty() {
        return range;
    }
    let start = range.start() + TextSize::from(trimmed_start as u32);
    TextRange::at(start, TextSize::from(trimmed.len() as u32))
}
