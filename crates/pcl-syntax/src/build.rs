//! Replays parser events into a rowan green tree, putting trivia back between tokens, and runs
//! the token-level validation on the way (one pass, no red tree). The same pass without the
//! tree gives the validation alone, for callers that want only the errors.

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
    let builder = Builder {
        children: Vec::with_capacity(64),
        parents: Vec::with_capacity(32),
        // Distinct short tokens are a fraction of all tokens; sizing up front avoids rehashing.
        tokens: FxHashMap::with_capacity_and_hasher(lexed.len() / 16, Default::default()),
        // A small file gets a small table: clearing and freeing it is per parse.
        small: vec![
            None;
            (lexed.len() / 2)
                .clamp(64, MAX_SMALL_SLOTS)
                .next_power_of_two()
        ]
        .into_boxed_slice(),
    };
    replay_into(lexed, output, errors, builder).finish()
}

/// The validation errors of the events, without building a tree: exactly what [`build_tree`]
/// adds to `errors` (one pass drives both; `tests/tree_free.rs` compares them on every input).
pub(crate) fn validate(lexed: &Lexed<'_>, output: &Output, errors: &mut Vec<SyntaxError>) {
    replay_into(lexed, output, errors, NoTree);
}

/// Replays the events into `tree`, validating on the way (the one pass of every tree builder:
/// rowan's, none, and the flat tree's).
pub(crate) fn replay_into<'a, T: Tree<'a>>(
    lexed: &'a Lexed<'a>,
    output: &Output,
    errors: &mut Vec<SyntaxError>,
    tree: T,
) -> T {
    let mut sink = Sink {
        lexed,
        builder: tree,
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
    sink.builder
}

/// What the replay builds: a green tree, a flat tree, or nothing.
pub(crate) trait Tree<'t> {
    fn token(&mut self, kind: SyntaxKind, text: &'t str);
    fn start_node(&mut self, kind: SyntaxKind);
    fn finish_node(&mut self);
}

/// Validation only.
struct NoTree;

impl<'t> Tree<'t> for NoTree {
    fn token(&mut self, _: SyntaxKind, _: &'t str) {}
    fn start_node(&mut self, _: SyntaxKind) {}
    fn finish_node(&mut self) {}
}

/// A green-tree builder for one parse. Unlike rowan's `GreenNodeBuilder` it does not hash every
/// token and small node into a cache: only short tokens (punctuation, whitespace, keywords, most
/// names) are shared, which saves most of the allocations at a fraction of the hashing.
struct Builder<'t> {
    children: Vec<NodeOrToken<GreenNode, GreenToken>>,
    /// Open nodes: kind and the index of their first child in `children`.
    parents: Vec<(SyntaxKind, usize)>,
    tokens: FxHashMap<(SyntaxKind, &'t str), GreenToken>,
    /// Tokens of at most 8 bytes, in a direct-mapped table keyed by kind and text packed in a
    /// word: punctuation, single spaces, newlines and short names are most of a file's tokens,
    /// and a slot answers them without hashing and comparing a string (a collision only costs
    /// a new token: sharing is an economy, not a meaning).
    small: Box<[Option<(u64, u32, GreenToken)>]>,
}

/// Tokens up to this length are shared within a tree.
const SHARED_TOKEN_LEN: usize = 16;

/// Slots of the table of small tokens, at most (a power of two).
const MAX_SMALL_SLOTS: usize = 1024;

/// The text of a token of at most 8 bytes as a word, and its kind and length as a tag.
fn small_key(kind: SyntaxKind, text: &str) -> (u64, u32) {
    let mut word = [0u8; 8];
    word[..text.len()].copy_from_slice(text.as_bytes());
    (
        u64::from_le_bytes(word),
        (u32::from(kind as u16) << 8) | text.len() as u32,
    )
}

impl<'t> Tree<'t> for Builder<'t> {
    fn token(&mut self, kind: SyntaxKind, text: &'t str) {
        let raw = PclLanguage::kind_to_raw(kind);
        let token = if text.len() <= 8 {
            let (word, tag) = small_key(kind, text);
            let hash = (word ^ (u64::from(tag) << 40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let slots = self.small.len();
            let slot = &mut self.small[(hash >> (64 - slots.trailing_zeros())) as usize];
            match slot {
                Some((w, t, token)) if *w == word && *t == tag => token.clone(),
                _ => {
                    let token = GreenToken::new(raw, text);
                    *slot = Some((word, tag, token.clone()));
                    token
                }
            }
        } else if text.len() <= SHARED_TOKEN_LEN {
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
}

impl Builder<'_> {
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

struct Sink<'a, 'e, T> {
    lexed: &'a Lexed<'a>,
    builder: T,
    next: usize,
    offset: u32,
    frames: Vec<Frame>,
    body_count: u32,
    /// The attribute names of each body (by body id), with where each is first set.
    attribute_names: FxHashMap<(u32, &'a str), u32>,
    validator: Validator<'e>,
}

impl<'a, T: Tree<'a>> Sink<'a, '_, T> {
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
