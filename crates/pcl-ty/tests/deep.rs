//! Long reference chains and long cycles cost no stack: nodes are inferred dependencies
//! first, and cycles are found by an iterative search. Runs on the test harness's default
//! 2 MiB thread stack.

mod common;

use std::fmt::Write;
use std::path::Path;

use pcl_db::RootDatabase;

const N: usize = 20_000;

#[test]
fn a_long_chain_of_locals_checks_and_rechecks_without_deep_recursion() {
    let mut text = String::from("a0 = 1\n");
    for i in 1..N {
        let _ = writeln!(text, "a{i} = a{} + 1", i - 1);
    }
    let mut db = RootDatabase::default();
    let file = db.set_file_text(Path::new("chain.pp"), text.clone());
    let program = db.set_program_files(Path::new("/chain"), vec![file]);
    let report = pcl_ty::check_program(&db, program);
    assert_eq!(report.error_count(), 0);
    assert_eq!(report.types.last().map(|t| t.ty.as_str()), Some("int"));
    // Change the head's type: every node re-infers, in dependency order.
    db.set_file_text(
        Path::new("chain.pp"),
        text.replacen("a0 = 1", "a0 = 1.5", 1),
    );
    let report = pcl_ty::check_program(&db, program);
    assert_eq!(report.types.last().map(|t| t.ty.as_str()), Some("number"));
}

#[test]
fn a_long_cycle_is_reported_once() {
    let mut text = String::new();
    for i in 0..N {
        let _ = writeln!(text, "c{i} = c{}", (i + 1) % N);
    }
    let mut db = RootDatabase::default();
    let file = db.set_file_text(Path::new("cycle.pp"), text);
    let program = db.set_program_files(Path::new("/cycle"), vec![file]);
    let report = pcl_ty::check_program(&db, program);
    let diagnostics = &report.files[0].diagnostics;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert!(diagnostics[0]
        .message
        .starts_with("circular reference: c0 -> c1 -> c2"));
    assert!(report.types.iter().all(|t| t.ty == "dynamic"));
}
