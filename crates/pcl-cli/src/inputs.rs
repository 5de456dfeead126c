//! What the commands read (files named on the command line or found in a directory, standard
//! input), by the rules of `pcl_project::files` (regular files only, opened without blocking;
//! at most [`pcl_syntax::MAX_SOURCE_LEN`] bytes, refused by size before reading), and the one
//! wording every command uses when it cannot: "cannot read `PATH`: REASON", the reason
//! starting lowercase.

use std::fmt::Display;
use std::fs::Metadata;
use std::path::Path;

use pcl_fs::{FileKind, ReadError};
use pcl_project::{files, LoadError};
use pcl_syntax::MAX_SOURCE_LEN;

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
pub fn readable(path: &Path) -> Result<(), LoadError> {
    let cannot = |reason| LoadError::CannotRead {
        path: path.to_path_buf(),
        reason,
    };
    if path.is_dir() {
        return std::fs::read_dir(path)
            .map(|_| ())
            .map_err(|e| cannot(ReadError::Io(e)));
    }
    let (_, metadata) = files::open_regular(path)?;
    if metadata.len() > MAX_SOURCE_LEN {
        // What reading it would say, without reading it.
        let size = Some(metadata.len());
        return Err(cannot(ReadError::too_large(
            FileKind::Source,
            size,
            MAX_SOURCE_LEN,
        )));
    }
    Ok(())
}

/// Reads a source file: its bytes, and its metadata as it was when opened (for `pcl fmt`, which
/// replaces the file only if it is still what was read). The loader's reader, so that every
/// command and the loader say the same.
pub fn read_file(path: &Path) -> Result<(Vec<u8>, Metadata), LoadError> {
    files::read_limited_with_metadata(path, MAX_SOURCE_LEN)
}

/// Reads standard input, to its end, refusing it past the limit of a source file.
pub fn read_stdin() -> Result<Vec<u8>, LoadError> {
    pcl_fs::read_stream(std::io::stdin().lock(), FileKind::Source, MAX_SOURCE_LEN, 0).map_err(
        |reason| LoadError::CannotRead {
            path: STDIN.into(),
            reason,
        },
    )
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
            read_file(&missing).unwrap_err().to_string(),
            format!(
                "cannot read `{}`: no such file or directory",
                missing.display()
            )
        );
        assert_eq!(
            read_file(&dir).unwrap_err().to_string(),
            format!(
                "cannot read `{}`: it is a directory, not a regular file",
                dir.display()
            )
        );
        let message = |e: LoadError| e.to_string();
        assert!(readable(&dir).is_ok());
        assert_eq!(
            readable(&missing).map_err(message),
            Err(read_file(&missing).unwrap_err().to_string())
        );
        let big = dir.join("big.pp");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(pcl_syntax::MAX_SOURCE_LEN + 1)
            .unwrap();
        assert_eq!(
            read_file(&big).unwrap_err().to_string(),
            format!(
                "cannot read `{}`: it is 64.0 MiB, over the limit of 64 MiB for a source file (split the program into several files)",
                big.display()
            )
        );
        assert_eq!(
            readable(&big).map_err(message),
            Err(read_file(&big).unwrap_err().to_string())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
