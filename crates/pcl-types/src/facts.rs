//! Facts about pairs of *closed* types, kept by each thread from one relation query to the
//! next.
//!
//! A closed type reaches no deferred object: it is a finite tree of parts that never change
//! (only a deferred object is ever completed after it is made), so whether two closed types
//! are equal, and how one converts to the other, are fixed for as long as they live, and do
//! not depend on the query that asks (no cycle, so no assumption about an enclosing pair).
//! Queries that meet the same pairs again (the unifications of a chain of conditionals
//! `u{j} = c ? l{j} : u{j-1}`, each of which compares the new list with every member of the
//! previous union, one level down from where the previous one did) then cost a lookup per
//! pair instead of a walk down to where the types differ.
//!
//! A fact is keyed by the addresses of the two types and holds a weak reference to each:
//! that keeps the memory of a node that is dropped meanwhile from being reused by another
//! type at the same address, without keeping the type alive (its parts are dropped and the
//! interner forgets it as usual). The table holds at most two generations of
//! [`GENERATION`] facts: when the current one is full it becomes the previous one, and the
//! one before is dropped (a fact found in the previous generation moves to the current one).

use std::cell::RefCell;
use std::sync::Weak;

use rustc_hash::FxHashMap;

use crate::conversion::ConversionKind;
use crate::interner::TypeData;
use crate::kinds::Type;

/// Facts per generation.
const GENERATION: usize = 1 << 14;

struct Fact<V> {
    value: V,
    /// Keep the two addresses from being reused while the fact is kept.
    _anchors: [Weak<TypeData>; 2],
}

/// Facts about ordered pairs of closed types.
pub(crate) struct Facts<V> {
    current: FxHashMap<(usize, usize), Fact<V>>,
    previous: FxHashMap<(usize, usize), Fact<V>>,
}

impl<V> Default for Facts<V> {
    fn default() -> Self {
        Facts {
            current: FxHashMap::default(),
            previous: FxHashMap::default(),
        }
    }
}

impl<V: Copy> Facts<V> {
    pub(crate) fn get(&mut self, a: &Type, b: &Type) -> Option<V> {
        let key = (a.addr(), b.addr());
        if let Some(fact) = self.current.get(&key) {
            return Some(fact.value);
        }
        let fact = self.previous.remove(&key)?;
        let value = fact.value;
        self.keep(key, fact);
        Some(value)
    }

    pub(crate) fn insert(&mut self, a: &Type, b: &Type, value: V) {
        let fact = Fact {
            value,
            _anchors: [a.downgrade(), b.downgrade()],
        };
        self.keep((a.addr(), b.addr()), fact);
    }

    fn keep(&mut self, key: (usize, usize), fact: Fact<V>) {
        if self.current.len() >= GENERATION && !self.current.contains_key(&key) {
            self.previous = std::mem::take(&mut self.current);
        }
        self.current.insert(key, fact);
    }
}

/// The facts a thread keeps.
#[derive(Default)]
pub(crate) struct Closed {
    /// [`Type::equals`] of two closed types of one composite kind.
    pub(crate) equal: Facts<bool>,
    /// The kind of the conversion between two closed types in unification's mode (where only
    /// kinds matter: a unification's answer never shows a conversion's reason).
    pub(crate) unify: Facts<ConversionKind>,
}

/// Runs `f` with this thread's facts; `None` when they cannot be had (while they are in use
/// further up this thread's stack, or when the thread is ending).
pub(crate) fn with_closed<R>(f: impl FnOnce(&mut Closed) -> R) -> Option<R> {
    thread_local! {
        static CLOSED: RefCell<Closed> = RefCell::default();
    }
    CLOSED
        .try_with(|closed| {
            closed
                .try_borrow_mut()
                .ok()
                .map(|mut closed| f(&mut closed))
        })
        .ok()
        .flatten()
}

/// Whether neither type reaches a deferred object.
pub(crate) fn closed(a: &Type, b: &Type) -> bool {
    !a.reaches_deferred() && !b.reaches_deferred()
}
