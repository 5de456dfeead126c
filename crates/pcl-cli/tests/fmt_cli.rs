//! `pcl fmt` end to end: rewriting in place (only files that change, each named on standard
//! output; `-q` silences that), `--check`, `--diff`, standard input, directories (extensions,
//! hidden directories, recursion), files with syntax errors, and exit statuses (0 done, 1 files
//! with syntax errors or, under `--check`, not formatted, 2 usage or I/O errors).

use std::path::Path;

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
    // Each file rewritten is named, as `terraform fmt` does.
    assert_eq!((status, out.as_str(), err.as_str()), (0, "main.pp\n", ""));
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
    common::pcl_with_stdin(&std::env::temp_dir(), "fmt", args, input)
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
fn syntax_errors_leave_the_damaged_item_as_written_and_exit_1() {
    let input = "a   =   1\nb = = 2\nc   =   3\n";
    let (status, out, err) = pcl_fmt_stdin(&["-"], input.as_bytes());
    assert_eq!(status, 1);
    assert_eq!(out, "a = 1\nb = = 2\nc = 3\n");
    expect![[r#"
        error: `<stdin>`: 1 syntax error (`pcl parse -` shows it); the item on line 2 was left as written
    "#]]
    .assert_eq(&err);
    let (status, out, _) = pcl_fmt_stdin(&["--check", "-"], input.as_bytes());
    assert_eq!((status, out.as_str()), (1, "<stdin>\n"));
}

#[test]
fn rewritten_files_are_named_on_standard_output_and_quiet_silences_them() {
    let dir = temp_dir(
        "fmt-named",
        &[
            ("a.pp", UNFORMATTED),
            ("b.pp", FORMATTED),
            ("sub/c.tf", UNFORMATTED),
        ],
    );
    let (status, out, err) = pcl_fmt(&dir, &[]);
    assert_eq!((status, err.as_str()), (0, ""));
    expect![[r#"
        ./a.pp
        ./sub/c.tf
    "#]]
    .assert_eq(&out);
    assert_eq!(read(&dir, "sub/c.tf"), FORMATTED);
    // Nothing left to do: nothing named.
    let (status, out, err) = pcl_fmt(&dir, &["."]);
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));

    std::fs::write(dir.join("a.pp"), UNFORMATTED).expect("write");
    for quiet in ["-q", "--quiet"] {
        std::fs::write(dir.join("b.pp"), UNFORMATTED).expect("write");
        let (status, out, err) = pcl_fmt(&dir, &["--check", quiet]);
        assert_eq!((status, out.as_str(), err.as_str()), (1, "", ""), "{quiet}");
        let (status, out, err) = pcl_fmt(&dir, &[quiet, "b.pp"]);
        assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""), "{quiet}");
        assert_eq!(read(&dir, "b.pp"), FORMATTED);
    }
    // `--quiet` silences the names, not the diff asked for.
    let (status, out, _) = pcl_fmt(&dir, &["--diff", "-q", "a.pp"]);
    assert_eq!(status, 0);
    assert!(out.starts_with("--- a.pp\n+++ a.pp\n"), "{out}");
}

#[test]
fn check_fails_on_files_with_syntax_errors_and_names_them() {
    let dir = temp_dir(
        "fmt-check-broken",
        &[
            ("good.pp", FORMATTED),
            // Formatted, but broken: `pcl fmt --check` must not pass it.
            ("broken.pp", "a = (\n"),
            // Only an error that does not damage the layout: an attribute set twice.
            ("twice.pp", "a = 1\na = 2\n"),
            // Broken and not formatted.
            ("both.pp", "a   =   1\nb = = 2\nc   =   3\nd = \"${x\"\n"),
        ],
    );
    let (status, out, err) = pcl_fmt(&dir, &["--check", "."]);
    assert_eq!(status, 1, "{err}");
    expect![[r#"
        ./both.pp
        ./broken.pp
        ./twice.pp
    "#]]
    .assert_eq(&out);
    expect![[r#"
        error: `./both.pp`: 2 syntax errors (`pcl parse ./both.pp` shows them); the items on lines 2 and 4 were left as written
        error: `./broken.pp`: 1 syntax error (`pcl parse ./broken.pp` shows it); the item on line 1 was left as written
        error: `./twice.pp`: 1 syntax error (`pcl parse ./twice.pp` shows it)
    "#]]
    .assert_eq(&err);
    // `pcl parse` fails on exactly these files.
    for file in ["both.pp", "broken.pp", "twice.pp"] {
        assert_eq!(common::pcl(&dir, "parse", &[file]).0, 1, "{file}");
    }
    assert_eq!(common::pcl(&dir, "parse", &["good.pp"]).0, 0);

    // Without `--check`, the file is formatted but for the damaged items, and the status is
    // still 1: a script or a commit hook that formats must not pass a broken file either.
    let (status, out, err) = pcl_fmt(&dir, &["both.pp", "good.pp"]);
    assert_eq!((status, out.as_str()), (1, "both.pp\n"), "{err}");
    assert_eq!(
        read(&dir, "both.pp"),
        "a = 1\nb = = 2\nc = 3\nd = \"${x\"\n"
    );
    let (status, out, _) = pcl_fmt(&dir, &["good.pp"]);
    assert_eq!((status, out.as_str()), (0, ""));
}

/// A file whose errors make its layout ambiguous (where a block ends depends on indentation)
/// is left exactly as written, and fails like any other broken file.
#[test]
fn a_file_whose_errors_make_the_layout_ambiguous_is_kept_whole() {
    let input = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../test_data/fuzz/format/unmatched-brace-after-damaged-parenthesis"),
    )
    .expect("fuzz case");
    let dir = temp_dir("fmt-kept-whole", &[]);
    std::fs::write(dir.join("kept.pp"), &input).expect("write");
    for args in [&["--check", "kept.pp"][..], &["kept.pp"]] {
        let (status, out, err) = pcl_fmt(&dir, args);
        assert_eq!(status, 1, "{args:?}");
        let listed = if args[0] == "--check" {
            "kept.pp\n"
        } else {
            ""
        };
        assert_eq!(out, listed);
        expect![[r#"
            error: `kept.pp`: 2 syntax errors (`pcl parse kept.pp` shows them); the whole file was left as written (with these errors, where a block ends depends on indentation, which formatting would change)
        "#]]
        .assert_eq(&err);
        assert_eq!(std::fs::read(dir.join("kept.pp")).expect("read"), input);
    }
}

#[test]
fn directories_are_walked_recursively_unless_no_recursive() {
    let dir = temp_dir(
        "fmt-recursion",
        &[
            ("top.pp", UNFORMATTED),
            ("sub/inner.pp", UNFORMATTED),
            ("sub/deeper/inner.tf", UNFORMATTED),
        ],
    );
    let (status, out, _) = pcl_fmt(&dir, &["--check"]);
    assert_eq!(status, 1);
    expect![[r#"
        ./sub/deeper/inner.tf
        ./sub/inner.pp
        ./top.pp
    "#]]
    .assert_eq(&out);
    let (status, out, _) = pcl_fmt(&dir, &["--check", "--no-recursive", ".", "sub"]);
    assert_eq!(status, 1);
    expect![[r#"
        ./top.pp
        sub/inner.pp
    "#]]
    .assert_eq(&out);
    // The last of `--recursive` (the default, for scripts written for `terraform fmt
    // -recursive`) and `--no-recursive` wins.
    let (_, out, _) = pcl_fmt(&dir, &["--check", "--no-recursive", "--recursive"]);
    assert_eq!(out.lines().count(), 3, "{out}");
    let (_, out, _) = pcl_fmt(&dir, &["--check", "--recursive", "--no-recursive"]);
    assert_eq!(out, "./top.pp\n");
    // A file named is formatted whatever the flag.
    let (status, out, _) = pcl_fmt(&dir, &["--no-recursive", "sub/deeper/inner.tf"]);
    assert_eq!((status, out.as_str()), (0, "sub/deeper/inner.tf\n"));
    assert_eq!(read(&dir, "sub/inner.pp"), UNFORMATTED);
}

#[test]
fn a_directory_with_nothing_to_format_is_no_error() {
    // As for `terraform fmt`; `pcl parse` and `pcl check`, which look for a program, fail.
    let dir = temp_dir(
        "fmt-nothing",
        &[("notes.txt", "not HCL {\n"), ("empty/.keep", "")],
    );
    for args in [&[][..], &["."], &["--check", "empty"], &["--no-recursive"]] {
        let (status, out, err) = pcl_fmt(&dir, args);
        assert_eq!(
            (status, out.as_str(), err.as_str()),
            (0, "", ""),
            "{args:?}"
        );
    }
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
    let (status, out, err) = pcl_fmt(&dir, &["missing.pp", "main.pp"]);
    assert_eq!(status, 2);
    assert_eq!(
        err,
        "error: cannot read `missing.pp`: no such file or directory\n"
    );
    // The other files are still formatted.
    assert_eq!(out, "main.pp\n");
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
    // A syntax error elsewhere does not lower the status of an I/O error.
    std::fs::write(dir.join("broken.pp"), "a = (\n").expect("write");
    let (status, _, _) = pcl_fmt(&dir, &["--check", "broken.pp", "missing.pp"]);
    assert_eq!(status, 2);
}
