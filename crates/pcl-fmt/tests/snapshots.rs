//! Snapshot tests: every file of `test_data/fmt/cases/` (one rule or edge case each) is formatted
//! and compared, byte for byte (line endings included, which expect-test would normalize), with
//! `<file>.expected` beside it; the items left as written in
//! files with syntax errors are listed in `test_data/fmt/cases/damaged.snap`. Every output must also
//! keep the formatter's promises (tokens, line breaks, damaged items, idempotence).
//! `UPDATE_EXPECT=1` rewrites the snapshots.

mod common;

use std::fmt::Write;
use std::fs;

use expect_test::expect_file;

#[test]
fn formatting_snapshots() {
    let dir = pcl_test_support::workspace_root().join("test_data/fmt/cases");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .expect("test_data/fmt/cases exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| ["tf", "pp", "hcl", "tfvars"].iter().any(|x| e == *x))
        })
        .collect();
    cases.sort();
    assert!(cases.len() >= 15, "too few cases: {}", cases.len());
    let mut damaged = String::new();
    for case in &cases {
        let name = case
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let input = fs::read_to_string(case).expect("case is UTF-8");
        let formatted = pcl_fmt::format(&input).expect("formats");
        if let Some(broken) = common::broken_promise(&input, &formatted) {
            panic!("{name}: {broken}");
        }
        let expected = dir.join(format!("{name}.expected"));
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            fs::write(&expected, &formatted.text).expect("write snapshot");
        } else {
            // Byte for byte: expect-test normalizes `\r\n`, and the formatter must keep it.
            let bytes = fs::read(&expected).unwrap_or_default();
            let want = String::from_utf8_lossy(&bytes);
            assert!(
                bytes == formatted.text.as_bytes(),
                "{name}: differs from {name}.expected (UPDATE_EXPECT=1 rewrites it)\n\
                 --- expected\n{want:?}\n--- actual\n{:?}",
                formatted.text
            );
        }
        for range in &formatted.damaged {
            let text = &input[std::ops::Range::<usize>::from(*range)];
            let _ = writeln!(damaged, "{name} {range:?}: {text:?}");
        }
    }
    expect_file![dir.join("damaged.snap")].assert_eq(&damaged);
}
