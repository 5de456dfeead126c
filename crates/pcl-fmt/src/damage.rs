//! Where the syntax errors are: the items (attributes, blocks, or skipped input) that contain
//! them. The formatter keeps these exactly as written, so that a file being edited can be
//! formatted without the formatter guessing at the meaning of broken text.

use pcl_syntax::{SyntaxKind, SyntaxNode, TextRange};

/// The innermost attribute or skipped input around each syntax error (or the error's own range,
/// for errors in a block's header or braces), sorted and merged.
pub(crate) fn damaged_items(text: &str) -> Vec<TextRange> {
    let parse = pcl_syntax::parse(text);
    let root = parse.syntax();
    let mut items: Vec<TextRange> = parse
        .errors()
        .iter()
        .map(|error| enclosing_item(&root, error.range).unwrap_or(error.range))
        .collect();
    items.sort_by_key(|r| (r.start(), r.end()));
    let mut merged: Vec<TextRange> = Vec::with_capacity(items.len());
    for range in items {
        match merged.last_mut() {
            Some(last) if range.start() <= last.end() => *last = last.cover(range),
            _ => merged.push(range),
        }
    }
    merged
}

fn enclosing_item(root: &SyntaxNode, range: TextRange) -> Option<TextRange> {
    let node = if range.is_empty() {
        let token = root.token_at_offset(range.start());
        let token = token
            .clone()
            .left_biased()
            .or_else(|| token.right_biased())?;
        token.parent()?
    } else if root.text_range().contains_range(range) {
        match root.covering_element(range) {
            rowan::NodeOrToken::Node(node) => node,
            rowan::NodeOrToken::Token(token) => token.parent()?,
        }
    } else {
        return None;
    };
    let item = node.ancestors().find(is_item)?;
    // An error in a block's own tokens (a label, a missing brace) damages only its line: the items
    // of the body are well-formed or not on their own.
    (item.kind() != SyntaxKind::BLOCK).then(|| item.text_range())
}

fn is_item(node: &SyntaxNode) -> bool {
    match node.kind() {
        SyntaxKind::ATTRIBUTE | SyntaxKind::BLOCK => true,
        // Input skipped between items.
        SyntaxKind::ERROR => node
            .parent()
            .is_some_and(|p| matches!(p.kind(), SyntaxKind::BODY | SyntaxKind::SOURCE_FILE)),
        _ => false,
    }
}
