//! The one wording of every command for what it cannot read, "cannot read `PATH`: REASON" (the
//! path as given, in backticks; the reason in lowercase, without the system's error number),
//! and exit status 2. FIFOs and devices are in `special_files.rs`, files over the size limit in
//! `hostile_cli.rs`.

use expect_test::expect;

mod common;

use common::{pcl, temp_dir};

/// Runs `pcl COMMAND ARGS...` for each command and gathers what they print on stderr; each
/// must exit 2 and print nothing on stdout.
fn errors(dir: &std::path::Path, commands: &[&str], args: &[&str]) -> String {
    let mut report = String::new();
    for command in commands {
        let (status, out, err) = pcl(dir, command, args);
        assert_eq!((status, out.as_str()), (2, ""), "{command}: {err}");
        report.push_str(&format!("{command}: {err}"));
    }
    report
}

#[test]
fn every_command_says_cannot_read_with_the_path_in_backticks() {
    let dir = temp_dir("io-errors", &[("file.pp", "a = 1\n")]);
    let commands = ["check", "parse", "fmt"];
    expect![[r#"
        check: error: cannot read `missing.pp`: no such file or directory
        parse: error: cannot read `missing.pp`: no such file or directory
        fmt: error: cannot read `missing.pp`: no such file or directory
    "#]]
    .assert_eq(&errors(&dir, &commands, &["missing.pp"]));
    expect![[r#"
        check: error: cannot read `/nonexistent/main.pp`: no such file or directory
        parse: error: cannot read `/nonexistent/main.pp`: no such file or directory
        fmt: error: cannot read `/nonexistent/main.pp`: no such file or directory
    "#]]
    .assert_eq(&errors(&dir, &commands, &["/nonexistent/main.pp"]));
    expect![[r#"
        check: error: cannot read `missing-dir/`: no such file or directory
        parse: error: cannot read `missing-dir/`: no such file or directory
        fmt: error: cannot read `missing-dir/`: no such file or directory
    "#]]
    .assert_eq(&errors(&dir, &commands, &["missing-dir/"]));
    // A file used as a directory.
    expect![[r#"
        check: error: cannot read `file.pp/main.pp`: not a directory
        parse: error: cannot read `file.pp/main.pp`: not a directory
        fmt: error: cannot read `file.pp/main.pp`: not a directory
    "#]]
    .assert_eq(&errors(&dir, &commands, &["file.pp/main.pp"]));
    // `pcl bench parse`: the list, and a file it names.
    std::fs::write(dir.join("list"), "file.pp\nmissing.pp\n").expect("write");
    expect![[r#"
        bench: error: cannot read `missing.list`: no such file or directory
        bench: error: cannot read `missing.pp`: no such file or directory
    "#]]
    .assert_eq(
        &(errors(&dir, &["bench"], &["parse", "missing.list"])
            + &errors(&dir, &["bench"], &["parse", "list"])),
    );
}

#[test]
fn the_other_paths_are_still_read() {
    let dir = temp_dir("io-errors-others", &[("a.pp", "a   =   1\n")]);
    let (status, _, err) = pcl(&dir, "check", &["--emit-types", "missing.pp", "a.pp"]);
    assert_eq!(status, 2);
    assert_eq!(
        err,
        "error: cannot read `missing.pp`: no such file or directory\n"
    );
    let (status, out, _) = pcl(&dir, "check", &["--emit-types", "a.pp", "missing.pp"]);
    assert_eq!((status, out.as_str()), (2, "a: int\n"));
    let (status, out, err) = pcl(&dir, "fmt", &["missing.pp", "a.pp"]);
    assert_eq!((status, out.as_str()), (2, "a.pp\n"), "{err}");
}
