//! Snapshot tests: every file of `test_data/fmt/cases/` (one rule or edge case each) is formatted
//! and compared, byte for byte (line endings included, which expect-test would normalize), with
//! `<file>.expected` beside it; every output must also keep the formatter's promises (tokens,
//! line breaks, damaged items, idempotence). One test per file, and one more, `damaged.snap`,
//! for the items left as written in the files with syntax errors, listed together in
//! `test_data/fmt/cases/damaged.snap`. `UPDATE_EXPECT=1` rewrites the snapshots.

mod common;

use std::fmt::Write;
use std::fs;
use std::path::{Path, PathBuf};

use expect_test::expect_file;

enum Case {
    /// One file and its `.expected`.
    Format(PathBuf),
    /// The damaged items of every file.
    Damaged(Vec<PathBuf>),
}

fn main() {
    let dir = cases_dir();
    let files = pcl_test_support::fixtures_in(&dir, |p| {
        p.extension()
            .is_some_and(|e| ["tf", "pp", "hcl", "tfvars"].iter().any(|x| e == *x))
    });
    assert!(files.len() >= 15, "too few cases: {}", files.len());
    let mut cases: Vec<(String, Case)> = files
        .iter()
        .map(|p| {
            (
                pcl_test_support::fixture_name(&dir, p),
                Case::Format(p.clone()),
            )
        })
        .collect();
    cases.push(("damaged.snap".to_string(), Case::Damaged(files)));
    pcl_test_support::run_fixtures(cases, |case| match case {
        Case::Format(path) => check(&path),
        Case::Damaged(paths) => check_damaged(&paths),
    });
}

fn cases_dir() -> PathBuf {
    pcl_test_support::workspace_root().join("test_data/fmt/cases")
}

fn name_of(case: &Path) -> String {
    case.file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned()
}

fn check(case: &Path) {
    let name = name_of(case);
    let input = fs::read_to_string(case).expect("case is UTF-8");
    let formatted = pcl_fmt::format(&input).expect("formats");
    if let Some(broken) = common::broken_promise(&input, &formatted) {
        panic!("{name}: {broken}");
    }
    let expected = cases_dir().join(format!("{name}.expected"));
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
}

/// The damaged items of every case, one line each, against `damaged.snap`.
fn check_damaged(cases: &[PathBuf]) {
    let mut damaged = String::new();
    for case in cases {
        let name = name_of(case);
        let input = fs::read_to_string(case).expect("case is UTF-8");
        let formatted =
            pcl_fmt::format(&input).unwrap_or_else(|e| panic!("{name}: does not format: {e}"));
        for range in &formatted.damaged {
            let text = &input[std::ops::Range::<usize>::from(*range)];
            let _ = writeln!(damaged, "{name} {range:?}: {text:?}");
        }
    }
    expect_file![cases_dir().join("damaged.snap")].assert_eq(&damaged);
}
