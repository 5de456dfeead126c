//! What the loader and the readers of files report: each error says what could not be done and
//! why, in the words of `docs/diagnostics.md` ("cannot read `PATH`: REASON", the reason in
//! lowercase).

use std::fmt;
use std::path::PathBuf;

/// Why a file cannot be read: the end of a message (`pcl-fs`, the one reader).
pub use pcl_fs::ReadError;

/// What is wrong with a project file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProjectFileError {
    InvalidYaml {
        line: usize,
        column: usize,
        info: String,
    },
    /// `main:` is a mapping or a sequence.
    MainNotAString { line: usize },
}

impl fmt::Display for ProjectFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProjectFileError::InvalidYaml { line, column, info } => {
                write!(f, "invalid YAML at line {line}, column {column}: {info}")
            }
            ProjectFileError::MainNotAString { line } => write!(
                f,
                "line {line}: `main` must be a string (the program's directory)"
            ),
        }
    }
}

impl std::error::Error for ProjectFileError {}

/// An error or a warning of loading programs, naming the file or directory it is about.
#[derive(Debug)]
pub enum LoadError {
    /// A file or directory that cannot be read.
    CannotRead { path: PathBuf, reason: ReadError },
    /// A warning: an entry of a directory that is not read.
    Skipped { path: PathBuf, reason: ReadError },
    /// A directory that holds no program.
    NoProgram(PathBuf),
    InvalidProjectFile {
        path: PathBuf,
        error: ProjectFileError,
    },
    /// A project file whose `main:` names a path that does not exist.
    MissingMain {
        project: PathBuf,
        main: String,
        target: PathBuf,
    },
}

impl LoadError {
    pub(crate) fn cannot_read(path: impl Into<PathBuf>, reason: impl Into<ReadError>) -> LoadError {
        LoadError::CannotRead {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::CannotRead { path, reason } => {
                write!(f, "cannot read `{}`: {reason}", path.display())
            }
            LoadError::Skipped { path, reason } => {
                write!(f, "skipped `{}`: {reason}", path.display())
            }
            LoadError::NoProgram(dir) => write!(
                f,
                "no program in `{}`: the directory holds no `.pp` files",
                dir.display()
            ),
            LoadError::InvalidProjectFile { path, error } => {
                write!(f, "invalid project file `{}`: {error}", path.display())
            }
            LoadError::MissingMain {
                project,
                main,
                target,
            } => write!(
                f,
                "`{}` names `main: {main}`, but `{}` does not exist",
                project.display(),
                target.display()
            ),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::CannotRead { reason, .. } | LoadError::Skipped { reason, .. } => {
                Some(reason)
            }
            LoadError::InvalidProjectFile { error, .. } => Some(error),
            _ => None,
        }
    }
}
