//! The global hash-consing table behind [`Type`], and how types are reclaimed.
//!
//! # Interning
//!
//! A [`Type`] is an `Arc` of a [`TypeData`]: the [`TypeKind`], its hash, and the *groups* it
//! reaches (below). Every node except the six builtin singletons is registered in a sharded
//! table by hash, as a `Weak`. Interning a kind looks for a live node with an equal kind
//! (`Weak::upgrade` fails for a node whose last handle is being dropped; such an entry counts
//! as absent) and otherwise creates one. When the last handle of a node goes away, the node
//! removes its own entry (only its own: the key may have been re-interned meanwhile by a new
//! node). No node is ever dropped while a shard lock is held: nodes upgraded during a lookup
//! that turn out not to match are dropped after the lock is released, and a node's children
//! are dropped through a per-thread queue, so dropping a deep type does not recurse either.
//!
//! # Deferred objects and groups
//!
//! A deferred object has a [`DeferredKey`]: the table finds it by key, so creating it again
//! while it is alive gives the same object. Deferred objects can form cycles
//! (`T = { next: T? }`), which reference counting alone never frees. So every deferred object
//! belongs to the *group* of its key's namespace, and each group counts its *external*
//! references exactly:
//!
//! * every `Type` value that is not stored inside a node (a *free* handle) counts once for
//!   each group its node reaches (a structural node reaches the groups of its children, up
//!   to and including deferred objects; a deferred object reaches its own group only);
//! * a group whose objects' properties reach another group holds one *dependency* on it,
//!   which counts as one reference.
//!
//! Handles stored inside nodes (children, properties) are *owned* and not counted: moving a
//! free handle into a node releases its count, and a node that is dropped turns its children
//! back into free handles before dropping them. So when a group's count drops to zero, no
//! handle outside the group's own objects reaches them: nothing can read them any more, and
//! the only way to get at them again, looking one up by key, refuses a dead group. The group
//! is then marked dead and *collected*: the properties of each of its objects are taken out,
//! which breaks every cycle through them, and everything they held is dropped normally.
//!
//! Groups that depend on each other (two packages whose types refer to each other) keep each
//! other's counts above zero. When a group has no free handles left but still has dependents,
//! the groups in its cycle of dependencies are examined together: if every one of them is
//! referenced only from the others, they are frozen (a lookup by key waits; a handle created
//! meanwhile marks the group dirty), checked again, and collected together.
//!
//! This counting is exact, not a snapshot of reference counts taken while other threads move
//! handles around, so a group is never collected while a thread can still reach it.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{fence, AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};

use rustc_hash::{FxHashMap, FxHasher};

use crate::kinds::{Type, TypeKind};

/// Locks a mutex, ignoring poisoning: every structure behind these locks stays consistent
/// when a panic unwinds through code that holds one (each is updated in one step).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

// ---- never freed ------------------------------------------------------------------------

/// Set once by [`never_free`], never cleared.
static NEVER_FREE: AtomicBool = AtomicBool::new(false);

/// From now on, for the rest of the process, no type is freed: copying or dropping a handle
/// writes no count, neither the node's nor its groups'. For a process that checks once and
/// exits (`pcl check`): both threads copy the handles of the same schema types (a resource's
/// output type, each property read from it), and every copy and drop wrote the node's count
/// and its package's group's count, so the two cores traded the cache lines that hold them.
/// A server, whose types come and go with every edit, must not call it.
pub fn never_free() {
    NEVER_FREE.store(true, Ordering::Relaxed);
}

/// Whether [`never_free`] was called.
pub(crate) fn never_freed() -> bool {
    NEVER_FREE.load(Ordering::Relaxed)
}

// ---- statistics ------------------------------------------------------------------------

static LIVE_TYPES: AtomicUsize = AtomicUsize::new(0);
static LIVE_DEFERRED: AtomicUsize = AtomicUsize::new(0);
static LIVE_GROUPS: AtomicUsize = AtomicUsize::new(0);
static COLLECTED_GROUPS: AtomicUsize = AtomicUsize::new(0);

/// Counts of what the type interner holds, from [`interner_stats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct InternerStats {
    /// Types alive (structural and deferred), not counting the builtin singletons.
    pub live_types: usize,
    /// Deferred objects alive (included in `live_types`).
    pub live_deferred: usize,
    /// Namespaces of deferred objects alive (one group per namespace; a namespace whose
    /// objects were collected and then created again counts once per generation alive).
    pub live_namespaces: usize,
    /// Groups collected since the process started (dead namespaces, cycles freed).
    pub collected_namespaces: usize,
}

/// What the interner holds right now. Cheap: it reads a few counters.
pub fn interner_stats() -> InternerStats {
    InternerStats {
        live_types: LIVE_TYPES.load(Ordering::Relaxed),
        live_deferred: LIVE_DEFERRED.load(Ordering::Relaxed),
        live_namespaces: LIVE_GROUPS.load(Ordering::Relaxed),
        collected_namespaces: COLLECTED_GROUPS.load(Ordering::Relaxed),
    }
}

// ---- nodes -----------------------------------------------------------------------------

/// What a [`Type`] points to.
pub(crate) struct TypeData {
    kind: TypeKind,
    hash: u64,
    /// The groups this node reaches, each once (empty for most types).
    groups: Box<[Arc<Group>]>,
    /// False for the builtin singletons, which live in statics and are not in the table.
    tabled: bool,
    /// Whether a literal type is part of this one outside deferred objects: what
    /// `Type::has_literal_parts` answers, fixed when the node is made.
    literal_parts: bool,
    /// The eventuals this type reaches (`eventuals::reach`): set when the node is made if it
    /// reaches no deferred object, else by the first scan that meets no undefined object.
    eventuals: AtomicU8,
    /// The key unions sort this type by (`Type::union_sort_key`), made when first asked: it
    /// depends on the type alone (a deferred object stands in it for itself, by name).
    sort_key: OnceLock<Box<crate::kinds::UnionSortKey>>,
}

impl TypeData {
    pub(crate) fn builtin(kind: TypeKind) -> TypeData {
        TypeData {
            kind,
            hash: 0,
            groups: Box::new([]),
            tabled: false,
            literal_parts: false,
            eventuals: AtomicU8::new(crate::eventuals::KNOWN),
            sort_key: OnceLock::new(),
        }
    }

    /// A node of the table, with the facts about its parts that are known from them alone.
    fn tabled(kind: TypeKind, hash: u64, groups: Box<[Arc<Group>]>) -> TypeData {
        let literal_parts = kind.has_literal_parts();
        let eventuals = if groups.is_empty() {
            crate::eventuals::reach_of_parts(&kind)
        } else {
            0
        };
        TypeData {
            kind,
            hash,
            groups,
            tabled: true,
            literal_parts,
            eventuals: AtomicU8::new(eventuals),
            sort_key: OnceLock::new(),
        }
    }

    pub(crate) fn literal_parts(&self) -> bool {
        self.literal_parts
    }

    pub(crate) fn eventuals(&self) -> &AtomicU8 {
        &self.eventuals
    }

    pub(crate) fn sort_key(&self) -> &OnceLock<Box<crate::kinds::UnionSortKey>> {
        &self.sort_key
    }

    pub(crate) fn kind(&self) -> &TypeKind {
        &self.kind
    }

    /// Whether this is one of the builtin singletons, which live as long as the process.
    pub(crate) fn is_builtin(&self) -> bool {
        !self.tabled
    }

    pub(crate) fn groups(&self) -> &[Arc<Group>] {
        &self.groups
    }
}

impl Drop for TypeData {
    fn drop(&mut self) {
        if !self.tabled {
            return;
        }
        LIVE_TYPES.fetch_sub(1, Ordering::Relaxed);
        let me = self as *const TypeData;
        // The entry is ours only if it still points here: a lookup that found this node
        // dying may already have interned the same kind again.
        let removed = {
            let mut table = lock(shard(self.hash));
            remove_entry(&mut table, self.hash, me)
        };
        drop(removed);
        if let TypeKind::Object(object) = &self.kind {
            if object.deferred().is_some() {
                LIVE_DEFERRED.fetch_sub(1, Ordering::Relaxed);
                if let Some(group) = self.groups.first() {
                    let removed = lock(&group.objects).remove(&(me as usize));
                    drop(removed);
                }
            }
        }
        // The children were owned by this node: they become free handles again, and are
        // dropped from the queue (not recursively).
        self.kind
            .for_each_owned(&mut |child| child.acquire_groups());
        let kind = std::mem::replace(&mut self.kind, TypeKind::Dynamic);
        schedule(Work::Drop(kind));
    }
}

fn hash_of(kind: &TypeKind) -> u64 {
    let mut hasher = FxHasher::default();
    kind.hash(&mut hasher);
    hasher.finish()
}

// ---- the table ---------------------------------------------------------------------------

/// The nodes with one hash: almost always one.
enum Bucket {
    One(Weak<TypeData>),
    Many(Vec<Weak<TypeData>>),
}

impl Bucket {
    fn entries(&self) -> &[Weak<TypeData>] {
        match self {
            Bucket::One(entry) => std::slice::from_ref(entry),
            Bucket::Many(entries) => entries,
        }
    }

    fn push(&mut self, entry: Weak<TypeData>) {
        match self {
            Bucket::One(_) => {
                let Bucket::One(first) = std::mem::replace(self, Bucket::Many(Vec::new())) else {
                    unreachable!("matched above")
                };
                *self = Bucket::Many(vec![first, entry]);
            }
            Bucket::Many(entries) => entries.push(entry),
        }
    }
}

type Table = FxHashMap<u64, Bucket>;

/// Sharded so that concurrent binders rarely contend on one lock.
const SHARD_BITS: u32 = 5;

fn shard(hash: u64) -> &'static Mutex<Table> {
    static TABLE: OnceLock<[Mutex<Table>; 1 << SHARD_BITS]> = OnceLock::new();
    let shards = TABLE.get_or_init(|| std::array::from_fn(|_| Mutex::new(Table::default())));
    &shards[(hash >> (64 - SHARD_BITS)) as usize]
}

fn insert_entry(table: &mut Table, hash: u64, entry: Weak<TypeData>) {
    match table.get_mut(&hash) {
        Some(bucket) => bucket.push(entry),
        None => {
            table.insert(hash, Bucket::One(entry));
        }
    }
}

/// Removes the entry of the node at `me`, returning it so that it is dropped after the lock.
fn remove_entry(table: &mut Table, hash: u64, me: *const TypeData) -> Option<Weak<TypeData>> {
    let bucket = table.get_mut(&hash)?;
    let removed = match bucket {
        Bucket::One(entry) if std::ptr::eq(entry.as_ptr(), me) => table.remove(&hash).map(|b| {
            let Bucket::One(entry) = b else {
                unreachable!("matched above")
            };
            entry
        }),
        Bucket::One(_) => None,
        Bucket::Many(entries) => {
            let index = entries.iter().position(|e| std::ptr::eq(e.as_ptr(), me))?;
            let entry = entries.swap_remove(index);
            if entries.len() == 1 {
                let last = entries.pop().expect("one entry left");
                *bucket = Bucket::One(last);
            } else if entries.is_empty() {
                table.remove(&hash);
            }
            Some(entry)
        }
    };
    // Keep the table's memory proportional to what is alive.
    if table.capacity() > 64 && table.len() * 4 < table.capacity() {
        table.shrink_to_fit();
    }
    removed
}

/// Interns a structural kind (or returns a builtin).
pub(crate) fn intern(kind: TypeKind) -> Type {
    if let Some(builtin) = Type::builtin_for(&kind) {
        return builtin;
    }
    let hash = hash_of(&kind);
    let mut kind = Some(kind);
    // Nodes upgraded during the lookup that do not match: dropped after the lock (one of
    // them may be the last handle of its node, whose drop locks a shard).
    let mut graveyard: Vec<Arc<TypeData>> = Vec::new();
    let found = {
        let mut table = lock(shard(hash));
        let probe = kind.as_ref().expect("kept until used");
        let mut found = None;
        if let Some(bucket) = table.get(&hash) {
            for entry in bucket.entries() {
                if never_freed() {
                    // No count is written any more, so none reaches zero: a node alive now
                    // stays alive, and a handle to it needs no count of its own.
                    if entry.strong_count() > 0 {
                        // SAFETY: the node is alive (above) and, with no count ever given
                        // back, stays so for the rest of the process.
                        let node =
                            std::mem::ManuallyDrop::new(unsafe { Arc::from_raw(entry.as_ptr()) });
                        if node.kind == *probe {
                            found = Some(std::mem::ManuallyDrop::into_inner(node));
                            break;
                        }
                    }
                    continue;
                }
                if let Some(node) = entry.upgrade() {
                    if node.kind == *probe {
                        found = Some(node);
                        break;
                    }
                    graveyard.push(node);
                }
            }
        }
        match found {
            Some(node) => Ok(node),
            None => {
                let mut kind = kind.take().expect("kept until used");
                let groups = groups_of(&kind);
                // The handle returned counts for the groups before the children stop
                // counting, so no count passes through zero.
                for group in &groups {
                    group.acquire();
                }
                kind.mark_children_owned();
                let node = Arc::new(TypeData::tabled(kind, hash, groups.into_boxed_slice()));
                LIVE_TYPES.fetch_add(1, Ordering::Relaxed);
                insert_entry(&mut table, hash, Arc::downgrade(&node));
                Err(node)
            }
        }
    };
    drop(graveyard);
    match found {
        Ok(node) => {
            // Counted before `kind` (whose children keep the groups alive) is dropped.
            for group in node.groups() {
                group.acquire();
            }
            drop(kind);
            Type::from_data(node)
        }
        Err(node) => {
            // The children moved into the node: they are owned now.
            node.kind
                .for_each_structural_child(&mut |child| child.release_groups());
            Type::from_data(node)
        }
    }
}

/// The groups the children of a structural kind reach, each once.
fn groups_of(kind: &TypeKind) -> Vec<Arc<Group>> {
    let mut groups: Vec<Arc<Group>> = Vec::new();
    kind.for_each_structural_child(&mut |child| add_groups(&mut groups, child));
    groups
}

fn add_groups(groups: &mut Vec<Arc<Group>>, ty: &Type) {
    for group in ty.data().groups() {
        if !groups.iter().any(|g| Arc::ptr_eq(g, group)) {
            groups.push(group.clone());
        }
    }
}

/// Finds the deferred object with the kind's key, or creates it from `kind` (a deferred
/// object kind). A found object keeps its own strictness, annotations and properties.
pub(crate) fn intern_deferred(kind: TypeKind) -> Type {
    let hash = hash_of(&kind);
    let namespace = match &kind {
        TypeKind::Object(object) => object.deferred_key().map_or(0, |key| key.namespace),
        _ => 0,
    };
    let mut kind = Some(kind);
    loop {
        let group = group_for(namespace);
        let mut graveyard: Vec<Arc<TypeData>> = Vec::new();
        let outcome = {
            let mut table = lock(shard(hash));
            let probe = kind.as_ref().expect("kept until used");
            match find_live_deferred(&table, hash, probe, &mut graveyard) {
                Some(node) => Some(Ok(node)),
                None if group.try_acquire() => {
                    let mut kind = kind.take().expect("kept until used");
                    kind.mark_children_owned();
                    let node = Arc::new(TypeData::tabled(kind, hash, Box::new([group.clone()])));
                    LIVE_TYPES.fetch_add(1, Ordering::Relaxed);
                    LIVE_DEFERRED.fetch_add(1, Ordering::Relaxed);
                    insert_entry(&mut table, hash, Arc::downgrade(&node));
                    lock(&group.objects).insert(Arc::as_ptr(&node) as usize, Arc::downgrade(&node));
                    Some(Err(node))
                }
                // The group died since it was looked up: take the next generation.
                None => None,
            }
        };
        drop(graveyard);
        match outcome {
            Some(Ok(node)) => {
                drop(kind);
                return Type::from_data(node);
            }
            Some(Err(node)) => {
                let created = Type::from_data(node);
                let mut owned: Vec<&Type> = Vec::new();
                created
                    .kind()
                    .for_each_owned(&mut |child| owned.push(child));
                own_into(&group, &owned);
                return created;
            }
            None => continue,
        }
    }
}

/// Scans the bucket of `hash` for a live deferred object equal to `kind` whose group is alive,
/// and acquires its group. Nodes upgraded on the way that do not match go to `graveyard`, to be
/// dropped once the shard lock is released.
fn find_live_deferred(
    table: &Table,
    hash: u64,
    kind: &TypeKind,
    graveyard: &mut Vec<Arc<TypeData>>,
) -> Option<Arc<TypeData>> {
    for entry in table.get(&hash)?.entries() {
        if let Some(node) = entry.upgrade() {
            // A dead group's objects are as good as gone: nothing can reach them.
            if node.kind == *kind && node.groups()[0].try_acquire() {
                return Some(node);
            }
            graveyard.push(node);
        }
    }
    None
}

/// A live deferred object with this key, if there is one.
pub(crate) fn find_deferred(kind: &TypeKind) -> Option<Type> {
    let hash = hash_of(kind);
    let mut graveyard: Vec<Arc<TypeData>> = Vec::new();
    let found = {
        let table = lock(shard(hash));
        find_live_deferred(&table, hash, kind, &mut graveyard)
    };
    drop(graveyard);
    found.map(Type::from_data)
}

/// `types` have just been moved into an object of `group` (its properties or origin): the
/// group now depends on every other group they reach, and they stop counting as free.
pub(crate) fn own_into(group: &Arc<Group>, types: &[&Type]) {
    let mut foreign: Vec<Arc<Group>> = Vec::new();
    for ty in types {
        add_groups(&mut foreign, ty);
    }
    foreign.retain(|g| !Arc::ptr_eq(g, group));
    if !foreign.is_empty() {
        let _graph = lock(dependency_lock());
        let mut deps = lock(&group.deps);
        for other in &foreign {
            if !deps.iter().any(|d| Arc::ptr_eq(d, other)) {
                other.acquire();
                other.dependents.fetch_add(1, Ordering::Relaxed);
                group.has_deps.store(true, Ordering::Relaxed);
                deps.push(other.clone());
            }
        }
    }
    // (`foreign` is dropped here, after the locks: no group is dropped under them.)
    drop(foreign);
    for ty in types {
        ty.release_groups();
    }
}

// ---- groups ------------------------------------------------------------------------------

/// The group has been collected (or is being): its objects are unreachable.
const DEAD: usize = 1 << (usize::BITS - 1);
/// A cycle of groups is being checked: lookups by key wait.
const FREEZING: usize = 1 << (usize::BITS - 2);
/// A handle was created while the group was frozen: the check fails.
const DIRTY: usize = 1 << (usize::BITS - 3);
const FLAGS: usize = DEAD | FREEZING | DIRTY;

/// The deferred objects of one namespace (one generation of it: once a group is dead, new
/// objects of its namespace go to a new group).
pub(crate) struct Group {
    namespace: u64,
    /// Free handles reaching the group, plus groups depending on it; and the flags above.
    ext: AtomicUsize,
    /// How many groups depend on this one (changed under the dependency lock).
    dependents: AtomicUsize,
    /// Whether this group depends on another (only such a group can be in a cycle).
    has_deps: AtomicBool,
    /// The group's deferred objects alive, by address.
    objects: Mutex<FxHashMap<usize, Weak<TypeData>>>,
    /// The groups this one depends on (changed under the dependency lock).
    deps: Mutex<Vec<Arc<Group>>>,
}

impl Group {
    fn new(namespace: u64) -> Group {
        LIVE_GROUPS.fetch_add(1, Ordering::Relaxed);
        Group {
            namespace,
            ext: AtomicUsize::new(0),
            dependents: AtomicUsize::new(0),
            has_deps: AtomicBool::new(false),
            objects: Mutex::new(FxHashMap::default()),
            deps: Mutex::new(Vec::new()),
        }
    }

    /// A new free handle made from an existing one (or a dependency, or an owned handle
    /// turned free): the count cannot be zero, and the group cannot be dead.
    pub(crate) fn acquire(&self) {
        // Once nothing is freed, no group is collected: its count no longer matters.
        if never_freed() {
            return;
        }
        let previous = self.ext.fetch_add(1, Ordering::Relaxed);
        if previous & FREEZING != 0 {
            // Only while still frozen: a check that thawed the group meanwhile has cleared
            // its flags, and a DIRTY left behind without FREEZING would make every later
            // release and cycle check treat the group as busy, so it would never be freed.
            let _ = self
                .ext
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |current| {
                    (current & FREEZING != 0).then_some(current | DIRTY)
                });
        }
    }

    /// A new free handle found by key: fails if the group is dead, waits while it is frozen.
    fn try_acquire(&self) -> bool {
        if never_freed() {
            return !self.is_dead();
        }
        let mut current = self.ext.load(Ordering::Acquire);
        loop {
            if current & DEAD != 0 {
                return false;
            }
            if current & FREEZING != 0 {
                std::thread::yield_now();
                current = self.ext.load(Ordering::Acquire);
                continue;
            }
            match self.ext.compare_exchange_weak(
                current,
                current + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return true,
                Err(actual) => current = actual,
            }
        }
    }

    /// A free handle (or a dependency) goes away.
    pub(crate) fn release(self: &Arc<Self>) {
        if never_freed() {
            return;
        }
        let previous = self.ext.fetch_sub(1, Ordering::Release);
        let now = previous.wrapping_sub(1);
        if now & FLAGS != 0 {
            // Dead, or being checked by the cycle collector, which decides.
            return;
        }
        if now == 0 {
            fence(Ordering::Acquire);
            if self
                .ext
                .compare_exchange(0, DEAD, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                schedule(Work::Collect(self.clone()));
            }
        } else if self.has_deps.load(Ordering::Relaxed)
            && now == self.dependents.load(Ordering::Relaxed)
        {
            // Only other groups refer to this one: maybe a cycle of groups is garbage.
            schedule(Work::Cycles(self.clone()));
        }
    }

    fn is_dead(&self) -> bool {
        self.ext.load(Ordering::Acquire) & DEAD != 0
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        LIVE_GROUPS.fetch_sub(1, Ordering::Relaxed);
        let me = self as *const Group;
        let removed = {
            let mut registry = lock(registry());
            match registry.get(&self.namespace) {
                Some(entry) if std::ptr::eq(entry.as_ptr(), me) => registry.remove(&self.namespace),
                _ => None,
            }
        };
        drop(removed);
        // A group is collected (and its dependencies released) before its memory goes:
        // whatever depends on it holds it. This covers a group that never had a handle.
        let deps = std::mem::take(self.deps.get_mut().unwrap_or_else(|p| p.into_inner()));
        if !deps.is_empty() {
            {
                let _graph = lock(dependency_lock());
                for dep in &deps {
                    dep.dependents.fetch_sub(1, Ordering::Relaxed);
                }
            }
            for dep in &deps {
                dep.release();
            }
        }
    }
}

/// The live group of each namespace.
fn registry() -> &'static Mutex<FxHashMap<u64, Weak<Group>>> {
    static REGISTRY: OnceLock<Mutex<FxHashMap<u64, Weak<Group>>>> = OnceLock::new();
    REGISTRY.get_or_init(Default::default)
}

/// The current group of `namespace`, created if there is none alive.
fn group_for(namespace: u64) -> Arc<Group> {
    let mut registry = lock(registry());
    let previous = registry.get(&namespace).and_then(Weak::upgrade);
    if let Some(group) = &previous {
        if !group.is_dead() {
            return group.clone();
        }
    }
    let group = Arc::new(Group::new(namespace));
    let replaced = registry.insert(namespace, Arc::downgrade(&group));
    drop(registry);
    drop(replaced);
    drop(previous);
    group
}

/// Serializes changes to the graph of dependencies between groups.
fn dependency_lock() -> &'static Mutex<()> {
    static LOCK: Mutex<()> = Mutex::new(());
    &LOCK
}

/// Releases the dependencies of a dead group.
fn release_dependencies(group: &Group) {
    let deps = {
        let _graph = lock(dependency_lock());
        let deps = std::mem::take(&mut *lock(&group.deps));
        for dep in &deps {
            dep.dependents.fetch_sub(1, Ordering::Relaxed);
        }
        deps
    };
    // Outside the lock: a release may collect, and dropping the last handle of a group
    // takes the lock again.
    for dep in &deps {
        dep.release();
    }
    drop(deps);
}

/// Frees a dead group's objects: takes out their properties, which breaks every cycle
/// through them, then releases the group's dependencies.
fn collect(group: &Arc<Group>) {
    COLLECTED_GROUPS.fetch_add(1, Ordering::Relaxed);
    let objects = std::mem::take(&mut *lock(&group.objects));
    let nodes: Vec<Arc<TypeData>> = objects.values().filter_map(Weak::upgrade).collect();
    drop(objects);
    let mut taken = Vec::with_capacity(nodes.len());
    for node in &nodes {
        if let TypeKind::Object(object) = node.kind() {
            if let Some(deferred) = object.deferred() {
                taken.push(deferred.take_properties());
            }
        }
    }
    drop(taken);
    release_dependencies(group);
    drop(nodes);
}

/// Checks whether `start` is in a cycle of groups that only refer to each other, and if so
/// collects the whole cycle.
fn collect_cycles(start: &Arc<Group>) {
    static COLLECTOR: Mutex<()> = Mutex::new(());
    let _one_at_a_time = lock(&COLLECTOR);
    for _attempt in 0..3 {
        match check_cycle(start) {
            CycleCheck::Collected(members) => {
                for member in &members {
                    collect(member);
                }
                return;
            }
            CycleCheck::Busy => std::thread::yield_now(),
            CycleCheck::Alive => return,
        }
    }
}

enum CycleCheck {
    /// The groups were dead: collect them.
    Collected(Vec<Arc<Group>>),
    /// Something referred to them from outside: nothing to do.
    Alive,
    /// A handle was made and dropped during the check: try again.
    Busy,
}

fn check_cycle(start: &Arc<Group>) -> CycleCheck {
    // The groups reachable from `start` through dependencies (declared before the lock, so
    // that they are dropped after it: dropping a group may take it).
    let mut groups: Vec<Arc<Group>> = vec![start.clone()];
    let _graph = lock(dependency_lock());
    if start.is_dead() {
        return CycleCheck::Alive;
    }
    // The edges between those groups.
    let mut index: FxHashMap<usize, usize> = FxHashMap::default();
    index.insert(Arc::as_ptr(start) as usize, 0);
    let mut edges: Vec<Vec<usize>> = Vec::new();
    let mut next = 0;
    while next < groups.len() {
        let mut targets = Vec::new();
        let mut new = Vec::new();
        for dep in lock(&groups[next].deps).iter() {
            if dep.is_dead() {
                continue;
            }
            let key = Arc::as_ptr(dep) as usize;
            let known = index.len();
            let target = *index.entry(key).or_insert(known);
            if target == known {
                new.push(dep.clone());
            }
            targets.push(target);
        }
        groups.extend(new);
        edges.push(targets);
        next += 1;
    }
    // The members of `start`'s cycle: the reachable groups that reach `start` back.
    let mut reaches = vec![false; groups.len()];
    reaches[0] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for (from, targets) in edges.iter().enumerate() {
            if !reaches[from] && targets.iter().any(|&t| reaches[t]) {
                reaches[from] = true;
                changed = true;
            }
        }
    }
    let members: Vec<usize> = (0..groups.len()).filter(|&g| reaches[g]).collect();
    if members.len() < 2 {
        return CycleCheck::Alive;
    }
    // References from within the cycle; anything more is from outside.
    let mut internal = vec![0usize; groups.len()];
    for &from in &members {
        for &to in &edges[from] {
            if reaches[to] {
                internal[to] += 1;
            }
        }
    }
    let mut frozen: Vec<usize> = Vec::new();
    let thaw = |frozen: &[usize]| {
        for &g in frozen {
            groups[g]
                .ext
                .fetch_and(!(FREEZING | DIRTY), Ordering::AcqRel);
        }
    };
    for &g in &members {
        let expected = internal[g];
        if groups[g]
            .ext
            .compare_exchange(
                expected,
                expected | FREEZING,
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_err()
        {
            thaw(&frozen);
            return CycleCheck::Alive;
        }
        frozen.push(g);
    }
    // Every member had only internal references when it was frozen. A handle into the cycle
    // can only be made from another one (lookups wait while frozen), and making one marks
    // its group dirty: if none is dirty now, no handle existed at any point since the last
    // freeze, and none can be made any more.
    let clean = members
        .iter()
        .all(|&g| groups[g].ext.load(Ordering::Acquire) == internal[g] | FREEZING);
    if !clean {
        let dirty = members
            .iter()
            .any(|&g| groups[g].ext.load(Ordering::Acquire) & DIRTY != 0);
        thaw(&frozen);
        return if dirty {
            CycleCheck::Busy
        } else {
            CycleCheck::Alive
        };
    }
    for &g in &members {
        groups[g].ext.fetch_or(DEAD, Ordering::AcqRel);
    }
    CycleCheck::Collected(members.iter().map(|&g| groups[g].clone()).collect())
}

// ---- deferred work ----------------------------------------------------------------------

enum Work {
    /// The kind of a node that was dropped: its children are dropped in turn.
    Drop(TypeKind),
    /// A dead group to collect.
    Collect(Arc<Group>),
    /// A group that only other groups refer to.
    Cycles(Arc<Group>),
}

struct Queue {
    draining: bool,
    work: Vec<Work>,
}

thread_local! {
    static QUEUE: RefCell<Queue> = const {
        RefCell::new(Queue {
            draining: false,
            work: Vec::new(),
        })
    };
}

/// Runs `work` now, or after the work this thread is already doing, so that dropping a
/// deep or cyclic type never recurses deeply.
fn schedule(work: Work) {
    let mut slot = Some(work);
    let _ = QUEUE.try_with(|queue| {
        if let Some(work) = slot.take() {
            queue.borrow_mut().work.push(work);
        }
    });
    match slot {
        // The thread is exiting and its queue is gone: do it right away, except a cycle
        // check, which may be running further up this very stack (and holds its lock). A
        // cycle of groups whose last handle is dropped by a thread's destructors after its
        // queue is gone is therefore not collected.
        Some(Work::Cycles(_)) => {}
        Some(work) => run(work),
        None => drain(),
    }
}

fn drain() {
    let started = QUEUE
        .try_with(|queue| {
            let mut queue = queue.borrow_mut();
            !std::mem::replace(&mut queue.draining, true)
        })
        .unwrap_or(false);
    if !started {
        return;
    }
    struct Done;
    impl Drop for Done {
        fn drop(&mut self) {
            let _ = QUEUE.try_with(|queue| queue.borrow_mut().draining = false);
        }
    }
    let _done = Done;
    while let Some(work) = QUEUE
        .try_with(|queue| queue.borrow_mut().work.pop())
        .ok()
        .flatten()
    {
        run(work);
    }
}

fn run(work: Work) {
    match work {
        Work::Drop(kind) => drop(kind),
        Work::Collect(group) => collect(&group),
        Work::Cycles(group) => collect_cycles(&group),
    }
}
