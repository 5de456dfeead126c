//! Every PCL program of the corpus (`shared/corpus/pulumi/programs`) checks without errors,
//! except for the reasons this layer knows about: programs the reference binds only with
//! missing variables allowed (undefined variables, until the lenient mode), functions PCL
//! removed (E0311), and the self-referencing component (E0401). The test prints the tally
//! and fails on any other error.

mod common;

use std::fs;
use std::path::Path;

use pcl_db::RootDatabase;
use pcl_diagnostics::Code;

#[test]
fn corpus_programs_check_cleanly() {
    let Some(root) = pcl_test_support::corpus("corpus/pulumi") else {
        return;
    };
    let manifest = fs::read_to_string(root.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    let mut header: Vec<&str> = Vec::new();
    let (mut clean, mut explained, mut unexplained) = (0, 0, Vec::new());
    for line in manifest.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        if header.is_empty() {
            header = fields;
            continue;
        }
        let field = |name: &str| {
            header
                .iter()
                .position(|h| *h == name)
                .and_then(|i| fields.get(i))
                .copied()
                .unwrap_or("")
        };
        let dir = root.join(field("path"));
        let allows_missing_variables = field("bind_options").contains("allow-missing-variables");
        let mut db = RootDatabase::default();
        let mut files: Vec<_> = fs::read_dir(&dir)
            .expect("program directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "pp"))
            .collect();
        files.sort();
        let inputs: Vec<_> = files
            .iter()
            .map(|p| db.set_file_text(p, fs::read_to_string(p).expect("UTF-8 program")))
            .collect();
        let program = db.set_program_files(&dir, inputs);
        let report = pcl_ty::check_program(&db, program);
        let errors: Vec<_> = report
            .files
            .iter()
            .flat_map(|f| f.diagnostics.iter().map(move |d| (&f.path, d)))
            .filter(|(_, d)| d.is_error())
            .collect();
        if errors.is_empty() {
            clean += 1;
            continue;
        }
        let all_explained = errors.iter().all(|(_, d)| match d.code {
            Code::UndefinedVariable => allows_missing_variables,
            Code::RemovedFunction => true,
            Code::CircularReference => field("expected").contains("circular reference"),
            _ => false,
        });
        if all_explained {
            explained += 1;
        } else {
            for (path, d) in errors {
                let text = fs::read_to_string(path).unwrap_or_default();
                let (line, col) = common::line_col(&text, d.range.start().into());
                unexplained.push(format!(
                    "{}:{line}:{col}: {}: {}",
                    Path::new(path).display(),
                    d.code.as_str(),
                    d.message
                ));
            }
        }
    }
    println!(
        "corpus programs: {clean} clean, {explained} with expected errors, {} unexpected errors",
        unexplained.len()
    );
    assert!(
        unexplained.is_empty(),
        "unexpected errors:\n{}",
        unexplained.join("\n")
    );
    assert!(clean > 50, "too few programs checked: {clean}");
}
