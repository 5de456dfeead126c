//! Reading the files the frontend is given (sources, schemas, project files) safely, in one
//! place: only regular files (a FIFO or a device named `*.pp` or `x-1.0.0.json` would hang a
//! read or never end), opened without blocking on the open itself, never more than a limit
//! (refused by size before reading, and by stopping one byte past it for streams whose size is
//! not known), read into a buffer of the file's size. [`ReadError`] says why a file cannot be
//! read, in the words of `docs/diagnostics.md`; callers name the file.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

use pcl_diagnostics::style::io_reason;

/// What a file is read as: its size limit and how a file over it is described.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A program's source file.
    Source,
    /// A package schema.
    Schema,
    /// A project file (`Pulumi.yaml`).
    ProjectFile,
}

/// Why a file cannot be read: the end of a message ("cannot read `PATH`: REASON").
#[derive(Debug)]
pub enum ReadError {
    /// The operating system refused ("no such file or directory").
    Io(std::io::Error),
    /// Not a regular file; what it is instead ("a FIFO (named pipe)").
    NotRegular(&'static str),
    /// A source file over `limit` bytes; its size when known before reading.
    SourceTooLarge { size: Option<u64>, limit: u64 },
    /// A schema file over `limit` bytes; its size when known before reading.
    SchemaTooLarge { size: Option<u64>, limit: u64 },
    /// A project file over `limit` bytes.
    ProjectFileTooLarge { limit: u64 },
    /// Text that had to be UTF-8 (schemas, project files) is not.
    NotUtf8,
}

impl ReadError {
    /// A directory where a file was expected.
    pub fn directory() -> ReadError {
        ReadError::NotRegular(DIRECTORY)
    }

    /// Whether the path is a directory (which callers may walk instead of reading).
    pub fn is_directory(&self) -> bool {
        matches!(self, ReadError::NotRegular(kind) if *kind == DIRECTORY)
    }

    /// A file of `kind` over `limit` bytes; `size` when it is known before reading.
    pub fn too_large(kind: FileKind, size: Option<u64>, limit: u64) -> ReadError {
        match kind {
            FileKind::Source => ReadError::SourceTooLarge { size, limit },
            FileKind::Schema => ReadError::SchemaTooLarge { size, limit },
            FileKind::ProjectFile => ReadError::ProjectFileTooLarge { limit },
        }
    }
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
            ReadError::ProjectFileTooLarge { limit } => write!(
                f,
                "it is over {} KiB, too large for a project file",
                limit >> 10
            ),
            ReadError::NotUtf8 => f.write_str("it is not valid UTF-8"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

/// What [`irregular_kind`] says of a directory.
const DIRECTORY: &str = "a directory";

/// What a file is, when it is not a regular file ("a FIFO (named pipe)"), for messages.
pub fn irregular_kind(metadata: &Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some(DIRECTORY);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
        if kind.is_char_device() {
            return Some("a character device");
        }
        if kind.is_block_device() {
            return Some("a block device");
        }
    }
    Some("not a regular file")
}

/// Opens `path` for reading if it is a regular file (links followed). The open does not block
/// (a FIFO without a writer would block it), and the kind is read from the open file, so a file
/// swapped for a FIFO after a check is still refused.
pub fn open_regular(path: &Path) -> Result<(File, Metadata), ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    if let Some(kind) = irregular_kind(&metadata) {
        return Err(ReadError::NotRegular(kind));
    }
    Ok((file, metadata))
}

/// Reads a regular file of `kind` of at most `limit` bytes: its bytes, and its metadata as it
/// was when opened (for `pcl fmt`, which replaces a file only if it is still what was read).
pub fn read_limited(
    path: &Path,
    kind: FileKind,
    limit: u64,
) -> Result<(Vec<u8>, Metadata), ReadError> {
    let (file, metadata) = open_regular(path)?;
    if metadata.len() > limit {
        return Err(ReadError::too_large(kind, Some(metadata.len()), limit));
    }
    let bytes = read_stream(file, kind, limit, metadata.len())?;
    Ok((bytes, metadata))
}

/// [`read_limited`] of a file whose text must be UTF-8 (schemas, project files).
pub fn read_text(path: &Path, kind: FileKind, limit: u64) -> Result<String, ReadError> {
    let (bytes, _) = read_limited(path, kind, limit)?;
    String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8)
}

/// Reads a stream (a file, standard input) of at most `limit` bytes, stopping one byte past the
/// limit (a stream whose size is not known in advance, or a file that grew since it was
/// opened, is refused too). `size` is what it is expected to hold (0 when unknown): a buffer of
/// that size takes a file in one read and one more that finds its end, where growing one from
/// empty took six.
pub fn read_stream(
    stream: impl Read,
    kind: FileKind,
    limit: u64,
    size: u64,
) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::with_capacity(size.min(limit) as usize + 1);
    stream.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::too_large(kind, None, limit));
    }
    Ok(bytes)
}

/// What makes two paths the same file or directory (two arguments, a link, a directory given
/// twice): its device and inode where there are such, else its canonical path. One system call,
/// where a canonical path takes one per component of the path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    Path(std::path::PathBuf),
}

impl FileId {
    /// The identity of what `path` names (links followed); a path that cannot be read is
    /// itself (its error is reported when it is read).
    pub fn of(path: &Path) -> FileId {
        match std::fs::metadata(path) {
            Ok(metadata) => FileId::from_metadata(path, &metadata),
            Err(_) => FileId::Path(path.to_path_buf()),
        }
    }

    /// The identity of `path` from its metadata, already read (as [`read_limited`] returns it).
    #[cfg_attr(unix, allow(unused_variables))]
    pub fn from_metadata(path: &Path, metadata: &Metadata) -> FileId {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileId::Inode(metadata.dev(), metadata.ino())
        }
        #[cfg(not(unix))]
        FileId::Path(path.canonicalize().unwrap_or_else(|_| path.to_path_buf()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_worded_once_per_kind() {
        let dir = std::env::temp_dir().join(format!("pcl-fs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.pp");
        std::fs::write(&file, "a = 1\n").unwrap();
        let (bytes, metadata) = read_limited(&file, FileKind::Source, 100).unwrap();
        assert_eq!((bytes.as_slice(), metadata.len()), (&b"a = 1\n"[..], 6));
        let reason = |e: ReadError| e.to_string();
        assert_eq!(
            reason(read_limited(&dir.join("missing"), FileKind::Source, 100).unwrap_err()),
            "no such file or directory"
        );
        let not_a_file = read_limited(&dir, FileKind::Source, 100).unwrap_err();
        assert!(not_a_file.is_directory());
        assert_eq!(reason(not_a_file), reason(ReadError::directory()));
        assert_eq!(
            reason(ReadError::directory()),
            "it is a directory, not a regular file"
        );
        assert!(!read_limited(&dir.join("missing"), FileKind::Source, 100)
            .unwrap_err()
            .is_directory());
        assert_eq!(
            reason(read_limited(&file, FileKind::Source, 3).unwrap_err()),
            "it is 0.0 MiB, over the limit of 0 MiB for a source file (split the program into several files)"
        );
        assert_eq!(
            read_stream(&b"abcd"[..], FileKind::Schema, 4, 100).unwrap(),
            b"abcd"
        );
        assert_eq!(
            reason(read_stream(&b"abcd"[..], FileKind::Schema, 3, 0).unwrap_err()),
            "it is more than 0 MiB, over the limit of 0 MiB for a schema file"
        );
        assert_eq!(
            reason(read_text(&file, FileKind::ProjectFile, 2).unwrap_err()),
            "it is over 0 KiB, too large for a project file"
        );
        std::fs::write(&file, b"\xff").unwrap();
        assert_eq!(
            reason(read_text(&file, FileKind::ProjectFile, 100).unwrap_err()),
            "it is not valid UTF-8"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_is_the_same_under_every_name() {
        let dir = std::env::temp_dir().join(format!("pcl-fs-id-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.pp"), "").unwrap();
        std::fs::write(dir.join("b.pp"), "").unwrap();
        std::os::unix::fs::symlink(dir.join("a.pp"), dir.join("link.pp")).unwrap();
        let a = FileId::of(&dir.join("a.pp"));
        assert_eq!(FileId::of(&dir.join("sub/../a.pp")), a);
        assert_eq!(FileId::of(&dir.join("link.pp")), a);
        assert_ne!(FileId::of(&dir.join("b.pp")), a);
        let (_, metadata) = read_limited(&dir.join("link.pp"), FileKind::Source, 10).unwrap();
        assert_eq!(FileId::from_metadata(&dir.join("link.pp"), &metadata), a);
        assert_eq!(
            FileId::of(&dir.join("missing.pp")),
            FileId::Path(dir.join("missing.pp"))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = std::env::temp_dir().join(format!("pcl-fs-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("x-1.0.0.json");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        assert_eq!(
            read_text(&fifo, FileKind::Schema, 100)
                .unwrap_err()
                .to_string(),
            "it is a FIFO (named pipe), not a regular file"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
