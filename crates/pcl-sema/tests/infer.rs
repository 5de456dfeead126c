//! Inference snapshots: each `test_data/infer/*.pp` fixture (one or more files, split by
//! `#- name.pp` lines) is checked, and the types of its nodes and expressions and its
//! diagnostics are compared with the `.txt` file beside it (`UPDATE_EXPECT=1` rewrites). One
//! test per fixture.

mod common;

use std::fs;
use std::path::PathBuf;

use expect_test::expect_file;
use pcl_db::RootDatabase;

fn main() {
    let dir = pcl_test_support::workspace_root().join("test_data/infer");
    let cases = pcl_test_support::fixtures_in(&dir, |p| p.extension().is_some_and(|e| e == "pp"));
    pcl_test_support::run_fixtures(
        cases
            .into_iter()
            .map(|case| (pcl_test_support::fixture_name(&dir, &case), case)),
        check,
    );
}

fn check(case: PathBuf) {
    let text = fs::read_to_string(&case).expect("UTF-8 fixture");
    let mut db = RootDatabase::default();
    let program = common::load(&mut db, &common::split_fixture(&text));
    let dump = common::dump(&db, program, true);
    expect_file![case.with_extension("txt")].assert_eq(&dump);
}
