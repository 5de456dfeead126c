//! A flat syntax tree: the same nodes and tokens as the lossless rowan tree of [`crate::parse`],
//! trivia (whitespace and comments) left out, in three vectors, for a reader that walks the
//! tree once and drops it (lowering a file nobody has open, as `pcl check` does). Building and dropping rowan's tree was 45% of a
//! check: it shares tokens through a table, allocates every node and token on its own, and
//! frees them one by one; this one appends to vectors. The typed AST ([`crate::ast`]) reads
//! both, so which child plays which part has one home; [`flat_tree_difference`] says where the
//! two trees differ, and `tests/conformance.rs` (every corpus file), `pcl-hir`'s
//! `tests/flat_lowering.rs` and the syntax fuzz target check that they never do.

use rowan::NodeOrToken;

use crate::tree::{TreeNode, TreeToken};
use crate::{SyntaxError, SyntaxKind, TextRange, TextSize};

/// The tree of one text: build it with [`parse_flat`], read it through [`FlatTree::root`].
pub struct FlatTree<'t> {
    text: &'t str,
    nodes: Vec<NodeData>,
    tokens: Vec<TokenData>,
    /// Each node's children, one run per node: a node's index, or a token's with `TOKEN` set.
    edges: Vec<u32>,
    root: u32,
}

#[derive(Clone, Copy)]
struct NodeData {
    kind: SyntaxKind,
    start: u32,
    end: u32,
    first_edge: u32,
    edge_count: u32,
}

#[derive(Clone, Copy)]
struct TokenData {
    kind: SyntaxKind,
    start: u32,
    end: u32,
}

const TOKEN: u32 = 1 << 31;

/// The longest text a flat tree holds (512 MiB): node and token indexes must leave the `TOKEN`
/// bit free and the runs of children fit `u32` offsets. A text has at most one token per byte
/// (and one more), and about two nodes per byte at most (`a={,,,` opens two per comma), so
/// its nodes and tokens number at most about three per byte. Longer texts (the library takes
/// any text below 4 GiB; the tools refuse files above 64 MiB) are parsed into rowan's tree.
pub const MAX_FLAT_LEN: usize = 512 << 20;

/// A parse into a flat tree: the tree and the errors, exactly those of [`crate::parse`].
pub struct FlatParse<'t> {
    pub tree: FlatTree<'t>,
    pub errors: Vec<SyntaxError>,
}

impl FlatParse<'_> {
    /// The errors as diagnostics of the shared model, in the same order.
    pub fn diagnostics(&self) -> Vec<pcl_diagnostics::Diagnostic> {
        self.errors.iter().map(SyntaxError::to_diagnostic).collect()
    }
}

/// Parses `text` into a flat tree: the nodes, tokens and errors of [`crate::parse`], without
/// rowan's allocations. Never fails; `text` must be at most [`MAX_FLAT_LEN`] bytes long.
pub fn parse_flat(text: &str) -> FlatParse<'_> {
    parse_flat_into(text, FlatBuffers::default())
}

/// The vectors of a flat tree, empty, kept to build the next one: a reader that parses file
/// after file (lowering, on each thread) reuses them instead of asking the allocator for a
/// few megabytes per file, which it would free again at once.
#[derive(Default)]
pub struct FlatBuffers {
    nodes: Vec<NodeData>,
    tokens: Vec<TokenData>,
    edges: Vec<u32>,
}

impl FlatBuffers {
    /// The bytes the vectors hold allocated.
    pub fn capacity_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<NodeData>()
            + self.tokens.capacity() * std::mem::size_of::<TokenData>()
            + self.edges.capacity() * std::mem::size_of::<u32>()
    }
}

impl FlatTree<'_> {
    /// The tree's vectors, emptied, for [`parse_flat_into`].
    pub fn into_buffers(self) -> FlatBuffers {
        let (mut nodes, mut tokens, mut edges) = (self.nodes, self.tokens, self.edges);
        nodes.clear();
        tokens.clear();
        edges.clear();
        FlatBuffers {
            nodes,
            tokens,
            edges,
        }
    }
}

/// [`parse_flat`], building the tree in `buffers`.
///
/// # Panics
///
/// When `text` is longer than [`MAX_FLAT_LEN`]: callers that may see such a text parse it
/// with [`crate::parse`].
pub fn parse_flat_into(text: &str, buffers: FlatBuffers) -> FlatParse<'_> {
    assert!(
        text.len() <= MAX_FLAT_LEN,
        "a flat tree holds at most {MAX_FLAT_LEN} bytes"
    );
    let lexed = pcl_parser::Lexed::new(text);
    let output = pcl_parser::parse_source_file(&lexed);
    let mut errors = crate::lex_and_parse_errors(&lexed, &output);
    let FlatBuffers {
        mut nodes,
        mut tokens,
        mut edges,
    } = buffers;
    // About one token per 4 bytes and one node per 3 tokens in real files.
    nodes.reserve(text.len() / 12);
    tokens.reserve(text.len() / 4);
    edges.reserve(text.len() / 3);
    let builder = FlatBuilder {
        text,
        nodes,
        tokens,
        edges,
        pending: Vec::with_capacity(64),
        parents: Vec::with_capacity(32),
        offset: 0,
    };
    let tree = crate::build::replay_into(&lexed, &output, &mut errors, builder).finish();
    FlatParse {
        tree,
        errors: crate::sorted(errors),
    }
}

struct FlatBuilder<'t> {
    text: &'t str,
    nodes: Vec<NodeData>,
    tokens: Vec<TokenData>,
    edges: Vec<u32>,
    /// Children of the open nodes, innermost last.
    pending: Vec<u32>,
    /// Open nodes: kind, where their children start in `pending`, and their start.
    parents: Vec<(SyntaxKind, usize, u32)>,
    offset: u32,
}

impl<'x> crate::build::Tree<'x> for FlatBuilder<'_> {
    fn token(&mut self, kind: SyntaxKind, text: &'x str) {
        let start = self.offset;
        self.offset += text.len() as u32;
        // Whitespace and comments: no reader of a flat tree looks at them (a third of a
        // file's tokens). Nodes never start or end with them, so ranges are rowan's.
        if kind.is_trivia() {
            return;
        }
        self.pending.push(self.tokens.len() as u32 | TOKEN);
        self.tokens.push(TokenData {
            kind,
            start,
            end: self.offset,
        });
    }

    fn start_node(&mut self, kind: SyntaxKind) {
        self.parents.push((kind, self.pending.len(), self.offset));
    }

    fn finish_node(&mut self) {
        let Some((kind, first, start)) = self.parents.pop() else {
            return;
        };
        let first_edge = self.edges.len() as u32;
        // A copy and a truncation: `drain` moved the children one by one.
        self.edges.extend_from_slice(&self.pending[first..]);
        self.pending.truncate(first);
        self.pending.push(self.nodes.len() as u32);
        self.nodes.push(NodeData {
            kind,
            start,
            end: self.offset,
            first_edge,
            edge_count: self.edges.len() as u32 - first_edge,
        });
    }
}

impl<'t> FlatBuilder<'t> {
    fn finish(mut self) -> FlatTree<'t> {
        // The event stream always has exactly one root; a grammar bug would leave more, which
        // a root of their own keeps (as rowan's builder does).
        let root = match self.pending.as_slice() {
            [only] if only & TOKEN == 0 => *only,
            _ => {
                use crate::build::Tree;
                self.parents.clear();
                self.parents.push((SyntaxKind::SOURCE_FILE, 0, 0));
                self.finish_node();
                self.nodes.len() as u32 - 1
            }
        };
        FlatTree {
            text: self.text,
            nodes: self.nodes,
            tokens: self.tokens,
            edges: self.edges,
            root,
        }
    }
}

impl<'t> FlatTree<'t> {
    /// The `SOURCE_FILE` node.
    pub fn root(&self) -> FlatNode<'_> {
        FlatNode {
            tree: self,
            id: self.root,
        }
    }

    /// The text the tree covers.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// How many nodes and tokens the tree holds.
    pub fn len(&self) -> usize {
        self.nodes.len() + self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A handle into a [`FlatTree`]: the tree and an index, equal to another of the same tree and
/// index.
macro_rules! flat_handle {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name<'a> {
            tree: &'a FlatTree<'a>,
            id: u32,
        }

        impl PartialEq for $name<'_> {
            fn eq(&self, other: &Self) -> bool {
                self.id == other.id && std::ptr::eq(self.tree, other.tree)
            }
        }

        impl Eq for $name<'_> {}

        impl std::hash::Hash for $name<'_> {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.id.hash(state);
            }
        }
    };
}

flat_handle!(
    /// A node of a [`FlatTree`].
    FlatNode
);
flat_handle!(
    /// A token of a [`FlatTree`].
    FlatToken
);

impl std::fmt::Debug for FlatNode<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}@{:?}", self.kind(), self.text_range())
    }
}

impl std::fmt::Debug for FlatToken<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?}@{:?} {:?}",
            self.kind(),
            self.text_range(),
            self.text()
        )
    }
}

impl<'a> FlatNode<'a> {
    fn data(&self) -> NodeData {
        self.tree.nodes[self.id as usize]
    }

    fn edges(&self) -> std::slice::Iter<'a, u32> {
        let data = self.data();
        let start = data.first_edge as usize;
        self.tree.edges[start..start + data.edge_count as usize].iter()
    }

    fn element(tree: &'a FlatTree<'a>, edge: u32) -> NodeOrToken<FlatNode<'a>, FlatToken<'a>> {
        if edge & TOKEN == 0 {
            NodeOrToken::Node(FlatNode { tree, id: edge })
        } else {
            NodeOrToken::Token(FlatToken {
                tree,
                id: edge & !TOKEN,
            })
        }
    }
}

/// The child nodes of a [`FlatNode`].
pub struct FlatChildren<'a> {
    tree: &'a FlatTree<'a>,
    edges: std::slice::Iter<'a, u32>,
}

impl<'a> Iterator for FlatChildren<'a> {
    type Item = FlatNode<'a>;

    fn next(&mut self) -> Option<FlatNode<'a>> {
        self.edges
            .by_ref()
            .find(|&&edge| edge & TOKEN == 0)
            .map(|&id| FlatNode {
                tree: self.tree,
                id,
            })
    }
}

/// The child nodes and tokens of a [`FlatNode`].
pub struct FlatElements<'a> {
    tree: &'a FlatTree<'a>,
    edges: std::slice::Iter<'a, u32>,
}

impl<'a> Iterator for FlatElements<'a> {
    type Item = NodeOrToken<FlatNode<'a>, FlatToken<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        let &edge = self.edges.next()?;
        Some(FlatNode::element(self.tree, edge))
    }
}

impl<'a> TreeNode for FlatNode<'a> {
    type Token = FlatToken<'a>;
    type Children = FlatChildren<'a>;
    type Elements = FlatElements<'a>;

    fn kind(&self) -> SyntaxKind {
        self.data().kind
    }

    fn text_range(&self) -> TextRange {
        let data = self.data();
        TextRange::new(TextSize::from(data.start), TextSize::from(data.end))
    }

    fn children(&self) -> FlatChildren<'a> {
        FlatChildren {
            tree: self.tree,
            edges: self.edges(),
        }
    }

    fn children_with_tokens(&self) -> FlatElements<'a> {
        FlatElements {
            tree: self.tree,
            edges: self.edges(),
        }
    }

    fn first_token(&self) -> Option<FlatToken<'a>> {
        let mut node = *self;
        loop {
            let &first = node.edges().next()?;
            match FlatNode::element(self.tree, first) {
                NodeOrToken::Token(token) => return Some(token),
                NodeOrToken::Node(child) => node = child,
            }
        }
    }
}

impl FlatToken<'_> {
    fn data(&self) -> TokenData {
        self.tree.tokens[self.id as usize]
    }
}

impl TreeToken for FlatToken<'_> {
    fn kind(&self) -> SyntaxKind {
        self.data().kind
    }

    fn text(&self) -> &str {
        let data = self.data();
        &self.tree.text[data.start as usize..data.end as usize]
    }

    fn text_range(&self) -> TextRange {
        let data = self.data();
        TextRange::new(TextSize::from(data.start), TextSize::from(data.end))
    }
}

/// Where the flat tree of `text` differs from rowan's tree of it without its trivia (kinds,
/// ranges, token texts, the order of children) or from its errors; `None` when they are the
/// same tree. For the tests and fuzz targets that hold the flat tree to its promise.
pub fn flat_tree_difference(text: &str) -> Option<String> {
    let parse = crate::parse(text);
    let flat = parse_flat(text);
    if parse.errors() != flat.errors.as_slice() {
        return Some(format!(
            "errors differ: {:?} against {:?}",
            parse.errors(),
            flat.errors
        ));
    }
    // Iterative: a tree is as deep as the parser's nesting limit allows.
    let mut pending = vec![(
        NodeOrToken::Node(parse.syntax()),
        NodeOrToken::Node(flat.tree.root()),
    )];
    while let Some(pair) = pending.pop() {
        match pair {
            (NodeOrToken::Node(r), NodeOrToken::Node(f)) => {
                if r.kind() != f.kind() || r.text_range() != TreeNode::text_range(&f) {
                    return Some(format!("node {r:?} is {f:?} in the flat tree"));
                }
                let ours: Vec<_> = TreeNode::children_with_tokens(&f).collect();
                let theirs: Vec<_> = r
                    .children_with_tokens()
                    .filter(|e| e.as_token().is_none_or(|t| !t.kind().is_trivia()))
                    .collect();
                if ours.len() != theirs.len() {
                    return Some(format!(
                        "node {r:?} has {} children, {} in the flat tree",
                        theirs.len(),
                        ours.len()
                    ));
                }
                // The root alone may start with trivia.
                if r.parent().is_some()
                    && TreeNode::first_token(&r).map(|t| t.text_range())
                        != f.first_token().map(|t| t.text_range())
                {
                    return Some(format!("the first token of {r:?} differs"));
                }
                pending.extend(theirs.into_iter().zip(ours).rev());
            }
            (NodeOrToken::Token(r), NodeOrToken::Token(f)) => {
                if r.kind() != f.kind() || r.text_range() != f.text_range() || r.text() != f.text()
                {
                    return Some(format!("token {r:?} is {f:?} in the flat tree"));
                }
            }
            (r, f) => return Some(format!("{r:?} is {f:?} in the flat tree")),
        }
    }
    None
}
