//! Where the syntax errors are: the items (attributes, blocks, or skipped input) that contain
//! them. The formatter keeps these exactly as written, so that a file being edited can be
//! formatted without the formatter guessing at the meaning of broken text.

use pcl_syntax::{SyntaxKind, SyntaxNode, TextRange, TextSize};

/// Where the syntax errors of a text are. Both lists are sorted and merged.
#[derive(Debug, Default)]
pub(crate) struct Damage {
    /// The innermost attribute or skipped input around each error.
    pub(crate) items: Vec<TextRange>,
    /// The ranges of errors in a block's own tokens (a label, a brace): only their lines are
    /// damaged, and their brackets are structure that the lines after them rely on.
    pub(crate) lines: Vec<TextRange>,
    /// Where the parser ended each unclosed block (before the first item indented no deeper
    /// than its `{` line). Indentation decides where such a block ends, so the layout closes
    /// its level there, keeping the lines inside deeper than its `{` line and the lines after
    /// it not deeper.
    pub(crate) unclosed_ends: Vec<TextSize>,
}

/// How an unclosed block is formatted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnclosedBlocks {
    /// Its lines are formatted, its level closed where the parser ended it.
    Formatted,
    /// Everything from it to the end of the file is kept as written: for the rare files
    /// where formatting would still move the block's end (lines inside it kept as written
    /// and indented no deeper than its new indentation).
    KeptToEnd,
}

impl Damage {
    /// Everything left as written, sorted and merged.
    pub(crate) fn all(&self) -> Vec<TextRange> {
        merge(self.items.iter().chain(&self.lines).copied().collect())
    }
}

pub(crate) fn find(text: &str, unclosed_blocks: UnclosedBlocks) -> Damage {
    let parse = pcl_syntax::parse(text);
    let root = parse.syntax();
    let top = TopLevel::new(&root);
    let mut items = Vec::new();
    let mut lines = Vec::new();
    let mut unclosed_ends = Vec::new();
    for error in parse.errors() {
        if error.kind == pcl_syntax::SyntaxErrorKind::UnclosedBlock {
            // Reported at the block's `{`, or at a `}` inside it with the block's `{` as the
            // first note (where the `}` missing probably is: see the parser's `unclosed_block`).
            let at = error
                .related
                .first()
                .map_or(error.range, |(range, _)| *range);
            if let Some(block) = enclosing_block(&top.around(at), at) {
                match unclosed_blocks {
                    UnclosedBlocks::Formatted => unclosed_ends.push(block.end()),
                    UnclosedBlocks::KeptToEnd => {
                        items.push(TextRange::new(block.start(), root.text_range().end()))
                    }
                }
                continue;
            }
        }
        match enclosing_item(&top.around(error.range), error.range) {
            Some(item) => items.push(item),
            None => lines.push(error.range),
        }
    }
    Damage {
        items: merge(items),
        lines: merge(lines),
        unclosed_ends,
    }
}

/// The top-level items of a tree, to start each search for an error's place from the item
/// around it: rowan finds a position by walking a node's children in turn, so searching from
/// the root once per error was quadratic in a file of many top-level items with errors
/// (20,000 unclosed blocks took 3 s, 50,000 took 21 s).
struct TopLevel {
    root: SyntaxNode,
    items: Vec<SyntaxNode>,
}

impl TopLevel {
    fn new(root: &SyntaxNode) -> TopLevel {
        let items = root
            .children()
            .find(|n| n.kind() == SyntaxKind::BODY)
            .map(|body| body.children().collect())
            .unwrap_or_default();
        TopLevel {
            root: root.clone(),
            items,
        }
    }

    /// The top-level item in which a search for `range` finds what a search from the root
    /// finds (it holds the range, and an empty range does not sit at its start, where the
    /// token on the left is the item before), or the root.
    fn around(&self, range: TextRange) -> SyntaxNode {
        let i = self
            .items
            .partition_point(|item| item.text_range().end() < range.start());
        let holds = |item: &SyntaxNode| {
            let r = item.text_range();
            if range.is_empty() {
                r.start() < range.start() && range.start() <= r.end()
            } else {
                r.contains_range(range)
            }
        };
        self.items[i..]
            .iter()
            .take(2)
            .find(|item| holds(item))
            .cloned()
            .unwrap_or_else(|| self.root.clone())
    }
}

fn merge(mut ranges: Vec<TextRange>) -> Vec<TextRange> {
    ranges.sort_by_key(|r| (r.start(), r.end()));
    let mut merged: Vec<TextRange> = Vec::with_capacity(ranges.len());
    for range in ranges {
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

fn enclosing_block(root: &SyntaxNode, range: TextRange) -> Option<TextRange> {
    let token = root.token_at_offset(range.start()).right_biased()?;
    token
        .parent_ancestors()
        .find(|n| n.kind() == SyntaxKind::BLOCK)
        .map(|block| block.text_range())
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
