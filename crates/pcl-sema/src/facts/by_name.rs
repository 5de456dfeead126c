//! The publications of a program as its closed files read them: by name.
//!
//! What open files publish is one `MEDIUM` input per file, and everything derived from all of
//! them (the program's index, its cycles) changes with any of them. A reader in a closed file
//! that read those would be `MEDIUM` too, and after every publication (a rename of a node other
//! files use, a type they read changing) salsa would walk every such reader: in a program whose
//! open file others use widely, most of its nodes. So a closed reader reads instead what the
//! host writes here, per program ([`ProgramFacts`], in `Program::published`, `HIGH`) and per
//! name ([`NameSlot`]): which files are read through their publications, the packages the
//! program declares, and, for each name an open file declares (or whose nodes' cycles an open
//! file changes), what the name means, the types of its nodes in open files, its duplicates
//! and which of its nodes are on a cycle.
//!
//! A slot is written at the durability of the change that made it differ: `HIGH` with a change
//! of files on disk, opening or closing a file (which walks everything anyway), `MEDIUM` after
//! keystrokes. Salsa reports a write at the durability the input had, so the first keystroke
//! that changes a name still walks every `HIGH` result once; from then on the name's slot is
//! `MEDIUM`, its readers are, and a keystroke that changes it again walks them (and the
//! readers of the other names changed since the last wide change), not the program. The next
//! wide change writes those slots at `HIGH` again. A name gets a slot once (a `HIGH` write of
//! the program's facts): when an open file comes to declare a name the closed files know, or a
//! cycle through open files comes to include a node of a closed file.

use super::*;

/// `(name, version)` of the packages a program declares.
type Packages = Vec<(String, Option<String>)>;

/// What readers in the files nobody has open read of a program's publications, kept in the
/// program's input (`Program::published`, `HIGH`).
#[derive(Debug)]
pub(super) struct ProgramFacts {
    /// The files read through their publications, in program order.
    pub(super) publishing: Vec<SourceFile>,
    /// The packages the program declares, publications included ([`declared_packages`]).
    pub(super) packages: Packages,
    /// The directories its component blocks include, publications included
    /// (`component::included_dirs`): what every component block reads, through the
    /// inclusions of every program (a component block in a closed file read the open files'
    /// publications, so every file with one was `MEDIUM` and walked after every keystroke
    /// that wrote a `MEDIUM` input).
    pub(super) included: Vec<std::path::PathBuf>,
    /// The names whose meaning, duplicates or cycles the publications may change, each with
    /// the input that holds what they are now. A name keeps its slot once given one.
    pub(super) slots: FxHashMap<Name, NameSlot>,
    /// The host's own record (no query reads it).
    kept: std::sync::Mutex<Kept>,
}

/// What the host keeps of its last updates of a program's facts.
#[derive(Debug, Default)]
struct Kept {
    /// The slots last written at `MEDIUM`: written at `HIGH` again with the next wide change.
    medium: FxHashSet<Name>,
    /// The last revision with a `HIGH` change that the facts were brought up to date after.
    seen_high: Option<salsa::Revision>,
}

impl ProgramFacts {
    fn kept(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Whether a change since `program`'s facts were last brought up to date was wider than
/// keystrokes (a `HIGH` input changed): then what changes is written at `HIGH`.
pub(super) fn wide_since_last_update(db: &RootDatabase, program: Program) -> bool {
    let now = db.last_changed(salsa::Durability::HIGH);
    program_facts(db, program).is_none_or(|facts| facts.kept().seen_high != Some(now))
}

/// What publications make of one name, for readers in closed files (`MEDIUM`).
#[salsa::input(debug)]
pub(super) struct NameSlot {
    #[returns(ref)]
    pub(super) facts: NameFacts,
}

/// See [`NameSlot`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct NameFacts {
    /// Per namespace, when a publishing file declares the name there: its first declaration
    /// in the program (wherever it is). Otherwise the closed files' index answers.
    pub(super) first: [Option<NodeKey>; 2],
    /// The later declarations of the name in the namespaces of `first`: (first, duplicate).
    pub(super) duplicates: Vec<(NodeKey, NodeKey)>,
    /// The nodes with this name on a reference cycle of the program as closed files see it.
    pub(super) cycle_members: FxHashSet<NodeKey>,
    /// The types published for the nodes of open files with this name.
    pub(super) types: Vec<(NodeKey, Type)>,
}

/// The facts of `program` for its closed readers, once some file of it was published.
pub(super) fn program_facts(db: &dyn pcl_db::Db, program: Program) -> Option<&ProgramFacts> {
    program
        .published(db)
        .0
        .as_ref()?
        .downcast_ref::<ProgramFacts>()
}

/// The directories `program`'s component blocks include, as the host last wrote them
/// (`HIGH`); `None` when the program keeps no facts by name.
pub(crate) fn kept_included_dirs(
    db: &dyn pcl_db::Db,
    program: Program,
) -> Option<&[std::path::PathBuf]> {
    program_facts(db, program).map(|facts| facts.included.as_slice())
}

/// Whether `program` keeps facts for its closed readers by name (some file of it was
/// published).
pub(crate) fn keeps_facts_by_name(db: &dyn pcl_db::Db, program: Program) -> bool {
    program_facts(db, program).is_some()
}

/// The first declaration of `name` in namespace `space` as a closed reader sees `program`,
/// whose publications are kept by name (`facts`).
pub(super) fn first_for_closed<'a>(
    db: &'a dyn pcl_db::Db,
    program: Program,
    facts: &'a ProgramFacts,
    space: usize,
    name: &Name,
) -> Option<&'a NodeKey> {
    if let Some(slot) = facts.slots.get(name) {
        if let Some(first) = &slot.facts(db).first[space] {
            return Some(first);
        }
    }
    closed_bucket(db, program, bucket_of(name)).spaces[space].get(name)
}

/// One bucket of the closed files' index: backdates unless a name of the bucket changed.
#[salsa::tracked(returns(ref))]
pub(super) fn closed_bucket(db: &dyn pcl_db::Db, program: Program, bucket: u32) -> Arc<NameMaps> {
    closed_index(db, program).buckets[bucket as usize].clone()
}

/// The reference cycles among the files read as they are, their names resolved among them
/// alone: what a closed node whose name has no slot is part of.
#[salsa::tracked(returns(ref))]
pub(super) fn closed_cycles(db: &dyn pcl_db::Db, program: Program) -> ProgramCycles {
    if closed_graph(db, program).acyclic {
        return ProgramCycles::default();
    }
    cycles_of(&unpublished_summaries(db, program))
}

/// The type published for a node of an open file, for readers in closed files (`dynamic` once
/// it is no longer published).
pub(super) fn published_type_by_name(db: &dyn pcl_db::Db, open: OpenNode<'_>) -> Type {
    let key = open.key(db);
    program_facts(db, open.program(db))
        .and_then(|facts| facts.slots.get(&key.name))
        .and_then(|slot| {
            let types = &slot.facts(db).types;
            types
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, ty)| ty.clone())
        })
        .unwrap_or_else(Type::dynamic)
}

/// Whether `node`, of a file nobody has open, is on a reference cycle of `program`.
pub(super) fn closed_in_cycle(db: &dyn pcl_db::Db, program: Program, node: Node<'_>) -> bool {
    match program_facts(db, program) {
        Some(facts) => match facts.slots.get(node.name(db)) {
            Some(slot) => {
                let members = &slot.facts(db).cycle_members;
                !members.is_empty() && members.contains(&node.key(db))
            }
            None => closed_cycles(db, program).contains(db, node),
        },
        None => program_cycles(db, program).contains(db, node),
    }
}

/// The duplicates in `file`, a file nobody has open, of a program whose publications are kept
/// by name: the closed files' own, but for the names a publishing file declares, whose
/// duplicates their slots hold.
pub(super) fn closed_file_duplicates(
    db: &dyn pcl_db::Db,
    file: ProgramFile<'_>,
    facts: &ProgramFacts,
) -> Vec<(NodeKey, NodeKey)> {
    let program = file.program(db);
    let this = file.file(db);
    let overlaid = |key: &NodeKey| {
        let space = namespace(key.kind).unwrap_or(0);
        facts
            .slots
            .get(&key.name)
            .is_some_and(|slot| slot.facts(db).first[space].is_some())
    };
    let mut out: Vec<(NodeKey, NodeKey)> = closed_index(db, program)
        .duplicates
        .iter()
        .filter(|(_, duplicate)| duplicate.file == this && !overlaid(duplicate))
        .cloned()
        .collect();
    let mut seen: FxHashSet<&Name> = FxHashSet::default();
    for node in &file_summary(db, file).nodes {
        let Some(slot) = facts.slots.get(&node.name) else {
            continue;
        };
        if !seen.insert(&node.name) {
            continue;
        }
        out.extend(
            slot.facts(db)
                .duplicates
                .iter()
                .filter(|(_, duplicate)| duplicate.file == this)
                .cloned(),
        );
    }
    out
}

/// Brings what `program`'s closed readers read of its publications up to date with them
/// (after the host wrote publications): which files publish, then, from the program's index
/// and cycles with those publications, the packages and each name's slot. `wide`: whether
/// the change being published was wider than keystrokes ([`wide_since_last_update`], asked
/// once per publication). Returns whether it wrote anything. A program none of whose files
/// was ever published keeps no facts: its readers read the index and cycles directly.
pub(super) fn update_program_facts(db: &mut RootDatabase, program: Program, wide: bool) -> bool {
    let publishing: Vec<SourceFile> = program
        .files(db)
        .iter()
        .copied()
        .filter(|&file| published_in(db, program, file).is_some())
        .collect();
    let mut wrote = false;
    // Which files publish first: the index and the cycles below read it.
    match program_facts(db, program) {
        None if publishing.is_empty() => return false,
        Some(facts) if facts.publishing == publishing => {}
        old => {
            let facts = ProgramFacts {
                publishing,
                packages: old.map(|f| f.packages.clone()).unwrap_or_default(),
                included: old.map(|f| f.included.clone()).unwrap_or_default(),
                slots: old.map(|f| f.slots.clone()).unwrap_or_default(),
                kept: std::sync::Mutex::new(
                    old.map(|f| std::mem::take(&mut *f.kept()))
                        .unwrap_or_default(),
                ),
            };
            db.set_program_published(program, Published(Some(Arc::new(facts))));
            wrote = true;
        }
    }
    let (packages, mut wanted) = wanted_facts(db, program);
    let included = crate::component::included_dirs_of(db, program);
    let facts = program_facts(db, program).expect("set above");
    let new: Vec<Name> = wanted
        .keys()
        .filter(|name| !facts.slots.contains_key(*name))
        .cloned()
        .collect();
    if !new.is_empty() || facts.packages != packages || facts.included != included {
        let mut slots = facts.slots.clone();
        let publishing = facts.publishing.clone();
        // New slots are `HIGH`: they come with this write of the program's facts, which is.
        for name in new {
            let slot = NameSlot::builder(wanted.get(&name).cloned().unwrap_or_default())
                .durability(salsa::Durability::HIGH)
                .new(db);
            slots.insert(name, slot);
        }
        let kept = std::mem::take(&mut *facts.kept());
        let facts = ProgramFacts {
            publishing,
            packages,
            included,
            slots,
            kept: std::sync::Mutex::new(kept),
        };
        db.set_program_published(program, Published(Some(Arc::new(facts))));
        wrote = true;
    }
    let facts = program_facts(db, program).expect("set above");
    let mut kept = std::mem::take(&mut *facts.kept());
    // A wide change writes the slots last written at `MEDIUM` at `HIGH` again, changed or
    // not, so that their readers, run again in the walk that follows it anyway, are `HIGH`.
    let changed: Vec<(NameSlot, NameFacts)> = facts
        .slots
        .iter()
        .filter_map(|(name, &slot)| {
            let want = wanted.remove(name).unwrap_or_default();
            let again = wide && kept.medium.contains(name);
            (again || *slot.facts(db) != want).then(|| {
                if !wide {
                    kept.medium.insert(name.clone());
                }
                (slot, want)
            })
        })
        .collect();
    if wide {
        kept.medium.clear();
    }
    let durability = if wide {
        salsa::Durability::HIGH
    } else {
        salsa::Durability::MEDIUM
    };
    for (slot, want) in changed {
        use salsa::Setter;
        slot.set_facts(db).with_durability(durability).to(want);
        wrote = true;
    }
    let facts = program_facts(db, program).expect("set above");
    *facts.kept() = kept;
    wrote
}

/// Records that `program`'s facts are up to date with every `HIGH` change so far (at the end
/// of a publication).
pub(super) fn mark_updated(db: &RootDatabase, program: Program) {
    if let Some(facts) = program_facts(db, program) {
        facts.kept().seen_high = Some(db.last_changed(salsa::Durability::HIGH));
    }
}

/// The packages `program` declares and, by name, what each name that needs a slot (or has
/// one) should hold, from the program's index and cycles as closed files see them.
fn wanted_facts(db: &RootDatabase, program: Program) -> (Packages, FxHashMap<Name, NameFacts>) {
    let packages = packages_of(db, program);
    let mut wanted: FxHashMap<Name, NameFacts> = FxHashMap::default();
    let index = program_index(db, program);
    for bucket in &index.buckets {
        for (space, names) in bucket.published.spaces.iter().enumerate() {
            for (name, first) in names {
                wanted.entry(name.clone()).or_default().first[space] = Some(first.clone());
            }
        }
    }
    for (first, duplicate) in &index.duplicates {
        let space = namespace(duplicate.kind).unwrap_or(0);
        if let Some(facts) = wanted.get_mut(&duplicate.name) {
            if facts.first[space].is_some() {
                facts.duplicates.push((first.clone(), duplicate.clone()));
            }
        }
    }
    // A node whose membership of a cycle is not what the closed files alone make it needs its
    // name's slot; every name with a slot holds all its nodes on cycles.
    let cycles = program_cycles(db, program);
    let own = closed_cycles(db, program);
    for key in cycles.members.symmetric_difference(&own.members) {
        wanted.entry(key.name.clone()).or_default();
    }
    if let Some(facts) = program_facts(db, program) {
        for name in facts.slots.keys() {
            wanted.entry(name.clone()).or_default();
        }
    }
    for key in &cycles.members {
        if let Some(facts) = wanted.get_mut(&key.name) {
            facts.cycle_members.insert(key.clone());
        }
    }
    for &file in program.files(db) {
        let Some(published) = published_in(db, program, file) else {
            continue;
        };
        for (node, ty) in published.summary.nodes.iter().zip(&published.ordered_types) {
            if let Some(facts) = wanted.get_mut(&node.name) {
                facts.types.push((node.key(file), ty.clone()));
            }
        }
    }
    (packages, wanted)
}

/// Whether `file`, a file nobody has open, has a node on a reference cycle of `program`
/// (whose publications are kept by name): read from the slots of its names and the closed
/// files' own cycles, so that a file with no node on a cycle reads nothing the publications
/// change (the cycles' paths do).
pub(super) fn closed_file_on_cycle(
    db: &dyn pcl_db::Db,
    file: ProgramFile<'_>,
    facts: &ProgramFacts,
) -> bool {
    let this = file.file(db);
    let own = closed_cycles(db, file.program(db));
    file_summary(db, file).nodes.iter().any(|node| {
        let in_slot = facts
            .slots
            .get(&node.name)
            .map(|slot| &slot.facts(db).cycle_members);
        let members = in_slot.unwrap_or(&own.members);
        !members.is_empty() && members.contains(&node.key(this))
    })
}

/// The closed files' nodes and who uses each name among them: what the walk after a
/// keystroke that wrote slots at `MEDIUM` follows ([`medium_closure`]). Built again only when
/// a file on disk changes or a file opens or closes.
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub(crate) struct ClosedUses {
    /// Each node of a closed file.
    nodes: Vec<ClosedNode>,
    /// Names by number.
    names: FxHashMap<Name, u32>,
    /// Per name's number, the nodes that use it, as a range of `users`.
    user_ranges: Vec<(u32, u32)>,
    users: Vec<u32>,
}

/// A node of [`ClosedUses`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ClosedNode {
    /// Its file's position in the program, and its position in the file.
    place: (u32, u32),
    /// Its name's number.
    name: u32,
    /// Whether its type is read from its body: all but the resources and reads without
    /// `range`, typed from their schemas.
    typed_by_body: bool,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn closed_uses(db: &dyn pcl_db::Db, program: Program) -> ClosedUses {
    let mut out = ClosedUses::default();
    // (name, user), then sorted by name.
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let number = |names: &mut FxHashMap<Name, u32>, name: &Name| -> u32 {
        // Cloned only when new: a name's clone writes its count.
        if let Some(&number) = names.get(name) {
            return number;
        }
        let next = names.len() as u32;
        names.insert(name.clone(), next);
        next
    };
    for (f, &file) in program.files(db).iter().enumerate() {
        let pf = ProgramFile::new(db, program, file);
        if read_as_published(db, pf) {
            continue;
        }
        let nodes = file_nodes(db, pf);
        for (i, node) in file_summary(db, pf).nodes.iter().enumerate() {
            let g = out.nodes.len() as u32;
            let typed_by_body = match node.kind {
                NodeKind::Resource | NodeKind::Read => nodes
                    .get(i)
                    .is_none_or(|n| n.body(db).range_option().is_some()),
                _ => true,
            };
            let name = number(&mut out.names, &node.name);
            out.nodes.push(ClosedNode {
                place: (f as u32, i as u32),
                name,
                typed_by_body,
            });
            for used in node.uses.iter() {
                pairs.push((number(&mut out.names, used), g));
            }
        }
    }
    pairs.sort_unstable();
    out.user_ranges = vec![(0, 0); out.names.len()];
    for (at, &(name, user)) in pairs.iter().enumerate() {
        let range = &mut out.user_ranges[name as usize];
        if range.1 == range.0 {
            *range = (at as u32, at as u32);
        }
        range.1 = at as u32 + 1;
        out.users.push(user);
    }
    out
}

/// The nodes of the closed files whose results may be `MEDIUM` (each as its file's position
/// and its position in the file): those that read the slot of a name written at `MEDIUM`
/// since the last wide change (they use it, or are named by it), and, through types read from
/// bodies, the nodes that use them. (Component blocks read the inclusions of every program
/// from the programs' facts, `HIGH`, like the packages.) After keystrokes only, the rest are
/// valid as they are (`HIGH`), and only these can be walked recursively, so a walk of these in
/// dependency order is as safe as a walk of every node. `None`: no facts kept by name.
pub(crate) fn medium_closure(
    db: &dyn pcl_db::Db,
    program: Program,
) -> Option<FxHashSet<(u32, u32)>> {
    let facts = program_facts(db, program)?;
    let medium: Vec<Name> = facts.kept().medium.iter().cloned().collect();
    let mut out = FxHashSet::default();
    let uses = closed_uses(db, program);
    let mut reached = vec![false; uses.nodes.len()];
    let mut stack: Vec<u32> = Vec::new();
    let users = |name: u32| {
        let (start, end) = uses.user_ranges[name as usize];
        &uses.users[start as usize..end as usize]
    };
    let mut reach = |g: u32, stack: &mut Vec<u32>| {
        if !std::mem::replace(&mut reached[g as usize], true) {
            stack.push(g);
        }
    };
    let numbers: FxHashSet<u32> = medium
        .iter()
        .filter_map(|n| uses.names.get(n).copied())
        .collect();
    for (g, node) in uses.nodes.iter().enumerate() {
        if numbers.contains(&node.name) {
            reach(g as u32, &mut stack);
        }
    }
    for &name in &numbers {
        for &g in users(name) {
            reach(g, &mut stack);
        }
    }
    while let Some(g) = stack.pop() {
        let node = uses.nodes[g as usize];
        out.insert(node.place);
        if node.typed_by_body {
            for &user in users(node.name) {
                reach(user, &mut stack);
            }
        }
    }
    Some(out)
}
