//! The examples of `docs/diagnostics.md` for codes `02xx` to `05xx` produce their code with
//! exactly the message shown (`05xx` with the `demo` schema of `test_data/schemas/binding`).

use std::path::{Path, PathBuf};

use pcl_db::{RootDatabase, SchemaFileSpec};

#[test]
fn semantic_examples_produce_their_code_and_message() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md");
    let doc = std::fs::read_to_string(&path).expect("docs/diagnostics.md");
    let mut checked = 0;
    for line in doc.lines() {
        let cells: Vec<&str> = line.split(" | ").collect();
        let [code, _name, example, message] = cells.as_slice() else {
            continue;
        };
        let code = code.trim_start_matches("| ").trim_matches('`');
        if !(code.starts_with("E0") || code.starts_with("W0"))
            || !matches!(&code[1..3], "02" | "03" | "04" | "05")
        {
            continue;
        }
        let example = example.trim_matches('`').replace('⏎', "\n") + "\n";
        let message = message.trim_end_matches(" |");
        let mut db = RootDatabase::default();
        let schema_dir = Path::new("test_data/schemas/binding");
        let schema = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../test_data/schemas/binding/demo-1.0.0.json");
        pcl_project::use_schema_files(
            &mut db,
            vec![schema_dir.to_path_buf()],
            vec![SchemaFileSpec {
                path: schema,
                package: "demo".into(),
                version: Some("1.0.0".into()),
                text: None,
            }],
        );
        let files = [(PathBuf::from("main.pp"), example.clone())];
        let program = pcl_project::load_in_memory(&mut db, Path::new("/doc"), &files);
        let report = pcl_sema::check_program(&db, program);
        let found = report.files[0]
            .diagnostics
            .iter()
            .any(|d| d.code.as_str() == code && d.message == message);
        assert!(
            found,
            "{code}: `{example}` does not report {message:?}; it reports {:#?}",
            report.files[0].diagnostics
        );
        checked += 1;
    }
    assert!(checked >= 36, "only {checked} examples found");
}
