//! Interned names: identifiers, attribute names and labels as cheap handles.
//!
//! Equal text gives the same allocation while any handle to it is alive, so `==` and `Hash`
//! are pointer operations. Unlike a leaking interner, a name whose last handle is dropped is
//! removed from the table, so a long-running server whose user keeps typing new identifiers
//! does not grow without bound.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use rustc_hash::{FxHashSet, FxHasher};

/// An interned identifier: one pointer (the text is behind a second one), so that the
/// expressions and attributes that hold names stay small.
pub struct Name(Arc<Box<str>>);

// SAFETY: a `Name` holds only an `Arc<Box<str>>`: no database-lifetime reference.
unsafe impl salsa::SalsaValue for Name {}

/// A name in the table, looked up by its text.
struct Entry(Arc<Box<str>>);

impl std::borrow::Borrow<str> for Entry {
    fn borrow(&self) -> &str {
        &self.0
    }
}
impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        **self.0 == **other.0
    }
}
impl Eq for Entry {}
impl Hash for Entry {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self.0).hash(state)
    }
}

const SHARDS: usize = 16;

struct Shard {
    names: FxHashSet<Entry>,
    /// The table size after the last sweep; a sweep runs when the table doubles.
    swept_len: usize,
}

fn table() -> &'static [Mutex<Shard>; SHARDS] {
    static TABLE: OnceLock<[Mutex<Shard>; SHARDS]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|_| {
            Mutex::new(Shard {
                names: FxHashSet::default(),
                swept_len: 0,
            })
        })
    })
}

fn lock(shard: &'static Mutex<Shard>) -> MutexGuard<'static, Shard> {
    // A poisoned lock only means a panic elsewhere; the set is never left half-updated.
    shard.lock().unwrap_or_else(|e| e.into_inner())
}

fn shard_of(text: &str) -> MutexGuard<'static, Shard> {
    let mut hasher = FxHasher::default();
    text.hash(&mut hasher);
    lock(&table()[(hasher.finish() as usize) % SHARDS])
}

impl Name {
    pub fn new(text: &str) -> Name {
        let mut shard = shard_of(text);
        if let Some(existing) = shard.names.get(text) {
            return Name(existing.0.clone());
        }
        // Two handles dropped at the same moment can each see the other and leave an entry
        // that only the table holds; sweeping when the table doubles bounds such garbage.
        if shard.names.len() >= 2 * shard.swept_len.max(64) {
            shard.names.retain(|name| Arc::strong_count(&name.0) > 1);
            shard.swept_len = shard.names.len();
        }
        let text: Arc<Box<str>> = Arc::new(Box::from(text));
        shard.names.insert(Entry(text.clone()));
        Name(text)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// How many distinct names are alive (for memory measurements).
    pub fn live_count() -> usize {
        table()
            .iter()
            .map(|shard| {
                lock(shard)
                    .names
                    .iter()
                    .filter(|name| Arc::strong_count(&name.0) > 1)
                    .count()
            })
            .sum()
    }
}

impl Drop for Name {
    fn drop(&mut self) {
        // Ours and the table's: no other handle exists, and new ones come only from the
        // table, under its lock, so rechecking under the lock makes removal race-free.
        if Arc::strong_count(&self.0) == 2 {
            let mut shard = shard_of(&self.0);
            if Arc::strong_count(&self.0) == 2 {
                shard.names.remove(&**self.0);
            }
        }
    }
}

impl Clone for Name {
    fn clone(&self) -> Name {
        Name(self.0.clone())
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for Name {}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (Arc::as_ptr(&self.0) as *const u8 as usize).hash(state)
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_text_is_one_name_and_dropped_names_are_reclaimed() {
        let a = Name::new("zz_unique_name_for_test");
        let b = Name::new("zz_unique_name_for_test");
        assert_eq!(a, b);
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert_ne!(a, Name::new("other"));
        drop(a);
        drop(b);
        let shard = shard_of("zz_unique_name_for_test");
        assert!(!shard.names.contains("zz_unique_name_for_test"));
    }

    #[test]
    fn many_threads() {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                std::thread::spawn(move || {
                    for i in 0..2000 {
                        let a = Name::new(&format!("n{}", i % 50));
                        let b = Name::new(&format!("n{}", i % 50));
                        assert_eq!(a, b, "thread {t}");
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }
}
