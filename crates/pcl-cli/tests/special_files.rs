//! What `pcl` reads and refuses to read: FIFOs and devices named like sources, project files
//! (`Pulumi.yaml`) of every hostile kind, and components that include each other. Every run
//! has a time limit, so that a read that blocks fails the test instead of hanging it.
#![cfg(unix)]

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use expect_test::expect;

mod common;

use common::temp_dir;

/// `pcl ARGS...` in `dir` with stdin closed: (status, stdout, stderr), or a panic when it runs
/// for more than 60 seconds.
fn pcl(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .current_dir(dir)
        .env_remove("PCL_SCHEMA_PATH")
        .env("HOME", dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pcl runs");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("pcl {args:?} did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().expect("output");
    (
        output.status.code().expect("exited normally"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn mkfifo(path: &Path) {
    let name = CString::new(path.as_os_str().as_bytes()).expect("no NUL");
    // SAFETY: a valid C string; mkfifo only reads it.
    let ret = unsafe { libc::mkfifo(name.as_ptr(), 0o644) };
    assert_eq!(ret, 0, "mkfifo {}", path.display());
}

#[test]
fn fifos_in_directories_are_skipped_with_a_warning_and_refused_when_named() {
    let dir = temp_dir("special-fifo", &[("src/ok.pp", "a = 1\n")]);
    mkfifo(&dir.join("src/pipe.pp"));

    let (status, out, err) = pcl(&dir, &["check", "--emit-types", "src"]);
    assert_eq!((status, out.as_str()), (0, "a: int\n"));
    expect![[r#"
        warning: skipped `src/pipe.pp`: it is a FIFO (named pipe), not a regular file
    "#]]
    .assert_eq(&err);

    let (status, _, err) = pcl(&dir, &["parse", "src"]);
    assert_eq!(status, 0);
    expect![[r#"
        warning: skipped `src/pipe.pp`: it is a FIFO (named pipe), not a regular file
    "#]]
    .assert_eq(&err);

    let (status, _, err) = pcl(&dir, &["fmt", "--check", "src"]);
    assert_eq!(status, 0);
    assert!(
        err.contains(
            "warning: skipped `src/pipe.pp`: it is a FIFO (named pipe), not a regular file"
        ),
        "{err}"
    );

    // Named explicitly: an I/O error that says what the file is, in the same words for every
    // command.
    for command in ["check", "parse", "fmt"] {
        let (status, _, err) = pcl(&dir, &[command, "src/pipe.pp"]);
        assert_eq!(status, 2, "{command}: {err}");
        assert_eq!(
            err,
            "error: cannot read `src/pipe.pp`: it is a FIFO (named pipe), not a regular file\n",
            "{command}"
        );
        let (status, _, err) = pcl(&dir, &[command, "/dev/null"]);
        assert_eq!(status, 2, "{command}: {err}");
        assert_eq!(
            err, "error: cannot read `/dev/null`: it is a character device, not a regular file\n",
            "{command}"
        );
    }
}

#[test]
fn pulumi_yaml_is_read_as_yaml() {
    let dir = temp_dir(
        "special-yaml-main",
        &[
            (
                "project/Pulumi.yaml",
                "name: site # the stack's project\nruntime: pcl\nmain: src/ # where the program lives\ntemplate:\n  main: elsewhere\n",
            ),
            ("project/src/main.pp", "b = 2\n"),
            ("project/top.pp", "this = \"is not the program\"\n"),
        ],
    );
    let (status, out, err) = pcl(&dir, &["check", "--emit-types", "project"]);
    assert_eq!((status, out.as_str(), err.as_str()), (0, "b: int\n", ""));
}

#[test]
fn hostile_project_files_are_refused_with_a_reason() {
    let dir = temp_dir(
        "special-yaml-hostile",
        &[
            ("missing/Pulumi.yaml", "name: x\nmain: nowhere\n"),
            ("missing/main.pp", "a = 1\n"),
            ("invalid/Pulumi.yaml", "name: [x\n"),
            ("invalid/main.pp", "a = 1\n"),
            ("list/Pulumi.yaml", "main:\n  - src\n"),
            ("list/main.pp", "a = 1\n"),
            ("fifo/main.pp", "a = 1\n"),
            ("zero/main.pp", "a = 1\n"),
            ("large/main.pp", "a = 1\n"),
        ],
    );
    mkfifo(&dir.join("fifo/Pulumi.yaml"));
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero/Pulumi.yaml")).expect("link");
    let mut large = String::from("name: x\ndescription: ");
    large.push_str(&"x".repeat(2 << 20));
    std::fs::write(dir.join("large/Pulumi.yaml"), large).expect("write");

    let mut report = String::new();
    for case in ["missing", "invalid", "list", "fifo", "zero", "large"] {
        let (status, out, err) = pcl(&dir, &["check", case]);
        assert_eq!((status, out.as_str()), (2, ""), "{case}: {err}");
        report.push_str(&err);
    }
    expect![[r#"
        error: `missing/Pulumi.yaml` names `main: nowhere`, but `missing/nowhere` does not exist
        error: invalid project file `invalid/Pulumi.yaml`: invalid YAML at line 2, column 1: while parsing a flow sequence, expected ',' or ']'
        error: invalid project file `list/Pulumi.yaml`: line 2: `main` must be a string (the program's directory)
        error: cannot read `fifo/Pulumi.yaml`: it is a FIFO (named pipe), not a regular file
        error: cannot read `zero/Pulumi.yaml`: it is a character device, not a regular file
        error: cannot read `large/Pulumi.yaml`: it is over 1024 KiB, too large for a project file
    "#]]
    .assert_eq(&report);
}

/// `a` includes `b`, which includes `a`; `c` uses `a`.
fn two_cycle() -> pcl_test_support::TempDir {
    temp_dir(
        "special-cycle-2",
        &[
            (
                "a/main.pp",
                "config n int {\n  default = 1\n}\ncomponent other \"../b\" {\n  n = 2\n}\noutput fromA {\n  value = n + 1\n}\noutput viaB {\n  value = other.fromB\n}\n",
            ),
            (
                "b/main.pp",
                "config n int {\n  default = 1\n}\ncomponent back \"../a\" {\n  n = 3\n}\noutput fromB {\n  value = back.fromA\n}\n",
            ),
            ("c/main.pp", "component a \"../a\" {}\nx = a.fromA + 1\n"),
        ],
    )
}

#[test]
fn a_cycle_of_components_is_one_error_whichever_program_is_checked() {
    let dir = two_cycle();
    let expected = expect![[r#"
        b/main.pp:4:16: error[E0510]: cannot use `../a` as a component: it includes this program again, a cycle of components (`a` → `b` → `a`); a component cannot include itself, directly or through others
          |
        4 | component back "../a" {
          |                ^^^^^^
        1 error
    "#]];
    for program in ["a", "b", "c"] {
        let (status, _, err) = pcl(&dir, &["check", program]);
        assert_eq!(status, 1, "{program}: {err}");
        expected.assert_eq(&err);
    }
    // The program that uses one of the cycle sees its whole interface: no false error, and
    // its types.
    let (_, out, _) = pcl(&dir, &["check", "--emit-types", "c"]);
    assert!(
        out.starts_with("a: { fromA: output(int), viaB: output(dynamic) }\nx: output(int)\n"),
        "{out}"
    );
}

#[test]
fn a_longer_cycle_names_its_chain() {
    let dir = temp_dir(
        "special-cycle-3",
        &[
            (
                "p/main.pp",
                "component q \"../q\" {}\noutput o {\n  value = q.o\n}\n",
            ),
            (
                "q/main.pp",
                "component r \"../r\" {}\noutput o {\n  value = r.o\n}\n",
            ),
            (
                "r/main.pp",
                "component p \"../p\" {}\noutput o {\n  value = p.o\n}\n",
            ),
            ("user/main.pp", "component q \"../q\" {}\nv = q.o\n"),
        ],
    );
    let expected = expect![[r#"
        r/main.pp:1:13: error[E0510]: cannot use `../p` as a component: it includes this program again, a cycle of components (`p` → `q` → `r` → `p`); a component cannot include itself, directly or through others
          |
        1 | component p "../p" {}
          |             ^^^^^^
        1 error
    "#]];
    for program in ["user", "r", "q", "p"] {
        let (status, _, err) = pcl(&dir, &["check", program]);
        assert_eq!(status, 1, "{program}: {err}");
        expected.assert_eq(&err);
    }
}
