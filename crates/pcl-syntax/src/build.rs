//! Replays parser events into a rowan green tree, putting trivia back between tokens, and runs
//! the token-level validation on the way (one pass, no red tree).

use pcl_parser::{Lexed, Output, Step, SyntaxKind, SyntaxKind::*};
use rowan::{GreenNode, GreenToken, Language, NodeOrToken};
use rustc_hash::FxHashMap;

use crate::validate::Validator;
use crate::{PclLanguage, SyntaxError};

/// Builds the green tree. Trivia before a node goes in front of it (in the parent), so that nodes
/// start with a real token; tokens the parser did not consume (none, if the grammar is right) are
/// kept in a trailing ERROR node, so the tree is lossless whatever happens.
pub(crate) fn build_tree(
    lexed: &Lexed<'_>,
    output: &Output,
    errors: &mut Vec<SyntaxError>,
) -> GreenNode {
    let mut sink = Sink {
        lexed,
        builder: Builder {
            children: Vec::with_capacity(64),
            parents: Vec::with_capacity(32),
            // Distinct short tokens are a fraction of all tokens; sizing up front avoids rehashing.
            tokens: FxHashMap::with_capacity_and_hasher(lexed.len() / 4, Default::default()),
        },
        next: 0,
        offset: 0,
        frames: Vec::new(),
        body_count: 0,
        attribute_names: FxHashMap::default(),
        validator: Validator { errors },
    };
    output.replay(|step| match step {
        Step::Enter(kind) => sink.enter(kind),
        Step::Token(kind) => sink.token(kind),
        Step::Exit => sink.exit(),
    });
    sink.builder.finish()
}

/// A green-tree builder for one parse. Unlike rowan's `GreenNodeBuilder` it does not hash every
/// token and small node into a cache: only short tokens (punctuation, whitespace, keywords, most
/// names) are shared, which saves most of the allocations at a fraction of the hashing.
struct Builder<'t> {
    children: Vec<NodeOrToken<GreenNode, GreenToken>>,
    /// Open nodes: kind and the index of their first child in `children`.
    parents: Vec<(SyntaxKind, usize)>,
    tokens: FxHashMap<(SyntaxKind, &'t str), GreenToken>,
}

/// Tokens up to this length are shared within a tree.
const SHARED_TOKEN_LEN: usize = 16;

impl<'t> Builder<'t> {
    fn token(&mut self, kind: SyntaxKind, text: &'t str) {
        let raw = PclLanguage::kind_to_raw(kind);
        let token = if text.len() <= SHARED_TOKEN_LEN {
            self.tokens
                .entry((kind, text))
                .or_insert_with(|| GreenToken::new(raw, text))
                .clone()
        } else {
            GreenToken::new(raw, text)
        };
        self.children.push(NodeOrToken::Token(token));
    }

    fn start_node(&mut self, kind: SyntaxKind) {
        self.parents.push((kind, self.children.len()));
    }

    fn finish_node(&mut self) {
        let Some((kind, first)) = self.parents.pop() else {
            return;
        };
        let node = GreenNode::new(PclLanguage::kind_to_raw(kind), self.children.drain(first..));
        self.children.push(NodeOrToken::Node(node));
    }

    fn finish(mut self) -> GreenNode {
        if let [NodeOrToken::Node(_)] = self.children.as_slice() {
            if let Some(NodeOrToken::Node(root)) = self.children.pop() {
                return root;
            }
        }
        // The event stream always has exactly one root; this only guards against a grammar bug.
        GreenNode::new(PclLanguage::kind_to_raw(SOURCE_FILE), self.children)
    }
}

struct Frame {
    kind: SyntaxKind,
    start: u32,
    /// For BODY frames: an id that scopes attribute names (duplicates are per body).
    body_id: u32,
    /// For ATTRIBUTE frames: whether the name token has been seen.
    named: bool,
}

struct Sink<'a, 'e> {
    lexed: &'a Lexed<'a>,
    builder: Builder<'a>,
    next: usize,
    offset: u32,
    frames: Vec<Frame>,
    body_count: u32,
    /// The attribute names of each body (by body id), with where each is first set.
    attribute_names: FxHashMap<(u32, &'a str), u32>,
    validator: Validator<'e>,
}

impl<'a> Sink<'a, '_> {
    fn emit(&mut self, kind: SyntaxKind) {
        let text = self.lexed.text(self.next);
        self.builder.token(kind, text);
        self.next += 1;
        self.offset += text.len() as u32;
    }

    fn flush_trivia(&mut self) {
        while self.next < self.lexed.len() && self.lexed.kind(self.next).is_trivia() {
            self.emit(self.lexed.kind(self.next));
        }
    }

    fn enter(&mut self, kind: SyntaxKind) {
        if !self.frames.is_empty() {
            self.flush_trivia();
        }
        self.builder.start_node(kind);
        let body_id = if kind == BODY {
            self.body_count += 1;
            self.body_count
        } else {
            0
        };
        self.frames.push(Frame {
            kind,
            start: self.offset,
            body_id,
            named: false,
        });
    }

    fn token(&mut self, kind: SyntaxKind) {
        self.flush_trivia();
        if self.next >= self.lexed.len() {
            return;
        }
        let text = self.lexed.text(self.next);
        let start = self.offset;
        match kind {
            NUMBER => {
                let in_legacy_index = self.parent_kind(0) == Some(LEGACY_INDEX_EXPR);
                if !in_legacy_index {
                    self.validator.check_number(text, start);
                }
            }
            TEMPLATE_LITERAL if self.in_quoted_template() => {
                self.validator.check_escapes(text, start)
            }
            IDENT => self.check_attribute_name(text, start),
            _ => {}
        }
        self.emit(kind);
    }

    fn exit(&mut self) {
        if self.frames.len() == 1 {
            self.flush_trivia();
            if self.next < self.lexed.len() {
                self.builder.start_node(SyntaxKind::ERROR);
                while self.next < self.lexed.len() {
                    self.emit(self.lexed.kind(self.next));
                }
                self.builder.finish_node();
            }
        }
        self.builder.finish_node();
        let Some(frame) = self.frames.pop() else {
            return;
        };
        // A template sequence directly inside a block label's string.
        if matches!(
            frame.kind,
            TEMPLATE_INTERPOLATION | TEMPLATE_IF | TEMPLATE_FOR
        ) && self.parent_kind(0) == Some(TEMPLATE_EXPR)
            && self.parent_kind(1) == Some(BLOCK_LABEL)
        {
            self.validator.label_template(frame.start, self.offset);
        }
    }

    /// Kind of the `n`th enclosing node (0 = innermost open node).
    fn parent_kind(&self, n: usize) -> Option<SyntaxKind> {
        self.frames.iter().rev().nth(n).map(|f| f.kind)
    }

    fn in_quoted_template(&self) -> bool {
        self.frames
            .iter()
            .rev()
            .find(|f| matches!(f.kind, TEMPLATE_EXPR | HEREDOC_EXPR))
            .is_some_and(|f| f.kind == TEMPLATE_EXPR)
    }

    /// The first IDENT of an ATTRIBUTE directly in a BODY is its name; names repeat per body.
    fn check_attribute_name(&mut self, name: &'a str, start: u32) {
        let [.., body, attribute] = self.frames.as_mut_slice() else {
            return;
        };
        if attribute.kind != ATTRIBUTE || body.kind != BODY || attribute.named {
            return;
        }
        attribute.named = true;
        match self.attribute_names.entry((body.body_id, name)) {
            std::collections::hash_map::Entry::Occupied(first) => {
                self.validator
                    .attribute_redefined(name, start, *first.get());
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(start);
            }
        }
    }
}
