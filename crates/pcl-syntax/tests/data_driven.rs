//! Data-driven parser tests: every `test_data/parser/{ok,err}/*.pp` file is parsed and its tree
//! and errors are compared with the `.rast` file beside it (`UPDATE_EXPECT=1` rewrites them).
//! One test per file.

use std::fs;
use std::path::Path;

use expect_test::expect_file;

fn main() {
    let base = pcl_test_support::workspace_root().join("test_data/parser");
    let mut cases = Vec::new();
    for (dir, expect_errors) in [("ok", false), ("err", true)] {
        let files = pcl_test_support::fixtures_in(&base.join(dir), |p| {
            p.extension().is_some_and(|e| e == "pp")
        });
        cases.extend(files.into_iter().map(|path| {
            let name = pcl_test_support::fixture_name(&base, &path);
            (name, (path, expect_errors))
        }));
    }
    pcl_test_support::run_fixtures(cases, |(path, expect_errors)| check(&path, expect_errors));
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
