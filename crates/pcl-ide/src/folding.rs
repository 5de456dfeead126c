//! Folding ranges: blocks, multi-line collections, calls, heredocs and runs of comments.

use std::path::Path;

use pcl_db::RootDatabase;
use pcl_diagnostics::{TextRange, TextSize};
use pcl_syntax::SyntaxKind;

/// A range an editor can fold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    pub range: TextRange,
    pub kind: FoldKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    /// A block, an object, a tuple, a call's arguments, a `for` expression.
    Region,
    /// A heredoc or a multi-line string.
    Text,
    /// Consecutive comment lines, or a block comment.
    Comment,
}

pub(crate) fn folding_ranges(db: &RootDatabase, path: &Path) -> Vec<Fold> {
    let Some(file) = db.files().get(path) else {
        return Vec::new();
    };
    let text = file.text(db);
    let parse = pcl_db::parse(db, file);
    let multiline = |range: TextRange| {
        text.get(usize::from(range.start())..usize::from(range.end()))
            .is_some_and(|s| s.trim_end().contains('\n'))
    };
    let mut out = Vec::new();
    let mut comment_run: Option<(TextRange, usize)> = None;
    let flush = |run: &mut Option<(TextRange, usize)>, out: &mut Vec<Fold>| {
        if let Some((range, lines)) = run.take() {
            if lines > 1 {
                out.push(Fold {
                    range,
                    kind: FoldKind::Comment,
                });
            }
        }
    };
    for element in parse.syntax().descendants_with_tokens() {
        match element {
            rowan::NodeOrToken::Node(node) => {
                let kind = match node.kind() {
                    SyntaxKind::BLOCK
                    | SyntaxKind::OBJECT_EXPR
                    | SyntaxKind::TUPLE_EXPR
                    | SyntaxKind::ARG_LIST
                    | SyntaxKind::FOR_EXPR => FoldKind::Region,
                    SyntaxKind::HEREDOC_EXPR => FoldKind::Text,
                    _ => continue,
                };
                let range = node.text_range();
                if multiline(range) {
                    out.push(Fold {
                        range: trim_trailing(text, range),
                        kind,
                    });
                }
            }
            rowan::NodeOrToken::Token(token) => match token.kind() {
                SyntaxKind::COMMENT => {
                    let range = token.text_range();
                    let range = trim_trailing(text, range);
                    comment_run = match comment_run.take() {
                        Some((run, lines))
                            if only_whitespace_between(text, run.end(), range.start()) =>
                        {
                            Some((run.cover(range), lines + 1))
                        }
                        other => {
                            let mut other = other;
                            flush(&mut other, &mut out);
                            Some((range, 1))
                        }
                    };
                }
                SyntaxKind::BLOCK_COMMENT if multiline(token.text_range()) => out.push(Fold {
                    range: token.text_range(),
                    kind: FoldKind::Comment,
                }),
                SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE => {}
                _ => flush(&mut comment_run, &mut out),
            },
        }
    }
    flush(&mut comment_run, &mut out);
    out.sort_by_key(|f| (f.range.start(), std::cmp::Reverse(f.range.end())));
    out
}

/// A line comment's token ends with its newline; a fold ends before it.
fn trim_trailing(text: &str, range: TextRange) -> TextRange {
    let slice = &text[usize::from(range.start())..usize::from(range.end())];
    let trimmed = slice.trim_end();
    TextRange::at(range.start(), TextSize::of(trimmed))
}

/// Whether only spaces and at most one line break separate two comments.
fn only_whitespace_between(text: &str, end: TextSize, start: TextSize) -> bool {
    let gap = &text[usize::from(end).min(text.len())..usize::from(start).min(text.len())];
    gap.chars().all(char::is_whitespace) && gap.matches('\n').count() <= 1
}
