//! `pcl parse` end to end: diagnostics rendering, exit statuses (0 clean, 1 syntax errors,
//! 2 usage or I/O errors), standard input, directories, and the text and JSON tree forms.

use std::path::Path;

use expect_test::expect;

mod common;

use common::{example, temp_dir};

/// Runs `pcl parse ARGS...` in `dir`: (exit status, stdout, stderr).
fn pcl_parse(dir: &Path, args: &[&str]) -> (i32, String, String) {
    common::pcl(dir, "parse", args)
}

#[test]
fn clean_file_exits_0_silently() {
    let (status, out, err) = pcl_parse(&example("static-website"), &["main.pp"]);
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn syntax_errors_are_rendered_with_caret_and_exit_1() {
    let (status, out, err) = pcl_parse(&example("broken"), &["main.pp"]);
    assert_eq!(status, 1);
    assert_eq!(out, "");
    expect![[r#"
        main.pp:5:12: error[E0005]: unterminated string: a quoted string must end with `"` on the line where it starts (use a heredoc for text on several lines)
          |
        5 |   bucket = "my-bucket
          |            ^^^^^^^^^^
        main.pp:6:12: error[E0003]: invalid character: single quotes are not valid; use double quotes (`"`) to write a string
          |
        6 |   acl    = 'private'
          |            ^^^^^^^^^
        main.pp:8:17: error[E0012]: missing attribute separator: expected a newline or `,` after the attribute value
          |
        8 |     env = "dev" team = "web"
          |                 ^^^^
        main.pp:15:15: error[E0004]: unsupported operator `**`: there is no exponent operator; use the `pow` function
           |
        15 |   size   = 10 ** 2
           |               ^^
        main.pp:16:3: error[E0025]: attribute redefined: `key` is already set in this body; each argument may be set only once
           |
        16 |   key    = "error.html"
           |   ^^^
        main.pp:14:3: note: `key` is first set here
           |
        14 |   key    = "index.html"
           |   ^^^
        main.pp:20:19: error[E0014]: unterminated template interpolation: there is no closing `}` for this `${`
           |
        20 |   value = "http://${bucket.websiteEndpoint"
           |                   ^^
    "#]]
    .assert_eq(&err);
}

#[test]
fn unreadable_file_exits_2_and_other_files_are_still_checked() {
    let dir = temp_dir("parse-unreadable", &[]);
    std::fs::write(dir.join("bad.pp"), "a = (\n").unwrap();
    let (status, _, err) = pcl_parse(&dir, &["missing.pp", "bad.pp"]);
    assert_eq!(status, 2, "{err}");
    assert!(
        err.starts_with("error: cannot read `missing.pp`: no such file or directory\n"),
        "{err}"
    );
    assert!(err.contains("\nbad.pp:1:5: error[E0014]: "), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    let (status, _, err) = pcl_parse(&example("broken"), &[]);
    assert_eq!(status, 2);
    assert!(err.contains("Usage"), "{err}");
    let (status, _, _) = pcl_parse(&example("broken"), &["--tree=xml", "main.pp"]);
    assert_eq!(status, 2);
}

#[test]
fn invalid_utf8_is_reported_and_the_rest_parsed() {
    let dir = temp_dir("parse-utf8", &[]);
    std::fs::write(dir.join("latin1.pp"), b"a = \"caf\xe9\"\nb = (\n").unwrap();
    let (status, _, err) = pcl_parse(&dir, &["latin1.pp"]);
    assert_eq!(status, 1);
    expect![[r#"
        latin1.pp:1:9: error[E0001]: invalid character encoding: the file is not valid UTF-8 (the bad bytes are read as U+FFFD)
          |
        1 | a = "caf�"
          |         ^
        latin1.pp:2:5: error[E0014]: unbalanced parentheses: there is no closing `)` for this `(`
          |
        2 | b = (
          |     ^
    "#]]
    .assert_eq(&err);
}

#[test]
fn text_tree() {
    let dir = temp_dir("parse-text-tree", &[]);
    std::fs::write(dir.join("a.pp"), "a = x.y # c\n").unwrap();
    let (status, out, _) = pcl_parse(&dir, &["--tree", "a.pp"]);
    assert_eq!(status, 0);
    expect![[r##"
        SOURCE_FILE@0..12
          BODY@0..12
            ATTRIBUTE@0..7
              IDENT@0..1 "a"
              WHITESPACE@1..2 " "
              EQ@2..3 "="
              WHITESPACE@3..4 " "
              GET_ATTR_EXPR@4..7
                VARIABLE_EXPR@4..5
                  IDENT@4..5 "x"
                DOT@5..6 "."
                IDENT@6..7 "y"
            WHITESPACE@7..8 " "
            COMMENT@8..11 "# c"
            NEWLINE@11..12 "\n"
    "##]]
    .assert_eq(&out);
}

/// The JSON tree's leaves, in order, are the file; offsets are consistent.
#[test]
fn json_tree_leaves_are_the_file() {
    let path = example("static-website").join("main.pp");
    let text = std::fs::read_to_string(&path).unwrap();
    let (status, out, _) = pcl_parse(&example("static-website"), &["--tree=json", "main.pp"]);
    assert_eq!(status, 0);
    let tree: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let mut leaves = String::new();
    let mut stack = vec![&tree];
    let mut nodes = 0;
    while let Some(element) = stack.pop() {
        let (start, end) = (
            element["start"].as_u64().unwrap(),
            element["end"].as_u64().unwrap(),
        );
        assert!(element["kind"].is_string());
        if let Some(children) = element["children"].as_array() {
            nodes += 1;
            stack.extend(children.iter().rev());
        } else {
            let token = element["text"].as_str().unwrap();
            assert_eq!(start as usize, leaves.len());
            assert_eq!((end - start) as usize, token.len());
            leaves.push_str(token);
        }
    }
    assert_eq!(leaves, text);
    assert_eq!(tree["kind"], "SOURCE_FILE");
    assert!(nodes > 50);
}

#[test]
fn a_directory_means_every_pp_file_below_it() {
    let dir = temp_dir("parse-directory", &[]);
    std::fs::create_dir_all(dir.join("program/component")).unwrap();
    std::fs::write(dir.join("program/main.pp"), "a = 1\n").unwrap();
    std::fs::write(dir.join("program/notes.txt"), "not PCL {\n").unwrap();
    std::fs::write(dir.join("program/component/main.pp"), "b = (\n").unwrap();
    let (status, _, err) = pcl_parse(&dir, &["program"]);
    assert_eq!(status, 1, "{err}");
    assert!(
        err.starts_with("program/component/main.pp:1:5: error[E0014]: "),
        "{err}"
    );
    assert_eq!(err.matches(": error[").count(), 1, "{err}");
    let (status, _, err) = pcl_parse(&dir, &["missing-dir/"]);
    assert_eq!(status, 2, "{err}");
}

#[test]
fn standard_input_is_parsed_as_stdin() {
    let dir = temp_dir("parse-stdin", &[]);
    let (status, out, err) = common::pcl_with_stdin(&dir, "parse", &["-"], b"a = 1\n");
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));

    let (status, out, err) = common::pcl_with_stdin(&dir, "parse", &["-"], b"a = 1\nb = (\n");
    assert_eq!((status, out.as_str()), (1, ""));
    expect![[r#"
        <stdin>:2:5: error[E0014]: unbalanced parentheses: there is no closing `)` for this `(`
          |
        2 | b = (
          |     ^
    "#]]
    .assert_eq(&err);

    // The rules of files: invalid UTF-8 is read lossily and reported where it is.
    let (status, _, err) = common::pcl_with_stdin(&dir, "parse", &["-"], b"a = \"caf\xe9\"\n");
    assert_eq!(status, 1);
    assert!(
        err.starts_with("<stdin>:1:9: error[E0001]: invalid character encoding"),
        "{err}"
    );

    let (status, out, _) = common::pcl_with_stdin(&dir, "parse", &["--tree", "-"], b"a = 1\n");
    assert_eq!(status, 0);
    assert!(out.starts_with("SOURCE_FILE@0..6\n"), "{out}");

    let (status, _, err) = common::pcl_with_stdin(&dir, "parse", &["-", "a.pp"], b"a = 1\n");
    assert_eq!(status, 2);
    assert_eq!(
        err,
        "error: `-` (standard input) cannot be combined with other paths\n"
    );
}

/// `pcl parse` and `pcl check` say the same of a directory with no program in it, and exit 2;
/// `pcl fmt`, as `terraform fmt`, finds nothing to do there (exit 0).
#[test]
fn a_directory_with_no_pp_files_is_an_error_as_for_check() {
    let dir = temp_dir("parse-no-pp", &[("empty/notes.txt", "a = (\n")]);
    let parse = pcl_parse(&dir, &["empty"]);
    let check = common::pcl(&dir, "check", &["empty"]);
    assert_eq!(parse, check);
    expect![[r#"
        error: no program in `empty`: the directory holds no `.pp` files
    "#]]
    .assert_eq(&parse.2);
    assert_eq!(parse.0, 2);
    let nothing_to_format = (0, String::new(), String::new());
    assert_eq!(common::pcl(&dir, "fmt", &["empty"]), nothing_to_format);
    assert_eq!(
        common::pcl(&dir, "fmt", &["--check", "empty"]),
        nothing_to_format
    );
    // The other paths are still parsed.
    std::fs::write(dir.join("bad.pp"), "a = (\n").unwrap();
    let (status, _, err) = pcl_parse(&dir, &["empty", "bad.pp"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("\nbad.pp:1:5: error[E0014]: "), "{err}");
    // A directory named twice, or inside another given, is no less a program's directory.
    std::fs::write(dir.join("empty/sub.pp"), "a = 1\n").unwrap();
    let (status, _, err) = pcl_parse(&dir, &[".", "empty", "empty"]);
    assert_eq!((status, err.matches("bad.pp:1:5").count()), (1, 1), "{err}");
}

#[test]
fn a_file_named_twice_or_through_a_link_is_reported_once() {
    let dir = temp_dir("parse-twice", &[("bad.pp", "a = (\n")]);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("bad.pp"), dir.join("link.pp")).unwrap();
        std::fs::hard_link(dir.join("bad.pp"), dir.join("hard.pp")).unwrap();
    }
    let (status, _, err) = pcl_parse(
        &dir,
        &["bad.pp", "./bad.pp", "link.pp", "hard.pp", "bad.pp"],
    );
    assert_eq!(status, 1, "{err}");
    assert_eq!(err.matches("error[E0014]").count(), 1, "{err}");
    // Under the name it was first given.
    assert!(err.starts_with("bad.pp:1:5: "), "{err}");
}
