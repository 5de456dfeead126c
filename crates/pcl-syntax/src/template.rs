//! The values of a template's literal text: the one home of the rules that turn the literal
//! tokens of a quoted string or heredoc into text.
//!
//! hclsyntax's order (`parseTemplateInner`), applied to the template's literal tokens as one flat
//! sequence, directive bodies included: each token's escapes are decoded (`\n`, `\u…` in quoted
//! strings; `$${` and `%%{` in both kinds), then the `~` strip markers trim the literal token
//! right before `${~`/`%{~` and right after `~}` (that token only, never past it), then a `<<-`
//! heredoc loses its least indentation from each line-leading literal (`flushHeredocTemplateParts`).
//! Melding adjacent literals is left to the reader: lowering melds within each template body,
//! `literal_value` concatenates an all-literal template.

use crate::ast::unescape_quoted;
use rowan::NodeOrToken;

use crate::tree::{TreeNode, TreeToken};
use crate::{SyntaxKind::*, TextRange};

/// The literal tokens of one template (a `TEMPLATE_EXPR` or `HEREDOC_EXPR`), in source order,
/// each with its value; see the module documentation for the rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TemplateLiterals {
    pieces: Vec<LiteralPiece>,
    has_sequences: bool,
    flush_indent: usize,
}

/// One literal token and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiteralPiece {
    /// The token's range in the file.
    pub range: TextRange,
    pub value: String,
    /// Whether the escapes decoded; when not, `value` is the token's text after strips and
    /// flush (the validator reports the bad escape).
    pub valid: bool,
}

impl TemplateLiterals {
    /// Every literal token's piece, in source order.
    pub fn pieces(&self) -> &[LiteralPiece] {
        &self.pieces
    }

    /// The value of the literal `token` of this template (`None` for a token of another
    /// template, e.g. one nested in an interpolation).
    pub fn value_of(&self, token: &impl TreeToken) -> Option<&str> {
        let range = token.text_range();
        let at = self
            .pieces
            .binary_search_by_key(&range.start(), |p| p.range.start())
            .ok()?;
        let piece = &self.pieces[at];
        (piece.range == range).then_some(piece.value.as_str())
    }

    /// How many leading whitespace characters `<<-` removed from each line-leading literal
    /// (`0` for quoted strings and `<<EOT`).
    pub fn flush_indent(&self) -> usize {
        self.flush_indent
    }

    /// The template's value when it is only literal text with valid escapes.
    pub fn literal_value(&self) -> Option<String> {
        if self.has_sequences || self.pieces.iter().any(|p| !p.valid) {
            return None;
        }
        Some(self.pieces.iter().map(|p| p.value.as_str()).collect())
    }
}

/// One element of the flat sequence: a literal token, or an interpolation or directive with its
/// strip markers.
enum Element {
    Literal(usize),
    Sequence { trim_before: bool, trim_after: bool },
}

/// The literals of the template `node`; `heredoc` selects the heredoc escapes, `flush` the `<<-`
/// indentation rule.
pub(crate) fn template_literals<N: TreeNode>(
    node: &N,
    heredoc: bool,
    flush: bool,
) -> TemplateLiterals {
    let mut pieces = Vec::new();
    let mut elements = Vec::new();
    collect(node, heredoc, &mut pieces, &mut elements);
    // Strip markers: each trims the literal token right next to it, if that is a literal.
    for (i, element) in elements.iter().enumerate() {
        let Element::Sequence {
            trim_before,
            trim_after,
        } = *element
        else {
            continue;
        };
        if trim_before {
            if let Some(Element::Literal(p)) = i.checked_sub(1).map(|j| &elements[j]) {
                let value: &mut String = &mut pieces[*p].value;
                value.truncate(value.trim_end().len());
            }
        }
        if trim_after {
            if let Some(Element::Literal(p)) = elements.get(i + 1) {
                let value: &mut String = &mut pieces[*p].value;
                value.drain(..value.len() - value.trim_start().len());
            }
        }
    }
    let flush_indent = if flush {
        flush_heredoc(&mut pieces, &elements)
    } else {
        0
    };
    TemplateLiterals {
        has_sequences: elements
            .iter()
            .any(|e| matches!(e, Element::Sequence { .. })),
        pieces,
        flush_indent,
    }
}

/// Walks the template's own elements: into `%{ if }`/`%{ for }` and their bodies (their nesting
/// is bounded by the parser's depth limit), not into interpolations, whose templates are their own.
fn collect<N: TreeNode>(
    node: &N,
    heredoc: bool,
    pieces: &mut Vec<LiteralPiece>,
    elements: &mut Vec<Element>,
) {
    for element in node.children_with_tokens() {
        match element {
            NodeOrToken::Token(token) if token.kind() == TEMPLATE_LITERAL => {
                let (value, valid) = if heredoc {
                    (unescape_heredoc(token.text()), true)
                } else {
                    match unescape_quoted(token.text()) {
                        Ok(value) => (value, true),
                        Err(_) => (token.text().to_string(), false),
                    }
                };
                elements.push(Element::Literal(pieces.len()));
                pieces.push(LiteralPiece {
                    range: token.text_range(),
                    value,
                    valid,
                });
            }
            NodeOrToken::Node(n)
                if matches!(n.kind(), TEMPLATE_IF | TEMPLATE_FOR | TEMPLATE_BODY) =>
            {
                collect(&n, heredoc, pieces, elements)
            }
            NodeOrToken::Node(n)
                if matches!(n.kind(), TEMPLATE_INTERPOLATION | TEMPLATE_DIRECTIVE) =>
            {
                let (trim_before, trim_after) = strip_markers(&n);
                elements.push(Element::Sequence {
                    trim_before,
                    trim_after,
                });
            }
            _ => {}
        }
    }
}

/// `${~`/`%{~` and `~}` of one interpolation or directive.
fn strip_markers<N: TreeNode>(node: &N) -> (bool, bool) {
    let mut before = false;
    let mut after = false;
    for token in node.children_with_tokens().filter_map(|e| e.into_token()) {
        match token.kind() {
            TEMPLATE_INTERP | TEMPLATE_CONTROL => before |= token.text().ends_with('~'),
            TEMPLATE_SEQ_END => after |= token.text().starts_with('~'),
            _ => {}
        }
    }
    (before, after)
}

/// A heredoc literal's value: `$${` is `${` and `%%{` is `%{`; backslashes are literal.
fn unescape_heredoc(text: &str) -> String {
    text.replace("$${", "${").replace("%%{", "%{")
}

/// hclsyntax's `flushHeredocTemplateParts` over the values after strips: the least count of
/// leading whitespace characters over the line-leading literals is removed from each of them.
/// A line-leading literal of whitespace only that ends its line (a blank line) neither counts
/// nor is trimmed; a line that starts with an interpolation or directive counts 0. Every
/// whitespace character counts one, tabs and Unicode spaces included (hclsyntax counts grapheme
/// clusters, which differ only for a space followed by a combining mark). Returns the count.
fn flush_heredoc(pieces: &mut [LiteralPiece], elements: &[Element]) -> usize {
    let mut least = usize::MAX;
    let mut adjust = Vec::new();
    let mut at_line_start = true;
    for element in elements {
        let literal = match element {
            Element::Literal(p) => Some(*p),
            Element::Sequence { .. } => None,
        };
        if at_line_start {
            at_line_start = false;
            match literal {
                Some(p) => {
                    let value = &pieces[p].value;
                    let trimmed = value.trim_start();
                    if !(trimmed.is_empty() && value.ends_with('\n')) {
                        let indent = value[..value.len() - trimmed.len()].chars().count();
                        least = least.min(indent);
                        adjust.push(p);
                    }
                }
                None => least = 0,
            }
        }
        if let Some(p) = literal {
            at_line_start = pieces[p].value.ends_with('\n');
        }
    }
    if least == usize::MAX {
        return 0;
    }
    for p in adjust {
        let value = &mut pieces[p].value;
        let cut = value
            .char_indices()
            .nth(least)
            .map_or(value.len(), |(i, _)| i);
        value.drain(..cut);
    }
    least
}
