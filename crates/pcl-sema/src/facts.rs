//! What the files of a program know of each other, and the firewall between typing in an open
//! file and the rest of the program.
//!
//! Every program-wide fact (which node a top-level name means, the duplicates, the reference
//! cycles, the packages `package` blocks declare, the directories components include) is
//! computed from one position-free [`FileSummary`] per file, never from the files' nodes and
//! bodies directly. A file on disk is read through its own summary ([`file_summary`], as
//! durable as the file). An open file's text is `LOW` durability and changes on every
//! keystroke, so the program reads it through the facts its host last *published*
//! ([`publish_open_files`], `MEDIUM` durability): its summary and the types of its nodes, as
//! other files see them. A keystroke that changes neither leaves every fact of the program,
//! and everything that depends only on files on disk, valid without a walk: salsa re-validates
//! a `MEDIUM` result in one step after a `LOW` change. Readers in open files read the real
//! types of nodes in open files, so only readers in closed files see published types.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use pcl_db::{Program, Published, RootDatabase, SourceFile};
use pcl_hir::{file_nodes, node_of, Expr, Name, Node, NodeKey, NodeKind, ProgramFile};
use pcl_types::{ConstValue, Type};

use crate::graph::for_each_root_name;
use crate::Settled;

mod by_name;
use by_name::{closed_file_duplicates, first_for_closed, program_facts, update_program_facts};
pub(crate) use by_name::{closed_uses, keeps_facts_by_name, kept_included_dirs, medium_closure};

/// What the rest of a program reads of one file: its nodes' identities and the top-level
/// names each uses, the packages its `package` blocks declare, and the sources its
/// components name. Position-free, so it backdates on every edit that leaves them alone.
#[derive(Clone, Debug, PartialEq, Eq, salsa::SalsaValue)]
pub struct FileSummary {
    pub nodes: Vec<SummaryNode>,
    /// `(name, version)` of each `package` block, in order.
    pub packages: Vec<(String, Option<String>)>,
    /// The source label of each `component` block, in order.
    pub component_sources: Vec<String>,
}

/// One node of a [`FileSummary`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SummaryNode {
    pub kind: NodeKind,
    pub name: Name,
    pub occurrence: u32,
    /// The top-level names the node uses, in the order first used (locally bound names and
    /// property-path options excluded).
    /// Shared, so that a keystroke's summary of an open file copies no list of names.
    pub uses: Arc<[Name]>,
}

// SAFETY: plain data: names, kinds and strings, no database-lifetime reference.
unsafe impl salsa::SalsaValue for SummaryNode {}

impl SummaryNode {
    /// The identity of this node of `file`.
    pub fn key(&self, file: SourceFile) -> NodeKey {
        NodeKey {
            file,
            kind: self.kind,
            name: self.name.clone(),
            occurrence: self.occurrence,
        }
    }
}

/// What [`file_summary`] keeps of an open file between keystrokes: the names each body uses,
/// by the body (lowering keeps the body of every item an edit did not touch), with the bodies
/// kept alive so that no other body can take their addresses.
#[derive(Default)]
struct UsesCache {
    uses: FxHashMap<(usize, NodeKind), KeptUses>,
}

/// A body and the names it uses.
type KeptUses = (Arc<pcl_hir::Body>, Arc<[Name]>);

/// The summary of a file, from its nodes and bodies. In an open file, the names a body uses
/// are found again only for the bodies an edit changed.
#[salsa::tracked(returns(ref))]
pub fn file_summary<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> FileSummary {
    let mut summary = FileSummary {
        nodes: Vec::new(),
        packages: Vec::new(),
        component_sources: Vec::new(),
    };
    let source = file.file(db);
    // An open file whose items have inputs: from each item's summary, which a keystroke in
    // another item leaves valid (this one is then verified, not run again).
    if source.open(db) {
        if let Some(items) = pcl_hir::items_of(db, file) {
            let editing = pcl_hir::editing_items(db, source);
            let settled = settled_item_summaries(db, file);
            for (item, settled_at) in items.with_settled_index(editing) {
                let item = match settled_at {
                    None => item_summary(db, item).as_ref(),
                    Some(at) => settled[at].as_ref(),
                };
                let Some(item) = item else {
                    continue;
                };
                summary.nodes.push(item.node.clone());
                summary.packages.extend(item.package.iter().cloned());
                summary
                    .component_sources
                    .extend(item.component_source.iter().cloned());
            }
            return summary;
        }
    }
    let caches = source.open(db).then(|| db.file_caches()).flatten();
    let previous = caches.and_then(|c| c.get::<UsesCache>(source));
    // Sized for the bodies of the last version: built again on every keystroke.
    let mut next = caches.map(|_| UsesCache {
        uses: FxHashMap::with_capacity_and_hasher(
            previous.as_ref().map_or(0, |p| p.uses.len()),
            Default::default(),
        ),
    });
    // One set for every body's names, emptied for each.
    let mut seen: FxHashSet<&Name> = FxHashSet::default();
    for &node in file_nodes(db, file) {
        let kind = node.kind(db);
        let body = node.body(db);
        let key = (Arc::as_ptr(body) as usize, kind);
        let uses = match previous.as_ref().and_then(|p| p.uses.get(&key)) {
            Some((_, uses)) => uses.clone(),
            None => {
                seen.clear();
                let mut uses = Vec::new();
                for_each_root_name(kind, body, |name| {
                    if seen.insert(name) {
                        uses.push(name.clone());
                    }
                });
                uses.into()
            }
        };
        if let Some(next) = next.as_mut() {
            next.uses.insert(key, (body.clone(), uses.clone()));
        }
        summary.nodes.push(SummaryNode {
            kind,
            name: node.name(db).clone(),
            occurrence: *node.occurrence(db),
            uses,
        });
        match kind {
            NodeKind::Package => summary.packages.extend(declared_package(db, node)),
            NodeKind::Component => summary
                .component_sources
                .extend(node.signature(db).label(1).map(str::to_string)),
            _ => {}
        }
    }
    if let (Some(caches), Some(next)) = (caches, next) {
        caches.put(source, Arc::new(next));
    }
    summary
}

/// The summaries of the items of an open file the user is not editing, in file order:
/// `MEDIUM`, so that [`file_summary`] is verified after a keystroke by reading the edited
/// items' summaries and this, not a summary per item.
#[salsa::tracked(returns(ref))]
fn settled_item_summaries<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
) -> Vec<Option<ItemSummary>> {
    pcl_hir::settled_items(db, file)
        .iter()
        .map(|&item| item_summary(db, item).clone())
        .collect()
}

/// The summary nodes of the items of an open file the user is not editing, in file order
/// (read only `MEDIUM` results: what the per-file queries over those items gather).
pub(crate) fn settled_summary_nodes<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
) -> impl Iterator<Item = &'db SummaryNode> + 'db {
    settled_item_summaries(db, file)
        .iter()
        .flatten()
        .map(|item| &item.node)
}

/// Each item's summary node, in file order, and whether the item is being edited (`false` for
/// an item gathered in the settled parts): what [`open_summary`], the duplicates and the open
/// file's reference graph merge.
pub(crate) fn item_summary_nodes<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
) -> Option<Vec<(bool, &'db SummaryNode)>> {
    if !file.file(db).open(db) {
        return None;
    }
    let items = pcl_hir::items_of(db, file)?;
    let editing = pcl_hir::editing_items(db, file.file(db));
    let settled = settled_item_summaries(db, file);
    Some(
        items
            .with_settled_index(editing)
            .filter_map(|(item, settled_at)| match settled_at {
                None => Some((true, &item_summary(db, item).as_ref()?.node)),
                Some(at) => Some((false, &settled[at].as_ref()?.node)),
            })
            .collect(),
    )
}

/// What [`file_summary`] reads of one item of an open file.
#[derive(Clone, Debug, PartialEq, Eq, salsa::SalsaValue)]
struct ItemSummary {
    node: SummaryNode,
    package: Option<(String, Option<String>)>,
    component_source: Option<String>,
}

/// One item's part of its file's summary (none when the item no longer makes a node).
#[salsa::tracked(returns(ref))]
fn item_summary(db: &dyn pcl_db::Db, item: pcl_hir::OpenItem) -> Option<ItemSummary> {
    let node = pcl_hir::lower_open_item(db, item).node?;
    let kind = node.kind(db);
    let mut seen: FxHashSet<&Name> = FxHashSet::default();
    let mut uses = Vec::new();
    for_each_root_name(kind, node.body(db), |name| {
        if seen.insert(name) {
            uses.push(name.clone());
        }
    });
    Some(ItemSummary {
        node: SummaryNode {
            kind,
            name: node.name(db).clone(),
            occurrence: *node.occurrence(db),
            uses: uses.into(),
        },
        package: match kind {
            NodeKind::Package => declared_package(db, node),
            _ => None,
        },
        component_source: match kind {
            NodeKind::Component => node.signature(db).label(1).map(str::to_string),
            _ => None,
        },
    })
}

/// The package a `package` block declares: the parameterization's name if it has one, else
/// `baseProviderName` or the deprecated label, with its version.
fn declared_package(db: &dyn pcl_db::Db, node: Node<'_>) -> Option<(String, Option<String>)> {
    let body = node.body(db);
    let literal = |block, name: &str| -> Option<String> {
        let (_, attr) = body.find_attr(block, name)?;
        match body.expr(attr.value) {
            Expr::Literal(ConstValue::String(s)) => Some(s.to_string()),
            _ => None,
        }
    };
    let parameterization = body
        .blocks_in(None)
        .filter(|(_, b)| b.type_name.as_str() == "parameterization")
        .last()
        .map(|(id, _)| id);
    match parameterization.and_then(|p| Some((literal(Some(p), "name")?, p))) {
        Some((name, p)) => Some((name, literal(Some(p), "version"))),
        None => {
            let name = literal(None, "baseProviderName")
                .or_else(|| node.signature(db).label(0).map(str::to_string))?;
            Some((name, literal(None, "baseProviderVersion")))
        }
    }
}

/// What a host published about an open file ([`publish_open_files`]).
#[derive(Debug)]
struct OpenFileFacts {
    program: Program,
    summary: FileSummary,
    /// The type each node has for readers in other files ([`crate::node_type`]), in the order
    /// of the summary's nodes (closed readers read them from their names' slots).
    ordered_types: Vec<Type>,
}

fn published(db: &dyn pcl_db::Db, file: SourceFile) -> Option<&OpenFileFacts> {
    file.published(db)
        .0
        .as_ref()?
        .downcast_ref::<OpenFileFacts>()
}

/// The facts published for `file` as part of `program`, when it is open and they exist.
fn published_in(db: &dyn pcl_db::Db, program: Program, file: SourceFile) -> Option<&OpenFileFacts> {
    if !file.open(db) {
        return None;
    }
    published(db, file).filter(|f| f.program == program)
}

/// The summary the rest of the program reads of a file: published, for an open file whose
/// host publishes; its own otherwise.
pub fn summary_of<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> &'db FileSummary {
    match published_in(db, file.program(db), file.file(db)) {
        Some(facts) => &facts.summary,
        None => file_summary(db, file),
    }
}

/// A fingerprint of a file's summary (its nodes' identities and the names each uses), by
/// the names' text: equal fingerprints mean, but for a 64-bit collision, the same nodes with
/// the same uses. What a host keeps to see that the reference graph among files it did not
/// open is as it was (`InferencePlan`).
#[salsa::tracked(returns(copy))]
pub(crate) fn summary_fingerprint<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    for node in &file_summary(db, file).nodes {
        (node.kind as u8, node.name.as_str(), node.occurrence).hash(&mut hasher);
        node.uses.len().hash(&mut hasher);
        for name in node.uses.iter() {
            name.as_str().hash(&mut hasher);
        }
    }
    hasher.finish()
}

/// Whether a name an open file publishes is declared by a file read as it is too (in either
/// namespace): then the uses of that name in the closed files may mean either declaration as
/// publications come and go, so the edges among the closed files are not fixed.
pub(crate) fn publication_shadows_closed(db: &dyn pcl_db::Db, program: Program) -> bool {
    let closed = closed_index(db, program);
    program.files(db).iter().any(|&file| {
        let pf = ProgramFile::new(db, program, file);
        read_as_published(db, pf)
            && summary_of(db, pf).nodes.iter().any(|node| {
                let bucket = &closed.buckets[bucket_of(&node.name) as usize];
                bucket
                    .spaces
                    .iter()
                    .any(|space| space.contains_key(&node.name))
            })
    })
}

/// Names are spread over this many buckets of the [`ProgramIndex`]: a name's resolution reads
/// only its bucket ([`index_bucket`]), so adding, removing or renaming a node re-resolves the
/// names of one bucket, not every name of the program.
const NAME_BUCKETS: u32 = 256;

fn bucket_of(name: &str) -> u32 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    name.hash(&mut hasher);
    (hasher.finish() % u64::from(NAME_BUCKETS)) as u32
}

/// Every file's summary as the closed view reads it ([`summary_of`]), in file order.
fn summaries_of(db: &dyn pcl_db::Db, program: Program) -> Vec<(SourceFile, &FileSummary)> {
    program
        .files(db)
        .iter()
        .map(|&file| (file, summary_of(db, ProgramFile::new(db, program, file))))
        .collect()
}

/// The program's top-level names, as the reference looks them up, and its duplicates.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
pub struct ProgramIndex {
    /// By [`bucket_of`] the name; shared with [`index_bucket`]'s memos.
    buckets: Vec<Arc<IndexBucket>>,
    /// Later declarations of a name already declared: (first, duplicate).
    pub duplicates: Vec<(NodeKey, NodeKey)>,
}

/// Names and the nodes they mean, per namespace: values (config, locals, resources,
/// components, hooks and the pulumi block), then outputs.
#[derive(Clone, Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
struct NameMaps {
    spaces: [FxHashMap<Name, NodeKey>; 2],
}

/// The names of one bucket of a [`ProgramIndex`]: those of the files read as they are, shared
/// by every index built since one of those files changed, under the first definitions of the
/// names the published files define (wherever that first definition is), so that a
/// publication builds the index from what it published, not from the program.
#[derive(Clone, Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub struct IndexBucket {
    closed: Arc<NameMaps>,
    published: NameMaps,
}

impl IndexBucket {
    /// The node `name` means in namespace `space`.
    fn get(&self, space: usize, name: &Name) -> Option<&NodeKey> {
        self.published.spaces[space]
            .get(name)
            .or_else(|| self.closed.spaces[space].get(name))
    }

    /// Values, then outputs, as the reference looks names up.
    fn lookup(&self, name: &Name) -> Option<&NodeKey> {
        self.get(0, name).or_else(|| self.get(1, name))
    }

    /// Every name of namespace `space` with the node it means, in no particular order.
    fn entries(&self, space: usize) -> impl Iterator<Item = (&Name, &NodeKey)> {
        let published = &self.published.spaces[space];
        published.iter().chain(
            self.closed.spaces[space]
                .iter()
                .filter(move |(name, _)| !published.contains_key(*name)),
        )
    }
}

impl ProgramIndex {
    /// The node a name means: the first declaration (files in path order, then source
    /// order) wins.
    pub fn lookup(&self, name: &Name) -> Option<&NodeKey> {
        self.buckets[bucket_of(name) as usize].lookup(name)
    }
}

/// The program's name closest to an undefined `name` (did you mean ...?), once per name
/// rather than once per use: renaming a node used a thousand times looks through the
/// program's names once.
#[salsa::tracked(returns(clone))]
pub fn suggest_root_name<'db>(db: &'db dyn pcl_db::Db, key: RootName<'db>) -> Option<Name> {
    // Every name, as an open file sees them: a suggestion may be a name only an open file
    // defines (a file with an undefined name reads the open files' texts). The names of the
    // files read as they are come by length, so that only those whose length can be close
    // enough are compared (a rename of a node used across the program asks again: comparing
    // every name was most of a rename's cost); the published and the open files' names are
    // few, and compared all.
    let program = key.program(db);
    let name = key.name(db);
    let index = program_index(db, program);
    let open = open_defs(db, program);
    let mut matcher = pcl_diagnostics::suggest::Matcher::least(name.as_str());
    let published = index
        .buckets
        .iter()
        .flat_map(|b| b.published.spaces.iter().flat_map(|m| m.keys()));
    for candidate in published.chain(open.names.iter().flat_map(|m| m.keys())) {
        matcher.consider(candidate.as_str());
    }
    let closed = closed_names_by_length(db, program);
    matcher.consider_by_length(|at| closed.get(at).into_iter().flat_map(SameLength::names));
    let best = matcher.best()?;
    Some(Name::new(best))
}

/// The names the files read as they are declare (first declarations, both namespaces), by
/// their length in characters: what "did you mean" compares a name with. Re-runs with
/// [`closed_index`], never on a publication.
#[salsa::tracked(returns(ref))]
fn closed_names_by_length(db: &dyn pcl_db::Db, program: Program) -> Vec<SameLength> {
    let mut by_length: Vec<SameLength> = Vec::new();
    for bucket in &closed_index(db, program).buckets {
        for name in bucket.spaces.iter().flat_map(|m| m.keys()) {
            let length = name.as_str().chars().count();
            if by_length.len() <= length {
                by_length.resize_with(length + 1, SameLength::default);
            }
            let group = &mut by_length[length];
            group.text.push_str(name.as_str());
            group.ends.push(group.text.len() as u32);
        }
    }
    by_length
}

/// Names of one length, their texts side by side: comparing them reads one run of memory
/// rather than each name's own allocation.
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
struct SameLength {
    text: String,
    ends: Vec<u32>,
}

impl SameLength {
    fn names(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.text[start as usize..end as usize])
    }
}

/// The names of one bucket of the index, sorted (a value before an output of the same name):
/// re-sorted only when a name of the bucket changes, so that a rename re-sorts two buckets,
/// not the program.
#[salsa::tracked(returns(ref))]
fn bucket_names(db: &dyn pcl_db::Db, program: Program, bucket: u32) -> Vec<(Name, NodeKey)> {
    let bucket = index_bucket(db, program, bucket);
    // Sorted by text (one pointer to the bytes, not a name's two), then by position, so that
    // a value stays before an output of the same name; cloned once, in order.
    let entries: Vec<(&Name, &NodeKey)> = bucket.entries(0).chain(bucket.entries(1)).collect();
    let mut order: Vec<(&str, u32)> = entries
        .iter()
        .enumerate()
        .map(|(at, (name, _))| (name.as_str(), at as u32))
        .collect();
    order.sort_unstable();
    order
        .into_iter()
        .map(|(_, at)| {
            let (name, key) = entries[at as usize];
            (name.clone(), key.clone())
        })
        .collect()
}

/// Every top-level name as a reader in an open file sees the program (for completion), as
/// runs each sorted by name: one per bucket of the index (the published names), then the
/// names only the open files define. A reader that wants the first names in order takes from
/// the runs, and can stop each one early; nothing here sorts the program's names.
pub struct VisibleNames<'db> {
    buckets: Vec<&'db [(Name, NodeKey)]>,
    only_open: Vec<(Name, NodeKey)>,
}

impl VisibleNames<'_> {
    /// The runs, each sorted by name.
    pub fn runs(&self) -> impl Iterator<Item = &[(Name, NodeKey)]> {
        self.buckets
            .iter()
            .copied()
            .chain(std::iter::once(self.only_open.as_slice()))
    }
}

pub fn visible_names(db: &dyn pcl_db::Db, program: Program) -> VisibleNames<'_> {
    let buckets = (0..NAME_BUCKETS)
        .map(|b| bucket_names(db, program, b).as_slice())
        .collect();
    let mut only_open: Vec<(Name, NodeKey)> = Vec::new();
    for map in &open_defs(db, program).names {
        for (name, key) in map {
            let bucket = index_bucket(db, program, bucket_of(name));
            if bucket.lookup(name).is_none() {
                only_open.push((name.clone(), key.clone()));
            }
        }
    }
    only_open.sort_by(|a, b| a.0.cmp(&b.0));
    VisibleNames { buckets, only_open }
}

/// The index of the files read as they are (all but the open files whose hosts publish), with
/// their duplicates: re-runs when one of them changes, or a file opens or closes, not when a
/// host publishes.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
struct ClosedIndex {
    buckets: Vec<Arc<NameMaps>>,
    duplicates: Vec<(NodeKey, NodeKey)>,
}

/// Whether the rest of its program reads `file` through what its host published.
fn read_as_published(db: &dyn pcl_db::Db, file: ProgramFile<'_>) -> bool {
    file.file(db).open(db) && is_published(db, file)
}

/// The summaries of the files read as they are (all but the open files whose hosts publish),
/// in program order.
fn unpublished_summaries(db: &dyn pcl_db::Db, program: Program) -> Vec<(SourceFile, &FileSummary)> {
    program
        .files(db)
        .iter()
        .filter_map(|&file| {
            let pf = ProgramFile::new(db, program, file);
            (!read_as_published(db, pf)).then(|| (file, file_summary(db, pf)))
        })
        .collect()
}

#[salsa::tracked(returns(ref))]
fn closed_index(db: &dyn pcl_db::Db, program: Program) -> ClosedIndex {
    let summaries = unpublished_summaries(db, program);
    let count: usize = summaries.iter().map(|(_, s)| s.nodes.len()).sum();
    let per_bucket = count / NAME_BUCKETS as usize + 1;
    let mut buckets: Vec<NameMaps> = (0..NAME_BUCKETS)
        .map(|_| NameMaps {
            spaces: [
                FxHashMap::with_capacity_and_hasher(per_bucket, Default::default()),
                FxHashMap::default(),
            ],
        })
        .collect();
    // Later declarations of a name, per namespace: (name, duplicate).
    let mut later: [Vec<(Name, NodeKey)>; 2] = [Vec::new(), Vec::new()];
    for (file, summary) in &summaries {
        for node in &summary.nodes {
            let Some(space) = namespace(node.kind) else {
                continue;
            };
            let key = node.key(*file);
            let map = &mut buckets[bucket_of(&node.name) as usize].spaces[space];
            // In program order: the first declaration wins.
            match map.entry(node.name.clone()) {
                std::collections::hash_map::Entry::Occupied(_) => {
                    later[space].push((node.name.clone(), key));
                }
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(key);
                }
            }
        }
    }
    let mut duplicates = Vec::new();
    for (space, mut later) in later.into_iter().enumerate() {
        // By name, then in program order.
        later.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, key) in later {
            let first = &buckets[bucket_of(&name) as usize].spaces[space][&name];
            duplicates.push((first.clone(), key));
        }
    }
    ClosedIndex {
        buckets: buckets.into_iter().map(Arc::new).collect(),
        duplicates,
    }
}

/// The index of the closed files with the published files' names laid over it: re-runs with
/// every publication, at the cost of what the published files define (and of the few
/// definitions elsewhere of the same names), not of the program.
#[salsa::tracked(returns(ref))]
pub fn program_index(db: &dyn pcl_db::Db, program: Program) -> ProgramIndex {
    let closed = closed_index(db, program);
    let files = program.files(db);
    // Each published file's position in the program and its summary.
    let published: Vec<(usize, SourceFile, &FileSummary)> = files
        .iter()
        .enumerate()
        .filter_map(|(at, &file)| {
            let pf = ProgramFile::new(db, program, file);
            read_as_published(db, pf).then(|| (at, file, summary_of(db, pf)))
        })
        .collect();
    let mut overlay: Vec<NameMaps> = vec![NameMaps::default(); NAME_BUCKETS as usize];
    let mut duplicates = closed.duplicates.clone();
    if !published.is_empty() {
        // Every declaration of each name the published files declare, per namespace, by
        // place in the program: (file position, position in the file).
        type Places = Vec<((usize, usize), NodeKey)>;
        let mut declared: FxHashMap<(usize, Name), Places> = FxHashMap::default();
        for &(at, file, summary) in &published {
            for (i, node) in summary.nodes.iter().enumerate() {
                if let Some(space) = namespace(node.kind) {
                    declared
                        .entry((space, node.name.clone()))
                        .or_default()
                        .push(((at, i), node.key(file)));
                }
            }
        }
        // Their declarations in the closed files: the first in the closed index, later ones
        // among its duplicates; placed by looking them up in their files' summaries.
        let place_of = |key: &NodeKey| -> (usize, usize) {
            let at = files
                .iter()
                .position(|f| *f == key.file)
                .unwrap_or(usize::MAX);
            let summary = file_summary(db, ProgramFile::new(db, program, key.file));
            let i = summary.nodes.iter().position(|n| n.key(key.file) == *key);
            (at, i.unwrap_or(usize::MAX))
        };
        for (first, duplicate) in &closed.duplicates {
            let space = namespace(duplicate.kind).unwrap_or(0);
            if let Some(places) = declared.get_mut(&(space, duplicate.name.clone())) {
                places.push((place_of(duplicate), duplicate.clone()));
                if !places.iter().any(|(_, k)| k == first) {
                    places.push((place_of(first), first.clone()));
                }
            }
        }
        let mut renewed: Vec<(NodeKey, NodeKey)> = Vec::new();
        for ((space, name), places) in &mut declared {
            let bucket = bucket_of(name) as usize;
            if let Some(first) = closed.buckets[bucket].spaces[*space].get(name) {
                if !places.iter().any(|(_, k)| k == first) {
                    places.push((place_of(first), first.clone()));
                }
            }
            places.sort_by_key(|(place, _)| *place);
            let first = places[0].1.clone();
            for (_, later) in &places[1..] {
                renewed.push((first.clone(), later.clone()));
            }
            overlay[bucket].spaces[*space].insert(name.clone(), first);
        }
        // The duplicates of the names no published file declares stay as they were; in the
        // index's order: values, then outputs, by name, then in program order.
        duplicates.retain(|(_, duplicate)| {
            let space = namespace(duplicate.kind).unwrap_or(0);
            !declared.contains_key(&(space, duplicate.name.clone()))
        });
        duplicates.extend(renewed);
        duplicates.sort_by(|a, b| {
            let space = |k: &NodeKey| namespace(k.kind).unwrap_or(0);
            (space(&a.1), &a.1.name).cmp(&(space(&b.1), &b.1.name))
        });
    }
    ProgramIndex {
        buckets: closed
            .buckets
            .iter()
            .zip(overlay)
            .map(|(closed, published)| {
                Arc::new(IndexBucket {
                    closed: closed.clone(),
                    published,
                })
            })
            .collect(),
        duplicates,
    }
}

/// One bucket of the [`program_index`]: backdates unless a name of the bucket changed its
/// meaning. Shares the index's bucket (a copy was 14 MB at 100k resources).
#[salsa::tracked(returns(ref))]
fn index_bucket(db: &dyn pcl_db::Db, program: Program, bucket: u32) -> Arc<IndexBucket> {
    program_index(db, program).buckets[bucket as usize].clone()
}

/// Through whose eyes a program is seen. A file nobody has open sees the open files as
/// their hosts published them, which leaves out what no closed file reads (a node whose name
/// no closed file uses or defines), so that adding, deleting or renaming such a node changes
/// nothing a closed file depends on. An open file sees every file as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum View {
    Closed,
    Open,
}

// SAFETY: a fieldless enum.
unsafe impl salsa::SalsaValue for View {}

impl View {
    /// The view of a reader in `file`.
    pub fn of(db: &dyn pcl_db::Db, file: SourceFile) -> View {
        if file.open(db) {
            View::Open
        } else {
            View::Closed
        }
    }
}

/// A top-level name of a program as a reader sees it: the key of [`resolve_root`].
#[salsa::interned(debug)]
pub struct RootName<'db> {
    #[returns(copy)]
    pub program: Program,
    #[returns(ref)]
    pub name: Name,
    #[returns(copy)]
    pub view: View,
}

/// The first definitions of names in the open files whose hosts publish, as they are (what
/// the published facts leave out), per namespace. Re-runs with every edit of an open file;
/// backdates unless a name was added, removed or renamed.
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub struct OpenDefs {
    names: [FxHashMap<Name, NodeKey>; 2],
    /// Whether every open file of the program has published: then the closed files' index
    /// holds the names of the files nobody has open alone ([`OpenLookup::lookup_not_closed`]).
    all_published: bool,
}

#[salsa::tracked(returns(ref))]
fn open_defs(db: &dyn pcl_db::Db, program: Program) -> OpenDefs {
    let mut defs = OpenDefs {
        all_published: true,
        ..OpenDefs::default()
    };
    for &file in program.files(db) {
        if !file.open(db) {
            continue;
        }
        let pf = ProgramFile::new(db, program, file);
        if !is_published(db, pf) {
            defs.all_published = false;
            continue;
        }
        // The identities of a file's items (`MEDIUM`) are its summary's nodes, without
        // reading its text (`LOW`).
        if let Some(items) = pcl_hir::items_of(db, pf) {
            for (kind, name, occurrence) in items.keys() {
                if let Some(space) = namespace(kind) {
                    defs.names[space]
                        .entry(name.clone())
                        .or_insert_with(|| NodeKey {
                            file,
                            kind,
                            name: name.clone(),
                            occurrence,
                        });
                }
            }
            continue;
        }
        for node in &file_summary(db, pf).nodes {
            if let Some(space) = namespace(node.kind) {
                defs.names[space]
                    .entry(node.name.clone())
                    .or_insert_with(|| node.key(file));
            }
        }
    }
    defs
}

/// The first definition of `name` in namespace `space` as `view` sees the program.
fn first_in<'a>(
    db: &'a dyn pcl_db::Db,
    program: Program,
    space: usize,
    name: &Name,
    view: View,
) -> Option<&'a NodeKey> {
    if view == View::Closed {
        return match program_facts(db, program) {
            Some(facts) => first_for_closed(db, program, facts, space, name),
            None => index_bucket(db, program, bucket_of(name)).get(space, name),
        };
    }
    let closed = by_name::closed_bucket(db, program, bucket_of(name)).spaces[space].get(name);
    let open = open_defs(db, program).names[space].get(name);
    first_of_open_view(db, closed, open)
}

/// The open view's rule: the first definition among the files read as they are (the closed
/// files' index) against the open files' own, when both define the name. Not the program's
/// index, whose entries for open files are what they last published: a name an open file no
/// longer defines would still shadow another's until the next publication, and the open view
/// would change with publications (the cycles the host writes for open files must not).
fn first_of_open_view<'a>(
    db: &dyn pcl_db::Db,
    closed: Option<&'a NodeKey>,
    open: Option<&'a NodeKey>,
) -> Option<&'a NodeKey> {
    match (closed, open) {
        // Files in path order; in one file, the open text decides.
        (Some(a), Some(b)) if a.file != b.file && a.file.path(db) < b.file.path(db) => Some(a),
        (_, Some(b)) => Some(b),
        (a, None) => a,
    }
}

/// [`lookup_in_view`] in the open view for many names in one query: the open files'
/// definitions and each bucket of the index are fetched once, not once per name (a rename
/// looked up about 2,000 names this way in a file of 700 nodes, each lookup two fetches).
struct OpenLookup<'a> {
    db: &'a dyn pcl_db::Db,
    program: Program,
    /// Fetched with the first name looked up (a query that looks up none reads none).
    open: Option<&'a OpenDefs>,
    buckets: FxHashMap<u32, &'a NameMaps>,
}

impl<'a> OpenLookup<'a> {
    fn new(db: &'a dyn pcl_db::Db, program: Program) -> OpenLookup<'a> {
        OpenLookup {
            db,
            program,
            open: None,
            buckets: FxHashMap::default(),
        }
    }

    /// What `name` means in namespace `space` (as [`first_in`] in the open view).
    fn first(&mut self, space: usize, name: &Name) -> Option<&'a NodeKey> {
        let (db, program) = (self.db, self.program);
        let bucket: &'a NameMaps = self
            .buckets
            .entry(bucket_of(name))
            .or_insert_with_key(|&b| by_name::closed_bucket(db, program, b));
        let open = *self.open.get_or_insert_with(|| open_defs(db, program));
        first_of_open_view(
            db,
            bucket.spaces[space].get(name),
            open.names[space].get(name),
        )
    }

    /// What `name` means: values first, then outputs (as [`lookup_in_view`]).
    fn lookup(&mut self, name: &Name) -> Option<&'a NodeKey> {
        self.first(0, name).or_else(|| self.first(1, name))
    }

    /// [`OpenLookup::lookup`] of a name the files nobody has open neither use nor declare (not
    /// in [`closed_names`]): once every open file has published, the closed files' index
    /// cannot hold it, so only the open files' definitions are read (a publication's walk of
    /// what its nodes reach read a bucket of the index per name, each re-validated after
    /// every keystroke).
    fn lookup_not_closed(&mut self, name: &Name) -> Option<&'a NodeKey> {
        let open = *self
            .open
            .get_or_insert_with(|| open_defs(self.db, self.program));
        if !open.all_published {
            return self.lookup(name);
        }
        let in_space =
            |space: usize| first_of_open_view(self.db, None, open.names[space].get(name));
        in_space(0).or_else(|| in_space(1))
    }
}

/// What `name` means as `view` sees the program: values first, then outputs.
fn lookup_in_view<'a>(
    db: &'a dyn pcl_db::Db,
    program: Program,
    name: &Name,
    view: View,
) -> Option<&'a NodeKey> {
    first_in(db, program, 0, name, view).or_else(|| first_in(db, program, 1, name, view))
}

/// A node of an open file as readers elsewhere know it: by key, in a program.
#[salsa::interned(debug)]
pub struct OpenNode<'db> {
    #[returns(copy)]
    pub program: Program,
    #[returns(ref)]
    pub key: NodeKey,
}

/// What a top-level name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, salsa::SalsaValue)]
pub enum Resolved<'db> {
    /// A node of a file read through its own summary.
    Node(Node<'db>),
    /// A node of an open file whose host publishes: known by key, so that resolving it reads
    /// nothing of the file's text.
    Open(OpenNode<'db>),
}

impl Resolved<'_> {
    pub fn kind(self, db: &dyn pcl_db::Db) -> NodeKind {
        match self {
            Resolved::Node(node) => node.kind(db),
            Resolved::Open(open) => open.key(db).kind,
        }
    }
}

/// Whether the rest of `file`'s program reads it through published facts. Backdates, so a
/// publication that changes other facts re-runs none of its readers.
#[salsa::tracked(returns(copy))]
fn is_published<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> bool {
    // What the host wrote after publishing (`HIGH`), not the publications themselves.
    program_facts(db, file.program(db))
        .is_some_and(|facts| facts.publishing.contains(&file.file(db)))
}

/// What a top-level name refers to. A narrow projection of [`program_index`]: a node that
/// uses `x` depends only on what `x` means, so adding, removing or renaming other nodes
/// re-runs nothing of it.
#[salsa::tracked(returns(copy))]
pub fn resolve_root<'db>(db: &'db dyn pcl_db::Db, key: RootName<'db>) -> Option<Resolved<'db>> {
    let program = key.program(db);
    let view = key.view(db);
    let target = lookup_in_view(db, program, key.name(db), view)?;
    // A reader in an open file reads the open files as they are, so it gets the handle (no
    // `open_node` between it and the node: 420 fewer results to re-validate per keystroke in a
    // file of 450 nodes).
    if view == View::Closed && is_published(db, ProgramFile::new(db, program, target.file)) {
        return Some(Resolved::Open(OpenNode::new(db, program, target.clone())));
    }
    node_of(db, program, target).map(Resolved::Node)
}

/// [`resolve_root`] for a reader in `reader`, a file of `program`.
pub fn lookup_root<'db>(
    db: &'db dyn pcl_db::Db,
    program: Program,
    reader: SourceFile,
    name: &Name,
) -> Option<Resolved<'db>> {
    lookup_root_in(db, program, View::of(db, reader), name)
}

/// [`lookup_root`] for a reader whose view is known (one node's inference looks up many
/// names, and reading the view is a read of the file's input each time).
pub(crate) fn lookup_root_in<'db>(
    db: &'db dyn pcl_db::Db,
    program: Program,
    view: View,
    name: &Name,
) -> Option<Resolved<'db>> {
    if db.checks_once() && view == View::Closed {
        if let Some(roots) = roots_at_once(db, program) {
            return roots.get(name);
        }
    }
    resolve_root(db, RootName::new(db, program, name, view))
}

/// What every top-level name of a program means (what [`resolve_root`] gives a reader in a
/// file nobody has open), in one table, for a database that checks once
/// ([`pcl_db::Db::checks_once`]); `None` for a program whose files publish or are open, which
/// a database that checks once never has. Interning a key and fetching a memo per name was a sixth of
/// `pcl check`'s time at 100,000 resources, each a cache miss in tables of hundreds of
/// thousands; every reader now depends on every name, which only an edit would pay for.
#[salsa::tracked(returns(ref))]
fn roots_at_once<'db>(db: &'db dyn pcl_db::Db, program: Program) -> Option<RootsAtOnce<'db>> {
    let files = program.files(db);
    // A file open in an editor finds its nodes through its items (`node_of`).
    if program_facts(db, program).is_some() || files.iter().any(|f| f.open(db)) {
        return None;
    }
    let index = program_index(db, program);
    let count = index.buckets.iter().map(|b| b.closed.spaces[0].len()).sum();
    let mut roots = FxHashMap::with_capacity_and_hasher(count, Default::default());
    // Each node that a name means (the rule of `first_in` for a program that keeps no facts:
    // the index's first declaration, values before outputs) is that name's, found by walking
    // the files' nodes rather than by `node_of` per name, which built a map of every file's
    // nodes to find each once.
    for &file in files {
        for &node in file_nodes(db, ProgramFile::new(db, program, file)) {
            if namespace(node.kind(db)).is_none() {
                continue;
            }
            let name = node.name(db);
            if index.lookup(name) == Some(&node.key(db)) {
                roots.insert(name.clone(), Resolved::Node(node));
            }
        }
    }
    Some(RootsAtOnce(roots))
}

/// [`roots_at_once`]'s table.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
struct RootsAtOnce<'db>(FxHashMap<Name, Resolved<'db>>);

impl<'db> RootsAtOnce<'db> {
    fn get(&self, name: &Name) -> Option<Resolved<'db>> {
        self.0.get(name).copied()
    }
}

/// The node of an open file a key names, as a handle: reads the file. Backdates while the
/// key names the same node, so adding a node to the file re-runs none of the readers of the
/// others.
#[salsa::tracked(returns(copy))]
fn open_node<'db>(db: &'db dyn pcl_db::Db, open: OpenNode<'db>) -> Option<Node<'db>> {
    node_of(db, open.program(db), open.key(db))
}

/// The type published for a node of an open file (`dynamic` once the file no longer
/// defines it). Backdates, so a publication re-runs only the readers of the types that
/// changed.
#[salsa::tracked(returns(clone))]
fn published_type<'db>(db: &'db dyn pcl_db::Db, open: OpenNode<'db>) -> Type {
    // From the name's slot, not the file's publication: a publication that changes other
    // names' types leaves this reader's inputs as they were.
    by_name::published_type_by_name(db, open)
}

/// The node a top-level name refers to, as a handle (reads the file that defines it): for
/// the editor's features and the reference graph, not for inference across files.
pub fn lookup_node<'db>(
    db: &'db dyn pcl_db::Db,
    program: Program,
    reader: SourceFile,
    name: &Name,
) -> Option<Node<'db>> {
    resolved_node(db, lookup_root(db, program, reader, name)?)
}

/// The node a resolution names, as a handle (reads the file that defines it).
pub fn resolved_node<'db>(db: &'db dyn pcl_db::Db, resolved: Resolved<'db>) -> Option<Node<'db>> {
    match resolved {
        Resolved::Node(node) => Some(node),
        Resolved::Open(open) => open_node(db, open),
    }
}

/// The type a node in `reader` sees of what a name resolved to: for a node of an open file,
/// its real type when the reader is open too (open files are typed together on every
/// keystroke), else the type its host published.
pub(crate) fn resolved_type(
    db: &dyn pcl_db::Db,
    reader: SourceFile,
    resolved: Resolved<'_>,
) -> Type {
    match resolved {
        Resolved::Node(node) => crate::node_type(db, node),
        Resolved::Open(open) => {
            if reader == open.key(db).file || reader.open(db) {
                return open_node(db, open)
                    .map(|n| crate::node_type(db, n))
                    .unwrap_or_else(Type::dynamic);
            }
            published_type(db, open)
        }
    }
}

/// The reference cycles of a program, by node key.
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub struct ProgramCycles {
    /// Each cycle as a path that starts and ends at its first node in program order
    /// (`a -> b -> a`); one per strongly connected component.
    pub cycles: Vec<Vec<NodeKey>>,
    /// The nodes of each cycle's strongly connected component (the path may not pass
    /// through them all), aligned with `cycles`.
    pub components: Vec<Vec<NodeKey>>,
    members: FxHashSet<NodeKey>,
}

impl ProgramCycles {
    /// Whether `node` is part of a cycle.
    pub fn contains(&self, db: &dyn pcl_db::Db, node: Node<'_>) -> bool {
        !self.members.is_empty() && self.members.contains(&node.key(db))
    }
}

/// The namespace a node's name is looked up in: values first, then outputs (as the reference
/// looks names up); package blocks are not values. The one rule behind [`program_index`] and
/// the cycle search.
fn namespace(kind: NodeKind) -> Option<usize> {
    match kind {
        NodeKind::Package => None,
        NodeKind::Output => Some(1),
        _ => Some(0),
    }
}

/// The reference cycles as a file nobody has open sees them: from the summaries (published,
/// for open files), not from each node's references, so after a keystroke in an open file
/// that publishes nothing it is re-validated in one step.
#[salsa::tracked(returns(ref))]
pub fn program_cycles(db: &dyn pcl_db::Db, program: Program) -> ProgramCycles {
    if acyclic_with_publications(db, program) {
        return ProgramCycles::default();
    }
    let summaries = summaries_of(db, program);
    cycles_of(&summaries)
}

/// The reference graph of the files read as they are (all but the open files whose hosts
/// publish), names resolved among them alone: whether it is acyclic and, when a file is open,
/// a topological rank of each name's first definition and of the nodes that use each name.
/// What [`acyclic_with_publications`] needs to show that a publication closes no cycle
/// without searching the program (a search was a quarter of re-checking every file after a
/// rename at 100,000 resources). Re-runs only when a file on disk changes or a file opens or
/// closes.
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub struct ClosedGraph {
    acyclic: bool,
    /// By name: ranks such that a node's rank is above the ranks of the nodes it uses.
    names: FxHashMap<Name, NameRanks>,
}

/// The ranks of one name in a [`ClosedGraph`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct NameRanks {
    /// Of its first definition.
    definition: Option<u32>,
    /// The lowest of the nodes that use it.
    lowest_user: Option<u32>,
}

/// The first of some summaries' nodes with each name, per namespace: how the index resolves
/// a name among them (values first, then outputs). The one rule behind the closed files'
/// ranking ([`closed_graph`]) and the plan of a check's inference (`program::plan_waves`).
pub(crate) struct FirstOfName<'a> {
    first: [FxHashMap<&'a Name, usize>; 2],
}

impl<'a> FirstOfName<'a> {
    pub(crate) fn new(nodes: &[&'a SummaryNode]) -> FirstOfName<'a> {
        let mut first: [FxHashMap<&Name, usize>; 2] = [FxHashMap::default(), FxHashMap::default()];
        first[0].reserve(nodes.len());
        for (i, node) in nodes.iter().enumerate() {
            if let Some(space) = namespace(node.kind) {
                first[space].entry(&node.name).or_insert(i);
            }
        }
        FirstOfName { first }
    }

    /// The node `name` means.
    pub(crate) fn get(&self, name: &Name) -> Option<usize> {
        self.first[0]
            .get(name)
            .or_else(|| self.first[1].get(name))
            .copied()
    }

    fn names(&self) -> impl Iterator<Item = &&'a Name> {
        self.first[0].keys().chain(self.first[1].keys())
    }

    /// The reference graph among `nodes` (those this was made from): the nodes each uses.
    pub(crate) fn edges(&self, nodes: &[&SummaryNode]) -> Vec<Vec<usize>> {
        nodes
            .iter()
            .map(|node| node.uses.iter().filter_map(|name| self.get(name)).collect())
            .collect()
    }
}

#[salsa::tracked(returns(ref))]
fn closed_graph(db: &dyn pcl_db::Db, program: Program) -> ClosedGraph {
    let mut nodes: Vec<&SummaryNode> = Vec::new();
    for &file in program.files(db) {
        let pf = ProgramFile::new(db, program, file);
        if !read_as_published(db, pf) {
            nodes.extend(&summary_of(db, pf).nodes);
        }
    }
    let first = FirstOfName::new(&nodes);
    let lookup = |name: &Name| first.get(name);
    // Ranks in depth-first post-order: a node after every node it uses (none if they form a
    // cycle).
    let edges = first.edges(&nodes);
    let order = crate::graph::post_order(&edges);
    let acyclic = order.is_some();
    let mut rank = vec![0u32; nodes.len()];
    for (r, &i) in order.iter().flatten().enumerate() {
        rank[i] = r as u32;
    }
    let mut names: FxHashMap<Name, NameRanks> = FxHashMap::default();
    // Only a publication reads the ranks: a program with no file open (a batch check) keeps
    // none.
    if acyclic && program.files(db).iter().any(|f| f.open(db)) {
        names.reserve(nodes.len());
        for name in first.names() {
            let definition = lookup(name).map(|i| rank[i]);
            names.entry((*name).clone()).or_default().definition = definition;
        }
        for (i, node) in nodes.iter().enumerate() {
            for name in node.uses.iter() {
                // Cloned only when new (as in `closed_names`).
                let ranks = match names.get_mut(name) {
                    Some(ranks) => ranks,
                    None => names.entry(name.clone()).or_default(),
                };
                ranks.lowest_user = Some(ranks.lowest_user.map_or(rank[i], |r| r.min(rank[i])));
            }
        }
    }
    ClosedGraph { acyclic, names }
}

/// Whether the program as a closed file sees it has no reference cycle, shown from the
/// [`ClosedGraph`] and the published nodes alone: the closed files' graph is acyclic, no
/// published name is also defined by a closed file (or twice), the published nodes do not
/// use each other in a cycle, and each can be ranked above every node it uses and below every
/// node that uses it. Then ranks decrease along every edge of the whole graph. `false` means
/// "not shown": the caller searches.
fn acyclic_with_publications(db: &dyn pcl_db::Db, program: Program) -> bool {
    acyclic_over_closed_graph(db, program, |pf| &summary_of(db, pf).nodes)
}

/// Whether the program, with the files not in the [`ClosedGraph`] (those whose hosts publish)
/// read through `nodes_of` (their published summaries, or their summaries as they are), is
/// shown acyclic from the closed graph's ranks (see [`acyclic_with_publications`]).
fn acyclic_over_closed_graph<'a>(
    db: &'a dyn pcl_db::Db,
    program: Program,
    nodes_of: impl Fn(ProgramFile<'a>) -> &'a [SummaryNode],
) -> bool {
    let graph = closed_graph(db, program);
    if !graph.acyclic {
        return false;
    }
    let mut published: Vec<&SummaryNode> = Vec::new();
    for &file in program.files(db) {
        let pf = ProgramFile::new(db, program, file);
        if read_as_published(db, pf) {
            published.extend(nodes_of(pf).iter().filter(|n| namespace(n.kind).is_some()));
        }
    }
    if published.is_empty() {
        return true;
    }
    let ranks = |name: &Name| graph.names.get(name).copied().unwrap_or_default();
    let mut by_name: FxHashMap<&Name, usize> = FxHashMap::default();
    for (i, node) in published.iter().enumerate() {
        if by_name.insert(&node.name, i).is_some() || ranks(&node.name).definition.is_some() {
            return false;
        }
    }
    // Bounds of each published node's rank (strictly above `low`, strictly below `high`), and
    // the published nodes it uses.
    let mut low: Vec<i64> = vec![-1; published.len()];
    let mut high: Vec<i64> = vec![i64::MAX; published.len()];
    let mut uses: Vec<Vec<usize>> = vec![Vec::new(); published.len()];
    for (i, node) in published.iter().enumerate() {
        if let Some(user) = ranks(&node.name).lowest_user {
            high[i] = i64::from(user);
        }
        for name in node.uses.iter() {
            if let Some(&j) = by_name.get(name) {
                uses[i].push(j);
            } else if let Some(definition) = ranks(name).definition {
                low[i] = low[i].max(i64::from(definition));
            }
        }
    }
    // The published nodes, each after those it uses; none if they use each other in a cycle.
    let Some(order) = crate::graph::post_order(&uses) else {
        return false;
    };
    for &i in &order {
        for &j in &uses[i] {
            low[i] = low[i].max(low[j]);
        }
    }
    for &i in order.iter().rev() {
        for &j in &uses[i] {
            high[j] = high[j].min(high[i]);
        }
    }
    // Ranks are whole numbers, so strictly between: room for the published nodes in order.
    low.iter().zip(&high).all(|(l, h)| l < h)
}

/// The reference cycles as an open file sees them: every file as it is (the uses of an open
/// file reduced to names the program defines, so that typing an identifier re-runs nothing).
#[salsa::tracked(returns(ref))]
pub fn open_cycles(db: &dyn pcl_db::Db, program: Program) -> ProgramCycles {
    // Most edits close no cycle, and the closed files' ranks show it without a search (which
    // walks what the open files reach: a tenth of a rename's cost at 10,000 resources).
    if acyclic_over_closed_graph(db, program, |pf| &open_summary(db, pf).nodes) {
        return ProgramCycles::default();
    }
    // A cycle through a node of an open file lies among the nodes reachable from the open
    // files' nodes: the search walks those only (a keystroke that changes an open file's
    // references costs what the open files use, not the program).
    let files = program.files(db);
    let closed_places = closed_places(db, program);
    let closed: FxHashMap<SourceFile, &FileSummary> = closed_summaries(db, program)
        .iter()
        .map(|(f, s)| (*f, s))
        .collect();
    // The nodes reached: key, (file position, position in file), the node.
    let mut reached: Vec<(NodeKey, (usize, usize), &SummaryNode)> = Vec::new();
    let mut index: FxHashMap<NodeKey, usize> = FxHashMap::default();
    let mut open_nodes: FxHashMap<NodeKey, (usize, usize, &SummaryNode)> = FxHashMap::default();
    for (fi, &file) in files.iter().enumerate() {
        if closed.contains_key(&file) {
            continue;
        }
        let summary = open_summary(db, ProgramFile::new(db, program, file));
        for (ni, node) in summary.nodes.iter().enumerate() {
            let key = node.key(file);
            open_nodes.insert(key.clone(), (fi, ni, node));
            index.insert(key.clone(), reached.len());
            reached.push((key, (fi, ni), node));
        }
    }
    let mut targets: Vec<Vec<usize>> = Vec::new();
    let mut lookup = OpenLookup::new(db, program);
    let mut next = 0;
    while next < reached.len() {
        let node = reached[next].2;
        let mut out: Vec<usize> = Vec::new();
        for name in node.uses.iter() {
            let Some(target) = lookup.lookup(name) else {
                continue;
            };
            let at = match index.get(target) {
                Some(&at) => at,
                None => {
                    let found = match open_nodes.get(target) {
                        Some(&(fi, ni, n)) => Some(((fi, ni), n)),
                        None => closed_places.get(target).and_then(|&(fi, ni)| {
                            let summary = closed.get(&target.file)?;
                            Some(((fi, ni), summary.nodes.get(ni)?))
                        }),
                    };
                    let Some((place, n)) = found else {
                        continue;
                    };
                    index.insert(target.clone(), reached.len());
                    reached.push((target.clone(), place, n));
                    reached.len() - 1
                }
            };
            if !out.contains(&at) {
                out.push(at);
            }
        }
        targets.push(out);
        next += 1;
    }
    // Renumbered in program order, as the search over the whole program numbers them.
    let mut order: Vec<usize> = (0..reached.len()).collect();
    order.sort_by_key(|&i| reached[i].1);
    let mut renumber = vec![0; reached.len()];
    for (new, &old) in order.iter().enumerate() {
        renumber[old] = new;
    }
    let keys: Vec<NodeKey> = order.iter().map(|&i| reached[i].0.clone()).collect();
    let edges: Vec<Vec<usize>> = order
        .iter()
        .map(|&i| targets[i].iter().map(|&t| renumber[t]).collect())
        .collect();
    cycles_in(keys, &edges)
}

/// Where each node of [`closed_summaries`] is: (position of its file in the program, position
/// in its file).
#[salsa::tracked(returns(ref))]
fn closed_places(db: &dyn pcl_db::Db, program: Program) -> FxHashMap<NodeKey, (usize, usize)> {
    let files = program.files(db);
    let mut places = FxHashMap::default();
    for (file, summary) in closed_summaries(db, program) {
        let fi = files.iter().position(|f| f == file).unwrap_or(usize::MAX);
        for (ni, node) in summary.nodes.iter().enumerate() {
            let key = node.key(*file);
            places.insert(key, (fi, ni));
        }
    }
    places
}

/// The summaries of the files read as they are on disk (those not open, or open but not
/// published), in file order: one memo, so that what reads them all after a keystroke in an
/// open file (the open files' cycle search) re-validates one result, not one per file.
#[salsa::tracked(returns(ref))]
fn closed_summaries(db: &dyn pcl_db::Db, program: Program) -> Vec<(SourceFile, FileSummary)> {
    program
        .files(db)
        .iter()
        .filter_map(|&file| {
            let pf = ProgramFile::new(db, program, file);
            if read_as_published(db, pf) {
                return None;
            }
            Some((file, summary_of(db, pf).clone()))
        })
        .collect()
}

/// Whether `node` is on a reference cycle of `program` as its own file sees the program.
pub(crate) fn in_cycle(db: &dyn pcl_db::Db, program: Program, node: Node<'_>) -> bool {
    let file = node.file(db).file(db);
    match View::of(db, file) {
        View::Closed => by_name::closed_in_cycle(db, program, node),
        // A node of an open file's item reads what the host wrote of the open files' cycles
        // (`MEDIUM`, see `sync_open_cycles`), not the cycles every keystroke derives again.
        View::Open => match cycle_members(db, program, file).filter(|_| node.item(db).is_some()) {
            Some(members) => members.contains(&node.key(db)),
            None => open_cycles(db, program).contains(db, node),
        },
    }
}

/// Which of an open file's nodes are on a cycle of the open view, as the host last wrote them.
#[derive(Debug, PartialEq, Eq)]
struct CycleMembers {
    program: Program,
    members: FxHashSet<NodeKey>,
}

fn cycle_members(
    db: &dyn pcl_db::Db,
    program: Program,
    file: SourceFile,
) -> Option<&FxHashSet<NodeKey>> {
    let members = file
        .cycle_members(db)
        .0
        .as_ref()?
        .downcast_ref::<CycleMembers>()?;
    (members.program == program).then_some(&members.members)
}

/// Writes, for each open file whose items have inputs (`pcl_hir::sync_open_items`), which of
/// its nodes are on a cycle of the open view, where that changed: what [`in_cycle`] reads of
/// the open files' nodes. The open view reads no publication (see `first_of_open_view`), so
/// only the first call of a publication writes anything, but for a file just published. Only in programs whose open files are all published: computing the
/// cycles resolves names, which before a file's first publication reads its text (see
/// `facts_if_changed`); until then, and in other programs, the cycles are read as they are.
fn sync_open_cycles(db: &mut RootDatabase) {
    let mut writes: Vec<(SourceFile, Published)> = Vec::new();
    for &(_, program) in pcl_db::workspace(db).programs(db) {
        let open: Vec<SourceFile> = program
            .files(db)
            .iter()
            .copied()
            .filter(|&f| f.open(db))
            .collect();
        let with_items: Vec<SourceFile> = open
            .iter()
            .copied()
            .filter(|&f| pcl_hir::items_of(db, ProgramFile::new(db, program, f)).is_some())
            .collect();
        if with_items.is_empty() {
            continue;
        }
        let all_published = open.iter().all(|&f| published_in(db, program, f).is_some())
            && program_facts(db, program).is_some();
        let cycles = all_published.then(|| open_cycles(db, program));
        for file in with_items {
            let members = cycles.map(|cycles| CycleMembers {
                program,
                members: cycles
                    .members
                    .iter()
                    .filter(|key| key.file == file)
                    .cloned()
                    .collect(),
            });
            let current = file.cycle_members(db).0.as_ref();
            let same = match (&members, current) {
                (None, None) => true,
                (Some(new), Some(old)) => old.downcast_ref::<CycleMembers>() == Some(new),
                _ => false,
            };
            if !same {
                writes.push((file, Published(members.map(|m| Arc::new(m) as _))));
            }
        }
    }
    for (file, members) in writes {
        db.set_file_cycle_members(file, members);
    }
}

/// An open file's summary with its uses reduced to the names the program defines.
#[salsa::tracked(returns(ref))]
fn open_summary<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> FileSummary {
    let own = file_summary(db, file);
    let nodes = match item_summary_nodes(db, file) {
        // An open file with item inputs: the items the user is not editing reduced in one
        // `MEDIUM` query, so that a keystroke verifies this by reading a few results.
        Some(items) => {
            let settled = settled_open_summary(db, file);
            let mut settled = settled.iter();
            let mut reduce = UseReducer::new(db, file.program(db));
            items
                .into_iter()
                .filter_map(|(edited, node)| match edited {
                    true => Some(reduce.reduce(node)),
                    false => settled.next().cloned(),
                })
                .collect()
        }
        None => {
            let mut reduce = UseReducer::new(db, file.program(db));
            own.nodes.iter().map(|n| reduce.reduce(n)).collect()
        }
    };
    FileSummary {
        nodes,
        packages: own.packages.clone(),
        component_sources: own.component_sources.clone(),
    }
}

/// [`open_summary`]'s nodes of the items of an open file the user is not editing.
#[salsa::tracked(returns(ref))]
fn settled_open_summary<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> Vec<SummaryNode> {
    let mut reduce = UseReducer::new(db, file.program(db));
    settled_summary_nodes(db, file)
        .map(|node| reduce.reduce(node))
        .collect()
}

/// A summary node's uses reduced to the names the program defines, each name looked up once
/// (a file's nodes use the same names many times).
struct UseReducer<'a> {
    defined: FxHashMap<Name, bool>,
    lookup: OpenLookup<'a>,
}

impl<'a> UseReducer<'a> {
    fn new(db: &'a dyn pcl_db::Db, program: Program) -> UseReducer<'a> {
        UseReducer {
            defined: FxHashMap::default(),
            lookup: OpenLookup::new(db, program),
        }
    }

    fn reduce(&mut self, n: &SummaryNode) -> SummaryNode {
        let uses = n
            .uses
            .iter()
            .filter(|&name| {
                if let Some(&known) = self.defined.get(name) {
                    return known;
                }
                let known = self.lookup.lookup(name).is_some();
                self.defined.insert(name.clone(), known);
                known
            })
            .cloned()
            .collect();
        SummaryNode {
            kind: n.kind,
            name: n.name.clone(),
            occurrence: n.occurrence,
            uses,
        }
    }
}

/// Tarjan over the summaries, names resolved as [`program_index`] resolves them (the first
/// declaration in program order, values before outputs), by position.
fn cycles_of(summaries: &[(SourceFile, &FileSummary)]) -> ProgramCycles {
    let nodes: Vec<(SourceFile, &SummaryNode)> = summaries
        .iter()
        .flat_map(|(file, summary)| summary.nodes.iter().map(move |n| (*file, n)))
        .collect();
    // The first node of each name, per namespace (names compare by pointer).
    let mut first: [FxHashMap<&Name, usize>; 2] = [FxHashMap::default(), FxHashMap::default()];
    first[0].reserve(nodes.len());
    for (i, (_, node)) in nodes.iter().enumerate() {
        if let Some(space) = namespace(node.kind) {
            first[space].entry(&node.name).or_insert(i);
        }
    }
    let lookup = |name: &Name| first[0].get(name).or_else(|| first[1].get(name)).copied();
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    let edges: Vec<Vec<usize>> = nodes
        .iter()
        .map(|(_, node)| {
            // Each target once, in the order first used.
            seen.clear();
            node.uses
                .iter()
                .filter_map(&lookup)
                .filter(|&to| seen.insert(to))
                .collect()
        })
        .collect();
    let keys: Vec<NodeKey> = nodes.iter().map(|(file, node)| node.key(*file)).collect();
    cycles_in(keys, &edges)
}

/// The cycles of a graph whose nodes are numbered in program order.
fn cycles_in(keys: Vec<NodeKey>, edges: &[Vec<usize>]) -> ProgramCycles {
    let mut cycles = Vec::new();
    let mut members = FxHashSet::default();
    for component in crate::graph::strongly_connected(edges) {
        let first = *component.iter().min().expect("components are not empty");
        let self_loop = edges[first].contains(&first);
        if component.len() == 1 && !self_loop {
            continue;
        }
        // Components may depend on each other (each is its own program; the reference
        // allows it), but not on themselves.
        let only_components = component
            .iter()
            .all(|&i| keys[i].kind == NodeKind::Component);
        if only_components && component.iter().all(|&i| !edges[i].contains(&i)) {
            continue;
        }
        let path = crate::graph::cycle_through(first, &component, edges);
        members.extend(component.iter().map(|&i| keys[i].clone()));
        cycles.push((path, component));
    }
    cycles.sort_by_key(|(path, _)| path[0]);
    let (cycles, components) = cycles
        .into_iter()
        .map(|(path, component)| {
            (
                path.into_iter().map(|i| keys[i].clone()).collect(),
                component.into_iter().map(|i| keys[i].clone()).collect(),
            )
        })
        .unzip();
    ProgramCycles {
        cycles,
        components,
        members,
    }
}

/// The packages a program declares with `package` blocks: name → version, the first block
/// of a name winning.
#[salsa::tracked(returns(ref))]
pub fn declared_packages(db: &dyn pcl_db::Db, program: Program) -> Vec<(String, Option<String>)> {
    // Read by every resource: from what the host wrote (`HIGH`) once files publish.
    match program_facts(db, program) {
        Some(facts) => facts.packages.clone(),
        None => packages_of(db, program),
    }
}

/// [`declared_packages`] from the files' summaries (published, for open files).
fn packages_of(db: &dyn pcl_db::Db, program: Program) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for &file in program.files(db) {
        for (name, version) in &summary_of(db, ProgramFile::new(db, program, file)).packages {
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.clone(), version.clone()));
            }
        }
    }
    out.sort();
    out
}

/// How [`publish_open_files`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Publication {
    /// Nothing published changed: what depends only on files on disk stays valid without a
    /// walk.
    Unchanged,
    /// Facts changed and were published: everything is re-validated once.
    Changed,
    /// Facts changed and were published, after keystrokes only, and the only closed results
    /// that could read them (those that read a name's slot written at `MEDIUM`, and what uses
    /// them through types) were inferred again in dependency order: every result of the files
    /// nobody has open is valid as it is, as after [`Publication::Unchanged`].
    ChangedInOrder,
}

/// Rounds of publication before giving up on a file: each round settles one more step of a
/// chain of references that goes from an open file through closed files back into an open
/// file.
const MAX_ROUNDS: usize = 16;

/// Publishes, for every open file of every program, what the rest of its program reads of it
/// (its summary and its nodes' types), where that changed. A host calls this after every
/// change it applies and before it answers anything; until it does, closed files see an open
/// file as it was last published. Types of nodes of open files can depend on closed files that
/// read published types, so this repeats until nothing changes; a file that has not settled
/// after [`MAX_ROUNDS`] is unpublished, and the program then reads its text directly (correct,
/// and re-validated on every keystroke). `settled`: what the host knows is done before this
/// change (see [`Settled`]); it holds for the first round only, and only when no file is
/// published for the first time, since a publication changes what the closed files read.
pub fn publish_open_files(db: &mut RootDatabase, settled: Settled) -> Publication {
    // Whether each program saw a change wider than keystrokes since its last publication:
    // decided once, before anything is written.
    let wide: FxHashMap<Program, bool> = pcl_db::workspace(db)
        .programs(db)
        .iter()
        .map(|&(_, program)| (program, by_name::wide_since_last_update(db, program)))
        .collect();
    // The open files' items first, from the texts as they are: what the nodes of open files
    // read of their files. An edit that moves to another item writes them at `MEDIUM` (see
    // `pcl_hir::sync_open_items`).
    let medium = db.last_changed(salsa::Durability::MEDIUM);
    pcl_hir::sync_open_items(db);
    let outcome = publish_rounds(db, settled, &wide, medium);
    for (_, program) in pcl_db::workspace(db).programs(db).clone() {
        by_name::mark_updated(db, program);
    }
    outcome
}

fn publish_rounds(
    db: &mut RootDatabase,
    settled: Settled,
    wide: &FxHashMap<Program, bool>,
    medium_at_entry: salsa::Revision,
) -> Publication {
    let mut outcome = Publication::Unchanged;
    let mut unsettled: Vec<SourceFile> = Vec::new();
    // Files opened since the last publication first say which of their nodes the closed files
    // see, before anything resolves a name (see `facts_if_changed`).
    let mut first: Vec<(SourceFile, Published)> = Vec::new();
    for (_, program) in pcl_db::workspace(db).programs(db).clone() {
        for &file in program.files(db) {
            if file.open(db)
                && published(db, file).is_none()
                && !first.iter().any(|(f, _)| *f == file)
            {
                if let Some(facts) = facts_if_changed(db, program, file, Settled::Nothing) {
                    first.push((file, Published(Some(Arc::new(facts)))));
                }
            }
        }
    }
    if !first.is_empty() {
        outcome = Publication::Changed;
        for (file, facts) in first {
            db.set_file_published(file, facts);
        }
    }
    // After a change wider than keystrokes (a file opened or closed, a file on disk changed,
    // a first publication), what the closed files read by name is brought up to date even if
    // no publication changed: it derives from the files on disk too.
    if (settled == Settled::Nothing || outcome == Publication::Changed) && update_facts(db, wide) {
        outcome = Publication::Changed;
    }
    // After keystrokes whose publication wrote `MEDIUM` inputs only, the closed results valid
    // before it are valid after it but for those that read what it wrote: walked again in
    // order at the start of each later round, so that the open files' nodes are typed taking
    // the closed files as done (rather than walking everything they reach), and so that the
    // host need not walk the program once more afterwards.
    let high_at_entry = db.last_changed(salsa::Durability::HIGH);
    for round in 0..=MAX_ROUNDS {
        // Before any node of an open file is typed in the round: a type computed while the
        // cycles were read as they are would keep their `LOW` durability (salsa keeps a
        // result's durability when what it read only backdates), even once the host writes
        // them. After a file's first publication, this is the round that writes them.
        sync_open_cycles(db);
        // After items or cycles were written at `MEDIUM`, the closed results that read
        // `MEDIUM` inputs are walked again in order first, as after a publication.
        let first_look = round == 0
            && outcome == Publication::Unchanged
            && db.last_changed(salsa::Durability::MEDIUM) == medium_at_entry;
        let mut changes: Vec<(SourceFile, Published)> = Vec::new();
        // Only `MEDIUM` inputs written since the closed files were last settled.
        let medium_only = settled == Settled::ClosedFiles
            && db.last_changed(salsa::Durability::HIGH) == high_at_entry;
        // Whether this round found the closed results of every program with an open file
        // valid (walked again where they read what was written).
        let mut in_order = medium_only;
        for (_, program) in pcl_db::workspace(db).programs(db).clone() {
            let has_open = program.files(db).iter().any(|f| f.open(db));
            let settled = if first_look {
                settled
            } else if medium_only && has_open && crate::program::infer_medium_closure(db, program) {
                Settled::ClosedFiles
            } else {
                in_order &= !has_open;
                Settled::Nothing
            };
            for &file in program.files(db) {
                if !file.open(db) {
                    if file.published(db).0.is_some() {
                        changes.push((file, Published::default()));
                    }
                    continue;
                }
                if changes.iter().any(|(f, _)| *f == file) {
                    continue; // a file in two programs: published for the first
                }
                if let Some(facts) = published(db, file) {
                    if facts.program != program {
                        continue;
                    }
                }
                if let Some(facts) = facts_if_changed(db, program, file, settled) {
                    if round == MAX_ROUNDS {
                        unsettled.push(file);
                    } else {
                        changes.push((file, Published(Some(Arc::new(facts)))));
                    }
                }
            }
        }
        if round == MAX_ROUNDS {
            break;
        }
        if changes.is_empty() {
            return match outcome {
                Publication::Changed if in_order => Publication::ChangedInOrder,
                outcome => outcome,
            };
        }
        outcome = Publication::Changed;
        for (file, facts) in changes {
            db.set_file_published(file, facts);
        }
        // What the closed files read by name follows the publications within the round, so
        // that the next round types the open files against it.
        update_facts(db, wide);
    }
    for file in unsettled {
        db.set_file_published(file, Published::default());
    }
    update_facts(db, wide);
    sync_open_cycles(db);
    outcome
}

/// [`update_program_facts`] for every program; whether anything was written.
fn update_facts(db: &mut RootDatabase, wide: &FxHashMap<Program, bool>) -> bool {
    let mut wrote = false;
    for (_, program) in pcl_db::workspace(db).programs(db).clone() {
        let wide = wide.get(&program).copied().unwrap_or(true);
        wrote |= update_program_facts(db, program, wide);
    }
    wrote
}

/// Whether some result of a file nobody has open may read an open file's text directly, not
/// through what its host published: when an open file belongs to a program that another
/// includes as a component (a component block reads its program's interface as the program
/// is), declares a hook (a resource reads its hook's kind from the hook's labels), or belongs
/// to two programs (it is published for the first only). Such a result has the open text's
/// `LOW` durability, and so do the results that use it, so after a keystroke they are walked
/// again, recursively: a host then takes nothing as settled ([`Settled`]) and counts every
/// change as wide, so that the files are checked again in dependency order.
pub fn closed_files_read_open_text(db: &RootDatabase) -> bool {
    let programs = pcl_db::workspace(db).programs(db);
    let mut open: Vec<(SourceFile, Program)> = Vec::new();
    for &(_, program) in programs {
        for &file in program.files(db) {
            if file.open(db) {
                if open.iter().any(|&(f, p)| f == file && p != program) {
                    return true;
                }
                open.push((file, program));
            }
        }
    }
    if open.is_empty() {
        return false;
    }
    let hook = open.iter().any(|&(file, program)| {
        file_summary(db, ProgramFile::new(db, program, file))
            .nodes
            .iter()
            .any(|node| node.kind == NodeKind::Hook)
    });
    // The program a component block reads, found as the block finds it.
    hook || programs.iter().any(|&(_, includer)| {
        crate::component::component_dirs(db, includer)
            .iter()
            .any(|dir| {
                crate::component::program_at(db, dir)
                    .is_some_and(|included| open.iter().any(|&(_, p)| p == included))
            })
    })
}

/// Whether the results of `program`'s closed files read its open files only through what
/// their hosts published: every open file of it publishes, and no closed file anywhere reads
/// an open file's text ([`closed_files_read_open_text`]).
pub(crate) fn closed_files_read_open_only_through_publications(
    db: &RootDatabase,
    program: Program,
) -> bool {
    program
        .files(db)
        .iter()
        .all(|&file| !file.open(db) || published_in(db, program, file).is_some())
        && !closed_files_read_open_text(db)
}

/// The facts of an open file, if they differ from what is published.
fn facts_if_changed(
    db: &RootDatabase,
    program: Program,
    file: SourceFile,
    settled: Settled,
) -> Option<OpenFileFacts> {
    let pf = ProgramFile::new(db, program, file);
    // A file published for the first time is published in two steps: first which of its
    // nodes the closed files see, from its text and the closed files alone; then what those
    // nodes reach and their types. Resolving a name or inferring a node before the first
    // step would compute the program's index from the file's text (`LOW`), and the results
    // of files on disk computed meanwhile would keep that durability: every keystroke would
    // walk them.
    if published(db, file).is_none() {
        let seen = seen_nodes_of(db, pf, false);
        return Some(OpenFileFacts {
            program,
            summary: seen.summary,
            ordered_types: Vec::new(),
        });
    }
    let seen = seen_nodes(db, pf);
    // Only their types are published: inferred dependencies first, so that no query recurses
    // through a long chain (the rest of the file is inferred when something asks about it).
    let computed;
    let ordered_types: &[Type] = match settled {
        Settled::ClosedFiles => published_types(db, pf),
        Settled::Nothing => {
            crate::infer_nodes_with(db, &seen.kept, settled);
            computed = seen
                .kept
                .iter()
                .map(|&n| crate::node_type(db, n))
                .collect::<Vec<Type>>();
            &computed
        }
    };
    if let Some(facts) = published(db, file) {
        if facts.summary == seen.summary && facts.ordered_types == ordered_types {
            return None;
        }
    }
    Some(OpenFileFacts {
        program,
        summary: seen.summary.clone(),
        ordered_types: ordered_types.to_vec(),
    })
}

/// The types of the nodes a publication of `pf` keeps ([`SeenNodes::kept`]), typed in
/// [`publication_order`]: a query, so that a keystroke that changes none of them re-validates
/// its edges in that order (no recursion through a chain) instead of fetching each type from
/// outside a query twice (the order, then the kept nodes), which was a sixth of a keystroke.
#[salsa::tracked(returns(ref))]
fn published_types<'db>(db: &'db dyn pcl_db::Db, pf: ProgramFile<'db>) -> Vec<Type> {
    // Once the open files have item inputs: the types of the nodes the edited items cannot
    // change come from one `MEDIUM` result, the others are typed in order.
    if let Some((settled, _)) = crate::program::settled_split(db, pf) {
        let kept = &seen_nodes(db, pf).kept;
        crate::program::infer_unsettled(db, pf.program(db), kept);
        return kept
            .iter()
            .map(|&n| match settled.type_of(db, pf, n) {
                Some(ty) => ty.clone(),
                None => crate::node_type(db, n),
            })
            .collect();
    }
    for &node in publication_order(db, pf) {
        crate::node_type(db, node);
    }
    seen_nodes(db, pf)
        .kept
        .iter()
        .map(|&n| crate::node_type(db, n))
        .collect()
}

/// What the files nobody has open see of an open file: the nodes whose names they use or
/// define, each with the names it reaches through the open files (what the cycle search
/// needs of the nodes left out), and their handles. Adding, deleting or renaming any other
/// node publishes nothing.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
struct SeenNodes<'db> {
    summary: FileSummary,
    kept: Vec<Node<'db>>,
}

/// [`SeenNodes`] of a file already published: a query, so that a keystroke that changes no
/// name re-validates it rather than walking the file's nodes again.
#[salsa::tracked(returns(ref))]
fn seen_nodes<'db>(db: &'db dyn pcl_db::Db, pf: ProgramFile<'db>) -> SeenNodes<'db> {
    seen_nodes_of(db, pf, true)
}

/// The nodes a publication of `pf` types, dependencies first, taking the closed files' nodes
/// as done ([`Settled::ClosedFiles`]): the nodes closed files see and the open files' nodes they
/// use ([`crate::program::open_order_from`]). A query, so that a keystroke that changes no name
/// re-validates the order rather than walking the open files' graphs again (an eighth of a
/// keystroke in a file of 700 nodes).
#[salsa::tracked(returns(ref))]
fn publication_order<'db>(db: &'db dyn pcl_db::Db, pf: ProgramFile<'db>) -> Vec<Node<'db>> {
    crate::program::open_order_from(db, &seen_nodes(db, pf).kept)
}

/// [`SeenNodes`], with what each node reaches when `reach_names`.
fn seen_nodes_of<'db>(
    db: &'db dyn pcl_db::Db,
    pf: ProgramFile<'db>,
    reach_names: bool,
) -> SeenNodes<'db> {
    let program = pf.program(db);
    let nodes = file_nodes(db, pf);
    let closed = closed_names(db, program);
    let own = file_summary(db, pf);
    let open_nodes = if reach_names {
        open_summary_nodes(db, program)
    } else {
        FxHashMap::default()
    };
    let mut seen = SeenNodes {
        summary: FileSummary {
            nodes: Vec::new(),
            packages: own.packages.clone(),
            component_sources: own.component_sources.clone(),
        },
        kept: Vec::new(),
    };
    // The summary lists the file's nodes in the order of `file_nodes`: the nodes kept are
    // found by position.
    debug_assert_eq!(own.nodes.len(), nodes.len());
    let mut lookups = FxHashMap::default();
    let mut lookup = OpenLookup::new(db, program);
    let mut scratch = ReachScratch::default();
    for (node, &handle) in own.nodes.iter().zip(nodes) {
        if !closed.contains(&node.name) {
            continue;
        }
        seen.kept.push(handle);
        seen.summary.nodes.push(SummaryNode {
            kind: node.kind,
            name: node.name.clone(),
            occurrence: node.occurrence,
            uses: if reach_names {
                reach(
                    node,
                    &open_nodes,
                    closed,
                    &mut lookups,
                    &mut lookup,
                    &mut scratch,
                )
            } else {
                Arc::default()
            },
        });
    }
    seen
}

/// The names the files nobody has open use or define: all that they can see of the open files.
#[salsa::tracked(returns(ref))]
fn closed_names(db: &dyn pcl_db::Db, program: Program) -> FxHashSet<Name> {
    let mut names = FxHashSet::default();
    for &file in program.files(db) {
        if file.open(db) {
            continue;
        }
        for node in &file_summary(db, ProgramFile::new(db, program, file)).nodes {
            // Cloned only when new: a name's clone writes its count (a cache miss per use in
            // a large program, most of an opened file's publication at 100,000 resources).
            for name in std::iter::once(&node.name).chain(node.uses.iter()) {
                if !names.contains(name) {
                    names.insert(name.clone());
                }
            }
        }
    }
    names
}

/// The nodes of the open files (as they are), by key.
fn open_summary_nodes(db: &dyn pcl_db::Db, program: Program) -> FxHashMap<NodeKey, &SummaryNode> {
    let mut out = FxHashMap::default();
    for &file in program.files(db) {
        if !file.open(db) {
            continue;
        }
        for node in &file_summary(db, ProgramFile::new(db, program, file)).nodes {
            let key = node.key(file);
            out.insert(key, node);
        }
    }
    out
}

/// The names closed files know (`closed`) that `start` uses directly or through nodes of open
/// files, in the order first reached: the edges the cycle search of a closed file needs of a
/// published node, with the nodes it does not see folded in.
///
/// `lookups` keeps what each name means in the open view, from one call to the next.
fn reach<'a>(
    node: &'a SummaryNode,
    open_nodes: &FxHashMap<NodeKey, &'a SummaryNode>,
    closed: &FxHashSet<Name>,
    lookups: &mut FxHashMap<&'a Name, Option<&'a NodeKey>>,
    lookup: &mut OpenLookup<'a>,
    scratch: &mut ReachScratch<'a>,
) -> Arc<[Name]> {
    let mut out: Vec<Name> = Vec::new();
    let ReachScratch {
        seen_names,
        visited,
        stack,
    } = scratch;
    seen_names.clear();
    visited.clear();
    // The open files' summary nodes are told apart by address: each is one entry of its
    // file's summary, which `open_nodes` lends too.
    visited.insert(node as *const SummaryNode);
    stack.clear();
    stack.push(node);
    while let Some(node) = stack.pop() {
        for name in node.uses.iter() {
            if closed.contains(name) {
                if seen_names.insert(name) {
                    out.push(name.clone());
                }
                continue;
            }
            // A name no closed file knows: a node of an open file, or nothing.
            let Some(target) = *lookups
                .entry(name)
                .or_insert_with(|| lookup.lookup_not_closed(name))
            else {
                continue;
            };
            if let Some(&next) = open_nodes.get(target) {
                if visited.insert(next as *const SummaryNode) {
                    stack.push(next);
                }
            }
        }
    }
    out.into()
}

/// What [`reach`] keeps from one node to the next (each call starts them empty).
#[derive(Default)]
struct ReachScratch<'a> {
    seen_names: FxHashSet<&'a Name>,
    visited: FxHashSet<*const SummaryNode>,
    stack: Vec<&'a SummaryNode>,
}

/// The later declarations in `file` of names declared before: (first, duplicate), as the
/// file's reader sees the program. A projection that backdates: renaming a node changes the
/// program's index, but not the duplicates of the files that do not declare the name, so
/// their edges are not joined again.
#[salsa::tracked(returns(ref))]
pub(crate) fn file_duplicates<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
) -> Vec<(NodeKey, NodeKey)> {
    let program = file.program(db);
    let this = file.file(db);
    match (View::of(db, this), program_facts(db, program)) {
        (View::Closed, Some(facts)) => closed_file_duplicates(db, file, facts),
        (View::Closed, None) => program_index(db, program)
            .duplicates
            .iter()
            .filter(|(_, duplicate)| duplicate.file == this)
            .cloned()
            .collect(),
        (View::Open, _) => {
            let mut lookup = OpenLookup::new(db, program);
            let mut duplicate_of = |node: &SummaryNode| {
                let space = namespace(node.kind)?;
                let key = node.key(this);
                let first = lookup.first(space, &node.name)?;
                (*first != key).then(|| (first.clone(), key))
            };
            match item_summary_nodes(db, file) {
                // An open file with item inputs: the items the user is not editing looked up
                // in one `MEDIUM` query (a lookup reads a bucket of the index: one result per
                // bucket re-validated after every keystroke otherwise).
                Some(items) => {
                    let mut settled = settled_duplicates(db, file).iter();
                    items
                        .into_iter()
                        .filter_map(|(edited, node)| match edited {
                            true => duplicate_of(node),
                            false => settled.next().cloned().flatten(),
                        })
                        .collect()
                }
                None => file_summary(db, file)
                    .nodes
                    .iter()
                    .filter_map(duplicate_of)
                    .collect(),
            }
        }
    }
}

/// [`file_duplicates`] of the items of an open file the user is not editing: for each, in
/// file order, the first declaration of its name when it is not the item's own.
#[salsa::tracked(returns(ref))]
fn settled_duplicates<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
) -> Vec<Option<(NodeKey, NodeKey)>> {
    let program = file.program(db);
    let this = file.file(db);
    let mut lookup = OpenLookup::new(db, program);
    settled_summary_nodes(db, file)
        .map(|node| {
            let space = namespace(node.kind)?;
            let key = node.key(this);
            let first = lookup.first(space, &node.name)?;
            (*first != key).then(|| (first.clone(), key))
        })
        .collect()
}

/// The cycles whose first node (in program order) is in `file`, as paths. A cycle a closed
/// file sees through an open file is spelled out from the open file's text (the published
/// facts fold the nodes the closed files do not see).
pub(crate) fn file_cycles(db: &dyn pcl_db::Db, file: ProgramFile<'_>) -> Vec<Vec<NodeKey>> {
    let program = file.program(db);
    let this = file.file(db);
    let in_this = |cycle: &&Vec<NodeKey>| cycle[0].file == this;
    match View::of(db, this) {
        View::Open => open_cycles(db, program)
            .cycles
            .iter()
            .filter(in_this)
            .cloned()
            .collect(),
        View::Closed => {
            if let Some(facts) = program_facts(db, program) {
                if !by_name::closed_file_on_cycle(db, file, facts) {
                    return Vec::new();
                }
            }
            let cycles = program_cycles(db, program);
            cycles
                .cycles
                .iter()
                .zip(&cycles.components)
                .filter(|(cycle, _)| in_this(cycle))
                .filter_map(|(cycle, component)| {
                    if component.iter().all(|key| !key.file.open(db)) {
                        return Some(cycle.clone());
                    }
                    // Its first node is the real cycle's first unless a node the closed files do
                    // not see comes before it; then the open file reports it.
                    let head = &cycle[0];
                    open_cycles(db, program)
                        .cycles
                        .iter()
                        .find(|real| real[0] == *head)
                        .cloned()
                })
                .collect()
        }
    }
}
