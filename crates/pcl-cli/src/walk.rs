//! Finding source files in directories, for `pcl parse` and `pcl fmt`: below them (or, for
//! `pcl fmt --no-recursive`, directly in them), in sorted order, skipping hidden directories
//! (`.git`, `.terraform`) and directories reached through symbolic links (as `terraform fmt
//! -recursive` does), and entering each directory once per walk (by device and inode).
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
    ///
    /// What each entry is comes from the directory listing itself (no system call per file):
    /// only a symbolic link is looked at further, to know whether it leads to a regular file.
    pub fn add_dir(&mut self, dir: &Path, extensions: &[&str], recursive: bool) -> usize {
        let before = self.files.len();
        let mut visited = HashSet::new();
        // Entries still to visit, the next one last.
        let mut pending = vec![(dir.to_path_buf(), Entry::Directory)];
        while let Some((path, entry)) = pending.pop() {
            let wanted = || {
                path.extension()
                    .is_some_and(|e| extensions.iter().any(|x| e == *x))
            };
            match entry {
                Entry::RegularFile => {
                    if wanted() {
                        self.files.push(path);
                    }
                    continue;
                }
                // A link to a file is read (to a directory, not entered); anything else that
                // is named like a source (a FIFO would hang the read) is skipped with a warning.
                Entry::Other => {
                    if wanted() {
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
                Entry::Directory => {}
            }
            if !visited.insert(pcl_fs::FileId::of(&path)) {
                continue;
            }
            let listed: std::io::Result<Vec<(PathBuf, Entry)>> =
                std::fs::read_dir(&path).and_then(|entries| {
                    entries
                        .map(|e| {
                            let e = e?;
                            let kind = match e.file_type() {
                                Ok(t) if t.is_dir() => Entry::Directory,
                                Ok(t) if t.is_file() => Entry::RegularFile,
                                _ => Entry::Other,
                            };
                            Ok((e.path(), kind))
                        })
                        .collect()
                });
            let mut entries = match listed {
                Ok(entries) => entries,
                Err(e) => {
                    let error = cannot_read(path.display(), io_reason(&e));
                    if !self.errors.contains(&error) {
                        self.errors.push(error);
                    }
                    continue;
                }
            };
            // Hidden directories are not entered, nor any subdirectory when the walk is not
            // recursive; a directory reached through a symbolic link, which may lead out of
            // the tree asked for (`pcl fmt` writes what it finds), is never one (`Other`).
            entries.retain(|(entry, kind)| {
                let hidden = entry
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'));
                !(*kind == Entry::Directory && (hidden || !recursive))
            });
            entries.sort();
            pending.extend(entries.into_iter().rev());
        }
        self.files.len() - before
    }
}

/// What a directory listing says an entry is.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Entry {
    Directory,
    RegularFile,
    /// A symbolic link, or a file that is not a regular file.
    Other,
}
