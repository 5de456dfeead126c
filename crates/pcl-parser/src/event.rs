//! The parser's output: a flat list of events describing the tree, plus errors.
//!
//! The parser never builds a tree itself (the design of rust-analyzer's `parser` crate): a tree
//! layer replays these events over the token list and puts trivia back between tokens.

use crate::error::SyntaxErrorKind;
use crate::syntax_kind::SyntaxKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Opens a node. `forward_parent` (an offset to a later `Start`) lets a completed node be
    /// wrapped in a parent started afterwards (left-recursive binary and postfix expressions).
    Start {
        kind: SyntaxKind,
        forward_parent: Option<u32>,
    },
    /// Consumes the next non-trivia token, possibly under a new kind (contextual keywords).
    Token {
        kind: SyntaxKind,
    },
    Finish,
    /// A `Start` that was abandoned or already replayed.
    Tombstone,
}

/// A syntax error with its kind and byte range.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParseError {
    pub kind: SyntaxErrorKind,
    pub start: u32,
    pub end: u32,
    pub message: String,
    /// A suggestion shown after the message ("did you mean `if`?"), never part of it.
    pub help: Option<String>,
    /// Notes at other ranges of the input (start, end, note).
    pub related: Vec<(u32, u32, String)>,
}

/// Everything the parser produced for one input.
#[derive(Debug, Clone, Default)]
pub struct Output {
    pub events: Vec<Event>,
    pub errors: Vec<ParseError>,
    /// Whether every bracket of the file was paired by the pass before parsing. A file that is
    /// not may report nothing about it (a `{` inside input an error skipped), yet its recovery
    /// was decided over the whole file: an incremental reparse must parse it whole.
    pub brackets_paired: bool,
}

/// One step of replaying an [`Output`]: the tree layer's view, with `forward_parent` resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Enter(SyntaxKind),
    /// The next non-trivia token, under this kind.
    Token(SyntaxKind),
    Exit,
}

impl Output {
    /// Replays the events in tree order, calling `sink` for each step.
    pub fn replay(&self, mut sink: impl FnMut(Step)) {
        // Forward parents are resolved by marking replayed `Start`s; a bitset keeps `self` intact.
        let mut replayed = vec![false; self.events.len()];
        let mut parents: Vec<SyntaxKind> = Vec::new();
        for (i, event) in self.events.iter().enumerate() {
            if replayed[i] {
                continue;
            }
            match *event {
                Event::Start {
                    kind,
                    forward_parent,
                } => {
                    // Collect the chain of forward parents; the outermost is entered first.
                    parents.push(kind);
                    let mut idx = i;
                    let mut fp = forward_parent;
                    while let Some(offset) = fp {
                        idx += offset as usize;
                        replayed[idx] = true;
                        fp = match self.events[idx] {
                            Event::Start {
                                kind,
                                forward_parent,
                            } => {
                                parents.push(kind);
                                forward_parent
                            }
                            _ => None,
                        };
                    }
                    for kind in parents.drain(..).rev() {
                        sink(Step::Enter(kind));
                    }
                }
                Event::Token { kind } => sink(Step::Token(kind)),
                Event::Finish => sink(Step::Exit),
                Event::Tombstone => {}
            }
        }
    }
}
