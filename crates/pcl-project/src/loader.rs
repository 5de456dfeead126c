//! Loading programs into a database: the program at a path (a `.pp` file, a directory of
//! them, or the directory a `Pulumi.yaml` names), then the programs of its components,
//! transitively.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use pcl_db::{Program, RootDatabase};

use crate::error::LoadError;
use crate::files::{read_source, regular_entry};

/// What a load did: the programs loaded (the one asked for first, then its components sorted
/// by root), and what went wrong, as messages for the host to show.
#[derive(Debug, Default)]
pub struct Loaded {
    pub programs: Vec<Program>,
    /// Why the program asked for could not be loaded, or not completely.
    pub errors: Vec<String>,
    /// What was skipped (a FIFO or a device named `*.pp`, a link that leads nowhere).
    pub warnings: Vec<String>,
}

/// Loads programs from disk. Within one loader each directory is loaded once, whichever path
/// reaches it: a directory reached again through a symbolic link (the same canonical path)
/// is registered as another name of the program loaded there
/// ([`RootDatabase::set_program_alias`]), so links that loop end at once.
///
/// Loading is reloading: files are read again and written to the database only where they
/// changed (the database skips writes that change nothing), files that disappeared leave
/// their program, and a directory that no longer holds a program is removed. So a host that
/// sees files change calls [`Loader::load`] on a new loader again; with the disk unchanged,
/// that writes nothing.
#[derive(Debug, Default)]
pub struct Loader {
    /// The directories loaded, by canonical path: the root they were loaded under.
    by_canonical: HashMap<PathBuf, PathBuf>,
    /// The roots of the programs loaded.
    loaded: HashSet<PathBuf>,
}

impl Loader {
    pub fn new() -> Loader {
        Loader::default()
    }

    /// Loads the program at `path` and, transitively, the programs of its components. A
    /// program this loader loaded already is not loaded again (nor listed).
    pub fn load(&mut self, db: &mut RootDatabase, path: &Path) -> Loaded {
        let mut loaded = Loaded::default();
        if let Err(error) = self.load_with_components(db, path, &mut loaded) {
            loaded.errors.push(error.to_string());
        }
        if loaded.programs.len() > 1 {
            loaded.programs[1..].sort_by(|a, b| a.root(db).cmp(b.root(db)));
        }
        loaded
    }

    fn load_with_components(
        &mut self,
        db: &mut RootDatabase,
        path: &Path,
        loaded: &mut Loaded,
    ) -> Result<(), LoadError> {
        // A project file's `main:` says where the program in a directory is.
        let path = &match path.is_dir() {
            true => crate::project::pulumi_yaml_main(path)?.unwrap_or_else(|| path.to_path_buf()),
            false => path.to_path_buf(),
        };
        let (root, files) = if path.is_dir() {
            let root = path.to_path_buf();
            let files = pp_files(&root, &mut loaded.warnings)?;
            if files.is_empty() {
                db.remove_program(&root);
                return Err(LoadError::NoProgram(root));
            }
            (root, files)
        } else {
            // A file that is missing or not a regular file is refused when it is read.
            (path.to_path_buf(), vec![path.to_path_buf()])
        };
        self.load_pending(db, vec![(root, Some(files))], loaded)
    }

    /// Loads the programs of component directories, as [`Loader::load`] loads the components
    /// of a program (a directory's `.pp` files, its `Pulumi.yaml` not read), transitively: for
    /// hosts whose programs gain a component block. A directory that holds no program is
    /// skipped (the binder reports it at the block); one that is another name (a symbolic
    /// link) of a program the database has already becomes an alias of it.
    ///
    /// A directory of `dirs` that is a program already is read again (a host's reload).
    pub fn load_components(&mut self, db: &mut RootDatabase, dirs: &[PathBuf]) -> Loaded {
        for (root, program) in pcl_db::workspace(db).programs(db).clone() {
            // Programs by the root they were loaded under; an alias (another name of one)
            // is not a root, and a directory read again is not loaded yet.
            if program.root(db) != &root || dirs.contains(&root) {
                continue;
            }
            if self.loaded.insert(root.clone()) {
                let canonical = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
                self.by_canonical.entry(canonical).or_insert(root);
            }
        }
        let mut loaded = Loaded::default();
        let pending = dirs.iter().map(|dir| (dir.clone(), None)).collect();
        if let Err(error) = self.load_pending(db, pending, &mut loaded) {
            loaded.errors.push(error.to_string());
        }
        loaded
    }

    /// Loads each `(root, files)` of `pending` (`None`: the directory's `.pp` files), then the
    /// directories its component blocks name.
    fn load_pending(
        &mut self,
        db: &mut RootDatabase,
        mut pending: Vec<(PathBuf, Option<Vec<PathBuf>>)>,
        loaded: &mut Loaded,
    ) -> Result<(), LoadError> {
        while let Some((root, files)) = pending.pop() {
            if self.loaded.contains(&root) {
                continue;
            }
            let canonical = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
            if let Some(first) = self.by_canonical.get(&canonical) {
                if let Some(program) = db.program(first) {
                    db.set_program_alias(&root, program);
                }
                continue;
            }
            let files = match files {
                Some(files) => files,
                // A component directory that cannot be read or holds no .pp files is reported
                // by the binder at the component block.
                None => match pp_files(&root, &mut loaded.warnings) {
                    Ok(files) if !files.is_empty() => files,
                    _ => {
                        db.remove_program(&root);
                        continue;
                    }
                },
            };
            self.by_canonical.insert(canonical, root.clone());
            let program = read_program(db, &root, &files)?;
            self.loaded.insert(root);
            pcl_sema::lower_program_parallel(db, program);
            for dir in pcl_sema::component::component_dirs(db, program) {
                if !self.loaded.contains(&dir) && dir.is_dir() {
                    pending.push((dir, None));
                }
            }
            loaded.programs.push(program);
        }
        Ok(())
    }
}

/// Loads each of `paths` with one [`Loader`], as `pcl check PATH...` does: the programs of
/// every path in order, and every message.
pub fn load_paths(db: &mut RootDatabase, paths: &[PathBuf]) -> Loaded {
    let mut loader = Loader::new();
    let mut all = Loaded::default();
    for path in paths {
        let loaded = loader.load(db, path);
        all.programs.extend(loaded.programs);
        all.errors.extend(loaded.errors);
        all.warnings.extend(loaded.warnings);
    }
    all
}

/// Sets a program given in memory (a test's fixture, a fuzz input): `files` are `(path, text)`,
/// set under their paths as given. Its components are not looked for; set each as a program
/// of its own. Setting the same files again writes nothing.
pub fn load_in_memory(db: &mut RootDatabase, root: &Path, files: &[(PathBuf, String)]) -> Program {
    let inputs = files
        .iter()
        .map(|(path, text)| db.set_file_text(path, text.clone()))
        .collect();
    db.set_program_files(root, inputs)
}

/// The `.pp` files directly in `dir`, sorted; anything named `*.pp` that is not a regular file
/// is skipped with a warning.
fn pp_files(dir: &Path, warnings: &mut Vec<String>) -> Result<Vec<PathBuf>, LoadError> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .and_then(|entries| entries.map(|e| e.map(|e| e.path())).collect())
        .map_err(|e| LoadError::cannot_read(dir, e))?;
    files.retain(|p| p.extension().is_some_and(|e| e == "pp"));
    files.retain(|p| match regular_entry(p) {
        Ok(regular) => regular,
        Err(warning) => {
            warnings.push(warning.to_string());
            false
        }
    });
    files.sort();
    Ok(files)
}

/// Reads every file of a program and sets them (and their encoding errors) as its files.
fn read_program(
    db: &mut RootDatabase,
    root: &Path,
    files: &[PathBuf],
) -> Result<Program, LoadError> {
    let mut inputs = Vec::with_capacity(files.len());
    for file in files {
        let source = read_source(file)?;
        inputs.push(db.set_file_source(file, source.text, source.encoding_error));
    }
    Ok(db.set_program_files(root, inputs))
}
