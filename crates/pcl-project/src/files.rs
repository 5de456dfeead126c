//! Opening the files hosts read (sources, project files, schemas): only regular files (a FIFO
//! or a device named `*.pp` or `Pulumi.yaml` would hang a read or never end), without blocking
//! on the open itself, and never more than a limit. Errors name the file (`LoadError`) or
//! say only why (`ReadError`).

use std::fs::{File, Metadata};
use std::path::Path;

use pcl_syntax::{TextRange, TextSize};

use crate::error::{LoadError, ReadError};

/// What a file is, when it is not a regular file ("a FIFO (named pipe)"), for messages.
pub fn irregular_kind(metadata: &Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a directory");
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
    open_regular_unnamed(path).map_err(|reason| LoadError::cannot_read(path, reason))
}

/// [`open_regular`], whose error is only the reason ("it is a FIFO (named pipe), not a regular
/// file"), for callers that name the file their own way.
pub fn open_regular_unnamed(path: &Path) -> Result<(File, Metadata), ReadError> {
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
    read_limited(path, pcl_syntax::MAX_SOURCE_LEN).map(Source::from_bytes)
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

/// Reads a file of at most `limit` bytes. A larger file is refused before it is read (by its
/// size on disk, and by stopping at the limit for files whose size is not known in advance,
/// such as pipes).
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, LoadError> {
    read_limited_with_metadata(path, limit).map(|(bytes, _)| bytes)
}

/// [`read_limited`], with the file's metadata as it was when opened (for `pcl fmt`, which
/// replaces the file only if it is still what was read).
pub fn read_limited_with_metadata(
    path: &Path,
    limit: u64,
) -> Result<(Vec<u8>, Metadata), LoadError> {
    let (file, metadata) = open_regular(path)?;
    if metadata.len() > limit {
        let size = Some(metadata.len());
        return Err(LoadError::cannot_read(
            path,
            ReadError::SourceTooLarge { size, limit },
        ));
    }
    let bytes = read_stream_sized(file, limit, metadata.len())
        .map_err(|reason| LoadError::cannot_read(path, reason))?;
    Ok((bytes, metadata))
}

/// Reads a stream (a file, standard input) of at most `limit` bytes.
pub fn read_stream(stream: impl std::io::Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_stream_sized(stream, limit, 0)
}

/// [`read_stream`] of a stream expected to hold `size` bytes: a buffer of that size takes a
/// file in one read (and one more that finds its end), where growing one from empty took six.
fn read_stream_sized(
    stream: impl std::io::Read,
    limit: u64,
    size: u64,
) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let mut bytes = Vec::with_capacity(size.min(limit) as usize + 1);
    stream.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::SourceTooLarge { size: None, limit });
    }
    Ok(bytes)
}
