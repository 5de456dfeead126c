//! The salsa database of the pcl frontend.
//!
//! This crate owns the incremental inputs (one [`SourceFile`] per file, text set by the host) and
//! the per-file [`parse`] query, and the [`Program`] input (which files share a root scope).
//! Semantic crates layer their own queries on the [`Db`] trait.
//! Hosts (the CLI, the language server) use [`RootDatabase`] and its [`Files`] registry, which
//! turns "this path now has this text" into an input write, skipping writes that change nothing
//! (salsa setters do not compare, and a needless write would invalidate every reader). The
//! database does no I/O itself: schema files left to be read on first use are read by the
//! [`SchemaReader`] a host installs.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;
use salsa::{Durability, Setter};

pub use pcl_syntax::Parse;
use pcl_syntax::TextRange;

mod query_log;
pub use query_log::{QueryLog, QueryNames};

/// The database trait every pcl query takes.
#[salsa::db]
pub trait Db: salsa::Database {
    /// The text of a schema file that was given no text ([`SchemaFile::text`] is `None`),
    /// read by the host's [`SchemaReader`].
    fn read_schema_file(&self, path: &Path) -> Result<String, SchemaReadError> {
        let _ = path;
        Err(Box::new(NoSchemaReader))
    }

    /// The last tree of each open file, which [`parse`] reparses from after an edit (none:
    /// every parse is a whole one).
    fn parse_cache(&self) -> Option<&ParseCache> {
        None
    }

    /// Per open file, what a layer above keeps of its last run over the file to redo only
    /// what an edit changed (lowering keeps each top-level item's result by its green node);
    /// none: every run starts afresh.
    fn file_caches(&self) -> Option<&FileCaches> {
        None
    }

    /// Whether the database checks its programs once and is then dropped unedited (what
    /// `pcl check` makes: [`RootDatabase::checking_once`]). Queries may then read whole-program
    /// tables where they would otherwise read narrow projections whose dependencies an edit
    /// needs, and must compute exactly the same values either way.
    fn checks_once(&self) -> bool {
        false
    }
}

/// Values the layers above this one keep per open file between runs of a query, outside
/// salsa (which keeps no old values): one per file and type, opaque here, each layer its own
/// type. A query may use one only to compute, faster, exactly the value it would compute
/// without it. Closing a file drops its entries.
#[derive(Clone, Default)]
pub struct FileCaches(Arc<Mutex<KeptByFile>>);

/// The values kept, by file and by type.
type KeptByFile = FxHashMap<(SourceFile, std::any::TypeId), Kept>;

impl FileCaches {
    fn lock(&self) -> std::sync::MutexGuard<'_, KeptByFile> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The `T` kept for `file`.
    pub fn get<T: Send + Sync + 'static>(&self, file: SourceFile) -> Option<Arc<T>> {
        let key = (file, std::any::TypeId::of::<T>());
        self.lock().get(&key).cloned()?.downcast::<T>().ok()
    }

    pub fn put<T: Send + Sync + 'static>(&self, file: SourceFile, value: Arc<T>) {
        self.lock()
            .insert((file, std::any::TypeId::of::<T>()), value);
    }

    fn forget(&self, file: SourceFile) {
        self.lock().retain(|(kept, _), _| *kept != file);
    }
}

/// The last text and tree of each open file, kept outside salsa (which keeps no old values),
/// so that [`parse`] can reparse only the lines an edit touched (`pcl_syntax::reparse`, which
/// gives exactly the tree of a whole parse, or declines). Only open files have an entry, and
/// closing a file drops it, so it holds no more than the editor has open.
#[derive(Clone, Default)]
pub struct ParseCache(Arc<Mutex<LastParses>>);

/// Each open file's last text and its tree.
type LastParses = FxHashMap<SourceFile, (Arc<str>, Parse)>;

/// What a layer keeps of one file (see [`FileCaches`]).
type Kept = Arc<dyn std::any::Any + Send + Sync>;

impl ParseCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, LastParses> {
        // Entries are replaced whole, so a panic elsewhere leaves none half-written.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, file: SourceFile) -> Option<(Arc<str>, Parse)> {
        self.lock().get(&file).cloned()
    }

    fn put(&self, file: SourceFile, text: &Arc<str>, parse: &Parse) {
        self.lock().insert(file, (text.clone(), parse.clone()));
    }

    fn forget(&self, file: SourceFile) {
        self.lock().remove(&file);
    }
}

/// A host's way of reading a schema file on first use (`pcl-project` installs one that reads
/// regular files only, up to a size limit).
pub type SchemaReader = Arc<dyn Fn(&Path) -> Result<String, SchemaReadError> + Send + Sync>;

/// Why a schema file could not be read: the host's reader's error (its message is what a
/// diagnostic says), or [`NoSchemaReader`].
pub type SchemaReadError = Box<dyn std::error::Error + Send + Sync>;

/// The error of reading a schema file when the host installed no [`SchemaReader`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoSchemaReader;

impl std::fmt::Display for NoSchemaReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not loaded: the host installed no schema reader")
    }
}

impl std::error::Error for NoSchemaReader {}

/// One source file. Its path never changes (a renamed file is a new input); its text is set by
/// the host on every edit.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: PathBuf,
    /// Shared, so that a host's buffer, the database and the parse cache hold one copy (an
    /// editor's keystroke in a file of 200 KB copied it twice).
    #[returns(ref)]
    pub text: Arc<str>,
    /// Where the first invalid UTF-8 byte was, when the host read bytes that were not UTF-8
    /// (the text then holds them as U+FFFD): reported as the file's first diagnostic.
    #[default]
    #[returns(copy)]
    pub encoding_error: Option<TextRange>,
    /// Open in an editor: lowering then shares the memoized tree of [`parse`] with the
    /// editor's requests (highlighting, folding), so the file is parsed once per edit. Files
    /// nobody has open are parsed by lowering alone and their trees dropped, so that a large
    /// check keeps no tree alive.
    #[default]
    #[returns(copy)]
    pub open: bool,
    /// What the semantic layer last published about this open file for the rest of the
    /// program to read (`MEDIUM` durability; see [`Published`]).
    #[default]
    #[returns(ref)]
    pub published: Published,
    /// The lowering layer's inputs for this open file's top-level items, one per item that
    /// defines a node, so that what is derived from an item the user is not editing does not
    /// take the text's `LOW` durability (`MEDIUM`, written when the items' identities change;
    /// opaque here, as [`Published`]).
    #[default]
    #[returns(ref)]
    pub items: Published,
    /// Which of this open file's nodes are on a reference cycle as the open files are, as the
    /// semantic layer last wrote it (`MEDIUM`, written when it changes; opaque here), so that
    /// a node's type does not read the open files' cycles, which every keystroke re-derives.
    #[default]
    #[returns(ref)]
    pub cycle_members: Published,
    /// Which of this open file's items the user is editing (the lowering layer's, whose inputs
    /// are `LOW`; `MEDIUM`, written when the user moves to other items; opaque here), so that
    /// what is gathered over the file's other items does not read the items being edited.
    #[default]
    #[returns(ref)]
    pub editing: Published,
}

/// Facts about an open file that the semantic layer (`pcl-sema`) derives from its text and
/// republishes, after each edit, only when they change: what the other files of its program
/// read of it. Its text is `LOW` durability, because it changes on every keystroke; these
/// facts are `MEDIUM`, so everything that depends only on files on disk and on these facts is
/// re-validated without walking it after a keystroke that does not change them. Opaque here:
/// the layer that publishes them is the one that reads them.
#[derive(Clone, Default)]
pub struct Published(pub Option<Arc<dyn std::any::Any + Send + Sync>>);

impl std::fmt::Debug for Published {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Published(..)"
        } else {
            "Published(none)"
        })
    }
}

impl PartialEq for Published {
    fn eq(&self, other: &Published) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

/// A program: the files that share one root scope (a directory of `.pp` files, or one file).
/// Its file list changes only when a file is added or removed.
#[salsa::input(debug)]
pub struct Program {
    #[returns(ref)]
    pub root: PathBuf,
    /// Sorted by path.
    #[returns(ref)]
    pub files: Vec<SourceFile>,
    /// What the semantic layer publishes about the program as a whole while some of its files
    /// are open: which files are read through their publications, and where the parts of the
    /// publications that single names depend on are kept (`HIGH` durability, written only
    /// when a file opens or closes or a name first needs a place; opaque here, as
    /// [`Published`]).
    #[default]
    #[returns(ref)]
    pub published: Published,
}

/// A package schema file (`NAME-VERSION.json`). The host names its package and version (from
/// the file name) and either gives its text (an editor's buffer, a test) or leaves it to be
/// read from disk on first use, so that a directory of large schemas costs nothing until a
/// program uses one of them. A host that sees the file change on disk bumps `stamp`.
#[salsa::input(debug)]
pub struct SchemaFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub package: String,
    #[returns(ref)]
    pub version: Option<String>,
    #[returns(ref)]
    pub text: Option<Arc<str>>,
    #[returns(copy)]
    pub stamp: u64,
}

/// Settings of a check that change how problems are reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CheckOptions {
    /// For programs whose schemas are not all available: unknown packages and resources,
    /// unsupported and missing properties and mismatched resource inputs are warnings, and
    /// what they would type is `dynamic`.
    pub lenient: bool,
}

/// What the whole database shares: the schema files (in search order), where they were looked
/// for (for messages), the programs by root directory (so that a `component` block can find
/// its program), and the check options.
#[salsa::input(singleton, debug)]
pub struct Workspace {
    #[returns(ref)]
    pub schema_files: Vec<SchemaFile>,
    #[returns(ref)]
    pub schema_dirs: Vec<PathBuf>,
    /// Sorted by root.
    #[returns(ref)]
    pub programs: Vec<(PathBuf, Program)>,
    #[returns(copy)]
    pub options: CheckOptions,
}

/// The workspace of a database (an empty one until a host sets it).
pub fn workspace(db: &dyn Db) -> Workspace {
    Workspace::try_get(db).unwrap_or_else(|| {
        panic!("the database has no Workspace: RootDatabase creates it; other databases must call Workspace::new")
    })
}

/// The syntax tree and syntax errors of a file.
///
/// `no_eq`: a lossless tree changes with every edit, so comparing old and new trees would only
/// cost time; early cutoff comes from the queries above this one. `lru`: trees of files nobody
/// looks at are dropped and rebuilt on demand.
///
/// A file open in an editor is reparsed from its previous tree ([`ParseCache`]): only the
/// top-level lines an edit touched are parsed again, the rest of the tree is shared.
#[salsa::tracked(returns(ref), no_eq, lru = 64)]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parse {
    let text = file.text(db);
    let Some(cache) = db.parse_cache().filter(|_| file.open(db)) else {
        return pcl_syntax::parse(text);
    };
    let parse = match cache.get(file) {
        Some((old_text, old)) if Arc::ptr_eq(&old_text, text) || *old_text == **text => old,
        Some((old_text, old)) => {
            pcl_syntax::reparse(&old, &old_text, text).unwrap_or_else(|| pcl_syntax::parse(text))
        }
        None => pcl_syntax::parse(text),
    };
    cache.put(file, text, &parse);
    parse
}

/// A schema file as a host describes it to [`RootDatabase::set_schema_files`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaFileSpec {
    pub path: PathBuf,
    pub package: String,
    pub version: Option<String>,
    /// `None`: read from disk on first use.
    pub text: Option<Arc<str>>,
}

/// The path → input map of a database. Inputs are never deleted (salsa cannot), so a file that
/// disappears keeps its input, and a file that comes back reuses it.
#[derive(Clone, Default)]
pub struct Files {
    by_path: Arc<Mutex<FxHashMap<PathBuf, SourceFile>>>,
}

impl Files {
    pub fn get(&self, path: &Path) -> Option<SourceFile> {
        self.lock().get(path).copied()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FxHashMap<PathBuf, SourceFile>> {
        // A poisoned lock only means another thread panicked while holding it; the map itself
        // is never left half-updated.
        self.by_path.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What salsa did for one query, as a host or a test sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryEventKind {
    /// The query's function ran.
    Executed,
    /// A memoized result was found still valid (by walking its dependencies, or at once
    /// because nothing of its durability changed) and reused.
    Validated,
}

/// One event: what happened, and to which query, as `name(Id(..))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryEvent {
    pub kind: QueryEventKind,
    pub query: String,
}

impl QueryEvent {
    /// The query's name, without its key.
    pub fn query_name(&self) -> &str {
        self.query.split('(').next().unwrap_or(&self.query)
    }
}

/// The error of installing a query hook on a database made without them
/// ([`RootDatabase::with_query_hooks`] makes one with them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoQueryHooks;

impl std::fmt::Display for NoQueryHooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("this database reports no query events: make it with `with_query_hooks`")
    }
}

impl std::error::Error for NoQueryHooks {}

/// A host's callback for query events (`RootDatabase::set_query_hook`).
pub type QueryHook = Arc<dyn Fn(&QueryEvent) + Send + Sync>;

/// The installed hook of a database made with hooks: off (one atomic load per salsa event)
/// until a host installs one.
#[derive(Default)]
struct EventLog {
    enabled: std::sync::atomic::AtomicBool,
    hook: Mutex<Option<QueryHook>>,
}

impl EventLog {
    fn on_event(&self, event: &salsa::Event) {
        let (kind, key) = match &event.kind {
            salsa::EventKind::WillExecute { database_key } => {
                (QueryEventKind::Executed, database_key)
            }
            salsa::EventKind::DidValidateMemoizedValue { database_key } => {
                (QueryEventKind::Validated, database_key)
            }
            _ => return,
        };
        let event = QueryEvent {
            kind,
            query: format!("{key:?}"),
        };
        let hook = self.hook.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(hook) = hook {
            hook(&event);
        }
    }
}

/// The database of a host: salsa storage, the file registry, and, for a database made
/// [`with_query_hooks`](RootDatabase::with_query_hooks), the query hook (which [`QueryLog`]
/// installs for incrementality tests and measurements).
#[salsa::db]
#[derive(Clone)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
    files: Files,
    programs: Arc<Mutex<FxHashMap<PathBuf, Program>>>,
    schema_files: Arc<Mutex<FxHashMap<PathBuf, SchemaFile>>>,
    schema_reader: Option<SchemaReader>,
    /// Where query events go: `None` for a database made without hooks.
    events: Option<Arc<EventLog>>,
    /// The durability each file's text was last written with.
    text_durability: Arc<Mutex<FxHashMap<SourceFile, Durability>>>,
    parse_cache: ParseCache,
    file_caches: FileCaches,
    /// Set by [`RootDatabase::checking_once`], never changed: see [`Db::checks_once`].
    checks_once: bool,
}

impl Default for RootDatabase {
    /// A database that reports no query events: what `pcl check` and the language server
    /// use. Salsa builds an event on every query call when a database listens for them (the
    /// cancellation check alone is one per call), which cost a quarter of a cold check.
    fn default() -> Self {
        RootDatabase::new(None)
    }
}

impl RootDatabase {
    /// A database whose query events a hook can observe ([`set_query_hook`](Self::set_query_hook)),
    /// for hosts that measure or trace and for tests; otherwise as [`Default`], a little slower.
    pub fn with_query_hooks() -> Self {
        RootDatabase::new(Some(Arc::default()))
    }

    /// A database that checks its programs once and is not edited afterwards, as `pcl check`'s
    /// ([`Db::checks_once`]): each program's names are resolved in one table, not one query per
    /// name. Otherwise as [`Default`].
    pub fn checking_once() -> Self {
        RootDatabase {
            checks_once: true,
            ..RootDatabase::new(None)
        }
    }

    fn new(events: Option<Arc<EventLog>>) -> Self {
        let storage = match &events {
            Some(events) => {
                let log = events.clone();
                salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
                    if log.enabled.load(std::sync::atomic::Ordering::Relaxed) {
                        log.on_event(&event);
                    }
                })))
            }
            None => salsa::Storage::new(None),
        };
        let db = RootDatabase {
            storage,
            files: Files::default(),
            programs: Arc::default(),
            schema_files: Arc::default(),
            schema_reader: None,
            events,
            text_durability: Arc::default(),
            parse_cache: ParseCache::default(),
            file_caches: FileCaches::default(),
            checks_once: false,
        };
        let _workspace =
            Workspace::builder(Vec::new(), Vec::new(), Vec::new(), CheckOptions::default())
                .schema_files_durability(Durability::HIGH)
                .schema_dirs_durability(Durability::HIGH)
                .programs_durability(Durability::HIGH)
                .options_durability(Durability::HIGH)
                .new(&db);
        db
    }
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

#[salsa::db]
impl Db for RootDatabase {
    fn read_schema_file(&self, path: &Path) -> Result<String, SchemaReadError> {
        match &self.schema_reader {
            Some(read) => read(path),
            None => Err(Box::new(NoSchemaReader)),
        }
    }

    fn parse_cache(&self) -> Option<&ParseCache> {
        Some(&self.parse_cache)
    }

    fn file_caches(&self) -> Option<&FileCaches> {
        Some(&self.file_caches)
    }

    fn checks_once(&self) -> bool {
        self.checks_once
    }
}

impl RootDatabase {
    pub fn files(&self) -> &Files {
        &self.files
    }

    /// Sets the text of the file at `path`, creating its input on first use. Returns the input.
    /// Writing the text a file already has, at the durability it has, is a no-op, so it
    /// invalidates nothing. The text is one that changes often (an editor's buffer, a test's
    /// edit): `LOW` durability.
    pub fn set_file_text(&mut self, path: &Path, text: impl Into<Arc<str>>) -> SourceFile {
        self.set_file(path, text.into(), None, Durability::LOW)
    }

    /// The text of a file as read from disk, decoded from bytes that were not all UTF-8 when
    /// `encoding_error` says where the first bad byte was. Files on disk change seldom while a
    /// user types in another: `HIGH` durability, above what open files publish (`MEDIUM`), so
    /// that after an edit of an open file, even one that publishes, salsa re-validates what
    /// depends only on files on disk without walking it.
    pub fn set_file_source(
        &mut self,
        path: &Path,
        text: impl Into<Arc<str>>,
        encoding_error: Option<TextRange>,
    ) -> SourceFile {
        self.set_file(path, text.into(), encoding_error, Durability::HIGH)
    }

    fn set_file(
        &mut self,
        path: &Path,
        text: Arc<str>,
        encoding_error: Option<TextRange>,
        durability: Durability,
    ) -> SourceFile {
        if let Some(file) = self.files.get(path) {
            // The same text at another durability is written too: a file opened in an editor
            // becomes `LOW` at once (its results are computed again at that durability now,
            // not on the first keystroke, when they could not backdate: salsa keeps a result
            // whose durability dropped from being reused as unchanged), and a closed one
            // `HIGH` again, so that it stops being re-validated after every keystroke.
            let mut durabilities = self
                .text_durability
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let same_durability = durabilities.get(&file) == Some(&durability);
            durabilities.insert(file, durability);
            drop(durabilities);
            let old = file.text(self);
            if !(Arc::ptr_eq(old, &text) || **old == *text) || !same_durability {
                file.set_text(self).with_durability(durability).to(text);
            }
            if file.encoding_error(self) != encoding_error {
                file.set_encoding_error(self)
                    .with_durability(durability)
                    .to(encoding_error);
            }
            return file;
        }
        let file = SourceFile::builder(path.to_path_buf(), text)
            .encoding_error(encoding_error)
            .durability(durability)
            .path_durability(Durability::NEVER_CHANGE)
            // Written at `MEDIUM` only: salsa reports a write at the durability the field had,
            // and a first write reported as `HIGH` would walk every result of the program.
            .items_durability(Durability::MEDIUM)
            .cycle_members_durability(Durability::MEDIUM)
            .editing_durability(Durability::MEDIUM)
            .new(self);
        self.files.lock().insert(path.to_path_buf(), file);
        self.text_durability
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(file, durability);
        file
    }

    /// Marks the file at `path` as open in an editor or not (see [`SourceFile::open`]).
    pub fn set_file_open(&mut self, path: &Path, open: bool) {
        if let Some(file) = self.files.get(path) {
            if !open {
                self.parse_cache.forget(file);
                self.file_caches.forget(file);
            }
            if file.open(self) != open {
                // Opening and closing are rare next to keystrokes and publications: `HIGH`, so
                // what reads whether a file is open is not re-validated after either.
                file.set_open(self)
                    .with_durability(Durability::HIGH)
                    .to(open);
            }
        }
    }

    /// Publishes facts about a file (see [`Published`]); a no-op when `facts` is the value
    /// already published (by pointer).
    pub fn set_file_published(&mut self, file: SourceFile, facts: Published) {
        if file.published(self) != &facts {
            file.set_published(self)
                .with_durability(Durability::MEDIUM)
                .to(facts);
        }
    }

    /// Sets the item inputs of an open file (see [`SourceFile::items`]); a no-op when `items`
    /// is the value already set (by pointer).
    pub fn set_file_items(&mut self, file: SourceFile, items: Published) {
        if file.items(self) != &items {
            file.set_items(self)
                .with_durability(Durability::MEDIUM)
                .to(items);
        }
    }

    /// Sets which of an open file's items the user is editing (see [`SourceFile::editing`]);
    /// a no-op when `editing` is the value already set (by pointer).
    pub fn set_file_editing(&mut self, file: SourceFile, editing: Published) {
        if file.editing(self) != &editing {
            file.set_editing(self)
                .with_durability(Durability::MEDIUM)
                .to(editing);
        }
    }

    /// Sets which of an open file's nodes are on a cycle (see [`SourceFile::cycle_members`]);
    /// a no-op when `members` is the value already set (by pointer).
    pub fn set_file_cycle_members(&mut self, file: SourceFile, members: Published) {
        if file.cycle_members(self) != &members {
            file.set_cycle_members(self)
                .with_durability(Durability::MEDIUM)
                .to(members);
        }
    }

    /// The revision in which an input of `durability` or above last changed: what a host
    /// compares with the revision it last saw to tell whether a change since was as wide as
    /// that (the semantic layer writes what it publishes at the durability of the change).
    pub fn last_changed(&self, durability: Durability) -> salsa::Revision {
        use salsa::plumbing::ZalsaDatabase;
        self.zalsa().last_changed_revision(durability)
    }

    /// Publishes facts about a program (see [`Program::published`]); a no-op when `facts` is
    /// the value already published (by pointer).
    pub fn set_program_published(&mut self, program: Program, facts: Published) {
        if program.published(self) != &facts {
            program
                .set_published(self)
                .with_durability(Durability::HIGH)
                .to(facts);
        }
    }

    /// The program rooted at `root`, creating it on first use, with these files (sorted by path
    /// here). Writing the file list a program already has is a no-op.
    pub fn set_program_files(&mut self, root: &Path, mut files: Vec<SourceFile>) -> Program {
        files.sort_by(|a, b| a.path(self).cmp(b.path(self)));
        files.dedup();
        let existing = self
            .programs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(root)
            .copied();
        if let Some(program) = existing {
            if program.files(self) != &files {
                program
                    .set_files(self)
                    .with_durability(Durability::HIGH)
                    .to(files);
            }
            return program;
        }
        let program = Program::builder(root.to_path_buf(), files)
            .root_durability(Durability::NEVER_CHANGE)
            .files_durability(Durability::HIGH)
            .published_durability(Durability::HIGH)
            .new(self);
        self.programs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(root.to_path_buf(), program);
        self.register_program(root, program);
        program
    }

    /// Registers `dir` as another name of `program`'s directory (a symbolic link to it, found
    /// by the host), so that a component naming `dir` finds that program instead of a copy
    /// of it, and a directory that includes itself through a link is recognised as such.
    pub fn set_program_alias(&mut self, dir: &Path, program: Program) {
        self.register_program(dir, program);
    }

    /// Registers a program with the workspace, so that components can find it by directory.
    fn register_program(&mut self, root: &Path, program: Program) {
        let workspace = workspace(self);
        let mut programs = workspace.programs(self).clone();
        match programs.binary_search_by(|(r, _)| r.as_path().cmp(root)) {
            Ok(i) if programs[i].1 == program => return,
            Ok(i) => programs[i].1 = program,
            Err(i) => programs.insert(i, (root.to_path_buf(), program)),
        }
        workspace.set_programs(self).to(programs);
    }

    /// Forgets the program rooted at `root` (its directory no longer holds one): components
    /// naming it find nothing, as in a database where it was never set. Other names of it
    /// ([`set_program_alias`](Self::set_program_alias)) are forgotten too. Its inputs remain
    /// (salsa never deletes inputs); setting it again creates a new one.
    pub fn remove_program(&mut self, root: &Path) {
        let removed = self
            .programs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(root);
        let Some(program) = removed else {
            return;
        };
        let workspace = workspace(self);
        let mut programs = workspace.programs(self).clone();
        programs.retain(|(_, p)| *p != program);
        workspace.set_programs(self).to(programs);
    }

    /// Installs the host's [`SchemaReader`], which reads schema files given no text. Install it
    /// before checking: schemas parsed already are not read again.
    pub fn set_schema_reader(&mut self, reader: SchemaReader) {
        self.schema_reader = Some(reader);
    }

    /// The program rooted at `root`, if one was set.
    pub fn program(&self, root: &Path) -> Option<Program> {
        self.programs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(root)
            .copied()
    }

    /// The schema file registered at `path`, if any.
    pub fn schema_file(&self, path: &Path) -> Option<SchemaFile> {
        self.schema_files
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
            .copied()
    }

    /// Sets the schema files, in search order, and where they were found. Files already known
    /// (by path) keep their inputs, so their parsed schemas and types are reused.
    pub fn set_schema_files(&mut self, dirs: Vec<PathBuf>, files: Vec<SchemaFileSpec>) {
        let mut inputs = Vec::with_capacity(files.len());
        for spec in files {
            let existing = self
                .schema_files
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&spec.path)
                .copied();
            let input = match existing {
                Some(input) => {
                    if input.text(self) != &spec.text {
                        input
                            .set_text(self)
                            .with_durability(Durability::HIGH)
                            .to(spec.text);
                    }
                    input
                }
                None => {
                    let input = SchemaFile::builder(
                        spec.path.clone(),
                        spec.package,
                        spec.version,
                        spec.text,
                        0,
                    )
                    .durability(Durability::HIGH)
                    .new(self);
                    self.schema_files
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(spec.path, input);
                    input
                }
            };
            inputs.push(input);
        }
        let workspace = workspace(self);
        if workspace.schema_files(self) != &inputs {
            workspace.set_schema_files(self).to(inputs);
        }
        if workspace.schema_dirs(self) != &dirs {
            workspace.set_schema_dirs(self).to(dirs);
        }
    }

    /// Replaces the text of a schema file (an editor's buffer, a test), or marks a file read
    /// from disk as changed (`None`: read it again).
    pub fn set_schema_text(&mut self, path: &Path, text: Option<Arc<str>>) {
        let existing = self
            .schema_files
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
            .copied();
        if let Some(input) = existing {
            let stamp = input.stamp(self);
            input
                .set_text(self)
                .with_durability(Durability::HIGH)
                .to(text);
            input
                .set_stamp(self)
                .with_durability(Durability::HIGH)
                .to(stamp + 1);
        }
    }

    pub fn set_options(&mut self, options: CheckOptions) {
        let workspace = workspace(self);
        if workspace.options(self) != options {
            workspace.set_options(self).to(options);
        }
    }

    /// Installs (or, with `None`, removes) a callback told of every query executed and every
    /// memoized result re-validated, on the thread that did it: for hosts that measure or
    /// trace, and for tests. Shared by the database's clones. Only a database made
    /// [`with_query_hooks`](Self::with_query_hooks) has events to report.
    pub fn set_query_hook(&self, hook: Option<QueryHook>) -> Result<(), NoQueryHooks> {
        let events = self.events.as_ref().ok_or(NoQueryHooks)?;
        let on = hook.is_some();
        *events.hook.lock().unwrap_or_else(|e| e.into_inner()) = hook;
        events
            .enabled
            .store(on, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }
}
