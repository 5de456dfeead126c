//! Lowering: syntax → nodes with position-free bodies and source maps.
//!
//! One pass per file. Variables are resolved here, by lexical scoping (`for` variables,
//! `range`, hook `args`, `recover`'s `error`), so that later queries never look at syntax.
//! Structural problems that need no types (label counts, unknown blocks, attributes a block
//! does not take, literal-only attributes) are reported here too.
//!
//! This module owns the pass over a file (`lower_file`, with an open file's cache of lowered
//! items) and the [`Lowerer`] that builds one body; the rest is split by what is lowered:
//! `items` (top-level items: labels, names, structural checks, type labels), `body` (node
//! bodies: attributes, nested blocks, the scopes of `range` and `args`), `expr` (expressions,
//! `for` scopes, traversals and splats) and `template` (quoted and heredoc templates).

mod body;
mod expr;
mod items;
mod template;

pub use items::known_attributes;

use std::sync::Arc;

use pcl_diagnostics::Diagnostic;
use pcl_syntax::ast;
use pcl_syntax::ast::AstNode;
use pcl_syntax::{TextRange, TextSize};

use crate::body::*;
use crate::item::{LoweredFile, Node, NodeKind, NodeSourceMap, ProgramFile, Signature};
use crate::name::Name;
use crate::open_items::OpenItem;
pub(crate) use items::item_identity;
use items::{lower_block, lower_local};

pub(crate) fn lower_file<'db>(db: &'db dyn pcl_db::Db, pf: ProgramFile<'db>) -> LoweredFile<'db> {
    let file = pf.file(db);
    let mut nodes = Vec::new();
    let mut seen: rustc_hash::FxHashMap<(NodeKind, Name), u32> = Default::default();
    if !file.open(db) && file.text(db).len() <= pcl_syntax::flat::MAX_FLAT_LEN {
        // A file nobody has open is parsed into a flat tree, lowered and dropped: building
        // and freeing rowan's tree was 45% of a check, and nothing else reads it (salsa
        // evicts least-recently-used trees only between revisions, so memoizing the tree of
        // every file would keep them all alive through a large check, 40% of its memory).
        let parse = pcl_syntax::parse_flat_into(file.text(db), BUFFERS.take());
        // Syntax errors first: the edge reads them from here.
        let mut diagnostics = parse.diagnostics();
        let root = ast::SourceFile::cast_root(parse.tree.root());
        for item in root.body().iter().flat_map(|body| body.items()) {
            let lowered = lower_item(&item);
            diagnostics.extend(lowered.diagnostics);
            if let Some(node) = lowered.node {
                let start = range_of(&item).start();
                nodes.push(new_node(db, pf, &mut seen, &node, start));
            }
        }
        // Kept for the next file unless the file was large: a thread keeps them as long
        // as it lives.
        let buffers = parse.tree.into_buffers();
        if buffers.capacity_bytes() <= MAX_KEPT_BUFFERS {
            BUFFERS.set(buffers);
        }
        return LoweredFile {
            nodes,
            diagnostics,
            starts: Default::default(),
            ranges: Vec::new(),
        };
    }
    // A file open in an editor is parsed through the `parse` query, whose tree the editor's
    // requests share (reparsed from the last tree after an edit); a text too long for a flat
    // tree (above 512 MiB; the tools refuse files above 64 MiB) is parsed here.
    let owned;
    let parse = if file.open(db) {
        pcl_db::parse(db, file)
    } else {
        owned = pcl_syntax::parse(file.text(db));
        &owned
    };
    if let Some(items) = crate::open_items::items_of(db, pf) {
        if let Some(lowered) = lower_open_file(db, pf, parse, items) {
            return lowered;
        }
    }
    let mut diagnostics = parse.diagnostics();
    let Some(body) = parse.tree().body() else {
        return LoweredFile {
            nodes,
            diagnostics,
            starts: Default::default(),
            ranges: Vec::new(),
        };
    };
    // An open file keeps each top-level item's lowering by its green node: after an edit,
    // reparsing shares the green nodes of the items it did not touch, so only the edited
    // item is lowered again, and the others only move (their positions, if the text before
    // them changed length). Items lower independently of each other, so this is exactly
    // what lowering them again would give.
    let cache = file
        .open(db)
        .then(|| db.file_caches())
        .flatten()
        .map(|caches| (caches, caches.get::<ItemCache>(file)));
    // Sized for the items of the last version: built again on every keystroke.
    let mut next_cache = cache.as_ref().map(|(_, old)| ItemCache {
        items: rustc_hash::FxHashMap::with_capacity_and_hasher(
            old.as_ref().map_or(0, |old| old.items.len()),
            Default::default(),
        ),
    });
    for item in body.items() {
        let syntax = item.syntax();
        let start = syntax.text_range().start();
        let green = syntax.green();
        let key = crate::open_items::address(&green);
        let cached = cache
            .as_ref()
            .and_then(|(_, old)| old.as_ref()?.items.get(&key).cloned());
        let from_cache = cached.is_some();
        let mut lowered = match cached {
            Some(old) => old.moved_to(start),
            None => {
                let lowered = lower_item(&item);
                CachedItem {
                    green: green.into_owned(),
                    start,
                    node: lowered.node.map(Arc::new),
                    diagnostics: Arc::new(lowered.diagnostics),
                }
            }
        };
        diagnostics.extend(lowered.diagnostics.iter().cloned());
        if let Some(node) = &lowered.node {
            let handle = new_node(db, pf, &mut seen, node, lowered.start);
            // A body (or ranges) equal to the node's keeps the old allocation; the cache
            // keeps that one too, so that the next edit compares pointers, not bodies (every
            // body lowered again when the file opened was compared in full on every keystroke).
            // An item from the cache already holds what salsa kept: its fields are not read
            // back (two reads per node and keystroke).
            if next_cache.is_some() && !from_cache {
                let (kept_body, kept_map) = (handle.body(db), handle.lowered_map(db));
                if !(Arc::ptr_eq(kept_body, &node.body) && kept_map.shares_ranges(&node.source_map))
                {
                    let mut item = LoweredItem::clone(node);
                    item.body = kept_body.clone();
                    item.source_map = kept_map.clone();
                    lowered.node = Some(Arc::new(item));
                }
            }
            nodes.push(handle);
        }
        if let Some(next) = &mut next_cache {
            next.items.insert(key, lowered);
        }
    }
    if let (Some((caches, _)), Some(next)) = (cache, next_cache) {
        caches.put(file, Arc::new(next));
    }
    LoweredFile {
        nodes,
        diagnostics,
        starts: Default::default(),
        ranges: Vec::new(),
    }
}

/// An open file whose items have inputs ([`crate::open_items`]): each node-defining item's
/// node is its input's (lowered on its own, when its text changed), the others are lowered
/// here. `None` when the items are not those of this tree (the host writes them from it, so
/// this does not happen): the file is then lowered as any other.
fn lower_open_file<'db>(
    db: &'db dyn pcl_db::Db,
    pf: ProgramFile<'db>,
    parse: &pcl_db::Parse,
    items: &crate::open_items::OpenFileItems,
) -> Option<LoweredFile<'db>> {
    use crate::open_items::address;
    let mut diagnostics = parse.diagnostics();
    // The items' green nodes and starts, without a cursor per item (this runs on every
    // keystroke).
    let tree_items: Vec<_> = parse.green_items().collect();
    // Each item's input as the host's last sync found it, from the same tree (by address);
    // else found by reading the inputs' green nodes in order.
    let synced = db
        .file_caches()
        .and_then(|caches| caches.get::<crate::open_items::SyncState>(pf.file(db)))
        .and_then(|state| {
            state.inputs_of(
                pf.program(db),
                tree_items.iter().map(|&(_, green)| address(green)),
            )
        });
    let mut in_order = items.inputs().peekable();
    let mut lowered_items = crate::open_items::open_items_lowered(db, pf).items.iter();
    let mut nodes = Vec::with_capacity(items.len());
    let mut ranges = Vec::with_capacity(items.len());
    let mut starts = rustc_hash::FxHashMap::default();
    starts.reserve(items.len());
    for (index, &(start, green)) in tree_items.iter().enumerate() {
        let range = TextRange::at(start, green.text_len());
        let input = match &synced {
            Some(inputs) => inputs[index],
            None => in_order.next_if(|input| {
                input
                    .green(db)
                    .as_ref()
                    .is_some_and(|g| address(g) == address(green))
            }),
        };
        let delta = i64::from(u32::from(start));
        let Some(input) = input else {
            // An item that defines no node: lowered here for its problems, rooted at its
            // start as the items' own lowerings are.
            let item = ast::BodyItem::cast(pcl_syntax::SyntaxNode::new_root(green.to_owned()))?;
            let lowered = lower_item(&item);
            if lowered.node.is_some() {
                return None;
            }
            diagnostics.extend(lowered.diagnostics.iter().map(|d| d.moved(delta)));
            continue;
        };
        let lowered = lowered_items.next()?;
        if lowered.item != input {
            return None;
        }
        if !lowered.diagnostics.is_empty() {
            diagnostics.extend(lowered.diagnostics.iter().map(|d| d.moved(delta)));
        }
        nodes.push(lowered.node?);
        // A node's whole range is its item's (`range_of` in lowering).
        ranges.push(range);
        starts.insert(input, start);
    }
    if nodes.len() != items.len() {
        return None;
    }
    Some(LoweredFile {
        nodes,
        diagnostics,
        starts,
        ranges,
    })
}

/// One top-level item lowered, from either tree: its node (none for an item that defines
/// none) with ranges relative to the item's start, and its diagnostics.
#[derive(Debug, PartialEq)]
pub(crate) struct ItemLowering {
    pub(crate) node: Option<LoweredItem>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

pub(crate) fn lower_item<N: pcl_syntax::TreeNode>(item: &ast::BodyItem<N>) -> ItemLowering {
    let mut diagnostics = Vec::new();
    let node = match item {
        ast::BodyItem::Attribute(attr) => lower_local(attr, &mut diagnostics),
        ast::BodyItem::Block(block) => lower_block(block, &mut diagnostics),
    };
    ItemLowering {
        node: node.map(|node| LoweredItem {
            kind: node.kind,
            name: node.name,
            signature: node.signature,
            body: Arc::new(node.body),
            source_map: node.source_map,
        }),
        diagnostics,
    }
}

/// Where lowering `text` from the flat tree (as files nobody has open are lowered) differs
/// from lowering it from rowan's tree (as open files are): the syntax errors, then each
/// top-level item's range, node (kind, name, signature, body, source map) and diagnostics.
/// `None` when they are the same. For the differential tests and the fuzz targets.
pub fn flat_lowering_difference(text: &str) -> Option<String> {
    let parse = pcl_syntax::parse(text);
    let flat = pcl_syntax::parse_flat(text);
    if parse.errors() != flat.errors.as_slice() {
        return Some("the syntax errors differ".to_string());
    }
    // Each top-level item's range and lowering.
    fn items<N: pcl_syntax::TreeNode>(root: ast::SourceFile<N>) -> Vec<(TextRange, ItemLowering)> {
        root.body()
            .iter()
            .flat_map(|body| body.items())
            .map(|item| (range_of(&item), lower_item(&item)))
            .collect()
    }
    let from_rowan = items(parse.tree());
    let from_flat = items(ast::SourceFile::cast_root(flat.tree.root()));
    if from_rowan.len() != from_flat.len() {
        return Some(format!(
            "{} items from rowan's tree, {} from the flat tree",
            from_rowan.len(),
            from_flat.len()
        ));
    }
    from_rowan
        .iter()
        .zip(&from_flat)
        .find(|(a, b)| a != b)
        .map(|(a, b)| format!("the item at {:?} lowers to\n{a:#?}\nfrom rowan's tree and to\n{b:#?}\nfrom the flat tree", a.0))
}

/// The node of a lowered item at `start`: the occurrence-th definition of its kind and name
/// in the file.
fn new_node<'db>(
    db: &'db dyn pcl_db::Db,
    pf: ProgramFile<'db>,
    seen: &mut rustc_hash::FxHashMap<(NodeKind, Name), u32>,
    node: &LoweredItem,
    start: TextSize,
) -> Node<'db> {
    Node::new(
        db,
        pf,
        node.kind,
        node.name.clone(),
        crate::open_items::occurrence_of(seen, node.kind, &node.name),
        None,
        node.signature.clone(),
        node.body.clone(),
        node.source_map.moved_to(start),
    )
}

/// The node of an open file's item: its identity, and no content of its own (its item's
/// lowering holds it: see [`crate::open_items::open_item_node`]).
pub(crate) fn new_item_node<'db>(
    db: &'db dyn pcl_db::Db,
    pf: ProgramFile<'db>,
    item: OpenItem,
) -> Node<'db> {
    Node::new(
        db,
        pf,
        item.kind(db),
        item.name(db).clone(),
        item.occurrence(db),
        Some(item),
        Signature::default(),
        Arc::default(),
        NodeSourceMap::default(),
    )
}

thread_local! {
    /// The vectors of this thread's last flat tree, for its next file.
    static BUFFERS: std::cell::Cell<pcl_syntax::FlatBuffers> = Default::default();
}

/// The most bytes of flat-tree vectors a thread keeps for its next file (those of a file of
/// about 2 MB; real files are far smaller).
const MAX_KEPT_BUFFERS: usize = 16 << 20;

/// Frees the vectors the calling thread kept for the flat tree of its next file: for hosts
/// that lowered many files and have none left to lower (`pcl check` after its lowering).
pub fn release_lowering_buffers() {
    let _ = BUFFERS.try_with(|buffers| buffers.take());
}

/// The lowering of each top-level item of an open file, by the address of its green node.
#[derive(Default)]
struct ItemCache {
    items: rustc_hash::FxHashMap<usize, CachedItem>,
}

/// One item's lowering, with positions as of `start`.
#[derive(Clone)]
struct CachedItem {
    /// Keeps the node alive, so that its address names no other node while cached.
    green: pcl_syntax::GreenNode,
    start: TextSize,
    node: Option<Arc<LoweredItem>>,
    diagnostics: Arc<Vec<Diagnostic>>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LoweredItem {
    pub(crate) kind: NodeKind,
    pub(crate) name: Name,
    pub(crate) signature: Signature,
    pub(crate) body: Arc<Body>,
    /// Its ranges; a node made from it is given the item's current start (`moved_to`).
    pub(crate) source_map: NodeSourceMap,
}

impl CachedItem {
    /// This item's lowering with its positions moved to `start`: the node's ranges are kept
    /// relative to its start, so only its diagnostics (rare) move.
    fn moved_to(self, start: TextSize) -> CachedItem {
        if start == self.start {
            return self;
        }
        let delta = i64::from(u32::from(start)) - i64::from(u32::from(self.start));
        let diagnostics = if self.diagnostics.is_empty() {
            self.diagnostics
        } else {
            Arc::new(self.diagnostics.iter().map(|d| d.moved(delta)).collect())
        };
        CachedItem {
            green: self.green,
            start,
            node: self.node,
            diagnostics,
        }
    }
}

fn range_of(node: &impl AstNode) -> TextRange {
    pcl_syntax::TreeNode::text_range(node.syntax())
}

/// Builds one body: the expression arena, bindings in scope, and the source map.
struct Lowerer<'d> {
    body: BodyBuilder,
    map: SourceMapBuilder,
    scopes: Vec<(Name, BindingId)>,
    diagnostics: &'d mut Vec<Diagnostic>,
    /// For type labels: maps ranges of the re-parsed label text back into the file.
    remap: Option<Remap>,
}

#[derive(Clone, Copy)]
struct Remap {
    /// Where offset 0 of the re-parsed text would be in the file.
    shift: i64,
    /// The label's range: every mapped range is clamped into it.
    within: TextRange,
}

impl<'d> Lowerer<'d> {
    fn new(diagnostics: &'d mut Vec<Diagnostic>) -> Self {
        Lowerer {
            body: BodyBuilder::new(),
            map: SourceMapBuilder::new(),
            scopes: Vec::new(),
            diagnostics,
            remap: None,
        }
    }

    fn finish(self) -> (Body, BodyRanges) {
        (self.body.finish(), self.map.finish())
    }

    fn range(&self, range: TextRange) -> TextRange {
        match self.remap {
            None => range,
            Some(remap) => {
                let clamp = |offset: TextSize| {
                    let moved = i64::from(u32::from(offset)) + remap.shift;
                    let lo = i64::from(u32::from(remap.within.start()));
                    let hi = i64::from(u32::from(remap.within.end()));
                    TextSize::from(moved.clamp(lo, hi) as u32)
                };
                TextRange::new(clamp(range.start()), clamp(range.end()))
            }
        }
    }

    fn alloc(&mut self, expr: Expr, range: TextRange) -> ExprId {
        let range = self.range(range);
        self.map.push_expr(range);
        self.body.alloc_expr(expr)
    }

    fn bind(&mut self, name: &str, kind: BindingKind, range: TextRange) -> BindingId {
        let range = self.range(range);
        self.map.push_binding(range);
        self.body.alloc_binding(Binding {
            name: Name::new(name),
            kind,
        })
    }

    fn resolve(&self, name: &str) -> Resolution {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| n.as_str() == name)
            .map_or(Resolution::Root, |(_, b)| Resolution::Local(*b))
    }

    fn lower_opt<N: pcl_syntax::TreeNode>(
        &mut self,
        expr: Option<ast::Expr<N>>,
        fallback: TextRange,
    ) -> ExprId {
        match expr {
            Some(expr) => self.lower_expr(&expr),
            None => self.alloc(Expr::Missing, TextRange::empty(fallback.end())),
        }
    }
}
