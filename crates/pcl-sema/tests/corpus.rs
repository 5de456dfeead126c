//! Binding the PCL programs of the corpus (`shared/corpus/pulumi/programs`) against their
//! schemas, as `MANIFEST.tsv` describes them: a program whose schemas are all available binds
//! with no error in strict mode; the others (and those the reference binds with its non-strict
//! options) bind with no error in lenient mode. Known exceptions: functions PCL removed since
//! the old programs were written (E0311), and the self-referencing component program, which
//! must report its cycle. The test prints the tally and fails on any disagreement.

mod common;

use std::fs;
use std::path::Path;

use pcl_db::{CheckOptions, RootDatabase, SchemaFileSpec};
use pcl_diagnostics::Code;

#[test]
fn corpus_programs_bind_as_the_manifest_expects() {
    let Some(root) = pcl_test_support::corpus("corpus/pulumi") else {
        return;
    };
    let manifest = fs::read_to_string(root.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    let mut header: Vec<&str> = Vec::new();
    let (mut strict_clean, mut lenient_clean, mut explained) = (0, 0, 0);
    // Every program that disagrees, not only the first.
    let mut failures = pcl_test_support::Failures::new();
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
        let dir = root.join(field("path")).join(field("bind_root"));
        let options = field("bind_options");
        let lenient = field("all_schemas_available") != "yes"
            || options.contains("skip-")
            || options.contains("allow-");
        let expects_cycle = field("expected").contains("circular reference");

        // A panic (a load error, a message out of style) is this program's failure.
        failures.check(&dir.display().to_string(), || {
            let mut problems = Vec::new();
            let load = |mut db: RootDatabase| {
                db.set_options(CheckOptions { lenient });
                let specs: Vec<SchemaFileSpec> = field("schemas_resolved")
                    .split(';')
                    .filter(|s| *s != "-" && !s.is_empty())
                    .map(|entry| {
                        let (id, file) = entry.split_once('=').expect("name@version=file");
                        let (package, version) = id.split_once('@').expect("name@version");
                        SchemaFileSpec {
                            path: root.join("schemas").join(file),
                            package: package.to_string(),
                            version: Some(version.to_string()),
                            text: None,
                        }
                    })
                    .collect();
                pcl_project::use_schema_files(&mut db, vec![root.join("schemas")], specs);
                let programs = common::load_program_dir(&mut db, &dir);
                (db, programs)
            };
            let (db, programs) = load(RootDatabase::default());
            if programs.is_empty() {
                return vec![format!("{}: no program", dir.display())];
            }
            // As `pcl check` makes its database: the same report.
            let (once, once_programs) = load(RootDatabase::checking_once());
            for (&program, &in_once) in programs.iter().zip(&once_programs) {
                let report = format!("{:?}", pcl_sema::check_program(&db, program));
                if report != format!("{:?}", pcl_sema::check_program(&once, in_once)) {
                    return vec![format!(
                        "{}: a database that checks once reports otherwise",
                        program.root(&db).display()
                    )];
                }
            }
            let mut errors = Vec::new();
            for program in programs {
                let report = pcl_sema::check_program(&db, program);
                // Literals settled without their types: the same findings as typed.
                if let Some(difference) = pcl_invariants::program::settling_difference(&db, program)
                {
                    return vec![format!("{}: {difference}", dir.display())];
                }
                for file in &report.files {
                    file.diagnostics.iter().for_each(common::assert_style);
                    for d in file.diagnostics.iter().filter(|d| d.is_error()) {
                        let text = fs::read_to_string(&file.path).unwrap_or_default();
                        let (line, col) = common::line_col(&text, d.range.start().into());
                        errors.push((
                            d.code,
                            format!(
                                "{}:{line}:{col}: {}: {}",
                                Path::new(&file.path).display(),
                                d.code.as_str(),
                                d.message
                            ),
                        ));
                    }
                }
            }
            let has_cycle = errors.iter().any(|(c, _)| *c == Code::CircularReference);
            if expects_cycle && !has_cycle {
                problems.push(format!("{}: the cycle is not reported", dir.display()));
            }
            let unexpected: Vec<&String> = errors
                .iter()
                .filter(|(code, _)| match code {
                    Code::RemovedFunction => false,
                    Code::CircularReference => !expects_cycle,
                    _ => true,
                })
                .map(|(_, text)| text)
                .collect();
            if !unexpected.is_empty() {
                let mode = if lenient { "lenient" } else { "strict" };
                for text in unexpected {
                    problems.push(format!("({mode}) {text}"));
                }
            } else if !errors.is_empty() {
                explained += 1;
            } else if lenient {
                lenient_clean += 1;
            } else {
                strict_clean += 1;
            }
            problems
        });
    }
    println!(
        "corpus programs: {strict_clean} bind cleanly in strict mode, {lenient_clean} in lenient mode, \
         {explained} with only expected errors, {} disagree",
        failures.failed()
    );
    failures.finish("corpus programs");
    assert!(
        strict_clean >= 40,
        "too few strict programs: {strict_clean}"
    );
}
