//! The lossless syntax tree of PCL (HCL native syntax) and its typed AST.
//!
//! This crate owns the trees: it replays the parser's events into a rowan green tree that holds
//! every byte of the input (trivia included), or into the same tree as flat vectors for readers
//! that walk it once ([`flat`]), collects lexer, parser and validation errors into a [`Parse`],
//! and offers typed accessors over either tree ([`ast`], [`tree`]) and stable text/JSON dumps
//! for tests and tools.

pub mod ast;
mod build;
mod dump;
pub mod flat;
mod reparse;
mod template;
pub mod tree;
mod validate;

use std::sync::Arc;

pub use pcl_parser::{SyntaxErrorKind, SyntaxKind, BLOCK_KEYWORDS};
pub use rowan::{NodeOrToken, TextRange, TextSize, WalkEvent};

pub use dump::{debug_tree, json_tree};
pub use flat::{
    flat_tree_difference, parse_flat, parse_flat_into, FlatBuffers, FlatNode, FlatParse, FlatToken,
    FlatTree,
};
pub use reparse::reparse;
pub use template::{LiteralPiece, TemplateLiterals};
pub use tree::{TreeNode, TreeToken};

/// The rowan language tag of PCL trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PclLanguage {}

impl rowan::Language for PclLanguage {
    type Kind = SyntaxKind;

    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        // Trees are only built from `SyntaxKind`s, so any raw value here came from `kind_to_raw`.
        SyntaxKind::from_raw(raw.0).unwrap_or(SyntaxKind::ERROR)
    }

    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(kind as u16)
    }
}

pub type SyntaxNode = rowan::SyntaxNode<PclLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<PclLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<PclLanguage>;
pub type GreenNode = rowan::GreenNode;
pub type GreenNodeData = rowan::GreenNodeData;

/// A syntax error: its kind, the exact range it is about, a message saying what is wrong and
/// what was expected, and possibly other places it is about ("first set here").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    pub kind: SyntaxErrorKind,
    pub range: TextRange,
    pub message: String,
    /// Other ranges of the same file, each with a note.
    pub related: Vec<(TextRange, String)>,
    /// Lines shown after the message: suggestions ("did you mean `&&`?"), never in the message.
    pub help: Vec<String>,
}

impl SyntaxError {
    pub fn new(kind: SyntaxErrorKind, range: TextRange, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            kind,
            range,
            message: message.into(),
            related: Vec::new(),
            help: Vec::new(),
        }
    }

    /// This error with a help line shown after its message.
    pub fn with_help(mut self, help: impl Into<String>) -> SyntaxError {
        self.help.push(help.into());
        self
    }

    /// A file whose bytes were not all UTF-8, at the first bad byte (hosts read files lossily,
    /// so that one bad byte does not hide the file's other diagnostics).
    pub fn invalid_encoding(range: TextRange) -> SyntaxError {
        SyntaxError::new(
            SyntaxErrorKind::InvalidEncoding,
            range,
            "invalid character encoding: the file is not valid UTF-8 (the bad bytes are read as U+FFFD)",
        )
    }

    /// The stable diagnostic code of this error's kind.
    pub fn code(&self) -> pcl_diagnostics::Code {
        self.kind.code()
    }

    /// This error as a diagnostic of the shared model.
    pub fn to_diagnostic(&self) -> pcl_diagnostics::Diagnostic {
        let mut diagnostic =
            pcl_diagnostics::Diagnostic::new(self.code(), self.range, self.message.clone());
        for (range, note) in &self.related {
            diagnostic = diagnostic.with_related(*range, note.clone());
        }
        for help in &self.help {
            diagnostic = diagnostic.with_help(help.clone());
        }
        diagnostic
    }
}

impl From<&SyntaxError> for pcl_diagnostics::Diagnostic {
    fn from(error: &SyntaxError) -> pcl_diagnostics::Diagnostic {
        error.to_diagnostic()
    }
}

impl From<SyntaxError> for pcl_diagnostics::Diagnostic {
    fn from(error: SyntaxError) -> pcl_diagnostics::Diagnostic {
        error.to_diagnostic()
    }
}

/// The result of parsing one file: the green tree (always complete) and its errors, sorted by
/// position. Cheap to clone; `Send + Sync`, so it can be a salsa query result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parse {
    green: GreenNode,
    errors: Arc<[SyntaxError]>,
    /// Whether the parser paired every bracket before parsing (`reparse` declines otherwise).
    brackets_paired: bool,
}

impl Parse {
    pub fn green(&self) -> &GreenNode {
        &self.green
    }

    /// The file's top-level items (what `tree().body()`'s `items()` gives), each with where it
    /// starts and its green node, without a cursor per item: for the passes over an open
    /// file's items that run on every keystroke and need no more of them (a cursor is an
    /// allocation each, a third of such a pass).
    pub fn green_items(&self) -> impl Iterator<Item = (TextSize, &rowan::GreenNodeData)> + '_ {
        use rowan::Language as _;
        let body_kind = PclLanguage::kind_to_raw(SyntaxKind::BODY);
        let item_kinds = [
            PclLanguage::kind_to_raw(SyntaxKind::ATTRIBUTE),
            PclLanguage::kind_to_raw(SyntaxKind::BLOCK),
        ];
        let mut offset = TextSize::from(0);
        let body = self.green.children().find_map(|child| {
            let start = offset;
            offset += child.text_len();
            match child {
                NodeOrToken::Node(node) if node.kind() == body_kind => Some((start, node)),
                _ => None,
            }
        });
        body.into_iter().flat_map(move |(start, body)| {
            let mut offset = start;
            body.children().filter_map(move |child| {
                let at = offset;
                offset += child.text_len();
                match child {
                    NodeOrToken::Node(node) if item_kinds.contains(&node.kind()) => {
                        Some((at, node))
                    }
                    _ => None,
                }
            })
        })
    }

    /// A fresh red tree over the green tree.
    pub fn syntax(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    pub fn tree(&self) -> ast::SourceFile {
        ast::SourceFile::<SyntaxNode>::cast_root(self.syntax())
    }

    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// The errors as diagnostics of the shared model, in the same order.
    pub fn diagnostics(&self) -> Vec<pcl_diagnostics::Diagnostic> {
        self.errors.iter().map(SyntaxError::to_diagnostic).collect()
    }
}

/// The largest source file the tools read (64 MiB), refused up front, before reading: a parse
/// and its lowering take some 20 times the text in memory, and real programs split their
/// nodes over files far smaller than this (a 10 MB line still parses). The library functions
/// themselves accept any text below 4 GiB, the limit of the `u32` offsets.
pub const MAX_SOURCE_LEN: u64 = 64 << 20;

fn syntax_error(
    kind: SyntaxErrorKind,
    start: u32,
    end: u32,
    message: &str,
    help: &Option<String>,
    related: &[(u32, u32, String)],
) -> SyntaxError {
    let mut error = SyntaxError::new(kind, TextRange::new(start.into(), end.into()), message);
    error.help.extend(help.iter().cloned());
    error.related = related
        .iter()
        .map(|(start, end, note)| (TextRange::new((*start).into(), (*end).into()), note.clone()))
        .collect();
    error
}

/// Parses a whole file. Never fails: `parse(text).syntax().to_string() == text` for every input.
pub fn parse(text: &str) -> Parse {
    let lexed = pcl_parser::Lexed::new(text);
    let output = pcl_parser::parse_source_file(&lexed);
    let mut errors = lex_and_parse_errors(&lexed, &output);
    let green = build::build_tree(&lexed, &output, &mut errors);
    Parse {
        green,
        errors: sorted(errors).into(),
        brackets_paired: output.brackets_paired,
    }
}

/// The syntax errors of a file, exactly `parse(text).errors()`, without building the tree: for
/// callers that only report errors (`pcl parse` without `--tree`), at about half the cost.
pub fn syntax_errors(text: &str) -> Vec<SyntaxError> {
    let lexed = pcl_parser::Lexed::new(text);
    let output = pcl_parser::parse_source_file(&lexed);
    let mut errors = lex_and_parse_errors(&lexed, &output);
    build::validate(&lexed, &output, &mut errors);
    sorted(errors)
}

fn sorted(mut errors: Vec<SyntaxError>) -> Vec<SyntaxError> {
    errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    errors.dedup();
    errors
}

fn lex_and_parse_errors(
    lexed: &pcl_parser::Lexed<'_>,
    output: &pcl_parser::Output,
) -> Vec<SyntaxError> {
    lexed
        .errors()
        .iter()
        .map(|e| syntax_error(e.kind, e.start, e.end, &e.message, &e.help, &[]))
        .chain(
            output
                .errors
                .iter()
                .map(|e| syntax_error(e.kind, e.start, e.end, &e.message, &e.help, &e.related)),
        )
        .collect()
}
