//! Checks that need the tree rather than the token stream: number literals, string escapes,
//! block labels, duplicate attributes. hclsyntax reports these at parse time, so they are syntax
//! errors here too.

use rowan::ast::AstNode;
use rustc_hash::FxHashSet;

use crate::ast::{self, TemplatePart};
use crate::{SyntaxError, SyntaxKind::*, SyntaxNode, SyntaxToken, TextRange, TextSize};

pub(crate) fn validate(root: &SyntaxNode, errors: &mut Vec<SyntaxError>) {
    for element in root.descendants_with_tokens() {
        match element {
            rowan::NodeOrToken::Token(token) => match token.kind() {
                NUMBER => check_number(&token, errors),
                TEMPLATE_LITERAL if in_quoted_template(&token) => check_escapes(&token, errors),
                _ => {}
            },
            rowan::NodeOrToken::Node(node) => match node.kind() {
                BODY => check_duplicate_attributes(&node, errors),
                BLOCK_LABEL => check_label(&node, errors),
                _ => {}
            },
        }
    }
}

fn error(errors: &mut Vec<SyntaxError>, range: TextRange, message: impl Into<String>) {
    errors.push(SyntaxError {
        range,
        message: message.into(),
    });
}

/// `digits ('.' digits)? ([eE] [+-]? digits)?`: the lexer accepts looser forms such as `1.2.3`.
fn check_number(token: &SyntaxToken, errors: &mut Vec<SyntaxError>) {
    let text = token.text();
    let b = text.as_bytes();
    let digits = |mut i: usize| {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > start).then_some(i)
    };
    let valid = (|| {
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
        (i == b.len()).then_some(())
    })();
    if valid.is_none() && token.parent().is_none_or(|p| p.kind() != LEGACY_INDEX_EXPR) {
        error(
            errors,
            token.text_range(),
            format!("Invalid number literal `{text}`"),
        );
    }
}

fn in_quoted_template(token: &SyntaxToken) -> bool {
    token
        .parent_ancestors()
        .find(|n| matches!(n.kind(), TEMPLATE_EXPR | HEREDOC_EXPR))
        .is_some_and(|n| n.kind() == TEMPLATE_EXPR)
}

fn check_escapes(token: &SyntaxToken, errors: &mut Vec<SyntaxError>) {
    let text = token.text();
    let base = token.text_range().start();
    // Report every bad escape of the literal, not just the first.
    let mut offset = 0;
    while offset < text.len() {
        match ast::unescape_quoted(&text[offset..]) {
            Ok(_) => break,
            Err((start, end, message)) => {
                let range = TextRange::new(
                    base + TextSize::from((offset + start) as u32),
                    base + TextSize::from((offset + end) as u32),
                );
                error(errors, range, message);
                offset += end.max(start + 1);
            }
        }
    }
}

fn check_label(node: &SyntaxNode, errors: &mut Vec<SyntaxError>) {
    let Some(label) = ast::BlockLabel::cast(node.clone()) else {
        return;
    };
    let Some(template) = label.template() else {
        return;
    };
    for part in template.parts() {
        let range = match part {
            TemplatePart::Literal(_) => continue,
            TemplatePart::Interpolation(n) => n.syntax().text_range(),
            TemplatePart::If(n) => n.syntax().text_range(),
            TemplatePart::For(n) => n.syntax().text_range(),
        };
        error(
            errors,
            range,
            "Invalid string literal: template sequences are not allowed in a block label; to include a literal `$`, double it (`$${`)",
        );
    }
}

fn check_duplicate_attributes(node: &SyntaxNode, errors: &mut Vec<SyntaxError>) {
    let Some(body) = ast::Body::cast(node.clone()) else {
        return;
    };
    let mut seen = FxHashSet::default();
    for attribute in body.attributes() {
        let Some(name) = attribute.name() else {
            continue;
        };
        if !seen.insert(name.text().to_string()) {
            error(
                errors,
                name.text_range(),
                format!(
                    "Attribute redefined: `{}` is already set in this body; each argument may be set only once",
                    name.text()
                ),
            );
        }
    }
}
