//! How `pcl fmt` writes files (`docs/fmt.md`, "Writing files"), end to end: read-only files
//! refused, hard links, modes and owners kept, links out of a walked directory not followed,
//! nothing left behind. Replacement races (a file changed between read and write) are tested
//! on the replacement itself, in `src/replace.rs`.
#![cfg(unix)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

mod common;

use common::{pcl, temp_dir};

const UNFORMATTED: &str = "a=1\nbb = 2\n";
const FORMATTED: &str = "a  = 1\nbb = 2\n";

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn read_only_files_are_refused_and_the_others_formatted() {
    let dir = temp_dir(
        "writes-read-only",
        &[("ro.pp", UNFORMATTED), ("rw.pp", UNFORMATTED)],
    );
    std::fs::set_permissions(dir.join("ro.pp"), std::fs::Permissions::from_mode(0o444))
        .expect("chmod");
    let (status, _, err) = pcl(&dir, "fmt", &["."]);
    assert_eq!(status, 2, "{err}");
    assert_eq!(
        err,
        "error: cannot write `./ro.pp`: permission denied (the file is read-only; it was left unchanged)\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("ro.pp")).unwrap(),
        UNFORMATTED
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("rw.pp")).unwrap(),
        FORMATTED
    );
    // `--check` and `--diff` write nothing, so a read-only file is no error there.
    let (status, out, _) = pcl(&dir, "fmt", &["--check", "."]);
    assert_eq!((status, out.as_str()), (1, "./ro.pp\n"));
}

#[test]
fn mode_owner_and_hard_links_are_kept() {
    let dir = temp_dir(
        "writes-identity",
        &[("a.pp", UNFORMATTED), ("private.pp", UNFORMATTED)],
    );
    std::fs::set_permissions(
        dir.join("private.pp"),
        std::fs::Permissions::from_mode(0o600),
    )
    .expect("chmod");
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::chown(dir.join("private.pp"), Some(4321), Some(8765)).expect("chown");
    }
    let before = std::fs::metadata(dir.join("private.pp")).unwrap();
    std::fs::create_dir(dir.join("other")).unwrap();
    std::fs::hard_link(dir.join("a.pp"), dir.join("other/also-a.txt")).expect("link");

    let (status, _, err) = pcl(&dir, "fmt", &["a.pp", "private.pp"]);
    assert_eq!((status, err.as_str()), (0, ""));
    let after = std::fs::metadata(dir.join("private.pp")).unwrap();
    assert_eq!(after.mode() & 0o7777, 0o600);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    assert_eq!(
        std::fs::read_to_string(dir.join("private.pp")).unwrap(),
        FORMATTED
    );
    // The other name of a.pp sees the new text.
    assert_eq!(
        std::fs::read_to_string(dir.join("other/also-a.txt")).unwrap(),
        FORMATTED
    );
    assert_eq!(
        names(&dir),
        ["a.pp", "other", "private.pp"],
        "nothing left behind"
    );
}

#[test]
fn links_out_of_a_walked_directory_are_not_followed_but_named_links_are() {
    let outside = temp_dir("writes-outside", &[("target.pp", UNFORMATTED)]);
    let dir = temp_dir("writes-walked", &[("inside.pp", UNFORMATTED)]);
    std::os::unix::fs::symlink(outside.join("target.pp"), dir.join("out.pp")).expect("link");
    std::os::unix::fs::symlink("inside.pp", dir.join("again.pp")).expect("link");

    let (status, out, err) = pcl(&dir, "fmt", &["."]);
    assert_eq!((status, out.as_str()), (0, "./inside.pp\n"), "{err}");
    assert_eq!(
        err,
        format!(
            "warning: skipped `./out.pp`: it is a symbolic link to `{}`, outside `.` (name it to format it)\n",
            outside.join("target.pp").canonicalize().unwrap().display()
        )
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("target.pp")).unwrap(),
        UNFORMATTED
    );
    // A link to a file inside is the same file: formatted once, and stays a link.
    assert_eq!(
        std::fs::read_to_string(dir.join("inside.pp")).unwrap(),
        FORMATTED
    );
    assert!(std::fs::symlink_metadata(dir.join("again.pp"))
        .unwrap()
        .is_symlink());

    // Named on the command line, a link is followed: its target is formatted, the link kept.
    let (status, _, err) = pcl(&dir, "fmt", &["out.pp"]);
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(
        std::fs::read_to_string(outside.join("target.pp")).unwrap(),
        FORMATTED
    );
    assert!(std::fs::symlink_metadata(dir.join("out.pp"))
        .unwrap()
        .is_symlink());
    assert_eq!(names(&dir), ["again.pp", "inside.pp", "out.pp"]);
    assert_eq!(names(&outside), ["target.pp"]);
}
