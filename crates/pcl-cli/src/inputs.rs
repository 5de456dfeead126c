//! What the commands read (files named on the command line or found in a directory, standard
//! input), by the rules of `pcl_project::files` (regular files only, opened without blocking;
//! at most [`pcl_syntax::MAX_SOURCE_LEN`] bytes, refused by size before reading), and the one
//! wording every command uses when it cannot: "cannot read `PATH`: REASON", the reason
//! starting lowercase.

use std::fmt::Display;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

use pcl_project::files::{io_reason, open_regular_unnamed};

/// The name of standard input in messages and diagnostics, where a path would be.
pub const STDIN: &str = "<stdin>";

/// Whether a command-line argument means standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The message for an input that cannot be read: "cannot read `NAME`: REASON".
pub fn cannot_read(name: impl Display, reason: impl Display) -> String {
    format!("cannot read `{name}`: {reason}")
}

/// The message for a command given `-` (standard input) and other paths too.
pub const STDIN_AND_PATHS: &str = "`-` (standard input) cannot be combined with other paths";

/// Whether a path named on the command line can be read: a directory that can be listed, or a
/// file [`read_file`] would read. For `pcl check`, whose loader reads the paths it is given
/// later: a path it cannot read is reported as every command reports it.
pub fn readable(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return std::fs::read_dir(path)
            .map(|_| ())
            .map_err(|e| cannot_read(path.display(), io_reason(&e)));
    }
    open_file(path).map(|_| ())
}

/// Reads a source file: its bytes, and its metadata as it was when opened (for `pcl fmt`, which
/// replaces the file only if it is still what was read).
pub fn read_file(path: &Path) -> Result<(Vec<u8>, Metadata), String> {
    let (file, metadata) = open_file(path)?;
    let bytes = read_to_limit(file, metadata.len())
        .map_err(|reason| cannot_read(path.display(), reason))?;
    Ok((bytes, metadata))
}

/// Opens a regular file (links followed) of at most [`pcl_syntax::MAX_SOURCE_LEN`] bytes.
fn open_file(path: &Path) -> Result<(File, Metadata), String> {
    let (file, metadata) =
        open_regular_unnamed(path).map_err(|reason| cannot_read(path.display(), reason))?;
    if metadata.len() > pcl_syntax::MAX_SOURCE_LEN {
        return Err(cannot_read(path.display(), too_large(Some(metadata.len()))));
    }
    Ok((file, metadata))
}

/// Reads standard input, to its end.
pub fn read_stdin() -> Result<Vec<u8>, String> {
    read_to_limit(std::io::stdin().lock(), 0).map_err(|reason| cannot_read(STDIN, reason))
}

/// Reads a stream to its end, stopping one byte past the limit (so that a stream whose size
/// is not known in advance, or a file that grew since it was opened, is refused too). `size`
/// is what the stream is expected to hold: a buffer of that size takes a file in one read
/// (and one more that finds its end), where growing one from empty took six.
fn read_to_limit(stream: impl Read, size: u64) -> Result<Vec<u8>, String> {
    let limit = pcl_syntax::MAX_SOURCE_LEN;
    let mut bytes = Vec::with_capacity(size.min(limit) as usize + 1);
    stream
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_reason(&e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(None));
    }
    Ok(bytes)
}

/// Why a source is not read: its size (when known) is over the limit.
fn too_large(size: Option<u64>) -> String {
    let mib = |n: u64| n as f64 / f64::from(1 << 20);
    let limit = mib(pcl_syntax::MAX_SOURCE_LEN);
    match size {
        Some(size) => format!(
            "the file is {:.1} MiB, over the limit of {limit:.0} MiB for a source file (split the program into several files)",
            mib(size)
        ),
        None => format!(
            "it is over the limit of {limit:.0} MiB for a source file (split the program into several files)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_path_in_backticks_and_the_reason_in_lowercase() {
        let dir = std::env::temp_dir().join(format!("pcl-inputs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.pp");
        assert_eq!(
            read_file(&missing).unwrap_err(),
            format!(
                "cannot read `{}`: no such file or directory",
                missing.display()
            )
        );
        assert_eq!(
            read_file(&dir).unwrap_err(),
            format!(
                "cannot read `{}`: it is a directory, not a regular file",
                dir.display()
            )
        );
        assert_eq!(readable(&dir), Ok(()));
        assert_eq!(readable(&missing), Err(read_file(&missing).unwrap_err()));
        let big = dir.join("big.pp");
        File::create(&big)
            .unwrap()
            .set_len(pcl_syntax::MAX_SOURCE_LEN + 1)
            .unwrap();
        assert_eq!(
            read_file(&big).unwrap_err(),
            format!(
                "cannot read `{}`: the file is 64.0 MiB, over the limit of 64 MiB for a source file (split the program into several files)",
                big.display()
            )
        );
        let small = &b"a = 1\n"[..];
        assert_eq!(read_to_limit(small, 0).unwrap(), small);
        assert_eq!(read_to_limit(small, 100).unwrap(), small);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
