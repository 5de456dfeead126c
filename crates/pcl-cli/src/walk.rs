//! Finding source files in directories, for `pcl parse` and `pcl fmt`: below them (or, for
//! `pcl fmt --no-recursive`, directly in them), in sorted order, skipping hidden directories
//! (`.git`, `.terraform`) and directories reached through symbolic links (as `terraform fmt
//! -recursive` does), and entering each directory once per walk, by its canonical path.
//! Iterative: a deep tree costs no stack.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use pcl_project::files::io_reason;

use crate::inputs::cannot_read;

#[derive(Default)]
pub struct Walk {
    /// The files found, in the order found (a file found under two directories given is
    /// listed twice: callers keep the first of each canonical path).
    pub files: Vec<PathBuf>,
    /// Directories that could not be read, as messages.
    pub errors: Vec<String>,
    /// Files skipped: not regular files (a FIFO would hang the read), or links that lead
    /// nowhere; as messages, each once.
    pub warnings: Vec<String>,
}

impl Walk {
    /// Adds the files below `dir` (only those directly in it unless `recursive`) whose
    /// extension is one of `extensions`, in sorted order (a directory's files and
    /// subdirectories interleaved by name). Returns how many it found.
    pub fn add_dir(&mut self, dir: &Path, extensions: &[&str], recursive: bool) -> usize {
        let before = self.files.len();
        let mut visited = HashSet::new();
        // Entries still to visit, the next one last.
        let mut pending = vec![dir.to_path_buf()];
        while let Some(path) = pending.pop() {
            if !path.is_dir() {
                if path
                    .extension()
                    .is_some_and(|e| extensions.iter().any(|x| e == *x))
                {
                    match pcl_project::files::regular_entry(&path) {
                        Ok(true) => self.files.push(path),
                        Ok(false) => {}
                        Err(warning) => {
                            let warning = warning.to_string();
                            if !self.warnings.contains(&warning) {
                                self.warnings.push(warning)
                            }
                        }
                    }
                }
                continue;
            }
            let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
            if !visited.insert(canonical) {
                continue;
            }
            let mut entries: Vec<PathBuf> = match std::fs::read_dir(&path)
                .and_then(|entries| entries.map(|e| e.map(|e| e.path())).collect())
            {
                Ok(entries) => entries,
                Err(e) => {
                    let error = cannot_read(path.display(), io_reason(&e));
                    if !self.errors.contains(&error) {
                        self.errors.push(error);
                    }
                    continue;
                }
            };
            // Hidden directories, and directories reached through a symbolic link, which may
            // lead out of the tree asked for (`pcl fmt` writes what it finds), are not entered;
            // nor is any subdirectory when the walk is not recursive.
            entries.retain(|entry| {
                let hidden = entry
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'));
                !((hidden || entry.is_symlink() || !recursive) && entry.is_dir())
            });
            entries.sort();
            pending.extend(entries.into_iter().rev());
        }
        self.files.len() - before
    }
}
