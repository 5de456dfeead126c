//! The host side: the database, and the changes an editor makes to it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_db::{CheckOptions, RootDatabase, SchemaFileSpec};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::Analysis;

/// One change to a file.
#[derive(Clone, Debug)]
enum FileChange {
    /// An editor's buffer: its text wins over the file on disk until it is closed.
    Text(Arc<str>),
    /// The buffer was closed: the file on disk (if any) is what counts again.
    Closed,
    /// The file was created, changed or deleted on disk.
    OnDisk,
}

/// A batch of changes, applied at once by [`AnalysisHost::apply_change`].
#[derive(Clone, Debug, Default)]
pub struct Change {
    files: Vec<(PathBuf, FileChange)>,
    programs: Vec<(PathBuf, Vec<PathBuf>)>,
    schema_files: Option<(Vec<PathBuf>, Vec<SchemaFileSpec>)>,
    options: Option<CheckOptions>,
}

impl Change {
    pub fn new() -> Change {
        Change::default()
    }

    /// An open buffer's text (on open and on every edit). A text that replaces one this change
    /// already holds for the file (nothing else said of the file since) takes its place: a
    /// burst of edits batched into one change holds one text, not one per edit.
    pub fn set_file_text(&mut self, path: PathBuf, text: impl Into<Arc<str>>) {
        let text = text.into();
        if let Some((_, FileChange::Text(pending))) =
            self.files.iter_mut().rev().find(|(p, _)| *p == path)
        {
            *pending = text;
            return;
        }
        self.files.push((path, FileChange::Text(text)));
    }

    /// The buffer of `path` was closed: its text on disk counts again (and a file that
    /// exists only as a buffer leaves its program).
    pub fn close_file(&mut self, path: PathBuf) {
        self.files.push((path, FileChange::Closed));
    }

    /// A watched file was created, changed or deleted on disk: a `.pp` file, a
    /// `Pulumi.yaml`, or a schema file.
    pub fn file_changed_on_disk(&mut self, path: PathBuf) {
        self.files.push((path, FileChange::OnDisk));
    }

    /// Makes `files` (whose texts are set by [`Change::set_file_text`]) the program rooted at
    /// `root`: for hosts that hold programs in memory (embedders, tests).
    pub fn set_program(&mut self, root: PathBuf, files: Vec<PathBuf>) {
        self.programs.push((root, files));
    }

    /// Schema files given in memory or found by the host, with the directories searched.
    pub fn set_schema_files(&mut self, dirs: Vec<PathBuf>, files: Vec<SchemaFileSpec>) {
        self.schema_files = Some((dirs, files));
    }

    pub fn set_options(&mut self, options: CheckOptions) {
        self.options = Some(options);
    }
}

/// Owns the database. Requests go through [`AnalysisHost::analysis`] snapshots; changes go
/// through [`AnalysisHost::apply_change`], which cancels the snapshots in flight and waits
/// until they are dropped.
pub struct AnalysisHost {
    db: RootDatabase,
    /// Files whose text comes from an editor's buffer, with that text (restored after a
    /// reload from disk).
    buffers: FxHashMap<PathBuf, Arc<str>>,
    /// Programs loaded from disk, by the directory asked for (their files are re-listed
    /// when a file appears or disappears).
    disk_programs: FxHashSet<PathBuf>,
    /// The directories `load_program` was asked for, each with the root of the program it
    /// loaded (another directory when a `Pulumi.yaml`'s `main:` names one).
    asked: FxHashMap<PathBuf, PathBuf>,
    /// Programs given in memory, by root.
    memory_programs: FxHashMap<PathBuf, Vec<PathBuf>>,
    /// Schema directories given by the client, before `$PCL_SCHEMA_PATH` and `~/.pcl/schemas`.
    schema_dirs_given: Vec<PathBuf>,
    /// Whether schemas were configured (directories or files); loading a program from disk
    /// first configures the default search path, as `pcl check` does.
    schemas_configured: bool,
    /// Programs loaded because a component block named their directory
    /// (`sync_named_components`), by root: dropped once no block names them (unless a buffer
    /// of theirs is open), so that they are what `pcl check` would load for the text as it is.
    component_programs: FxHashSet<PathBuf>,
    /// Directories that component blocks name and that hold no program the host could load;
    /// not tried again until a file changes on disk, so that a block naming a directory that
    /// does not exist costs no `stat` per keystroke.
    components_tried: FxHashSet<PathBuf>,
    /// Changes that may have invalidated results beyond the open files (see
    /// [`Generations`]).
    generations: std::sync::Arc<Generations>,
}

/// Counts the changes after which results of files nobody has open may have to be computed
/// again: everything but a keystroke whose published facts are unchanged
/// (`pcl_sema::publish_open_files`). After such a keystroke, the diagnostics of every closed file
/// are valid without a walk, so the re-check of every file need not infer node by node in
/// dependency order (which it does after a wider change, so that no query recurses through a
/// long chain of references).
#[derive(Debug, Default)]
pub(crate) struct Generations {
    /// Bumped by every wide change.
    pub(crate) wide: std::sync::atomic::AtomicU64,
    /// The value of `wide` when every program was last inferred in dependency order.
    pub(crate) ordered: std::sync::atomic::AtomicU64,
    /// Whether, after the last change, a result of a file nobody has open may read an open
    /// file's text (`pcl_sema::closed_files_read_open_text`): then every change is wide.
    pub(crate) direct: std::sync::atomic::AtomicBool,
    /// The order in which each program's nodes were last inferred, reused after a wide change
    /// that left the files nobody has open as they were (`pcl_sema::InferencePlan`).
    pub(crate) plans: std::sync::Mutex<
        rustc_hash::FxHashMap<pcl_db::Program, std::sync::Arc<pcl_sema::InferencePlan>>,
    >,
}

impl Default for AnalysisHost {
    fn default() -> Self {
        AnalysisHost::new()
    }
}

impl AnalysisHost {
    pub fn new() -> AnalysisHost {
        AnalysisHost::with_database(RootDatabase::default())
    }

    /// A host whose database reports query events to a hook (`raw_database().set_query_hook`,
    /// `pcl_db::QueryLog`): for embedders that measure or trace, and for tests; a little
    /// slower than [`new`](Self::new).
    pub fn with_query_hooks() -> AnalysisHost {
        AnalysisHost::with_database(RootDatabase::with_query_hooks())
    }

    fn with_database(db: RootDatabase) -> AnalysisHost {
        AnalysisHost {
            db,
            buffers: FxHashMap::default(),
            asked: FxHashMap::default(),
            disk_programs: FxHashSet::default(),
            memory_programs: FxHashMap::default(),
            schema_dirs_given: Vec::new(),
            schemas_configured: false,
            component_programs: FxHashSet::default(),
            components_tried: FxHashSet::default(),
            // No program has been inferred in order yet.
            generations: std::sync::Arc::new(Generations {
                wide: 1.into(),
                ordered: 0.into(),
                direct: false.into(),
                plans: Default::default(),
            }),
        }
    }

    /// Publishes what the open files changed for the rest of their programs (their host's one
    /// duty: `pcl_sema::publish_open_files`), and records whether the change was wide.
    fn publish(&mut self, only_keystrokes: bool) {
        use std::sync::atomic::Ordering;
        // Keystrokes after a check of every file since the last wide change: the closed files'
        // results are valid as they are, and the publication does not walk them; unless some
        // of them may read an open file's text, when every change counts as wide.
        let settled = if only_keystrokes
            && !self.generations.direct.load(Ordering::SeqCst)
            && self.generations.ordered.load(Ordering::SeqCst)
                == self.generations.wide.load(Ordering::SeqCst)
        {
            pcl_sema::Settled::ClosedFiles
        } else {
            pcl_sema::Settled::Nothing
        };
        let outcome = pcl_sema::publish_open_files(&mut self.db, settled);
        let direct = pcl_sema::closed_files_read_open_text(&self.db);
        self.generations.direct.store(direct, Ordering::SeqCst);
        // A publication that walked again, in order, the closed results that read it leaves
        // them valid, as one that changed nothing does.
        if !only_keystrokes || direct || outcome == pcl_sema::Publication::Changed {
            self.generations
                .wide
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// A snapshot for requests.
    pub fn analysis(&self) -> Analysis {
        Analysis {
            db: self.db.clone(),
            generations: self.generations.clone(),
            wide: self
                .generations
                .wide
                .load(std::sync::atomic::Ordering::SeqCst),
        }
    }

    /// Frees what the last changes left behind: the results that queries computed again
    /// replaced. Salsa frees them only at its next revision, that is, in the next change
    /// applied: after a wide change (a file opened or closed, a change on disk), whose check
    /// of every file computes most of the program again, that was the next keystroke's cost
    /// (13,587 inferences freed, 4-5 ms of the first keystroke after opening a file at 10,000
    /// resources, 60 ms at 100,000). A host calls this when it is idle (the language server
    /// does, once the diagnostics of a wide change are published and no message is waiting).
    /// Nothing computed is lost; like a change, it cancels every outstanding [`Analysis`].
    pub fn collect_garbage(&mut self) {
        use salsa::Database;
        self.db.trigger_lru_eviction();
    }

    /// The database, for embedders that run their own queries (and for tests).
    pub fn raw_database(&self) -> &RootDatabase {
        &self.db
    }

    /// Applies a batch of changes. Cancels every outstanding [`Analysis`].
    pub fn apply_change(&mut self, change: Change) {
        // Edits of buffers already open in a program: keystrokes, unless they change what
        // the rest of the program reads of them.
        let only_keystrokes = change.options.is_none()
            && change.schema_files.is_none()
            && change.programs.is_empty()
            && change.files.iter().all(|(path, what)| {
                matches!(what, FileChange::Text(_))
                    && self.buffers.contains_key(path)
                    && self.in_some_program(path)
            });
        self.apply(change);
        self.publish(only_keystrokes);
        if self.sync_named_components() {
            self.publish(false);
        }
    }

    /// Makes the programs loaded for component blocks those the blocks name now: loads, as
    /// `pcl check`'s loader loads components, the directories that blocks name and that no
    /// loaded program is at (a block typed in an editor finds its component as `pcl check`
    /// would, not a false "no component program" until the file is saved), and drops the
    /// programs loaded that way that no block names any more (typing `"../comps/a"` passes
    /// through `..` and `../comps`). Programs loaded otherwise stay. Returns whether programs
    /// changed. Reads what the open files published, so it runs after the publication.
    fn sync_named_components(&mut self) -> bool {
        // What the programs to keep reach; the others were reached by nothing that stays, so
        // dropping them changes nothing of it.
        let named = self.named_component_dirs();
        let stale: Vec<PathBuf> = self
            .component_programs
            .iter()
            .filter(|root| !named.contains(*root) && !self.has_open_buffer(root))
            .cloned()
            .collect();
        let changed = !stale.is_empty();
        for root in stale {
            self.component_programs.remove(&root);
            self.memory_programs.remove(&root);
            self.db.remove_program(&root);
        }
        let wanted: Vec<PathBuf> = named
            .into_iter()
            .filter(|dir| {
                !self.components_tried.contains(dir)
                    && pcl_sema::component::program_at(&self.db, dir).is_none()
            })
            .collect();
        if wanted.is_empty() {
            return changed;
        }
        self.load_components(&wanted);
        for dir in wanted {
            if pcl_sema::component::program_at(&self.db, &dir).is_none() {
                self.components_tried.insert(dir);
            }
        }
        true
    }

    /// The directories that component blocks name, followed from the programs to keep: those
    /// loaded otherwise (asked for, given in memory) and those with an open buffer, then the
    /// programs their blocks name, transitively (a cycle of components, or a component that
    /// names its own directory, keeps nothing by itself).
    fn named_component_dirs(&self) -> FxHashSet<PathBuf> {
        let db = &self.db;
        let mut pending: Vec<pcl_db::Program> = pcl_db::workspace(db)
            .programs(db)
            .iter()
            .filter(|(root, program)| {
                program.root(db) == root
                    && (!self.component_programs.contains(root) || self.has_open_buffer(root))
            })
            .map(|(_, program)| *program)
            .collect();
        let mut visited: FxHashSet<pcl_db::Program> = FxHashSet::default();
        let mut named = FxHashSet::default();
        while let Some(program) = pending.pop() {
            if !visited.insert(program) {
                continue;
            }
            for dir in pcl_sema::component::component_dirs(db, program) {
                if let Some(component) = pcl_sema::component::program_at(db, &dir) {
                    pending.push(component);
                }
                named.insert(dir);
            }
        }
        named
    }

    /// Whether `dir` is (or would be) a program only because component blocks name it: one
    /// loaded for them, or one they name that was not loaded otherwise.
    fn is_component_dir(&self, dir: &Path) -> bool {
        self.component_programs.contains(dir)
            || (!self.disk_programs.contains(dir)
                && !self.memory_programs.contains_key(dir)
                && self.named_component_dirs().contains(dir))
    }

    /// Whether a buffer of the program at `root` is open.
    fn has_open_buffer(&self, root: &Path) -> bool {
        self.buffers.keys().any(|p| p.parent() == Some(root))
    }

    /// Loads (or reads again) `dirs` as component programs, with their components.
    fn load_components(&mut self, dirs: &[PathBuf]) {
        let loaded = pcl_project::Loader::new().load_components(&mut self.db, dirs);
        for program in &loaded.programs {
            let root = program.root(&self.db).clone();
            if !self.disk_programs.contains(&root) && !self.memory_programs.contains_key(&root) {
                self.component_programs.insert(root.clone());
            }
            self.keep_buffers(&root);
        }
    }

    fn apply(&mut self, change: Change) {
        if let Some(options) = change.options {
            self.db.set_options(options);
        }
        if let Some((dirs, files)) = change.schema_files {
            self.schemas_configured = true;
            pcl_project::use_schema_files(&mut self.db, dirs, files);
        }
        for (root, files) in change.programs {
            // Given in memory: kept, whatever blocks name.
            self.component_programs.remove(&root);
            self.memory_programs.insert(root.clone(), files);
            self.sync_memory_program(&root);
        }
        let mut relist: FxHashSet<PathBuf> = FxHashSet::default();
        for (path, what) in change.files {
            match what {
                FileChange::Text(text) => {
                    let known = self.db.files().get(&path).is_some();
                    // A buffer is text already: any encoding error of the file on disk is gone.
                    self.db.set_file_text(&path, text.clone());
                    self.db.set_file_open(&path, true);
                    self.buffers.insert(path.clone(), text);
                    if !known || !self.in_some_program(&path) {
                        self.adopt(&path);
                    }
                }
                FileChange::Closed => {
                    self.buffers.remove(&path);
                    self.db.set_file_open(&path, false);
                    match pcl_project::files::read_source(&path) {
                        Ok(source) => {
                            self.db
                                .set_file_source(&path, source.text, source.encoding_error);
                        }
                        Err(_) => {
                            if let Some(dir) = path.parent() {
                                relist.insert(dir.to_path_buf());
                            }
                        }
                    }
                }
                FileChange::OnDisk => {
                    // A directory a component block names may hold a program now.
                    self.components_tried.clear();
                    self.on_disk(&path, &mut relist);
                }
            }
        }
        for dir in relist {
            self.relist(&dir);
        }
    }

    /// Loads the program in `dir` (a directory of `.pp` files; a `Pulumi.yaml`'s `main:` is
    /// honoured) and the programs of its components, with `pcl check`'s loader. Loading
    /// again reloads: only what changed on disk is written. Open buffers win over the files
    /// on disk. Returns the problems met (an unreadable directory, an invalid `Pulumi.yaml`,
    /// a FIFO named `*.pp`).
    /// Until schemas are configured (`set_schema_dirs`, `Change::set_schema_files`), the
    /// default search path is used: `$PCL_SCHEMA_PATH`, then `~/.pcl/schemas`.
    pub fn load_program(&mut self, dir: &Path) -> Vec<String> {
        let (problems, root) = self.load(dir);
        if let Some(root) = root {
            self.asked.insert(dir.to_path_buf(), root);
        }
        self.publish(false);
        problems
    }

    /// Forgets the program loaded from `dir` by [`AnalysisHost::load_program`] (a workspace
    /// folder removed, the last buffer of a directory outside every folder closed): its files
    /// leave the analysis, and so do the programs only its component blocks named. A program
    /// with an open buffer stays, and one that a block of a program still loaded names stays
    /// as that block's component, as `pcl check` of that program would load it.
    pub fn unload_program(&mut self, dir: &Path) {
        let root = self
            .asked
            .get(dir)
            .cloned()
            .unwrap_or_else(|| dir.to_path_buf());
        if !self.disk_programs.contains(&root)
            || self.has_open_buffer(&root)
            || self.has_open_buffer(dir)
        {
            return;
        }
        self.asked.remove(dir);
        // Another directory asked for that loaded the same program keeps it.
        if self.asked.values().any(|r| *r == root) {
            return;
        }
        self.disk_programs.remove(&root);
        self.db.remove_program(&root);
        self.sync_named_components();
        self.publish(false);
    }

    /// [`AnalysisHost::load_program`] without the publication: the problems met, and the root
    /// of the program loaded for `dir` (none when it holds none).
    fn load(&mut self, dir: &Path) -> (Vec<String>, Option<PathBuf>) {
        if !self.schemas_configured {
            self.schemas_configured = true;
            self.rescan_schemas();
        }
        let loaded = pcl_project::Loader::new().load(&mut self.db, dir);
        // The program asked for stays; its components stay while blocks name them.
        for (i, program) in loaded.programs.iter().enumerate() {
            let root = program.root(&self.db).clone();
            if i == 0 {
                self.component_programs.remove(&root);
                self.disk_programs.insert(root.clone());
            } else if !self.disk_programs.contains(&root)
                && !self.memory_programs.contains_key(&root)
            {
                self.component_programs.insert(root.clone());
            }
            self.keep_buffers(&root);
        }
        let root = loaded.programs.first().map(|p| p.root(&self.db).clone());
        (
            loaded.errors.into_iter().chain(loaded.warnings).collect(),
            root,
        )
    }

    /// After a load from disk: open buffers keep their text, and buffers of files that are
    /// not on disk (yet) stay in their directory's program.
    fn keep_buffers(&mut self, root: &Path) {
        let Some(program) = self.db.program(root) else {
            return;
        };
        let mut files = program.files(&self.db).clone();
        let mut changed = false;
        let open: Vec<PathBuf> = self.buffers.keys().cloned().collect();
        for path in open {
            let Some(file) = self.db.files().get(&path) else {
                continue;
            };
            if path.parent() == Some(root) && !files.contains(&file) {
                files.push(file);
                changed = true;
            }
            if files.contains(&file) {
                if let Some(text) = self.buffers.get(&path).cloned() {
                    self.db.set_file_text(&path, text);
                }
            }
        }
        if changed {
            self.db.set_program_files(root, files);
        }
    }

    /// The schema search path: `dirs` (a client's settings), then `$PCL_SCHEMA_PATH`, then
    /// `~/.pcl/schemas`; every `NAME-VERSION.json` in them is read when first used.
    pub fn set_schema_dirs(&mut self, dirs: Vec<PathBuf>) {
        self.schemas_configured = true;
        self.schema_dirs_given = dirs;
        self.rescan_schemas();
        self.publish(false);
    }

    fn rescan_schemas(&mut self) {
        // Directories a client names that do not exist are skipped: it may create them later.
        let given: Vec<PathBuf> = self
            .schema_dirs_given
            .iter()
            .filter(|d| d.is_dir())
            .cloned()
            .collect();
        let dirs = pcl_project::SchemaSearch::new(given)
            .dirs()
            .unwrap_or_default();
        pcl_project::use_schema_dirs(&mut self.db, dirs);
    }

    fn in_some_program(&self, path: &Path) -> bool {
        let workspace = pcl_db::workspace(&self.db);
        let Some(file) = self.db.files().get(path) else {
            return false;
        };
        workspace
            .programs(&self.db)
            .iter()
            .any(|(_, p)| p.files(&self.db).contains(&file))
    }

    /// A buffer that belongs to no program yet: its directory's program is loaded (from disk
    /// when the directory exists, else made of the buffers in that directory).
    fn adopt(&mut self, path: &Path) {
        let Some(dir) = path.parent().map(Path::to_path_buf) else {
            return;
        };
        if let Some((root, _)) = self
            .memory_programs
            .iter()
            .find(|(root, _)| root.as_path() == dir.as_path())
        {
            let root = root.clone();
            if let Some(files) = self.memory_programs.get_mut(&root) {
                if !files.iter().any(|f| f == path) {
                    files.push(path.to_path_buf());
                }
            }
            self.sync_memory_program(&root);
            return;
        }
        // A directory that blocks name (not through a link to a program loaded under another
        // name, whose files the buffer does not name) is read as `pcl check` reads a
        // component; the buffer joins it (`keep_buffers`).
        let alias = pcl_sema::component::program_at(&self.db, &dir)
            .is_some_and(|program| program.root(&self.db) != &dir);
        let component = !alias && self.is_component_dir(&dir);
        if component {
            self.load_components(std::slice::from_ref(&dir));
        } else if dir.is_dir() {
            self.load(&dir);
        }
        if !self.in_some_program(path) {
            // A directory that does not exist (an unsaved file, an embedder's buffer), or
            // whose Pulumi.yaml points elsewhere: the buffers of the directory form a program
            // all the same, so that they are checked; in a directory only blocks name, while
            // they name it.
            let files: Vec<PathBuf> = self
                .buffers
                .keys()
                .filter(|p| p.parent() == Some(dir.as_path()))
                .cloned()
                .collect();
            self.memory_programs.insert(dir.clone(), files);
            self.sync_memory_program(&dir);
            if component {
                self.component_programs.insert(dir);
            }
        }
    }

    fn sync_memory_program(&mut self, root: &Path) {
        let Some(paths) = self.memory_programs.get(root) else {
            return;
        };
        let files = paths
            .iter()
            .map(|p| match self.db.files().get(p) {
                Some(file) => file,
                None => self.db.set_file_text(p, String::new()),
            })
            .collect::<Vec<_>>();
        self.db.set_program_files(root, files);
    }

    fn on_disk(&mut self, path: &Path, relist: &mut FxHashSet<PathBuf>) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.ends_with(".json") {
            let in_schema_dir = path.parent().is_some_and(|dir| {
                pcl_db::workspace(&self.db)
                    .schema_dirs(&self.db)
                    .iter()
                    .any(|d| d == dir)
            });
            if in_schema_dir {
                self.rescan_schemas();
                self.db.set_schema_text(path, None);
            }
            return;
        }
        if name == "Pulumi.yaml" || name == "Pulumi.yml" {
            if let Some(dir) = path.parent() {
                // A component's Pulumi.yaml does not count, as for `pcl check`.
                let component = self.is_component_dir(dir);
                if self.disk_programs.contains(dir)
                    || (self.db.program(dir).is_some() && !component)
                {
                    let dir = dir.to_path_buf();
                    self.load(&dir);
                }
            }
            return;
        }
        if !name.ends_with(".pp") {
            return;
        }
        if let Some(dir) = path.parent() {
            relist.insert(dir.to_path_buf());
        }
    }

    /// Reads the program rooted at `root` again: a program from disk is reloaded (a file
    /// created in a directory no program was loaded from starts one); a program in memory
    /// keeps only the files that are still open.
    fn relist(&mut self, root: &Path) {
        if let Some(files) = self.memory_programs.get(root) {
            let keep: Vec<PathBuf> = files
                .iter()
                .filter(|p| self.buffers.contains_key(*p))
                .cloned()
                .collect();
            self.memory_programs.insert(root.to_path_buf(), keep);
            self.sync_memory_program(root);
            return;
        }
        if self.is_component_dir(root) {
            // Read as `pcl check` reads a component (its `Pulumi.yaml` does not count).
            self.load_components(&[root.to_path_buf()]);
            return;
        }
        if self.disk_programs.contains(root)
            && std::fs::symlink_metadata(root).is_err()
            && !self.has_open_buffer(root)
        {
            // The directory is gone: so is its program (a component block that names it
            // then finds none, as `pcl check` does). With a buffer open it stays, as the
            // editor shows it.
            self.disk_programs.remove(root);
            self.asked.retain(|_, r| r != root);
            self.db.remove_program(root);
            return;
        }
        if self.disk_programs.contains(root) || root.is_dir() {
            self.load(root);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(change: &Change) -> Vec<(String, String)> {
        change
            .files
            .iter()
            .map(|(p, what)| {
                let what = match what {
                    FileChange::Text(t) => t.to_string(),
                    FileChange::Closed => "<closed>".to_string(),
                    FileChange::OnDisk => "<disk>".to_string(),
                };
                (p.display().to_string(), what)
            })
            .collect()
    }

    /// A burst of edits batched into one change holds one text per file; a text said after
    /// something else of the file follows it.
    #[test]
    fn a_burst_of_edits_holds_one_text() {
        let mut change = Change::new();
        for i in 0..1000 {
            change.set_file_text(PathBuf::from("/p/a.pp"), format!("a = {i}\n"));
            change.set_file_text(PathBuf::from("/p/b.pp"), format!("b = {i}\n"));
        }
        change.file_changed_on_disk(PathBuf::from("/p/c.pp"));
        change.set_file_text(PathBuf::from("/p/a.pp"), "a = last\n");
        change.close_file(PathBuf::from("/p/b.pp"));
        change.set_file_text(PathBuf::from("/p/b.pp"), "b = reopened\n");
        let expected: Vec<(String, String)> = [
            ("/p/a.pp", "a = last\n"),
            ("/p/b.pp", "b = 999\n"),
            ("/p/c.pp", "<disk>"),
            ("/p/b.pp", "<closed>"),
            ("/p/b.pp", "b = reopened\n"),
        ]
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
        assert_eq!(texts(&change), expected);
    }
}
