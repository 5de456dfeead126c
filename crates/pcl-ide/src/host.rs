//! The host side: the database, and the changes an editor makes to it.

use std::path::{Path, PathBuf};

use pcl_db::{CheckOptions, RootDatabase, SchemaFileSpec};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::Analysis;

/// One change to a file.
#[derive(Clone, Debug)]
enum FileChange {
    /// An editor's buffer: its text wins over the file on disk until it is closed.
    Text(String),
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

    /// An open buffer's text (on open and on every edit).
    pub fn set_file_text(&mut self, path: PathBuf, text: String) {
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
    /// Files whose text comes from an editor's buffer.
    open: FxHashSet<PathBuf>,
    /// Programs loaded from disk, by the directory asked for (their files are re-listed
    /// when a file appears or disappears).
    disk_programs: FxHashSet<PathBuf>,
    /// Programs given in memory, by root.
    memory_programs: FxHashMap<PathBuf, Vec<PathBuf>>,
    /// Schema directories given by the client, before `$PCL_SCHEMA_PATH` and `~/.pcl/schemas`.
    schema_dirs_given: Vec<PathBuf>,
}

impl Default for AnalysisHost {
    fn default() -> Self {
        AnalysisHost::new()
    }
}

impl AnalysisHost {
    pub fn new() -> AnalysisHost {
        AnalysisHost {
            db: RootDatabase::default(),
            open: FxHashSet::default(),
            disk_programs: FxHashSet::default(),
            memory_programs: FxHashMap::default(),
            schema_dirs_given: Vec::new(),
        }
    }

    /// A snapshot for requests.
    pub fn analysis(&self) -> Analysis {
        Analysis {
            db: self.db.clone(),
        }
    }

    /// The database, for embedders that run their own queries (and for tests).
    pub fn raw_database(&self) -> &RootDatabase {
        &self.db
    }

    /// Applies a batch of changes. Cancels every outstanding [`Analysis`].
    pub fn apply_change(&mut self, change: Change) {
        if let Some(options) = change.options {
            self.db.set_options(options);
        }
        if let Some((dirs, files)) = change.schema_files {
            self.db.set_schema_files(dirs, files);
        }
        for (root, files) in change.programs {
            self.memory_programs.insert(root.clone(), files);
            self.sync_memory_program(&root);
        }
        let mut relist: FxHashSet<PathBuf> = FxHashSet::default();
        for (path, what) in change.files {
            match what {
                FileChange::Text(text) => {
                    let known = self.db.files().get(&path).is_some();
                    self.db.set_file_text(&path, text);
                    self.open.insert(path.clone());
                    if !known || !self.in_some_program(&path) {
                        self.adopt(&path);
                    }
                }
                FileChange::Closed => {
                    self.open.remove(&path);
                    match crate::semantics::disk::read_source(&path) {
                        Some(text) => {
                            self.db.set_file_text(&path, text);
                        }
                        None => {
                            if let Some(dir) = path.parent() {
                                relist.insert(dir.to_path_buf());
                            }
                        }
                    }
                }
                FileChange::OnDisk => self.on_disk(&path, &mut relist),
            }
        }
        for dir in relist {
            self.relist(&dir);
        }
    }

    /// Loads the program in `dir` (a directory of `.pp` files; a `Pulumi.yaml`'s `main:` is
    /// honoured) and the programs of its components. Open buffers win over the files on disk.
    /// Returns the problems met (an unreadable directory, an invalid `Pulumi.yaml`).
    pub fn load_program(&mut self, dir: &Path) -> Vec<String> {
        let mut problems = Vec::new();
        let mut pending = vec![dir.to_path_buf()];
        let mut seen: FxHashSet<PathBuf> = FxHashSet::default();
        while let Some(dir) = pending.pop() {
            if !seen.insert(dir.clone()) {
                continue;
            }
            let root = match crate::semantics::disk::program_dir(&dir) {
                Ok(root) => root,
                Err(problem) => {
                    problems.push(problem);
                    continue;
                }
            };
            self.disk_programs.insert(root.clone());
            let Some(program) = self.relist(&root) else {
                continue;
            };
            for component in pcl_ty::component::component_dirs(&self.db, program) {
                if self.db.program(&component).is_none() && component.is_dir() {
                    pending.push(component);
                }
            }
        }
        problems
    }

    /// The schema search path: `dirs` (a client's settings), then `$PCL_SCHEMA_PATH`, then
    /// `~/.pcl/schemas`; every `NAME-VERSION.json` in them is read when first used.
    pub fn set_schema_dirs(&mut self, dirs: Vec<PathBuf>) {
        self.schema_dirs_given = dirs;
        self.rescan_schemas();
    }

    fn rescan_schemas(&mut self) {
        let dirs = crate::semantics::disk::schema_search_path(&self.schema_dirs_given);
        let specs = pcl_ty::packages::schema_files_in(&dirs);
        self.db.set_schema_files(dirs, specs);
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
        if dir.is_dir() {
            self.load_program(&dir);
            if !self.in_some_program(path) {
                // The directory's Pulumi.yaml points elsewhere: the buffer is a program of
                // its own directory all the same, so that it is checked.
                self.disk_programs.insert(dir.clone());
                self.relist(&dir);
            }
        } else {
            self.memory_programs
                .insert(dir.clone(), vec![path.to_path_buf()]);
            self.sync_memory_program(&dir);
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
                if self.disk_programs.contains(dir) || self.db.program(dir).is_some() {
                    let dir = dir.to_path_buf();
                    self.load_program(&dir);
                }
            }
            return;
        }
        if !name.ends_with(".pp") {
            return;
        }
        if !self.open.contains(path) {
            if let Some(text) = crate::semantics::disk::read_source(path) {
                self.db.set_file_text(path, text);
            }
        }
        if let Some(dir) = path.parent() {
            relist.insert(dir.to_path_buf());
        }
    }

    /// Lists the files of the disk program rooted at `root` again (files on disk and open
    /// buffers in that directory). Returns the program.
    fn relist(&mut self, root: &Path) -> Option<pcl_db::Program> {
        if let Some(files) = self.memory_programs.get(root) {
            let keep: Vec<PathBuf> = files
                .iter()
                .filter(|p| self.open.contains(*p))
                .cloned()
                .collect();
            self.memory_programs.insert(root.to_path_buf(), keep);
            self.sync_memory_program(root);
            return self.db.program(root);
        }
        if !self.disk_programs.contains(root) {
            return None;
        }
        let mut paths = crate::semantics::disk::pp_files(root);
        for open in &self.open {
            if open.parent() == Some(root) && !paths.contains(open) {
                paths.push(open.clone());
            }
        }
        let mut files = Vec::with_capacity(paths.len());
        for path in paths {
            let file = match (self.open.contains(&path), self.db.files().get(&path)) {
                (true, Some(file)) => file,
                _ => match crate::semantics::disk::read_source(&path) {
                    Some(text) => self.db.set_file_text(&path, text),
                    None => continue,
                },
            };
            files.push(file);
        }
        Some(self.db.set_program_files(root, files))
    }
}
