//! Top-level nodes of a program, their identities, and the program's root scope.
//!
//! A node is identified by its file, kind and name, never by its position: editing one node's
//! body, or inserting a blank line above it, keeps every node's identity, and only readers of
//! a field that really changed re-run.

use std::sync::Arc;

use pcl_db::{Program, SourceFile};
use pcl_diagnostics::Diagnostic;
use pcl_syntax::{TextRange, TextSize};

use crate::body::{Body, BodyRanges, BodySourceMap};
use crate::name::Name;
use crate::open_items::OpenItem;

/// A file seen as part of a program (a file belongs to the program of its directory).
#[salsa::interned(debug)]
pub struct ProgramFile<'db> {
    #[returns(copy)]
    pub program: Program,
    #[returns(copy)]
    pub file: SourceFile,
}

/// The kinds of top-level nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKind {
    /// `name = expr` at the top level.
    Local,
    /// `resource name "token" { }`.
    Resource,
    /// `read name "token" { id = ... }`.
    Read,
    /// `config name "type" { }`.
    Config,
    /// `output name "type" { value = ... }`: in the outputs namespace.
    Output,
    /// `component name "./dir" { }`.
    Component,
    /// `hook kind name { command = [...] }`.
    Hook,
    /// `pulumi { requiredVersionRange = "..." }`.
    Pulumi,
    /// `package "name" { }`: a package descriptor, not a value.
    Package,
}

impl NodeKind {
    /// The block keyword (`local` for top-level attributes).
    pub fn keyword(self) -> &'static str {
        match self {
            NodeKind::Local => "local",
            NodeKind::Resource => "resource",
            NodeKind::Read => "read",
            NodeKind::Config => "config",
            NodeKind::Output => "output",
            NodeKind::Component => "component",
            NodeKind::Hook => "hook",
            NodeKind::Pulumi => "pulumi",
            NodeKind::Package => "package",
        }
    }

    pub fn from_keyword(keyword: &str) -> Option<NodeKind> {
        Some(match keyword {
            "resource" => NodeKind::Resource,
            "read" => NodeKind::Read,
            "config" => NodeKind::Config,
            "output" => NodeKind::Output,
            "component" => NodeKind::Component,
            "hook" => NodeKind::Hook,
            "pulumi" => NodeKind::Pulumi,
            "package" => NodeKind::Package,
            _ => return None,
        })
    }

    /// The block keywords PCL knows (their one list is the parser's).
    pub const BLOCK_KEYWORDS: &'static [&'static str] = pcl_syntax::BLOCK_KEYWORDS;

    /// Whether the node's name is visible to expressions (package blocks are not values).
    pub fn is_value(self) -> bool {
        self != NodeKind::Package
    }
}

/// The labels of a node, position-free: a resource's token, a config's type text, a
/// component's source, a hook's kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Signature {
    /// Every label's decoded value (`None` for a label that is not a plain string),
    /// interned; shared, so that re-creating an open file's nodes after a keystroke copies
    /// none.
    pub labels: Arc<[Option<Name>]>,
}

impl Signature {
    pub fn label(&self, index: usize) -> Option<&str> {
        self.labels.get(index)?.as_deref()
    }
}

/// Where a node's parts are in its file: its start, and the ranges of its parts relative to
/// it (shared), so that a node whose text only moved (the text before it grew or shrank)
/// keeps its ranges and moves in constant time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeSourceMap {
    start: TextSize,
    ranges: Arc<NodeRanges>,
}

/// The ranges of a node's parts: in the file as lowering finds them, relative to the node's
/// start inside a [`NodeSourceMap`].
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct NodeRanges {
    /// The whole block or attribute.
    pub(crate) range: TextRange,
    /// The block type keyword, or the attribute name of a local.
    pub(crate) keyword: TextRange,
    /// The name: a label, or the attribute name.
    pub(crate) name: TextRange,
    pub(crate) labels: Box<[TextRange]>,
    /// The body's `{` (where "missing attribute" is reported, as the reference does).
    pub(crate) open_brace: Option<TextRange>,
    pub(crate) body: BodyRanges,
}

impl NodeSourceMap {
    /// The map of a node whose parts are at `ranges` in the file (the node starts where its
    /// whole range does).
    pub(crate) fn new(ranges: NodeRanges) -> NodeSourceMap {
        let start = ranges.range.start();
        let at = |r: TextRange| crate::body::relative(r, start);
        NodeSourceMap {
            start,
            ranges: Arc::new(NodeRanges {
                range: at(ranges.range),
                keyword: at(ranges.keyword),
                name: at(ranges.name),
                labels: ranges.labels.iter().map(|&r| at(r)).collect(),
                open_brace: ranges.open_brace.map(at),
                body: ranges.body.relative_to(start),
            }),
        }
    }

    /// The same node starting at `start` (the text before it grew or shrank).
    pub fn moved_to(&self, start: TextSize) -> NodeSourceMap {
        NodeSourceMap {
            start,
            ranges: self.ranges.clone(),
        }
    }

    /// Whether the two share their ranges (not only equal ones).
    pub(crate) fn shares_ranges(&self, other: &NodeSourceMap) -> bool {
        Arc::ptr_eq(&self.ranges, &other.ranges)
    }

    /// The whole block or attribute.
    pub fn range(&self) -> TextRange {
        self.ranges.range + self.start
    }

    /// The block type keyword, or the attribute name of a local.
    pub fn keyword(&self) -> TextRange {
        self.ranges.keyword + self.start
    }

    /// The name: a label, or the attribute name.
    pub fn name(&self) -> TextRange {
        self.ranges.name + self.start
    }

    /// The `index`th label.
    pub fn label(&self, index: usize) -> Option<TextRange> {
        Some(*self.ranges.labels.get(index)? + self.start)
    }

    pub fn labels(&self) -> impl ExactSizeIterator<Item = TextRange> + '_ {
        self.ranges.labels.iter().map(|&r| r + self.start)
    }

    /// The body's `{` (where "missing attribute" is reported, as the reference does).
    pub fn open_brace(&self) -> Option<TextRange> {
        Some(self.ranges.open_brace? + self.start)
    }

    pub fn body(&self) -> BodySourceMap<'_> {
        BodySourceMap {
            start: self.start,
            ranges: &self.ranges.body,
        }
    }
}

/// A top-level node. Identity: (file, kind, name, occurrence), where `occurrence` counts the
/// earlier nodes of the same kind and name in the file. Content lives in tracked fields, so
/// an edit invalidates only what changed.
#[salsa::tracked(debug)]
pub struct Node<'db> {
    #[returns(copy)]
    pub file: ProgramFile<'db>,
    #[returns(copy)]
    pub kind: NodeKind,
    #[returns(ref)]
    pub name: Name,
    /// How many nodes of this kind and name come before this one in its file (0 but for
    /// redefinitions): keeps identities distinct, which salsa looks up by hash, so that
    /// 100,000 redefinitions of one name cost no more than 100,000 names.
    pub occurrence: u32,
    /// The open file's item the node was lowered from on its own (see [`crate::open_items`]);
    /// `None` for a node its file's lowering made.
    #[returns(copy)]
    pub item: Option<OpenItem>,
    /// The content the file's lowering found; empty for a node of an open file's item, whose
    /// content its item's lowering holds (see [`Node::body`]).
    #[tracked]
    #[returns(ref)]
    file_signature: Signature,
    #[tracked]
    #[returns(ref)]
    file_body: Arc<Body>,
    #[tracked]
    #[returns(ref)]
    file_map: NodeSourceMap,
}

impl<'db> Node<'db> {
    /// The node's labels, position-free.
    pub fn signature(self, db: &'db dyn pcl_db::Db) -> &'db Signature {
        match self.item(db) {
            None => self.file_signature(db),
            Some(item) => {
                &crate::open_items::lower_open_item(db, item)
                    .content
                    .signature
            }
        }
    }

    /// The node's content, position-free.
    pub fn body(self, db: &'db dyn pcl_db::Db) -> &'db Arc<Body> {
        match self.item(db) {
            None => self.file_body(db),
            Some(item) => &crate::open_items::lower_open_item(db, item).content.body,
        }
    }

    /// Positions, as lowering found them: relative to the item's start for a node lowered
    /// from its item ([`Node::source_map`] places them). Read only at the edge.
    pub fn lowered_map(self, db: &'db dyn pcl_db::Db) -> &'db NodeSourceMap {
        match self.item(db) {
            None => self.file_map(db),
            Some(item) => &crate::open_items::lower_open_item(db, item).map,
        }
    }

    /// Where the node's parts are in its file. A node lowered from an open file's item has
    /// its ranges relative to the item, placed at the item's start as the file's lowering
    /// found it, so that the text before an item growing or shrinking changes nothing the
    /// node's readers (but this one) read.
    pub fn source_map(self, db: &'db dyn pcl_db::Db) -> NodeSourceMap {
        let map = self.lowered_map(db);
        match self.item(db) {
            None => map.clone(),
            Some(item) => {
                let start = lower_file(db, self.file(db)).starts.get(&item).copied();
                map.moved_to(start.unwrap_or_default())
            }
        }
    }
}

/// The nodes of one file and the problems found while lowering it (label counts, unknown
/// blocks, attributes a block does not take). The diagnostics hold positions, so this value
/// changes on every edit; readers that need only the nodes use [`file_nodes`].
#[derive(Debug, salsa::SalsaValue)]
pub struct LoweredFile<'db> {
    pub nodes: Vec<Node<'db>>,
    pub diagnostics: Vec<Diagnostic>,
    /// Where each item with an input of its own starts (an open file's: see
    /// [`Node::source_map`]).
    pub starts: rustc_hash::FxHashMap<OpenItem, TextSize>,
    /// Each node's whole range, aligned with `nodes`, when they are an open file's items'
    /// (empty otherwise: see [`node_ranges`]).
    pub ranges: Vec<TextRange>,
}

/// Each node of a file with its whole range (the block or the attribute), in source order: for
/// callers that look for the node at a position, without placing each node's source map.
pub fn node_ranges<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
) -> Vec<(Node<'db>, TextRange)> {
    let lowered = lower_file(db, file);
    if lowered.ranges.len() == lowered.nodes.len() {
        lowered
            .nodes
            .iter()
            .copied()
            .zip(lowered.ranges.iter().copied())
            .collect()
    } else {
        lowered
            .nodes
            .iter()
            .map(|&node| (node, node.source_map(db).range()))
            .collect()
    }
}

#[salsa::tracked(returns(ref), no_eq)]
pub fn lower_file<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> LoweredFile<'db> {
    crate::lower::lower_file(db, file)
}

/// The nodes of a file, in source order. Backdates when only bodies or positions changed.
#[salsa::tracked(returns(ref))]
pub fn file_nodes<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> Vec<Node<'db>> {
    lower_file(db, file).nodes.clone()
}

/// That a file's lowering is up to date, and nothing else (always equal): what a query that
/// reads its nodes' fields asks first. A node's fields carry the durability of the lowering
/// that made them; when a file closes (its text `LOW` → `HIGH`), a reader that reads them
/// before the file is lowered again would take the old `LOW`, and keep it (salsa keeps the
/// durability of a result whose inputs only backdate), and so would every result that uses it:
/// in a chain of references, verified recursively after every keystroke. Asking this first
/// lowers the file again, without depending on anything that changes with it.
#[salsa::tracked]
pub fn file_lowered<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) {
    lower_file(db, file);
}

/// Every node of a program, files in path order, nodes in source order. What a name means is
/// `pcl-sema`'s (`program_index`, `resolve_root`), from per-file summaries.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
pub struct ProgramScope<'db> {
    pub nodes: Vec<Node<'db>>,
}

/// The nodes of a program. Re-runs only when a file's node list changes (a node added,
/// removed or renamed), not when a body changes.
#[salsa::tracked(returns(ref))]
pub fn program_scope<'db>(db: &'db dyn pcl_db::Db, program: Program) -> ProgramScope<'db> {
    let mut nodes = Vec::new();
    for &file in program.files(db) {
        nodes.extend(file_nodes(db, ProgramFile::new(db, program, file)));
    }
    ProgramScope { nodes }
}

/// A node's identity without its salsa handle: what the facts an open file publishes
/// (`pcl-sema`) name, so that a reader in another file can know of a node without reading the
/// file that defines it. Read from the node's identity fields only, which records no
/// dependency.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeKey {
    pub file: SourceFile,
    pub kind: NodeKind,
    pub name: Name,
    pub occurrence: u32,
}

// SAFETY: plain data; `SourceFile` is an input's id, with no database lifetime.
unsafe impl salsa::SalsaValue for NodeKey {}
// SAFETY: a fieldless enum.
unsafe impl salsa::SalsaValue for NodeKind {}

impl<'db> Node<'db> {
    pub fn key(self, db: &'db dyn pcl_db::Db) -> NodeKey {
        NodeKey {
            file: self.file(db).file(db),
            kind: self.kind(db),
            name: self.name(db).clone(),
            occurrence: *self.occurrence(db),
        }
    }
}

/// The nodes of a file by identity: how a [`NodeKey`] finds its node.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
pub struct FileNodeMap<'db> {
    map: rustc_hash::FxHashMap<(NodeKind, Name, u32), Node<'db>>,
    /// The file is open and its items have inputs: its nodes are found through them.
    by_items: bool,
}

#[salsa::tracked(returns(ref))]
pub fn file_node_map<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> FileNodeMap<'db> {
    // Runs again when the file opens or closes: salsa keeps the durability of a result whose
    // inputs only backdate, and a map made while the file was open (`LOW`) would keep it once
    // the file closed, and so would every resolution in other files that reads it.
    if file.file(db).open(db) && crate::open_items::items_of(db, file).is_some() {
        return FileNodeMap {
            map: Default::default(),
            by_items: true,
        };
    }
    let map = file_nodes(db, file)
        .iter()
        .map(|&n| ((n.kind(db), n.name(db).clone(), *n.occurrence(db)), n))
        .collect();
    FileNodeMap {
        map,
        by_items: false,
    }
}

/// The node `key` names in `program`, if its file still defines it. Reads the node's file.
pub fn node_of<'db>(db: &'db dyn pcl_db::Db, program: Program, key: &NodeKey) -> Option<Node<'db>> {
    let file = ProgramFile::new(db, program, key.file);
    let nodes = file_node_map(db, file);
    // A node of an open file's item is found through the file's items (`MEDIUM`), not its
    // lowering (`LOW` while the user edits it).
    if nodes.by_items {
        let item =
            crate::open_items::items_of(db, file)?.get(key.kind, &key.name, key.occurrence)?;
        return *crate::open_items::open_item_node(db, item);
    }
    nodes
        .map
        .get(&(key.kind, key.name.clone(), key.occurrence))
        .copied()
}
