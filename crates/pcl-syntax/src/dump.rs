//! Stable text and JSON renderings of a tree, for snapshot tests and for other tools.

use std::fmt::Write;

use rowan::WalkEvent;

use crate::{SyntaxElement, SyntaxError, SyntaxNode};

/// The indented `KIND@start..end "text"` form used by the snapshot tests, followed by the errors
/// (`error[CODE] start..end: message`, and a `note` line for each related range).
pub fn debug_tree(root: &SyntaxNode, errors: &[SyntaxError]) -> String {
    let mut out = String::new();
    let mut indent = 0usize;
    for event in root.preorder_with_tokens() {
        match event {
            WalkEvent::Enter(element) => {
                let range = element.text_range();
                let _ = write!(
                    out,
                    "{:indent$}{:?}@{}..{}",
                    "",
                    element.kind(),
                    u32::from(range.start()),
                    u32::from(range.end()),
                    indent = indent * 2
                );
                if let SyntaxElement::Token(token) = &element {
                    let _ = write!(out, " {:?}", token.text());
                }
                out.push('\n');
                if element.as_node().is_some() {
                    indent += 1;
                }
            }
            WalkEvent::Leave(element) => {
                if element.as_node().is_some() {
                    indent -= 1;
                }
            }
        }
    }
    for error in errors {
        let _ = writeln!(
            out,
            "error[{}] {}..{}: {}",
            error.code().as_str(),
            u32::from(error.range.start()),
            u32::from(error.range.end()),
            error.message
        );
        for (range, note) in &error.related {
            let _ = writeln!(
                out,
                "  note {}..{}: {note}",
                u32::from(range.start()),
                u32::from(range.end()),
            );
        }
        for help in &error.help {
            let _ = writeln!(out, "  help: {help}");
        }
    }
    out
}

/// The tree as JSON: nodes `{"kind","start","end","children"}`, tokens `{"kind","start","end",
/// "text"}`, byte offsets. Iterative, so deep trees cannot overflow the stack.
pub fn json_tree(root: &SyntaxNode) -> String {
    let mut out = String::new();
    // Whether the current children list already has an element (to place commas).
    let mut has_sibling: Vec<bool> = vec![false];
    for event in root.preorder_with_tokens() {
        match event {
            WalkEvent::Enter(element) => {
                if let Some(last) = has_sibling.last_mut() {
                    if *last {
                        out.push(',');
                    }
                    *last = true;
                }
                let range = element.text_range();
                let _ = write!(
                    out,
                    "{{\"kind\":\"{:?}\",\"start\":{},\"end\":{},",
                    element.kind(),
                    u32::from(range.start()),
                    u32::from(range.end())
                );
                match &element {
                    SyntaxElement::Node(_) => {
                        out.push_str("\"children\":[");
                        has_sibling.push(false);
                    }
                    SyntaxElement::Token(token) => {
                        out.push_str("\"text\":");
                        write_json_string(&mut out, token.text());
                        out.push('}');
                    }
                }
            }
            WalkEvent::Leave(element) => {
                if element.as_node().is_some() {
                    has_sibling.pop();
                    out.push_str("]}");
                }
            }
        }
    }
    out
}

fn write_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
