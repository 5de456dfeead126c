//! Replacing a file's text for `pcl fmt` without losing anything: never a half-written file,
//! never a write through a link planted beside it, never over a change made while the file
//! was being formatted, never to a read-only file, and the file keeps its identity (inode, so
//! hard links; mode, owner, group, extended attributes).
//!
//! The usual way is a new file beside the target, with the target's mode, owner, group and
//! extended attributes, renamed over it (atomic: a reader sees the old text or the new).
//! When that new file could not be the same file to its users (the target has other hard
//! links, or its owner or attributes cannot be given to a new file), the target is written in
//! place instead, after its old text is saved beside it in a backup that is removed once the
//! new text is on disk (as gofmt does). `docs/fmt.md` ("Writing files") says what remains.

use std::fs::{File, Metadata};
use std::io::Write;
use std::path::{Path, PathBuf};

use pcl_project::files::io_reason;

/// A file as `pcl fmt` read it.
pub struct Original {
    pub bytes: Vec<u8>,
    pub metadata: Metadata,
}

/// What became of a replacement.
#[derive(Debug, PartialEq, Eq)]
pub enum Replaced {
    Written,
    /// The file changed after it was read (another program wrote it, or an editor saved it):
    /// left as it is now.
    ChangedMeanwhile,
}

/// A file that cannot be replaced: "cannot write `PATH`: REASON".
#[derive(Debug)]
pub struct WriteError {
    pub path: std::path::PathBuf,
    pub reason: WriteFailure,
}

/// Why a file cannot be replaced.
#[derive(Debug)]
pub enum WriteFailure {
    Io(std::io::Error),
    /// The file has no write permission: it is left alone, as gofmt and rustfmt do.
    ReadOnly,
    /// Writing in place failed half way; the old text is safe in `backup`.
    BackupKept {
        error: std::io::Error,
        backup: std::path::PathBuf,
    },
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write `{}`: ", self.path.display())?;
        match &self.reason {
            WriteFailure::Io(e) => f.write_str(&io_reason(e)),
            WriteFailure::ReadOnly => {
                f.write_str("permission denied (the file is read-only; it was left unchanged)")
            }
            WriteFailure::BackupKept { error, backup } => write!(
                f,
                "{}; its text as it was before is kept in {}",
                io_reason(error),
                backup.display()
            ),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<std::io::Error> for WriteFailure {
    fn from(e: std::io::Error) -> WriteFailure {
        WriteFailure::Io(e)
    }
}

/// Replaces the text of `path` (a symbolic link's target; the link stays) with `text`, if the
/// file is still `original`.
pub fn replace(path: &Path, original: &Original, text: &str) -> Result<Replaced, WriteError> {
    let error = |reason| WriteError {
        path: path.to_path_buf(),
        reason,
    };
    let target = path
        .canonicalize()
        .map_err(|e| error(WriteFailure::Io(e)))?;
    if !writable(&target, &original.metadata) {
        return Err(error(WriteFailure::ReadOnly));
    }
    imp::replace(&target, original, text).map_err(error)
}

/// Whether the file may be written: it has a write permission bit, and the process may write
/// it (for root, the second always holds; the first is what gofmt and rustfmt users expect).
fn writable(target: &Path, metadata: &Metadata) -> bool {
    if metadata.permissions().readonly() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(path) = std::ffi::CString::new(target.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: a valid C string, only read.
        unsafe { libc::access(path.as_ptr(), libc::W_OK) == 0 }
    }
    #[cfg(not(unix))]
    {
        let _ = target;
        true
    }
}

/// Whether `target` is still the file that was read: the same file (device and inode), size,
/// modification and change times, and bytes.
fn still_as_read(target: &Path, original: &Original) -> std::io::Result<bool> {
    let now = std::fs::symlink_metadata(target)?;
    if !same_stat(&now, &original.metadata) {
        return Ok(false);
    }
    let (bytes, _) = match pcl_project::files::read_limited_with_metadata(
        target,
        original.metadata.len().max(original.bytes.len() as u64),
    ) {
        Ok(read) => read,
        Err(_) => return Ok(false),
    };
    Ok(bytes == original.bytes)
}

#[cfg(unix)]
fn same_stat(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.file_type() == b.file_type()
        && a.dev() == b.dev()
        && a.ino() == b.ino()
        && a.len() == b.len()
        && (a.mtime(), a.mtime_nsec()) == (b.mtime(), b.mtime_nsec())
        && (a.ctime(), a.ctime_nsec()) == (b.ctime(), b.ctime_nsec())
}

#[cfg(not(unix))]
fn same_stat(a: &Metadata, b: &Metadata) -> bool {
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}

/// A name no one can guess: a hidden name beside `target`, `.NAME.pcl-fmt-` and 16 hex digits
/// from the process's random hasher keys, the time and a counter.
fn temporary_name(target: &Path) -> PathBuf {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    hasher.write_u32(std::process::id());
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // File names are limited to 255 bytes: a long name is shortened (on a character boundary)
    // so that the dot, the mark and the digits still fit.
    let room = 255 - 1 - 1 - TEMPORARY_MARK.len() - 16;
    let mut end = name.len().min(room);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    let name = &name[..end];
    target.with_file_name(format!(".{name}.{TEMPORARY_MARK}{:016x}", hasher.finish()))
}

/// What every temporary's name holds (after the target's name), so that nothing else is
/// mistaken for one.
pub const TEMPORARY_MARK: &str = "pcl-fmt-";

#[cfg(unix)]
mod imp {
    use super::*;
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};

    pub(super) fn replace(
        target: &Path,
        original: &Original,
        text: &str,
    ) -> Result<Replaced, WriteFailure> {
        let io = WriteFailure::Io;
        // Other names of the file would keep the old text if a new file took this name.
        if original.metadata.nlink() > 1 {
            return in_place(target, original, text);
        }
        let (temporary, file) = create_exclusive(target, original.metadata.mode()).map_err(io)?;
        let prepared = write_all_synced(&file, text.as_bytes())
            .map_err(io)
            .and_then(|()| take_identity(&file, target, &original.metadata));
        match prepared {
            Ok(true) => {}
            // The owner or an attribute cannot be given to a new file: write in place.
            Ok(false) => {
                let _ = std::fs::remove_file(&temporary);
                return in_place(target, original, text);
            }
            Err(e) => {
                let _ = std::fs::remove_file(&temporary);
                return Err(e);
            }
        }
        drop(file);
        match still_as_read(target, original) {
            Ok(true) => {}
            Ok(false) => {
                let _ = std::fs::remove_file(&temporary);
                return Ok(Replaced::ChangedMeanwhile);
            }
            Err(e) => {
                let _ = std::fs::remove_file(&temporary);
                return Err(io(e));
            }
        }
        if let Err(e) = std::fs::rename(&temporary, target) {
            let _ = std::fs::remove_file(&temporary);
            return Err(io(e));
        }
        Ok(Replaced::Written)
    }

    /// Writes the new text over the old in the same file, after saving the old text in a
    /// backup beside it; the backup is removed once the new text is on disk, and named in the
    /// error if writing fails half way.
    fn in_place(target: &Path, original: &Original, text: &str) -> Result<Replaced, WriteFailure> {
        let io = WriteFailure::Io;
        let (backup, file) = create_exclusive(target, 0o600).map_err(io)?;
        if let Err(e) = write_all_synced(&file, &original.bytes) {
            let _ = std::fs::remove_file(&backup);
            return Err(io(e));
        }
        drop(file);
        match still_as_read(target, original) {
            Ok(true) => {}
            Ok(false) => {
                let _ = std::fs::remove_file(&backup);
                return Ok(Replaced::ChangedMeanwhile);
            }
            Err(e) => {
                let _ = std::fs::remove_file(&backup);
                return Err(io(e));
            }
        }
        let written = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(target)
            .and_then(|mut file| {
                // The name still leads to the file that was read (not one swapped in since).
                let now = file.metadata()?;
                if (now.dev(), now.ino()) != (original.metadata.dev(), original.metadata.ino()) {
                    return Ok(false);
                }
                file.write_all(text.as_bytes())?;
                file.set_len(text.len() as u64)?;
                file.sync_all()?;
                Ok(true)
            });
        match written {
            Ok(true) => {
                let _ = std::fs::remove_file(&backup);
                Ok(Replaced::Written)
            }
            Ok(false) => {
                let _ = std::fs::remove_file(&backup);
                Ok(Replaced::ChangedMeanwhile)
            }
            Err(error) => Err(WriteFailure::BackupKept { error, backup }),
        }
    }

    /// A new file beside `target` with an unguessable name and the given mode from the start
    /// (a 0600 file's new text is never readable by others), created exclusively: a file or a
    /// link already at that name is never opened or followed.
    pub(super) fn create_exclusive(target: &Path, mode: u32) -> std::io::Result<(PathBuf, File)> {
        let mut last = None;
        for _ in 0..64 {
            let path = temporary_name(target);
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(mode & 0o777)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&path)
            {
                Ok(file) => {
                    // The umask may have taken bits away.
                    if let Err(e) =
                        file.set_permissions(std::fs::Permissions::from_mode(mode & 0o777))
                    {
                        let _ = std::fs::remove_file(&path);
                        return Err(e);
                    }
                    return Ok((path, file));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::other("no temporary name was free")))
    }

    fn write_all_synced(mut file: &File, bytes: &[u8]) -> std::io::Result<()> {
        file.write_all(bytes)?;
        file.sync_all()
    }

    /// Gives the new file the target's owner, group, extended attributes and mode (set-id bits
    /// last: changing the owner clears them). `Ok(false)` when one of them cannot be given.
    fn take_identity(
        file: &File,
        target: &Path,
        metadata: &Metadata,
    ) -> Result<bool, WriteFailure> {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        let mine = file.metadata()?;
        if (mine.uid(), mine.gid()) != (metadata.uid(), metadata.gid()) {
            // SAFETY: fchown on a descriptor we own.
            if unsafe { libc::fchown(fd, metadata.uid(), metadata.gid()) } != 0 {
                return Ok(false);
            }
        }
        if !copy_attributes(target, fd) {
            return Ok(false);
        }
        file.set_permissions(std::fs::Permissions::from_mode(metadata.mode() & 0o7777))?;
        Ok(true)
    }

    /// Copies the extended attributes of `from` (ACLs and security labels among them) to the
    /// file `to`; false if one cannot be copied.
    #[cfg(target_os = "linux")]
    fn copy_attributes(from: &Path, to: std::os::fd::RawFd) -> bool {
        use std::os::unix::ffi::OsStrExt;
        let Ok(path) = std::ffi::CString::new(from.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY (each call below): valid C strings and buffers of the lengths given.
        let size = unsafe { libc::llistxattr(path.as_ptr(), std::ptr::null_mut(), 0) };
        if size < 0 {
            // No support for attributes on this file system: nothing to copy.
            return std::io::Error::last_os_error().raw_os_error() == Some(libc::ENOTSUP);
        }
        let mut names = vec![0u8; size as usize];
        let size =
            unsafe { libc::llistxattr(path.as_ptr(), names.as_mut_ptr().cast(), names.len()) };
        if size < 0 {
            return false;
        }
        names.truncate(size as usize);
        for name in names.split(|&b| b == 0).filter(|n| !n.is_empty()) {
            let Ok(name) = std::ffi::CString::new(name) else {
                return false;
            };
            let size =
                unsafe { libc::lgetxattr(path.as_ptr(), name.as_ptr(), std::ptr::null_mut(), 0) };
            if size < 0 {
                return false;
            }
            let mut value = vec![0u8; size as usize];
            let size = unsafe {
                libc::lgetxattr(
                    path.as_ptr(),
                    name.as_ptr(),
                    value.as_mut_ptr().cast(),
                    value.len(),
                )
            };
            if size < 0 {
                return false;
            }
            let set = unsafe {
                libc::fsetxattr(to, name.as_ptr(), value.as_ptr().cast(), size as usize, 0)
            };
            if set != 0 {
                return false;
            }
        }
        true
    }

    /// Elsewhere, attributes are not copied: the file is written in place when it has any
    /// that matter; that cannot be told portably, so always in place.
    #[cfg(not(target_os = "linux"))]
    fn copy_attributes(_from: &Path, _to: std::os::fd::RawFd) -> bool {
        false
    }
}

#[cfg(not(unix))]
mod imp {
    use super::*;

    pub(super) fn replace(
        target: &Path,
        original: &Original,
        text: &str,
    ) -> Result<Replaced, WriteFailure> {
        let temporary = temporary_name(target);
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)
            .and_then(|mut file| {
                file.write_all(text.as_bytes())?;
                file.sync_all()
            })
            .and_then(|()| std::fs::set_permissions(&temporary, original.metadata.permissions()));
        let result = written.and_then(|()| match still_as_read(target, original)? {
            true => std::fs::rename(&temporary, target).map(|()| Replaced::Written),
            false => Ok(Replaced::ChangedMeanwhile),
        });
        let _ = std::fs::remove_file(&temporary);
        result.map_err(WriteFailure::Io)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    /// [`super::replace`] with its error as the message the command prints.
    fn replace(path: &Path, original: &Original, text: &str) -> Result<Replaced, String> {
        super::replace(path, original, text).map_err(|e| e.to_string())
    }

    fn dir(name: &str) -> pcl_test_support::TempDir {
        pcl_test_support::TempDir::new(&format!("replace-{name}"))
    }

    fn read(path: &Path) -> Original {
        let (bytes, metadata) =
            pcl_project::files::read_limited_with_metadata(path, 1 << 20).expect("read");
        Original { bytes, metadata }
    }

    /// Files in `dir` other than `keep`: temporaries and backups left behind.
    fn leftovers(dir: &Path, keep: &[&str]) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| !keep.contains(&n.as_str()))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_rewritten_after_it_was_read_is_left_as_it_is_now() {
        let dir = dir("rewritten");
        let path = dir.join("a.pp");
        std::fs::write(&path, "a=1\n").expect("write");
        let original = read(&path);
        // Another program writes it (same inode, new text).
        std::fs::write(&path, "a = 2 # theirs\n").expect("write");
        assert_eq!(
            replace(&path, &original, "a = 1\n"),
            Ok(Replaced::ChangedMeanwhile)
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a = 2 # theirs\n");
        // Truncated and written again to the same length and time granularity: the bytes
        // tell.
        std::fs::write(&path, "a=1\n").expect("write");
        let original = read(&path);
        std::fs::write(&path, "b=1\n").expect("write");
        assert_eq!(
            replace(&path, &original, "a = 1\n"),
            Ok(Replaced::ChangedMeanwhile)
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "b=1\n");
        assert_eq!(leftovers(&dir, &["a.pp"]), Vec::<String>::new());
    }

    #[test]
    fn an_editors_atomic_save_after_the_read_is_kept() {
        let dir = dir("atomic-save");
        let path = dir.join("a.pp");
        std::fs::write(&path, "a=1\n").expect("write");
        let original = read(&path);
        let saved = dir.join(".a.pp.swp");
        std::fs::write(&saved, "a=1\n").expect("write");
        std::fs::rename(&saved, &path).expect("rename");
        assert_eq!(
            replace(&path, &original, "a = 1\n"),
            Ok(Replaced::ChangedMeanwhile)
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a=1\n");
        assert_eq!(leftovers(&dir, &["a.pp"]), Vec::<String>::new());
    }

    #[test]
    fn temporaries_are_created_exclusively_with_the_final_mode() {
        let dir = dir("exclusive");
        let target = dir.join("a.pp");
        let victim = dir.join("victim");
        std::fs::write(&victim, "keep me\n").expect("write");
        std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
        // The names are random, so no link can be planted at the next one; what is checked is
        // the primitive: an exclusive creation at a planted link fails and leaves its target
        // alone.
        let planted = dir.join("planted");
        std::os::unix::fs::symlink(&victim, &planted).expect("link");
        let opened = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&planted);
        assert_eq!(
            opened.map(|_| ()).map_err(|e| e.kind()),
            Err(std::io::ErrorKind::AlreadyExists)
        );
        // Names differ from call to call and from the old predictable `.a.pp.pcl-fmt-<pid>`.
        let (first, file) = imp::create_exclusive(&target, 0o600).expect("create");
        let (second, _) = imp::create_exclusive(&target, 0o600).expect("create");
        assert_ne!(first, second);
        assert_ne!(
            first.file_name().unwrap().to_string_lossy(),
            format!(".a.pp.pcl-fmt-{}", std::process::id())
        );
        assert!(first
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with(".a.pp.pcl-fmt-"));
        // Mode 0600 from the moment it exists.
        assert_eq!(file.metadata().unwrap().mode() & 0o777, 0o600);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
        assert_eq!(std::fs::metadata(&victim).unwrap().mode() & 0o777, 0o644);
    }

    #[test]
    fn files_with_names_of_the_longest_length_are_written() {
        let dir = dir("long-name");
        // 255 bytes, the limit, with multi-byte characters where the name is cut.
        let name = format!("{}.pp", "é".repeat(125) + "xy");
        assert_eq!(name.len(), 255);
        let path = dir.join(&name);
        std::fs::write(&path, "a=1\n").expect("write");
        let original = read(&path);
        assert_eq!(replace(&path, &original, "a = 1\n"), Ok(Replaced::Written));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a = 1\n");
        // Hard-linked: the backup's name is shortened too.
        std::fs::hard_link(&path, dir.join("other.pp")).expect("link");
        let original = read(&path);
        assert_eq!(replace(&path, &original, "a = 2\n"), Ok(Replaced::Written));
        assert_eq!(
            leftovers(&dir, &[name.as_str(), "other.pp"]),
            Vec::<String>::new()
        );
    }

    #[test]
    fn read_only_files_are_refused() {
        let dir = dir("read-only");
        let path = dir.join("a.pp");
        std::fs::write(&path, "a=1\n").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let original = read(&path);
        let result = replace(&path, &original, "a = 1\n");
        assert!(
            result
                .as_ref()
                .is_err_and(|e| e.contains("permission denied")),
            "{result:?}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a=1\n");
    }

    #[test]
    fn identity_is_kept_mode_owner_group_links_and_attributes() {
        let dir = dir("identity");
        let path = dir.join("a.pp");
        std::fs::write(&path, "a=1\n").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let root = unsafe { libc::geteuid() } == 0;
        if root {
            std::os::unix::fs::chown(&path, Some(4321), Some(8765)).expect("chown");
        }
        let with_attribute = set_attribute(&path, "user.pcl-test", b"kept");
        let before = std::fs::metadata(&path).unwrap();
        let original = read(&path);
        assert_eq!(replace(&path, &original, "a = 1\n"), Ok(Replaced::Written));
        let after = std::fs::metadata(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a = 1\n");
        assert_eq!(after.mode() & 0o7777, 0o640);
        assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
        // Replaced atomically (a new inode renamed over the name), not written in place.
        assert_ne!(after.ino(), before.ino());
        if with_attribute {
            assert_eq!(
                get_attribute(&path, "user.pcl-test"),
                Some(b"kept".to_vec())
            );
        } else {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "note: skipped the extended attribute: the file system has none"
            );
        }

        // Hard links: every name sees the new text (the file is written in place).
        let other = dir.join("b.pp");
        std::fs::hard_link(&path, &other).expect("link");
        let original = read(&path);
        assert_eq!(replace(&path, &original, "a = 2\n"), Ok(Replaced::Written));
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "a = 2\n");
        let linked = std::fs::metadata(&path).unwrap();
        assert_eq!(linked.ino(), std::fs::metadata(&other).unwrap().ino());
        assert_eq!(linked.mode() & 0o7777, 0o640);
        assert_eq!(leftovers(&dir, &["a.pp", "b.pp"]), Vec::<String>::new());
    }

    #[test]
    fn a_symbolic_link_named_stays_a_link_to_the_written_file() {
        let dir = dir("link");
        let path = dir.join("real.pp");
        std::fs::write(&path, "a=1\n").expect("write");
        let link = dir.join("link.pp");
        std::os::unix::fs::symlink("real.pp", &link).expect("link");
        let original = read(&link);
        assert_eq!(replace(&link, &original, "a = 1\n"), Ok(Replaced::Written));
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a = 1\n");
    }

    fn set_attribute(path: &Path, name: &str, value: &[u8]) -> bool {
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        let name = std::ffi::CString::new(name).unwrap();
        // SAFETY: valid C strings and a buffer of the given length.
        unsafe {
            libc::setxattr(
                path.as_ptr(),
                name.as_ptr(),
                value.as_ptr().cast(),
                value.len(),
                0,
            ) == 0
        }
    }

    fn get_attribute(path: &Path, name: &str) -> Option<Vec<u8>> {
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        let name = std::ffi::CString::new(name).unwrap();
        let mut value = vec![0u8; 256];
        // SAFETY: valid C strings and a buffer of the given length.
        let size = unsafe {
            libc::getxattr(
                path.as_ptr(),
                name.as_ptr(),
                value.as_mut_ptr().cast(),
                value.len(),
            )
        };
        (size >= 0).then(|| {
            value.truncate(size as usize);
            value
        })
    }
}
