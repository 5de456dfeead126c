//! The top-level items of open files as inputs of their own (`OpenItem`), so that what is
//! derived from an item the user is not editing does not take the `LOW` durability of the
//! file's text.
//!
//! Salsa gives a result the lowest durability of what it read, so a node lowered by one query
//! over its file's text is `LOW`, and so is everything derived from it: after a keystroke,
//! every result of every node of the file is verified by walking what it read (about 2,100
//! results in a file of 700 nodes, most of a keystroke). Instead, the host
//! ([`sync_open_items`], called before each publication) writes each node-defining item's
//! green node to an input of its own, only when it changed: the items the user is editing at
//! `LOW`, the others at `MEDIUM`. An item is lowered by [`lower_open_item`] from its text
//! alone, and its node is made from its identity alone (`open_item_node`), so the node's
//! content, inference and type are `MEDIUM` unless it (or what it uses) is being edited, and
//! finding it by name never is: salsa takes them as valid in one step after a keystroke
//! elsewhere. The file's item list (which names have inputs) is a `MEDIUM` input too
//! ([`pcl_db::SourceFile::items`]), written only when an item is added, removed or renamed,
//! and so is which items are being edited ([`pcl_db::SourceFile::editing`]), which results
//! gathered over the file's items leave out (`settled_items_lowered` and the semantic
//! layer's likes: see `docs/architecture.md`).
//!
//! Salsa reports an input's write at the durability it had: moving an item from `MEDIUM` to
//! `LOW` when the user starts typing in it is a `MEDIUM` change (everything `MEDIUM` is
//! walked, as after a keystroke before), and moving the item edited before back to `MEDIUM`
//! is a `LOW` one. So the items written at `LOW` are the last ones the user changed, and
//! typing on in them costs what they reach.

use std::sync::Arc;

use pcl_db::{Program, Published, RootDatabase, SourceFile};
use pcl_diagnostics::Diagnostic;
use pcl_syntax::ast::AstNode;
use pcl_syntax::{ast, GreenNode, SyntaxNode};
use rustc_hash::{FxHashMap, FxHashSet};
use salsa::{Durability, Setter};

use crate::body::Body;
use crate::item::{Node, NodeKind, NodeSourceMap, ProgramFile, Signature};
use crate::lower::item_identity;
use crate::name::Name;

/// One node-defining top-level item of an open file: its identity (the node's) and its syntax.
/// Created by [`sync_open_items`]; only `green` is ever written again.
#[salsa::input(debug)]
pub struct OpenItem {
    /// Never written again: one field, so that a query that reads several parts of it has
    /// one edge to verify, not five.
    #[returns(ref)]
    identity: ItemIdentity,
    /// The item's green node (its text, position-free); `None` once the file no longer has
    /// an item of this identity, or is closed.
    #[returns(ref)]
    pub green: Option<GreenNode>,
    /// Whether the file still has an item of this identity (`MEDIUM`, written once, when it is
    /// retired): what its node's existence reads, rather than the file's item list, which
    /// changes with every item added or removed.
    #[returns(copy)]
    pub live: bool,
    /// How many times the item went back to `MEDIUM` after the user edited it (`MEDIUM`,
    /// written with it): its lowering's value changes with it, so that what was computed of
    /// the item while it was `LOW` runs again at `MEDIUM` rather than being verified (salsa
    /// keeps a verified result's durability: those results would stay `LOW`, and so would
    /// everything gathered over the file's items that reads them).
    #[returns(copy)]
    pub epoch: u32,
}

/// Where an [`OpenItem`] is and which node it makes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ItemIdentity {
    program: Program,
    file: SourceFile,
    kind: NodeKind,
    name: Name,
    occurrence: u32,
}

impl OpenItem {
    pub fn program(self, db: &dyn pcl_db::Db) -> Program {
        self.identity(db).program
    }

    pub fn file(self, db: &dyn pcl_db::Db) -> SourceFile {
        self.identity(db).file
    }

    /// The kind of the node the item makes.
    pub fn kind(self, db: &dyn pcl_db::Db) -> NodeKind {
        self.identity(db).kind
    }

    /// The name of the node the item makes.
    pub fn name(self, db: &dyn pcl_db::Db) -> &Name {
        &self.identity(db).name
    }

    /// The occurrence of the node the item makes (see [`Node::occurrence`]).
    pub fn occurrence(self, db: &dyn pcl_db::Db) -> u32 {
        self.identity(db).occurrence
    }
}

/// A node's identity in its file: kind, name and occurrence.
type ItemKey = (NodeKind, Name, u32);

/// The node-defining items of an open file, in file order, with their inputs: what
/// [`pcl_db::SourceFile::items`] holds.
#[derive(Debug)]
pub struct OpenFileItems {
    /// The program the items' nodes belong to (a file of two programs has items for the first).
    pub program: Program,
    items: Vec<(ItemKey, OpenItem)>,
    by_key: FxHashMap<ItemKey, OpenItem>,
}

impl OpenFileItems {
    /// Each item's kind, name and occurrence, in file order.
    pub fn keys(&self) -> impl Iterator<Item = (NodeKind, &Name, u32)> {
        self.items
            .iter()
            .map(|((kind, name, occ), _)| (*kind, name, *occ))
    }

    /// The item of a node's identity.
    pub fn get(&self, kind: NodeKind, name: &Name, occurrence: u32) -> Option<OpenItem> {
        self.by_key.get(&(kind, name.clone(), occurrence)).copied()
    }

    /// How many items there are.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The items' inputs, in file order.
    pub fn inputs(&self) -> impl Iterator<Item = OpenItem> + '_ {
        self.items.iter().map(|&(_, item)| item)
    }

    fn same_items(&self, items: &[(ItemKey, OpenItem)]) -> bool {
        self.items.len() == items.len() && self.items.iter().zip(items).all(|(a, b)| a == b)
    }
}

/// The items of `file` as a node of `pf`'s program sees them: none for a file that is not
/// open, or whose items belong to another program.
pub fn items_of<'db>(db: &'db dyn pcl_db::Db, pf: ProgramFile<'_>) -> Option<&'db OpenFileItems> {
    let items = file_items(db, pf.file(db))?;
    (items.program == pf.program(db)).then_some(items)
}

fn file_items(db: &dyn pcl_db::Db, file: SourceFile) -> Option<&OpenFileItems> {
    file.items(db).0.as_ref()?.downcast_ref::<OpenFileItems>()
}

/// One item lowered on its own: its node (none when the item no longer has its identity, or
/// the file is closed), its diagnostics, and its node's content, positioned relative to the
/// item's start.
#[derive(Clone, Debug, PartialEq, Eq, salsa::SalsaValue)]
pub struct OpenItemLowering<'db> {
    pub node: Option<Node<'db>>,
    pub diagnostics: Arc<[Diagnostic]>,
    pub(crate) content: ItemContent,
    pub(crate) map: NodeSourceMap,
    /// The item's [`OpenItem::epoch`]: its readers run again when it goes back to `MEDIUM`.
    epoch: u32,
}

/// The position-free content of an open file's item's node.
#[derive(Clone, Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub(crate) struct ItemContent {
    pub(crate) signature: Signature,
    pub(crate) body: Arc<Body>,
}

/// Lowers one item of an open file from its green node alone: it reads nothing else of the
/// file, so it has the durability of the item's input.
#[salsa::tracked(returns(ref))]
pub fn lower_open_item<'db>(db: &'db dyn pcl_db::Db, item: OpenItem) -> OpenItemLowering<'db> {
    let lowered = item
        .green(db)
        .as_ref()
        .and_then(|green| ast::BodyItem::cast(SyntaxNode::new_root(green.clone())))
        .map(|syntax| crate::lower::lower_item(&syntax));
    let epoch = item.epoch(db);
    let empty = |diagnostics| OpenItemLowering {
        node: None,
        diagnostics,
        content: ItemContent::default(),
        map: NodeSourceMap::default(),
        epoch,
    };
    let Some(lowered) = lowered else {
        return empty(Arc::default());
    };
    let diagnostics: Arc<[Diagnostic]> = lowered.diagnostics.into();
    match lowered
        .node
        .filter(|node| node.kind == item.kind(db) && &node.name == item.name(db))
    {
        Some(node) => OpenItemLowering {
            node: *open_item_node(db, item),
            diagnostics,
            content: ItemContent {
                signature: node.signature,
                body: node.body,
            },
            map: node.source_map,
            epoch,
        },
        None => empty(diagnostics),
    }
}

/// The node of an open file's item, while the file has it (see [`open_item_node`]).
pub fn item_node(db: &dyn pcl_db::Db, item: OpenItem) -> Option<Node<'_>> {
    *open_item_node(db, item)
}

/// The nodes of the items of an open file the user is not editing, in file order: read
/// from `MEDIUM` results only.
pub fn settled_item_nodes<'db>(
    db: &'db dyn pcl_db::Db,
    pf: ProgramFile<'db>,
) -> impl Iterator<Item = Node<'db>> + 'db {
    settled_items_lowered(db, pf)
        .items
        .iter()
        .filter_map(|entry| entry.node)
}

/// The node of an open file's item, while the file has it: made from the item's identity
/// and whether it is live alone (`HIGH` and `MEDIUM`), never from its text, so that finding a
/// node by name (`node_of`, hence every resolution to it) does not take the `LOW` durability
/// of the item the user is editing. Its content is its item's lowering ([`Node::body`]): lowering
/// makes a node for every item that has an identity (`item_identity` follows its naming rule).
#[salsa::tracked]
pub(crate) fn open_item_node<'db>(db: &'db dyn pcl_db::Db, item: OpenItem) -> Option<Node<'db>> {
    let pf = ProgramFile::new(db, item.program(db), item.file(db));
    item.live(db)
        .then(|| crate::lower::new_item_node(db, pf, item))
}

/// Each item of an open file lowered, in the order of the file's items: its node and its
/// diagnostics (what the file's lowering reads of it).
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub(crate) struct OpenItemsLowered<'db> {
    pub(crate) items: Vec<LoweredEntry<'db>>,
}

/// An item's entry in [`OpenItemsLowered`].
#[derive(Clone, Debug, PartialEq, Eq, salsa::SalsaValue)]
pub(crate) struct LoweredEntry<'db> {
    pub(crate) item: OpenItem,
    pub(crate) node: Option<Node<'db>>,
    pub(crate) diagnostics: Arc<[Diagnostic]>,
}

fn lowered_entry(db: &dyn pcl_db::Db, item: OpenItem) -> LoweredEntry<'_> {
    let lowered = lower_open_item(db, item);
    LoweredEntry {
        item,
        node: lowered.node,
        diagnostics: lowered.diagnostics.clone(),
    }
}

/// The file's items lowered, each by its own query: a query over the items being edited and
/// [`settled_items_lowered`], so that a keystroke that leaves the edited items' nodes and
/// problems as they were verifies it by reading a few results, not one per item. The file's
/// lowering, which runs again on every keystroke (it places the items), reads this one result.
#[salsa::tracked(returns(ref))]
pub(crate) fn open_items_lowered<'db>(
    db: &'db dyn pcl_db::Db,
    pf: ProgramFile<'db>,
) -> OpenItemsLowered<'db> {
    let Some(items) = items_of(db, pf) else {
        return OpenItemsLowered::default();
    };
    let editing = editing_items(db, pf.file(db));
    let settled = &settled_items_lowered(db, pf).items;
    OpenItemsLowered {
        items: items
            .with_settled_index(editing)
            .map(|(item, settled_at)| match settled_at {
                None => lowered_entry(db, item),
                Some(at) => settled[at].clone(),
            })
            .collect(),
    }
}

/// The items of an open file the user is not editing, lowered: `MEDIUM`, so valid at once
/// after a keystroke in the items being edited, however many items the file has.
#[salsa::tracked(returns(ref))]
fn settled_items_lowered<'db>(
    db: &'db dyn pcl_db::Db,
    pf: ProgramFile<'db>,
) -> OpenItemsLowered<'db> {
    OpenItemsLowered {
        items: settled_items(db, pf)
            .iter()
            .map(|&item| lowered_entry(db, item))
            .collect(),
    }
}

/// The items of an open file the user is not editing, in file order (none for a file without
/// item inputs): what everything gathered over them reads of the file's item list and of which
/// items are being edited. It backdates, so that an item added, deleted or renamed while it is
/// being edited leaves what is gathered over the others valid (read again, not gathered).
#[salsa::tracked(returns(ref))]
pub fn settled_items<'db>(db: &'db dyn pcl_db::Db, pf: ProgramFile<'db>) -> Vec<OpenItem> {
    let Some(items) = items_of(db, pf) else {
        return Vec::new();
    };
    items.settled(editing_items(db, pf.file(db))).collect()
}

/// The address of a green node: untouched items keep theirs across reparses.
pub(crate) fn address(green: &pcl_syntax::GreenNodeData) -> usize {
    std::ptr::from_ref(green).cast::<()>() as usize
}

/// What [`pcl_db::SourceFile::editing`] holds: the items of an open file whose inputs are
/// written at `LOW` (the last ones the user changed), and every item changed since the file
/// opened.
#[derive(Debug, Default)]
pub struct EditingItems {
    /// Few (one while the user types in one item): a list, looked through for each item of the
    /// file by every result gathered over them.
    low: Vec<OpenItem>,
    ever: FxHashSet<OpenItem>,
}

impl EditingItems {
    /// Whether the item's input is `LOW`: what a result gathered over the file's items leaves
    /// out (the item's own results run again at `MEDIUM` when it goes back: its epoch).
    pub fn contains(&self, item: OpenItem) -> bool {
        self.low.contains(&item)
    }

    /// The items the user changed since the file opened. What read an item's type while it
    /// was `LOW` ran again then (its durability went down, which salsa counts as a change) and
    /// stays `LOW` after the item goes back to `MEDIUM` (salsa keeps the durability of a result
    /// it verifies): inference gathered over the file leaves out the nodes that use these items.
    pub fn changed(&self) -> impl Iterator<Item = OpenItem> + '_ {
        self.ever.iter().copied()
    }
}

impl OpenFileItems {
    /// Each item in file order, with its index among the items `editing` leaves out (`None`
    /// for an item being edited): how a per-file result merges the edited items' own results
    /// with what was gathered over the others (the one rule of every such merge).
    pub fn with_settled_index<'a>(
        &'a self,
        editing: &'a EditingItems,
    ) -> impl Iterator<Item = (OpenItem, Option<usize>)> + 'a {
        let mut settled = 0;
        self.inputs().map(move |item| {
            if editing.contains(item) {
                (item, None)
            } else {
                settled += 1;
                (item, Some(settled - 1))
            }
        })
    }

    /// The items `editing` leaves out, in file order.
    pub fn settled<'a>(&'a self, editing: &'a EditingItems) -> impl Iterator<Item = OpenItem> + 'a {
        self.inputs().filter(move |&item| !editing.contains(item))
    }
}

/// The items of `file` the user is editing (none for a file that is not open): what is
/// gathered over a file's other items (`settled_items_lowered`, and the semantic layer's
/// likes) leaves them out, so that it reads only `MEDIUM` inputs and is valid at once after a
/// keystroke in them.
pub fn editing_items(db: &dyn pcl_db::Db, file: SourceFile) -> &EditingItems {
    static NONE: std::sync::OnceLock<EditingItems> = std::sync::OnceLock::new();
    file.editing(db)
        .0
        .as_ref()
        .and_then(|editing| editing.downcast_ref::<EditingItems>())
        .unwrap_or_else(|| NONE.get_or_init(EditingItems::default))
}

/// Brings the item inputs of every open file up to date with its text (see the module's
/// documentation), and retires those of files no longer open. A host calls it after every
/// change, before anything reads the files' nodes (`pcl_sema::publish_open_files` does).
pub fn sync_open_items(db: &mut RootDatabase) {
    let programs = pcl_db::workspace(db).programs(db).clone();
    let mut synced: FxHashSet<SourceFile> = FxHashSet::default();
    let mut retired: Vec<OpenItem> = Vec::new();
    for &(_, program) in &programs {
        for file in program.files(db).clone() {
            if file.open(db) {
                if synced.insert(file) {
                    sync_file(db, program, file, &mut retired);
                }
            } else if let Some(items) = file_items(db, file) {
                retired.extend(items.items.iter().map(|&(_, item)| item));
                db.set_file_items(file, Published::default());
                db.set_file_editing(file, Published::default());
            }
        }
    }
    for &item in &retired {
        if item.green(db).is_some() {
            item.set_green(db).with_durability(Durability::LOW).to(None);
        }
        if item.live(db) {
            item.set_live(db)
                .with_durability(Durability::MEDIUM)
                .to(false);
        }
    }
    // Asked again without a node, so that salsa frees the nodes they made, and what was
    // computed of them.
    for item in retired {
        open_item_node(db, item);
        lower_open_item(db, item);
    }
}

fn sync_file(
    db: &mut RootDatabase,
    program: Program,
    file: SourceFile,
    retired: &mut Vec<OpenItem>,
) {
    let parse = pcl_db::parse(db, file).clone();
    let old = file.items(db).0.clone().and_then(|items| {
        items
            .downcast::<OpenFileItems>()
            .ok()
            .filter(|items| items.program == program)
    });
    let caches = pcl_db::Db::file_caches(db).cloned();
    let state = caches
        .as_ref()
        .and_then(|caches| caches.get::<SyncState>(file))
        .filter(|state| old.is_some() && state.program == program);
    let entries: Vec<SyncEntry> = parse
        .green_items()
        .map(|(_, green)| SyncEntry {
            green: green.to_owned(),
            item: None,
            key: None,
        })
        .collect();
    let found = match state.as_deref() {
        Some(state) => same_identities(state, entries),
        None => Err(entries),
    };
    let (entries, changed, touched) = match found {
        Ok(found) => found,
        Err(entries) => {
            let old_items = old.as_deref();
            let (entries, items, changed, touched) =
                identify_all(db, program, file, old_items, state.as_deref(), entries);
            let live: FxHashSet<OpenItem> = items.iter().map(|&(_, item)| item).collect();
            if let Some(old) = old_items {
                retired.extend(old.inputs().filter(|item| !live.contains(item)));
            }
            if !old_items.is_some_and(|old| old.same_items(&items)) {
                let by_key = items.iter().cloned().collect();
                let items = OpenFileItems {
                    program,
                    items,
                    by_key,
                };
                db.set_file_items(file, Published(Some(Arc::new(items))));
            }
            (entries, changed, touched)
        }
    };
    // The items the user changed last stay `LOW` while the edits stay in them; when an edit
    // touches another, those go back to `MEDIUM` (a `LOW` write) and the new ones go down.
    let low = editing_items(db, file);
    if !touched.is_empty() && touched.iter().any(|&item| !low.contains(item)) {
        let touched_set: FxHashSet<OpenItem> = touched.iter().copied().collect();
        let live: FxHashSet<OpenItem> = entries.iter().filter_map(|e| e.item).collect();
        let back: Vec<OpenItem> = low
            .low
            .iter()
            .copied()
            .filter(|item| !touched_set.contains(item) && live.contains(item))
            .collect();
        let ever: FxHashSet<OpenItem> = low
            .ever
            .iter()
            .copied()
            .filter(|item| live.contains(item))
            .chain(touched_set.iter().copied())
            .collect();
        for item in back {
            let green = item.green(db).clone();
            item.set_green(db)
                .with_durability(Durability::MEDIUM)
                .to(green);
            let epoch = item.epoch(db).wrapping_add(1);
            item.set_epoch(db)
                .with_durability(Durability::MEDIUM)
                .to(epoch);
        }
        let editing = EditingItems {
            low: touched_set.into_iter().collect(),
            ever,
        };
        db.set_file_editing(file, Published(Some(Arc::new(editing))));
    }
    for (input, green) in changed {
        input
            .set_green(db)
            .with_durability(Durability::LOW)
            .to(Some(green));
    }
    if let Some(caches) = &caches {
        caches.put(file, Arc::new(SyncState { program, entries }));
    }
}

/// What the last sync of an open file found, per top-level item of its tree (node-defining or
/// not): the item's green node and its input. Kept outside salsa (`FileCaches`), so that the
/// next sync finds the items an edit left alone by address, and lowering finds each item's
/// input without reading it.
pub(crate) struct SyncState {
    program: Program,
    entries: Vec<SyncEntry>,
}

#[derive(Clone)]
struct SyncEntry {
    /// Keeps the node alive, so that its address names no other node while kept.
    green: GreenNode,
    item: Option<OpenItem>,
    /// The item's identity (its input's), kept so that the next sync need not read it.
    key: Option<ItemKey>,
}

impl SyncState {
    /// The input of each top-level item of a file's tree, given their green nodes' addresses,
    /// if these are the items of the last sync; `None` otherwise.
    pub(crate) fn inputs_of(
        &self,
        program: Program,
        addresses: impl ExactSizeIterator<Item = usize>,
    ) -> Option<Vec<Option<OpenItem>>> {
        if program != self.program || addresses.len() != self.entries.len() {
            return None;
        }
        addresses
            .zip(&self.entries)
            .map(|(at, entry)| (at == address(&entry.green)).then_some(entry.item))
            .collect()
    }
}

/// The entries of an edit that left every item's identity as it was: the items before and
/// after the edited run keep their green nodes (a reparse shares them), and the edited run
/// has the same identities in the same order as before. Then no key, occurrence or input
/// changes, only the green nodes of the edited run's items. For any other edit, the entries
/// back as they were given.
#[allow(clippy::type_complexity)]
fn same_identities(
    state: &SyncState,
    mut entries: Vec<SyncEntry>,
) -> Result<(Vec<SyncEntry>, Vec<(OpenItem, GreenNode)>, Vec<OpenItem>), Vec<SyncEntry>> {
    let old = &state.entries;
    if old.len() != entries.len() {
        return Err(entries);
    }
    let (prefix, suffix) = unchanged_ends(old, &entries);
    let end = entries.len() - suffix;
    // The edited run: each item must keep its identity (checked before anything is taken).
    for i in prefix..end {
        let identity = ast::BodyItem::cast(SyntaxNode::new_root(entries[i].green.clone()))
            .and_then(|item| item_identity(&item));
        let same = match (&old[i].key, identity) {
            (None, None) => true,
            (Some((kind, name, _)), Some(identity)) => (*kind, name) == (identity.0, &identity.1),
            _ => false,
        };
        if !same {
            return Err(entries);
        }
    }
    let mut changed = Vec::new();
    for (i, entry) in entries.iter_mut().enumerate() {
        entry.item = old[i].item;
        entry.key = old[i].key.clone();
        if let (Some(input), true) = (entry.item, (prefix..end).contains(&i)) {
            changed.push((input, entry.green.clone()));
        }
    }
    let touched = changed.iter().map(|&(input, _)| input).collect();
    Ok((entries, changed, touched))
}

/// How many items at the start and at the end of `new` are those of `old` (the same green
/// nodes), not overlapping.
fn unchanged_ends(old: &[SyncEntry], new: &[SyncEntry]) -> (usize, usize) {
    let same = |a: &SyncEntry, b: &SyncEntry| address(&a.green) == address(&b.green);
    let prefix = old.iter().zip(new).take_while(|(a, b)| same(a, b)).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| same(a, b))
        .count();
    (prefix, suffix)
}

/// Every item's identity and input, found afresh (a file just opened, or an edit that added,
/// removed, renamed or moved an item): the entries, the file's items, the inputs whose green
/// node changed, and the inputs changed or created (those the user is editing).
#[allow(clippy::type_complexity)]
fn identify_all(
    db: &mut RootDatabase,
    program: Program,
    file: SourceFile,
    old: Option<&OpenFileItems>,
    state: Option<&SyncState>,
    mut entries: Vec<SyncEntry>,
) -> (
    Vec<SyncEntry>,
    Vec<(ItemKey, OpenItem)>,
    Vec<(OpenItem, GreenNode)>,
    Vec<OpenItem>,
) {
    // Items whose green node is unchanged keep their kind and name: those before and after
    // the edited run, found by position (a reparse shares their green nodes).
    let entries_len = entries.len();
    let (prefix, suffix) = match state {
        Some(state) => unchanged_ends(&state.entries, &entries),
        None => (0, 0),
    };
    let known = |index: usize, entry: &SyncEntry| -> Option<&SyncEntry> {
        let state = state?;
        let old = if index < prefix {
            &state.entries[index]
        } else if index >= entries_len - suffix {
            &state.entries[state.entries.len() - (entries_len - index)]
        } else {
            return None;
        };
        (address(&old.green) == address(&entry.green) && old.item.is_some() == old.key.is_some())
            .then_some(old)
    };
    // The first items of a file just opened are not being edited.
    let fresh = if old.is_some() {
        Durability::LOW
    } else {
        Durability::MEDIUM
    };
    let mut occurrences: FxHashMap<(NodeKind, Name), u32> = FxHashMap::default();
    let mut items: Vec<(ItemKey, OpenItem)> = Vec::new();
    let mut changed: Vec<(OpenItem, GreenNode)> = Vec::new();
    let mut touched: Vec<OpenItem> = Vec::new();
    for (index, entry) in entries.iter_mut().enumerate() {
        let kept = known(index, entry);
        let identity = match kept {
            Some(old) => old
                .key
                .as_ref()
                .map(|(kind, name, _)| (*kind, name.clone())),
            None => ast::BodyItem::cast(SyntaxNode::new_root(entry.green.clone()))
                .and_then(|item| item_identity(&item)),
        };
        let Some((kind, name)) = identity else {
            continue;
        };
        let occurrence = occurrence_of(&mut occurrences, kind, &name);
        let key = (kind, name, occurrence);
        // An item the edit left alone, whose identity is unchanged: its input as it was.
        if let Some((old_key, input)) = kept.and_then(|old| Some((old.key.as_ref()?, old.item?))) {
            if *old_key == key {
                entry.item = Some(input);
                entry.key = Some(key.clone());
                items.push((key, input));
                continue;
            }
        }
        let input = match old.and_then(|old| old.by_key.get(&key).copied()) {
            Some(input) => {
                if input.green(db).as_ref().map(|g| address(g)) != Some(address(&entry.green)) {
                    changed.push((input, entry.green.clone()));
                    touched.push(input);
                }
                input
            }
            None => {
                let input = OpenItem::builder(
                    ItemIdentity {
                        program,
                        file,
                        kind: key.0,
                        name: key.1.clone(),
                        occurrence,
                    },
                    Some(entry.green.clone()),
                    true,
                    0,
                )
                .durability(Durability::HIGH)
                .green_durability(fresh)
                .live_durability(Durability::MEDIUM)
                .epoch_durability(Durability::MEDIUM)
                .new(db);
                if fresh == Durability::LOW {
                    touched.push(input);
                }
                input
            }
        };
        entry.item = Some(input);
        entry.key = Some(key.clone());
        items.push((key, input));
    }
    (entries, items, changed, touched)
}

/// How many nodes of this kind and name came before in the file, counting this one: the
/// occurrence of a node's identity. The one rule, for lowering and for the items alike.
pub(crate) fn occurrence_of(
    seen: &mut FxHashMap<(NodeKind, Name), u32>,
    kind: NodeKind,
    name: &Name,
) -> u32 {
    let count = seen.entry((kind, name.clone())).or_insert(0);
    let occurrence = *count;
    *count += 1;
    occurrence
}
