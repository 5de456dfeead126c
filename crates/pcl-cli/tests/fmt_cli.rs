//! `pcl fmt` end to end: rewriting in place (only files that change), `--check`, `--diff`,
//! standard input, directories (extensions, hidden directories), files with syntax errors, and
//! exit statuses (0 done, 1 unformatted files under `--check`, 2 usage or I/O errors).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use expect_test::expect;

mod common;

use common::temp_dir;

const UNFORMATTED: &str = "a=1\nlonger = { x=1 }\n";
const FORMATTED: &str = "a      = 1\nlonger = { x = 1 }\n";

fn pcl_fmt(dir: &Path, args: &[&str]) -> (i32, String, String) {
    common::pcl(dir, "fmt", args)
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).expect("read")
}

fn modified(dir: &Path, file: &str) -> std::time::SystemTime {
    std::fs::metadata(dir.join(file))
        .and_then(|m| m.modified())
        .expect("mtime")
}

#[test]
fn rewrites_only_the_files_that_change() {
    let dir = temp_dir(
        "fmt-rewrite",
        &[("main.pp", UNFORMATTED), ("done.tf", FORMATTED)],
    );
    let before = modified(&dir, "done.tf");
    std::thread::sleep(std::time::Duration::from_millis(20));
    let (status, out, err) = pcl_fmt(&dir, &["main.pp", "done.tf"]);
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(read(&dir, "main.pp"), FORMATTED);
    assert_eq!(
        modified(&dir, "done.tf"),
        before,
        "an unchanged file is not written"
    );
    // Formatting again changes nothing.
    let (status, out, _) = pcl_fmt(&dir, &["--check", "main.pp"]);
    assert_eq!((status, out.as_str()), (0, ""));
}

#[test]
fn check_lists_unformatted_files_and_exits_1_without_writing() {
    let dir = temp_dir(
        "fmt-check",
        &[
            ("a.pp", UNFORMATTED),
            ("b.tf", FORMATTED),
            ("c.hcl", UNFORMATTED),
        ],
    );
    let (status, out, err) = pcl_fmt(&dir, &["--check", "."]);
    assert_eq!(status, 1);
    assert_eq!(err, "");
    expect![[r#"
        ./a.pp
        ./c.hcl
    "#]]
    .assert_eq(&out);
    assert_eq!(read(&dir, "a.pp"), UNFORMATTED);
}

#[test]
fn diff_prints_a_unified_diff_without_writing() {
    let dir = temp_dir("fmt-diff", &[("main.pp", UNFORMATTED)]);
    let (status, out, err) = pcl_fmt(&dir, &["--diff", "main.pp"]);
    assert_eq!((status, err.as_str()), (0, ""));
    expect![[r#"
        --- main.pp
        +++ main.pp
        @@ -1,2 +1,2 @@
        -a=1
        -longer = { x=1 }
        +a      = 1
        +longer = { x = 1 }
    "#]]
    .assert_eq(&out);
    assert_eq!(read(&dir, "main.pp"), UNFORMATTED);
    // With --check as well, the status says whether anything would change.
    let (status, _, _) = pcl_fmt(&dir, &["--diff", "--check", "main.pp"]);
    assert_eq!(status, 1);
}

fn pcl_fmt_stdin(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .arg("fmt")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pcl runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    let output = child.wait_with_output().expect("pcl exits");
    (
        output.status.code().expect("exited normally"),
        String::from_utf8(output.stdout).expect("UTF-8"),
        String::from_utf8(output.stderr).expect("UTF-8"),
    )
}

#[test]
fn standard_input_is_formatted_to_standard_output() {
    let (status, out, err) = pcl_fmt_stdin(&["-"], UNFORMATTED.as_bytes());
    assert_eq!((status, out.as_str(), err.as_str()), (0, FORMATTED, ""));
    let (status, out, _) = pcl_fmt_stdin(&["--check", "-"], UNFORMATTED.as_bytes());
    assert_eq!((status, out.as_str()), (1, "<stdin>\n"));
    let (status, out, _) = pcl_fmt_stdin(&["--check", "-"], FORMATTED.as_bytes());
    assert_eq!((status, out.as_str()), (0, ""));
}

#[test]
fn syntax_errors_leave_the_damaged_item_as_written_and_say_so() {
    let input = "a   =   1\nb = = 2\nc   =   3\n";
    let (status, out, err) = pcl_fmt_stdin(&["-"], input.as_bytes());
    assert_eq!(status, 0);
    assert_eq!(out, "a = 1\nb = = 2\nc = 3\n");
    expect![[r#"
        warning: <stdin>: an item with syntax errors left as written (line 2); `pcl parse <stdin>` shows the errors
    "#]]
    .assert_eq(&err);
}

#[test]
fn directories_take_known_extensions_and_skip_hidden_directories() {
    let dir = temp_dir(
        "fmt-walk",
        &[
            ("main.pp", UNFORMATTED),
            ("vars.tfvars", UNFORMATTED),
            ("modules/net/main.tf", UNFORMATTED),
            ("notes.txt", UNFORMATTED),
            (".terraform/cached.tf", UNFORMATTED),
        ],
    );
    let (status, out, _) = pcl_fmt(&dir, &["--check"]);
    assert_eq!(status, 1);
    expect![[r#"
        ./main.pp
        ./modules/net/main.tf
        ./vars.tfvars
    "#]]
    .assert_eq(&out);
    // A directory reached through a symbolic link (here back to a parent) is not entered.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&dir, dir.join("modules/loop")).expect("symlink");
        let (status, out, _) = pcl_fmt(&dir, &["--check"]);
        assert_eq!((status, out.lines().count()), (1, 3), "{out}");
    }
    // A file named explicitly is formatted whatever its extension.
    let (status, out, _) = pcl_fmt(&dir, &["--check", "notes.txt"]);
    assert_eq!((status, out.as_str()), (1, "notes.txt\n"));
}

#[test]
fn usage_and_io_errors_exit_2() {
    let dir = temp_dir("fmt-errors", &[("main.pp", UNFORMATTED)]);
    std::fs::write(dir.join("latin1.pp"), b"a = \"caf\xe9\"\n").expect("write");
    let (status, _, err) = pcl_fmt(&dir, &["missing.pp", "main.pp"]);
    assert_eq!(status, 2);
    assert_eq!(
        err,
        "error: cannot read `missing.pp`: no such file or directory\n"
    );
    // The other files are still formatted.
    assert_eq!(read(&dir, "main.pp"), FORMATTED);
    let (status, _, err) = pcl_fmt(&dir, &["latin1.pp"]);
    assert_eq!(status, 2);
    expect![[r#"
        error: `latin1.pp`: not valid UTF-8 (invalid byte at offset 8); the file was left unchanged
    "#]]
    .assert_eq(&err);
    let (status, _, err) = pcl_fmt(&dir, &["-", "main.pp"]);
    assert_eq!(status, 2);
    assert_eq!(
        err,
        "error: `-` (standard input) cannot be combined with other paths\n"
    );
    let (status, _, _) = pcl_fmt(&dir, &["--no-such-flag"]);
    assert_eq!(status, 2);
}
