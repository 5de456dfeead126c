//! The workspace loader of the pcl frontend: everything between the file system and a
//! [`pcl_db::RootDatabase`], shared by every host (the `pcl` command, a language server, tests).
//!
//! * [`Loader`]: finding the program at a path (a `.pp` file is a program of one file; the `.pp`
//!   files directly in a directory form one program; a `Pulumi.yaml`'s `main:` is honoured,
//!   [`project`]) and the programs of its components, transitively; reloading when files change.
//! * [`files`]: reading sources and other files safely (regular files only, opened without
//!   blocking, size limits, lossy UTF-8 with the place of the first bad byte).
//! * [`SchemaSearch`]: the schema search path (given directories, `$PCL_SCHEMA_PATH`,
//!   `~/.pcl/schemas`), [`schema_files_in`] and [`use_schema_dirs`], which also installs the
//!   reader the database uses to read a schema on first use.
//!
//! Nothing here prints: problems are returned as messages for the host to show.

mod error;
pub mod files;
mod loader;
pub mod project;
mod schemas;

pub use error::{LoadError, ProjectFileError, ReadError};
pub use loader::{load_in_memory, load_paths, Loaded, Loader};
pub use schemas::{
    read_schema, schema_files_in, use_schema_dirs, use_schema_files, NotADirectory, SchemaSearch,
};
