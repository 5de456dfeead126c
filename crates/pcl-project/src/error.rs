//! What the loader and the readers of files report: each error says what could not be done and
//! why, in the words of `docs/diagnostics.md` ("cannot read `PATH`: REASON", the reason in
//! lowercase).

use std::fmt;
use std::path::PathBuf;

use pcl_diagnostics::style::io_reason;

/// Why a file cannot be read: the end of a message.
#[derive(Debug)]
pub enum ReadError {
    /// The operating system refused ("no such file or directory").
    Io(std::io::Error),
    /// Not a regular file; what it is instead ("a FIFO (named pipe)").
    NotRegular(&'static str),
    /// A source file over `limit` bytes; its size when known before reading.
    SourceTooLarge {
        size: Option<u64>,
        limit: u64,
    },
    /// A schema file over `limit` bytes; its size when known before reading.
    SchemaTooLarge {
        size: Option<u64>,
        limit: u64,
    },
    /// A project file over `limit` bytes.
    ProjectFileTooLarge {
        limit: u64,
    },
    NotUtf8,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mib = |n: u64| n as f64 / f64::from(1 << 20);
        match self {
            ReadError::Io(e) => f.write_str(&io_reason(e)),
            ReadError::NotRegular(kind) => write!(f, "it is {kind}, not a regular file"),
            ReadError::SourceTooLarge { size, limit } => {
                match size {
                    Some(size) => write!(f, "it is {:.1} MiB", mib(*size))?,
                    None => write!(f, "it is more than {:.0} MiB", mib(*limit))?,
                }
                write!(
                    f,
                    ", over the limit of {:.0} MiB for a source file (split the program into several files)",
                    mib(*limit)
                )
            }
            ReadError::SchemaTooLarge { size, limit } => {
                match size {
                    Some(size) => write!(f, "it is {} MiB", size >> 20)?,
                    None => write!(f, "it is more than {} MiB", limit >> 20)?,
                }
                write!(
                    f,
                    ", over the limit of {} MiB for a schema file",
                    limit >> 20
                )
            }
            ReadError::ProjectFileTooLarge { limit } => {
                write!(
                    f,
                    "it is over {} KiB, too large for a project file",
                    limit >> 10
                )
            }
            ReadError::NotUtf8 => f.write_str("it is not valid UTF-8"),
        }
    }
}

impl std::error::Error for ReadError {}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

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
