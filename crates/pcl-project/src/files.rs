//! The files hosts read (sources, project files, schemas), through `pcl-fs` (regular files
//! only, opened without blocking, never more than a limit), with errors that name the file
//! (`LoadError`); and a source's text from its bytes.

use std::fs::{File, Metadata};
use std::path::Path;

use pcl_syntax::{TextRange, TextSize};

use crate::error::{LoadError, ReadError};

use pcl_fs::irregular_kind;

/// Whether a file found in a directory is one to read: `Ok(true)` for a regular file (links
/// followed), `Ok(false)` for a directory; anything else (a FIFO would hang the read, a link
/// may lead nowhere) is skipped, and the error is the warning that says why.
pub fn regular_entry(path: &Path) -> Result<bool, LoadError> {
    let skipped = |reason| LoadError::Skipped {
        path: path.to_path_buf(),
        reason,
    };
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => Ok(false),
        Ok(metadata) => match irregular_kind(&metadata) {
            None => Ok(true),
            Some(kind) => Err(skipped(ReadError::NotRegular(kind))),
        },
        Err(e) => Err(skipped(ReadError::Io(e))),
    }
}

/// Opens `path` for reading if it is a regular file (links followed). The open does not block
/// (a FIFO without a writer would block it), and the kind is read from the open file, so a file
/// swapped for a FIFO after a check is still refused.
pub fn open_regular(path: &Path) -> Result<(File, Metadata), LoadError> {
    pcl_fs::open_regular(path).map_err(|reason| LoadError::cannot_read(path, reason))
}

/// An I/O error as the end of a message: "no such file or directory", without the operating
/// system's error number (`pcl_diagnostics::style::io_reason`, which every layer shares).
pub use pcl_diagnostics::style::io_reason;

/// A source file's text as read.
pub struct Source {
    pub text: String,
    /// Where the first invalid UTF-8 byte was, if the file is not valid UTF-8.
    pub encoding_error: Option<TextRange>,
}

/// Reads a source file of at most [`pcl_syntax::MAX_SOURCE_LEN`] bytes. Invalid UTF-8 is
/// decoded lossily and its place returned, to be reported as a diagnostic, so that one bad
/// byte does not hide every other diagnostic of the file.
pub fn read_source(path: &Path) -> Result<Source, LoadError> {
    read_limited_with_metadata(path, pcl_syntax::MAX_SOURCE_LEN)
        .map(|(bytes, _)| Source::from_bytes(bytes))
}

impl Source {
    /// A source's text from its bytes, by the rule of [`read_source`]: invalid UTF-8 decoded
    /// lossily, with the place of the first bad byte. For text that was read some other way
    /// (standard input).
    pub fn from_bytes(bytes: Vec<u8>) -> Source {
        match String::from_utf8(bytes) {
            Ok(text) => Source {
                text,
                encoding_error: None,
            },
            Err(err) => {
                let valid_up_to = err.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(err.as_bytes()).into_owned();
                let start = TextSize::from(valid_up_to as u32);
                let end = start + TextSize::of(text[valid_up_to..].chars().next().unwrap_or(' '));
                Source {
                    text,
                    encoding_error: Some(TextRange::new(start, end)),
                }
            }
        }
    }
}

/// Reads a source file of at most `limit` bytes (`pcl_fs::read_limited`: refused by its size
/// before it is read, and by stopping at the limit), with its metadata as it was when opened
/// (for `pcl fmt`, which replaces the file only if it is still what was read).
pub fn read_limited_with_metadata(
    path: &Path,
    limit: u64,
) -> Result<(Vec<u8>, Metadata), LoadError> {
    pcl_fs::read_limited(path, pcl_fs::FileKind::Source, limit)
        .map_err(|reason| LoadError::cannot_read(path, reason))
}
