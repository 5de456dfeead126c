//! Interned names: identifiers, attribute names and labels as cheap handles.
//!
//! Equal text gives the same allocation while any handle to it is alive, so `==` and `Hash`
//! are pointer operations. Unlike a leaking interner, a name whose last handle is dropped is
//! removed from the table, so a long-running server whose user keeps typing new identifiers
//! does not grow without bound (each thread keeps its last few hundred names at hand, which
//! bounds what outlives its use).

use std::cell::RefCell;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use hashbrown::HashTable;
use rustc_hash::FxHasher;

/// An interned identifier: one pointer (the text is behind a second one), so that the
/// expressions and attributes that hold names stay small.
pub struct Name(ManuallyDrop<Arc<Box<str>>>);

/// Set once by [`Name::never_free`], never cleared.
static NEVER_FREE: AtomicBool = AtomicBool::new(false);

// SAFETY: a `Name` holds only an `Arc<Box<str>>`: no database-lifetime reference.
unsafe impl salsa::SalsaValue for Name {}

/// A name in the table, with the hash of its text (compared before the text, and kept so
/// that a table growing never hashes a name again) and, for a short name, its text, so that
/// finding it reads the table alone (the text behind its two pointers was two cache misses
/// per name in a program of 100,000 resources, most of whose names are short).
struct Entry {
    hash: u64,
    short: Short,
    text: Arc<Box<str>>,
}

/// The text of a name of at most [`Short::LEN`] bytes, or that it is longer.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Short {
    len: u8,
    bytes: [u8; Short::LEN],
}

impl Short {
    const LEN: usize = 22;

    /// `None` for a longer text.
    fn of(text: &str) -> Option<Short> {
        let len = text.len();
        if len > Short::LEN {
            return None;
        }
        let mut bytes = [0; Short::LEN];
        bytes[..len].copy_from_slice(text.as_bytes());
        Some(Short {
            len: len as u8,
            bytes,
        })
    }

    /// What an entry keeps of a text: a longer one keeps a length no short text has.
    fn kept(text: &str) -> Short {
        Short::of(text).unwrap_or(Short {
            len: u8::MAX,
            bytes: [0; Short::LEN],
        })
    }
}

impl Entry {
    /// Whether the entry holds `text`, whose [`Short`] form is `short`.
    fn holds(&self, hash: u64, short: Option<Short>, text: &str) -> bool {
        self.hash == hash
            && match short {
                Some(short) => self.short == short,
                None => **self.text == *text,
            }
    }
}

const SHARDS: usize = 16;

struct Shard {
    names: HashTable<Entry>,
    /// The table size after the last sweep; a sweep runs when the table doubles.
    swept_len: usize,
}

fn table() -> &'static [Mutex<Shard>; SHARDS] {
    static TABLE: OnceLock<[Mutex<Shard>; SHARDS]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|_| {
            Mutex::new(Shard {
                names: HashTable::new(),
                swept_len: 0,
            })
        })
    })
}

fn lock(shard: &'static Mutex<Shard>) -> MutexGuard<'static, Shard> {
    // A poisoned lock only means a panic elsewhere; the set is never left half-updated.
    shard.lock().unwrap_or_else(|e| e.into_inner())
}

fn hash_of(text: &str) -> u64 {
    let mut hasher = FxHasher::default();
    text.hash(&mut hasher);
    hasher.finish()
}

/// The shard of a hash: its top bits, since the table inside the shard places entries by
/// the low ones.
fn shard_of(hash: u64) -> MutexGuard<'static, Shard> {
    lock(&table()[(hash >> 60) as usize % SHARDS])
}

/// Names this thread made last, by hash: the names a program repeats (attribute names,
/// labels, the nodes a file uses) are found here without the lock and the shared table,
/// whose cache lines the other threads write too. Each slot holds a handle, so at most
/// `RECENT` names per thread outlive their last other use.
const RECENT: usize = 512;

thread_local! {
    /// Each with its text's hash, compared before the text (which is behind two pointers).
    static RECENT_NAMES: RefCell<Vec<Option<(u64, Name)>>> = const { RefCell::new(Vec::new()) };
}

impl Name {
    pub fn new(text: &str) -> Name {
        let hash = hash_of(text);
        let slot = (hash >> 32) as usize % RECENT;
        let recent = RECENT_NAMES.try_with(|recent| {
            let recent = recent.borrow();
            match recent.get(slot) {
                Some(Some((h, name))) if *h == hash && name.as_str() == text => Some(name.clone()),
                _ => None,
            }
        });
        if let Ok(Some(name)) = recent {
            return name;
        }
        let name = Name::interned(text, hash);
        // A thread being torn down keeps no names.
        let _ = RECENT_NAMES.try_with(|recent| {
            let mut recent = recent.borrow_mut();
            if recent.is_empty() {
                recent.resize(RECENT, None);
            }
            // The evicted name's drop may take a shard's lock: after this borrow ends.
            recent[slot].replace((hash, name.clone()))
        });
        name
    }

    fn interned(text: &str, hash: u64) -> Name {
        let short = Short::of(text);
        let mut shard = shard_of(hash);
        let found = shard
            .names
            .find(hash, |entry| entry.holds(hash, short, text));
        if let Some(existing) = found {
            return Name::handle(&existing.text);
        }
        // Two handles dropped at the same moment can each see the other and leave an entry
        // that only the table holds; sweeping when the table doubles bounds such garbage.
        if shard.names.len() >= 2 * shard.swept_len.max(64) {
            shard
                .names
                .retain(|entry| Arc::strong_count(&entry.text) > 1);
            shard.swept_len = shard.names.len();
        }
        let text: Arc<Box<str>> = Arc::new(Box::from(text));
        shard.names.insert_unique(
            hash,
            Entry {
                hash,
                short: Short::kept(&text),
                text: text.clone(),
            },
            |entry| entry.hash,
        );
        Name(ManuallyDrop::new(text))
    }

    /// A new handle of `text`: counted, unless names are never freed.
    fn handle(text: &Arc<Box<str>>) -> Name {
        if NEVER_FREE.load(Ordering::Relaxed) {
            // SAFETY: no handle gives its count back once names are never freed (`Drop`
            // below), so the count of every name alive now stays above zero, and a handle
            // that was not counted frees nothing.
            return Name(ManuallyDrop::new(unsafe {
                Arc::from_raw(Arc::as_ptr(text))
            }));
        }
        Name(ManuallyDrop::new(text.clone()))
    }

    /// From now on, for the rest of the process, no name is freed, and copying or dropping a
    /// handle writes no count. For a process that checks once and exits (`pcl check`): the
    /// counts of the names a program repeats are written by every thread that copies them,
    /// which then trade the cache lines that hold them (a tenth of what a second thread adds
    /// to a check of 100,000 resources). A server, whose user keeps typing new names, must
    /// not call it.
    pub fn never_free() {
        NEVER_FREE.store(true, Ordering::Relaxed);
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
                    .filter(|entry| Arc::strong_count(&entry.text) > 1)
                    .count()
            })
            .sum()
    }
}

impl Drop for Name {
    fn drop(&mut self) {
        if NEVER_FREE.load(Ordering::Relaxed) {
            return;
        }
        // Ours and the table's: no other handle exists, and new ones come only from the
        // table, under its lock, so rechecking under the lock makes removal race-free.
        if Arc::strong_count(&self.0) == 2 {
            let hash = hash_of(&self.0);
            let mut shard = shard_of(hash);
            if Arc::strong_count(&self.0) == 2 {
                if let Ok(entry) = shard
                    .names
                    .find_entry(hash, |entry| Arc::ptr_eq(&entry.text, &self.0))
                {
                    entry.remove();
                }
            }
        }
        // SAFETY: dropped once, here (after the shard's lock is released), and never used
        // again.
        unsafe { ManuallyDrop::drop(&mut self.0) }
    }
}

impl Clone for Name {
    fn clone(&self) -> Name {
        Name::handle(&self.0)
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
        const TEXT: &str = "zz_unique_name_for_test";
        let in_table = || {
            let hash = hash_of(TEXT);
            shard_of(hash)
                .names
                .find(hash, |entry| **entry.text == *TEXT)
                .is_some()
        };
        // On a thread of its own, whose recent names go when it ends.
        std::thread::spawn(move || {
            let a = Name::new(TEXT);
            let b = Name::new(TEXT);
            assert_eq!(a, b);
            assert!(Arc::ptr_eq(&a.0, &b.0));
            assert_ne!(a, Name::new("other"));
            // Found in the table too, not only among the thread's recent names.
            assert_eq!(Name::interned(TEXT, hash_of(TEXT)), a);
        })
        .join()
        .unwrap();
        assert!(!in_table());
        // A name dropped while this thread still keeps it at hand is reclaimed once another
        // name takes its place there.
        let name = Name::new(TEXT);
        let slot = (hash_of(TEXT) >> 32) as usize % RECENT;
        drop(name);
        assert!(in_table());
        let other = (0..)
            .map(|i| format!("zz_other_{i}"))
            .find(|t| (hash_of(t) >> 32) as usize % RECENT == slot)
            .unwrap();
        let _other = Name::new(&other);
        assert!(!in_table());
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
