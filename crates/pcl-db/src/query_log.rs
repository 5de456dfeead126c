//! What the queries of a database did, recorded through its query hook: the one way tests and
//! measurements see which queries executed (named by what their keys stand for) and how many
//! memoized results were re-validated.

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use crate::{QueryEvent, QueryEventKind, RootDatabase};

/// A log of query events, installed as a database's query hook (shared by its clones, so an
/// `Analysis` snapshot's queries are logged too).
pub struct QueryLog {
    events: Arc<Mutex<Vec<QueryEvent>>>,
}

impl QueryLog {
    /// Starts logging `db`'s query events, replacing any hook it had. `db` must have been
    /// made [`with_query_hooks`](RootDatabase::with_query_hooks).
    pub fn install(db: &RootDatabase) -> Result<QueryLog, crate::NoQueryHooks> {
        let events: Arc<Mutex<Vec<QueryEvent>>> = Arc::default();
        let sink = events.clone();
        db.set_query_hook(Some(Arc::new(move |event: &QueryEvent| {
            lock(&sink).push(event.clone());
        })))?;
        Ok(QueryLog { events })
    }

    /// The events since the last `take_*` call, in order.
    pub fn take(&self) -> Vec<QueryEvent> {
        std::mem::take(&mut *lock(&self.events))
    }

    /// How many queries executed and how many memoized results were re-validated since the
    /// last `take_*` call.
    pub fn take_counts(&self) -> (usize, usize) {
        let events = self.take();
        let executed = events
            .iter()
            .filter(|e| e.kind == QueryEventKind::Executed)
            .count();
        (executed, events.len() - executed)
    }

    /// The queries executed since the last `take_*` call, in order, as `query(key)` with the
    /// key named by `names` (`?` when it has no name).
    pub fn take_executed(&self, names: &QueryNames) -> Vec<String> {
        self.take()
            .into_iter()
            .filter(|e| e.kind == QueryEventKind::Executed)
            .map(|e| names.name(&e.query))
            .collect()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned lock only means a query panicked while logging; the log is still whole.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Names for salsa ids (inputs, interned keys, tracked structs), so that a logged
/// `query(Id(..))` says which file, node or name it ran for.
#[derive(Default)]
pub struct QueryNames {
    by_id: FxHashMap<String, String>,
}

impl QueryNames {
    pub fn new() -> Self {
        Self::default()
    }

    /// Names `key`; the first name given to an id is kept.
    pub fn add(&mut self, key: impl salsa::plumbing::AsId, name: impl Into<String>) {
        self.by_id
            .entry(format!("{:?}", key.as_id()))
            .or_insert_with(|| name.into());
    }

    /// `query(Id(..))` as `query(name)`.
    pub fn name(&self, query: &str) -> String {
        match query.split_once('(') {
            Some((function, rest)) => {
                let id = format!("{})", rest.trim_end_matches(')'));
                let name = self.by_id.get(&id).map_or("?", String::as_str);
                format!("{function}({name})")
            }
            None => query.to_string(),
        }
    }
}
