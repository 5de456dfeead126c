//! Where package schemas are found: the search path, the `NAME-VERSION.json` files in it, and
//! the reader the database uses to read one of them on first use.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_db::{RootDatabase, SchemaFileSpec};

use crate::error::LoadError;

/// The schema search path: the directories a host was given (`pcl check --schemas DIR`, a
/// language server's settings), then those of `$PCL_SCHEMA_PATH`, then `~/.pcl/schemas`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SchemaSearch {
    /// Searched first, in this order; each must be a directory.
    pub given: Vec<PathBuf>,
}

/// A directory the host gave that is not one (the host says how it was given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotADirectory(pub PathBuf);

impl SchemaSearch {
    pub fn new(given: Vec<PathBuf>) -> SchemaSearch {
        SchemaSearch { given }
    }

    /// The directories to search, in order. A given directory that is not one is an error
    /// (the user named it); entries of `$PCL_SCHEMA_PATH` that are not directories and a
    /// missing `~/.pcl/schemas` are skipped.
    pub fn dirs(&self) -> Result<Vec<PathBuf>, NotADirectory> {
        let mut dirs = Vec::new();
        for dir in &self.given {
            if !dir.is_dir() {
                return Err(NotADirectory(dir.clone()));
            }
            dirs.push(dir.clone());
        }
        if let Some(path) = std::env::var_os("PCL_SCHEMA_PATH") {
            dirs.extend(std::env::split_paths(&path).filter(|d| d.is_dir()));
        }
        if let Some(home) = std::env::var_os("HOME") {
            let default = Path::new(&home).join(".pcl").join("schemas");
            if default.is_dir() {
                dirs.push(default);
            }
        }
        Ok(dirs)
    }
}

/// Every `NAME-VERSION.json` file directly in each of `dirs`, in search order (directories as
/// given, files by name), to be read on first use. Unreadable directories are skipped.
pub fn schema_files_in(dirs: &[PathBuf]) -> Vec<SchemaFileSpec> {
    let mut specs = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let Some((package, version)) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(pcl_schema::parse_schema_file_name)
            else {
                continue;
            };
            if path.is_file() {
                specs.push(SchemaFileSpec {
                    path,
                    package,
                    version: version.map(|v| v.to_string()),
                    text: None,
                });
            }
        }
    }
    specs
}

/// Gives the database the schema files of `dirs` (read on first use) and the reader that
/// reads them. Files already known keep their inputs, so calling it again with the same
/// directories and files writes nothing.
pub fn use_schema_dirs(db: &mut RootDatabase, dirs: Vec<PathBuf>) {
    let specs = schema_files_in(&dirs);
    use_schema_files(db, dirs, specs);
}

/// [`use_schema_dirs`] for schema files a host lists itself (a test's manifest): `files` in
/// search order, `dirs` where they were looked for (for messages).
pub fn use_schema_files(db: &mut RootDatabase, dirs: Vec<PathBuf>, files: Vec<SchemaFileSpec>) {
    db.set_schema_reader(Arc::new(|path| Ok(read_schema(path)?)));
    db.set_schema_files(dirs, files);
}

/// Reads a schema file: a regular file only (opened without blocking, so a FIFO named
/// `x-1.0.0.json` never hangs a check), refused before reading above
/// [`pcl_schema::MAX_SCHEMA_LEN`]. The error names the file and says why.
pub fn read_schema(path: &Path) -> Result<String, LoadError> {
    pcl_schema::read_schema_text(path).map_err(|e| LoadError::cannot_read(e.path, e.reason))
}
