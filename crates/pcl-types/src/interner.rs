//! The global hash-consing table behind [`Type`].
//!
//! Every structural type is stored exactly once, leaked for the life of the process, and
//! a [`Type`] is a pointer to it. So equality and hashing of handles are pointer
//! operations, and looking a type up needs no lock: only interning a *new* type does.
//! Types are never freed; a compiler session builds a bounded number of distinct types.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use rustc_hash::FxHashSet;

use crate::kinds::{Type, TypeKind};

/// Interned `TypeKind`s, compared structurally (their children are handles, so this is shallow).
struct Key(&'static TypeKind);

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl Eq for Key {}
impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}
impl std::borrow::Borrow<TypeKind> for Key {
    fn borrow(&self) -> &TypeKind {
        self.0
    }
}

/// Sharded so that concurrent binders rarely contend on one lock.
const SHARDS: usize = 16;

fn shards() -> &'static [Mutex<FxHashSet<Key>>; SHARDS] {
    static TABLE: OnceLock<[Mutex<FxHashSet<Key>>; SHARDS]> = OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|_| Mutex::new(FxHashSet::default())))
}

pub(crate) fn intern(kind: TypeKind) -> Type {
    // The builtin singletons live in statics; everything else goes through the table.
    if let Some(builtin) = Type::builtin_for(&kind) {
        return builtin;
    }
    let mut hasher = rustc_hash::FxHasher::default();
    kind.hash(&mut hasher);
    let shard = &shards()[(hasher.finish() as usize) % SHARDS];
    // A poisoned lock only means another thread panicked mid-insert of an unrelated
    // type; the set itself is still consistent.
    let mut set = shard
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(existing) = set.get(&kind) {
        return Type::from_static(existing.0);
    }
    let leaked: &'static TypeKind = Box::leak(Box::new(kind));
    set.insert(Key(leaked));
    Type::from_static(leaked)
}

/// Types that have their own identity (deferred objects) bypass the table.
pub(crate) fn intern_unique(kind: TypeKind) -> Type {
    Type::from_static(Box::leak(Box::new(kind)))
}

/// Serial numbers for deferred objects, which are nominal: each creation is a new type.
pub(crate) fn next_serial() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
