//! Inference snapshots: each `test_data/infer/*.pp` fixture (one or more files, split by
//! `#- name.pp` lines) is checked, and the types of its nodes and expressions and its
//! diagnostics are compared with the `.txt` file beside it (`UPDATE_EXPECT=1` rewrites).

mod common;

use std::fs;

use expect_test::expect_file;
use pcl_db::RootDatabase;

#[test]
fn inference_snapshots() {
    let dir = pcl_test_support::workspace_root().join("test_data/infer");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .expect("test_data/infer exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty());
    for case in cases {
        let text = fs::read_to_string(&case).expect("UTF-8 fixture");
        let mut db = RootDatabase::default();
        let program = common::load(&mut db, &common::split_fixture(&text));
        let dump = common::dump(&db, program, true);
        expect_file![case.with_extension("txt")].assert_eq(&dump);
    }
}
