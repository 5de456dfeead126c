//! Opening the files the commands read: only regular files (a FIFO or a device named `*.pp`
//! or `Pulumi.yaml` would hang a read or never end), without blocking on the open itself.

use std::fs::{File, Metadata};
use std::path::Path;

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

/// Opens `path` for reading if it is a regular file (links followed). The open does not block
/// (a FIFO without a writer would block it), and the kind is read from the open file, so a file
/// swapped for a FIFO after a check is still refused.
pub fn open_regular(path: &Path) -> Result<(File, Metadata), String> {
    let name = path.display();
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| format!("cannot read {name}: {}", io_reason(&e)))?;
    let metadata = file
        .metadata()
        .map_err(|e| format!("cannot read {name}: {}", io_reason(&e)))?;
    if let Some(kind) = irregular_kind(&metadata) {
        return Err(format!(
            "cannot read {name}: it is {kind}, not a regular file"
        ));
    }
    Ok((file, metadata))
}

/// An I/O error as the end of a message: "no such file or directory", without the operating
/// system's error number.
pub fn io_reason(error: &std::io::Error) -> String {
    let text = error.to_string();
    let text = match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => &text[..at],
        _ => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => text.to_owned(),
    }
}
