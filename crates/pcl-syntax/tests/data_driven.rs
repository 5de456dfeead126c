//! Data-driven parser tests: every `test_data/parser/{ok,err}/*.pp` file is parsed and its tree
//! and errors are compared with the `.rast` file beside it (`UPDATE_EXPECT=1` rewrites them).

use std::fs;
use std::path::{Path, PathBuf};

use expect_test::expect_file;

fn cases(dir: &str) -> Vec<PathBuf> {
    let dir = pcl_test_support::workspace_root()
        .join("test_data/parser")
        .join(dir);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no test cases in {}", dir.display());
    files
}

fn check(path: &Path, expect_errors: bool) {
    let text = fs::read_to_string(path).expect("test case is UTF-8");
    let parse = pcl_syntax::parse(&text);
    let root = parse.syntax();
    assert_eq!(
        root.to_string(),
        text,
        "{}: tree is not lossless",
        path.display()
    );
    let name = path.display();
    if expect_errors {
        assert!(
            parse.has_errors(),
            "{name}: expected syntax errors, got none"
        );
    } else {
        assert!(
            !parse.has_errors(),
            "{name}: unexpected syntax errors: {:#?}",
            parse.errors()
        );
    }
    expect_file![path.with_extension("rast")]
        .assert_eq(&pcl_syntax::debug_tree(&root, parse.errors()));
}

#[test]
fn parser_ok() {
    for path in cases("ok") {
        check(&path, false);
    }
}

#[test]
fn parser_err() {
    for path in cases("err") {
        check(&path, true);
    }
}
