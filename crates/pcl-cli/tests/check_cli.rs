//! `pcl check` end to end: rendering, `--emit-types`, programs of one file and of a
//! directory, and exit statuses (0 clean, 1 errors, 2 usage or I/O errors).

use std::path::{Path, PathBuf};

use expect_test::expect;

mod common;

use common::example;

/// Runs `pcl check ARGS...` in `dir`: (exit status, stdout, stderr).
fn pcl_check(dir: &Path, args: &[&str]) -> (i32, String, String) {
    common::pcl(dir, "check", args)
}

fn temp_program(name: &str, files: &[(&str, &str)]) -> PathBuf {
    common::temp_dir(&format!("check-{name}"), files)
}

#[test]
fn the_example_program_is_clean_and_prints_its_types() {
    let (status, out, err) = pcl_check(
        &example("static-website"),
        &["--schemas", "../schemas", "--emit-types", "."],
    );
    assert_eq!((status, err.as_str()), (0, ""));
    expect![[r#"
        siteName: string
        pages: list(string)
        caller: promise({ accountId: string, arn: string, id: string, userId: string })
        siteBucket: resource(aws:s3:Bucket)
        pageObjects: list(resource(aws:s3:BucketObject))
        commonTags: { owner: string, project: string }
        siteUrl: output(string)
        objectKeys: list(output(string))
    "#]]
    .assert_eq(&out);
}

#[test]
fn errors_are_rendered_rustc_style_and_exit_1() {
    let dir = temp_program(
        "errors",
        &[
            (
                "main.pp",
                "config port int {\n  default = \"eighty\"\n}\nsize = lenght(names)\n",
            ),
            (
                "names.pp",
                "names = [\"a\", \"b\"]\nnames = 1\nwarn = names.0\nresourse x \"t\" {}\n",
            ),
        ],
    );
    let (status, out, err) = pcl_check(&dir, &["."]);
    assert_eq!((status, out.as_str()), (1, ""));
    expect![[r#"
        ./main.pp:2:13: error[E0304]: the default value does not fit the config's type int: the string "eighty" is not a number
          |
        2 |   default = "eighty"
          |             ^^^^^^^^
        ./main.pp:4:8: error[E0302]: unknown function 'lenght'
          |
        4 | size = lenght(names)
          |        ^^^^^^
        help: did you mean 'length'?
        ./names.pp:2:1: error[E0025]: Attribute redefined: `names` is already set in this body; each argument may be set only once
          |
        2 | names = 1
          | ^^^^^
        ./names.pp:1:1: note: `names` is first set here
          |
        1 | names = ["a", "b"]
          | ^^^^^
        ./names.pp:4:1: warning[W0202]: unknown block type 'resourse'; the block is ignored
          |
        4 | resourse x "t" {}
          | ^^^^^^^^
        help: did you mean 'resource'?
        3 errors, 1 warning
    "#]]
    .assert_eq(&err);
}

#[test]
fn a_single_file_is_a_program_and_warnings_alone_exit_0() {
    let dir = temp_program("warnings", &[("main.pp", "x = null.foo\n")]);
    let (status, out, err) = pcl_check(&dir, &["--emit-types", "main.pp"]);
    assert_eq!((status, out.as_str()), (0, "x: none\n"));
    expect![[r#"
        main.pp:1:9: warning[W0314]: cannot traverse value of type none
          |
        1 | x = null.foo
          |         ^^^^
        1 warning
    "#]]
    .assert_eq(&err);
}

#[test]
fn missing_paths_and_empty_directories_exit_2() {
    let dir = temp_program("empty", &[]);
    let (status, _, err) = pcl_check(&dir, &["missing.pp"]);
    assert_eq!(status, 2);
    assert!(
        err.contains("missing.pp: no such file or directory"),
        "{err}"
    );
    let (status, _, err) = pcl_check(&dir, &["."]);
    assert_eq!(status, 2);
    assert!(err.contains("no .pp files"), "{err}");
    let (status, _, _) = pcl_check(&dir, &[]);
    assert_eq!(status, 2);
}
