//! Binding snapshots: each directory of `test_data/programs/<case>/` is a program (its `.pp`
//! files, and the programs of its components in subdirectories), bound against the schemas of
//! `test_data/schemas/binding`; a file named `lenient` in the case selects lenient mode. The
//! type of every node and every diagnostic are compared with `<case>/expected.txt`
//! (`UPDATE_EXPECT=1` rewrites). One test per case.

mod common;

use std::fmt::Write;
use std::fs;
use std::path::PathBuf;

use expect_test::expect_file;
use pcl_db::{CheckOptions, RootDatabase};

fn main() {
    let dir = pcl_test_support::workspace_root().join("test_data/programs");
    let cases = pcl_test_support::fixtures_in(&dir, |p| p.is_dir());
    assert!(cases.len() >= 8, "too few cases: {}", cases.len());
    pcl_test_support::run_fixtures(
        cases
            .into_iter()
            .map(|case| (pcl_test_support::fixture_name(&dir, &case), case)),
        check,
    );
}

fn check(case: PathBuf) {
    let root = pcl_test_support::workspace_root();
    let mut db = RootDatabase::default();
    db.set_options(CheckOptions {
        lenient: case.join("lenient").exists(),
    });
    common::schema_dir(&mut db, &[&root.join("test_data/schemas/binding")]);
    let programs = common::load_program_dir(&mut db, &case);
    let mut out = String::new();
    for program in programs {
        let report = pcl_sema::check_program(&db, program);
        if let Some(difference) = pcl_invariants::program::settling_difference(&db, program) {
            panic!("{difference}");
        }
        let name = program
            .root(&db)
            .strip_prefix(&case)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let name = if name.is_empty() { "." } else { &name };
        let _ = writeln!(out, "== program {name} ==");
        for line in &report.types {
            let _ = writeln!(out, "{} {}: {}", line.kind.keyword(), line.name, line.ty);
        }
        for file in &report.files {
            let text = fs::read_to_string(&file.path).expect("program file");
            let name = file
                .path
                .strip_prefix(&case)
                .expect("inside the case")
                .display()
                .to_string();
            for d in &file.diagnostics {
                common::render_diagnostic(&mut out, &name, &text, d);
            }
        }
    }
    // Notes about other files name them by full path.
    let out = out
        .replace(&format!("{}/", case.display()), "")
        .replace(&format!("{}/", root.display()), "");
    expect_file![case.join("expected.txt")].assert_eq(&out);
}
