//! The formatter's promises: the same tokens and line breaks, damaged items byte for byte,
//! edits that give the output, and idempotence.

use pcl_parser::{Lexed, SyntaxKind};

/// The tokens without the whitespace between them, as (kind, text).
pub fn tokens(text: &str) -> Vec<(SyntaxKind, String)> {
    let lexed = Lexed::new(text);
    (0..lexed.len())
        .filter(|&i| lexed.kind(i) != SyntaxKind::WHITESPACE)
        .map(|i| (lexed.kind(i), lexed.text(i).to_string()))
        .collect()
}

/// The tree of a text without its whitespace: each node's kind and depth, each other token's
/// kind and text, in order.
pub fn tree_shape(text: &str) -> Vec<(u32, SyntaxKind, String)> {
    let root = pcl_syntax::parse(text).syntax();
    let mut out = Vec::new();
    let mut depth = 0u32;
    for event in root.preorder_with_tokens() {
        match event {
            pcl_syntax::WalkEvent::Enter(element) => {
                match &element {
                    pcl_syntax::NodeOrToken::Node(node) => {
                        out.push((depth, node.kind(), String::new()))
                    }
                    pcl_syntax::NodeOrToken::Token(token)
                        if token.kind() != SyntaxKind::WHITESPACE =>
                    {
                        out.push((depth, token.kind(), token.text().to_string()))
                    }
                    pcl_syntax::NodeOrToken::Token(_) => {}
                }
                if element.as_node().is_some() {
                    depth += 1;
                }
            }
            pcl_syntax::WalkEvent::Leave(element) => {
                if element.as_node().is_some() {
                    depth -= 1;
                }
            }
        }
    }
    out
}

/// The formatter's promises on one input and its output. Returns a description of the first
/// broken promise.
pub fn broken_promise(input: &str, formatted: &pcl_fmt::Formatted) -> Option<String> {
    let output = &formatted.text;
    if tokens(input) != tokens(output) {
        return Some("the token sequence changed".into());
    }
    if input.matches('\n').count() != output.matches('\n').count() {
        return Some("the number of line breaks changed".into());
    }
    let mut applied = input.to_string();
    for edit in formatted.edits.iter().rev() {
        applied.replace_range(std::ops::Range::<usize>::from(edit.range), &edit.new_text);
    }
    if applied != *output {
        return Some("the edits do not give the formatted text".into());
    }
    for range in &formatted.damaged {
        let kept = &input[std::ops::Range::<usize>::from(*range)];
        if !output.contains(kept) {
            return Some(format!("the damaged item at {range:?} was changed"));
        }
    }
    // The parser ends an unclosed block by indentation, so a layout could move items into
    // or out of one: what the text parses to must not change.
    if tree_shape(input) != tree_shape(output) {
        return Some("what the text parses to changed".into());
    }
    match pcl_fmt::format(output) {
        Ok(again) if again.text == *output => None,
        Ok(_) => Some("not idempotent: formatting the output changes it".into()),
        Err(err) => Some(format!(
            "the formatted text cannot be formatted again: {err}"
        )),
    }
}

/// Formats `text` and panics on a broken promise. An input whose output would be too large is
/// refused with an error, which is a kept promise too.
pub fn check_format(text: &str) {
    if let Ok(formatted) = pcl_fmt::format(text) {
        if let Some(broken) = broken_promise(text, &formatted) {
            panic!("formatter: {broken}");
        }
    }
}
