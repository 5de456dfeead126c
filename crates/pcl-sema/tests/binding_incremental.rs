//! Incrementality of binding: which queries run again after an edit of a resource, a
//! component program, a schema file, or the file list of a program. Schemas are given as text
//! (an editor's buffer), so a test can change one.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use expect_test::{expect, Expect};
use pcl_db::{Program, QueryLog, RootDatabase, SchemaFileSpec};

fn schema(name: &str, resources: &[(&str, &[&str])]) -> String {
    let resources: Vec<String> = resources
        .iter()
        .map(|(token, props)| {
            let props: Vec<String> = props
                .iter()
                .map(|p| format!("\"{p}\": {{ \"type\": \"string\" }}"))
                .collect();
            let props = props.join(", ");
            format!(
                "\"{token}\": {{ \"inputProperties\": {{ {props} }}, \"properties\": {{ {props} }} }}"
            )
        })
        .collect();
    format!(
        "{{ \"name\": \"{name}\", \"version\": \"1.0.0\", \"resources\": {{ {} }} }}",
        resources.join(", ")
    )
}

struct Session {
    db: RootDatabase,
    log: QueryLog,
    programs: Vec<Program>,
}

impl Session {
    /// Programs by root directory, each with its files; schema texts by package name.
    fn new(programs: &[(&str, &[(&str, &str)])], schemas: &[(&str, String)]) -> Session {
        let mut db = RootDatabase::with_query_hooks();
        set_schemas(&mut db, schemas);
        let programs = programs
            .iter()
            .map(|(root, files)| {
                let files: Vec<(PathBuf, String)> = files
                    .iter()
                    .map(|(name, text)| (Path::new(root).join(name), text.to_string()))
                    .collect();
                pcl_project::load_in_memory(&mut db, Path::new(root), &files)
            })
            .collect();
        let log = QueryLog::install(&db).unwrap();
        let s = Session { db, log, programs };
        s.check();
        s.log.take();
        s
    }

    fn check(&self) {
        for &program in &self.programs {
            pcl_sema::check_program(&self.db, program);
        }
    }

    fn edit(&mut self, path: &str, text: &str) {
        self.db.set_file_text(Path::new(path), text.to_string());
    }

    /// Checks every program again and compares what ran.
    fn expect(&self, expect: Expect) {
        self.check();
        expect.assert_debug_eq(&self.executed());
    }

    /// The executed queries, with salsa ids replaced by what they stand for.
    fn executed(&self) -> Vec<String> {
        common::executed_queries(&self.db, &self.log, &self.programs)
    }
}

fn set_schemas(db: &mut RootDatabase, schemas: &[(&str, String)]) {
    let specs = schemas
        .iter()
        .map(|(name, text)| SchemaFileSpec {
            path: PathBuf::from(format!("/schemas/{name}-1.0.0.json")),
            package: name.to_string(),
            version: Some("1.0.0".into()),
            text: Some(Arc::from(text.as_str())),
        })
        .collect();
    db.set_schema_files(vec![PathBuf::from("/schemas")], specs);
}

const MAIN: &str = r#"
resource a "alpha:index:Box" {
  label = "one"
}

resource b "alpha:index:Box" {
  label = a.label
}

resource c "beta:index:Crate" {
  size = "large"
}

output labels {
  value = [a.label, b.label]
}
"#;

fn schemas() -> Vec<(&'static str, String)> {
    vec![
        ("alpha", schema("alpha", &[("alpha:index:Box", &["label"])])),
        (
            "beta",
            schema("beta", &[("beta:index:Crate", &["size", "color"])]),
        ),
    ]
}

#[test]
fn an_edit_inside_one_resource_rebinds_that_resource_only() {
    let mut s = Session::new(&[("/p", &[("main.pp", MAIN)])], &schemas());
    s.edit("/p/main.pp", &MAIN.replace("\"one\"", "\"two\""));
    // The resource's own binding re-runs; its type (from the schema) backdates, so `b` and
    // `labels` are not re-bound.
    s.expect(expect![[r#"
        [
            "lower_file(/p/main.pp)",
            "file_nodes(/p/main.pp)",
            "node_references(a)",
            "file_summary(/p/main.pp)",
            "infer_node(a)",
            "node_type(a)",
            "file_diagnostics(/p/main.pp)",
            "closed_files_diagnostics(/p)",
        ]
    "#]]);
}

#[test]
fn changing_one_schema_rebinds_only_the_nodes_of_that_package() {
    let s = Session::new(&[("/p", &[("main.pp", MAIN)])], &schemas());
    let mut db = s.db;
    let mut schemas = schemas();
    schemas[1].1 = schema("beta", &[("beta:index:Crate", &["size", "colour"])]);
    set_schemas(&mut db, &schemas);
    let s = Session {
        db,
        log: s.log,
        programs: s.programs,
    };
    s.expect(expect![[r#"
        [
            "parsed_schema(/schemas/beta-1.0.0.json)",
            "package_schema(beta)",
            "resource_schema(beta:index:Crate)",
            "infer_node(c)",
            "node_type(c)",
            "file_diagnostics(/p/main.pp)",
            "closed_files_diagnostics(/p)",
        ]
    "#]]);
}

const COMPONENT: &str = r#"
config name string {
}

resource box "alpha:index:Box" {
  label = name
}

output boxLabel {
  value = box.label
}
"#;

const PARENT: &str = r#"
component first "./app" {
  name = "first"
}

resource user "alpha:index:Box" {
  label = first.boxLabel
}

unrelated = "x"
"#;

#[test]
fn editing_a_component_rebinds_only_its_users() {
    let mut s = Session::new(
        &[
            ("/p", &[("main.pp", PARENT)]),
            ("/p/app", &[("main.pp", COMPONENT)]),
        ],
        &schemas(),
    );
    // A new resource in the component: its interface (inputs, outputs) is unchanged, so
    // nothing of the parent is re-bound.
    let with_resource = format!("{COMPONENT}\nresource extra \"alpha:index:Box\" {{\n}}\n");
    s.edit("/p/app/main.pp", &with_resource);
    s.expect(expect![[r#"
        [
            "lower_file(/p/app/main.pp)",
            "file_nodes(/p/app/main.pp)",
            "file_summary(/p/app/main.pp)",
            "included_dirs(/p/app)",
            "program_scope(/p/app)",
            "component_interface(/p/app)",
            "closed_index(/p/app)",
            "program_index(/p/app)",
            "index_bucket(?)",
            "file_node_map(/p/app/main.pp)",
            "resolve_root(box)",
            "index_bucket(?)",
            "resolve_root(name)",
            "closed_graph(/p/app)",
            "declared_packages(/p/app)",
            "node_references(extra)",
            "infer_node(extra)",
            "node_type(extra)",
            "file_diagnostics(/p/app/main.pp)",
            "file_duplicates(/p/app/main.pp)",
            "closed_files_diagnostics(/p/app)",
        ]
    "#]]);
    // A new output changes the interface: the component block and its user re-bind, and
    // nothing else.
    let with_output = format!("{with_resource}\noutput more {{\n  value = extra.label\n}}\n");
    s.edit("/p/app/main.pp", &with_output);
    s.expect(expect![[r#"
        [
            "lower_file(/p/app/main.pp)",
            "file_nodes(/p/app/main.pp)",
            "file_summary(/p/app/main.pp)",
            "included_dirs(/p/app)",
            "program_scope(/p/app)",
            "component_interface(/p/app)",
            "closed_index(/p/app)",
            "program_index(/p/app)",
            "index_bucket(?)",
            "file_node_map(/p/app/main.pp)",
            "resolve_root(box)",
            "index_bucket(?)",
            "resolve_root(name)",
            "node_references(more)",
            "resolve_root(extra)",
            "index_bucket(?)",
            "closed_graph(/p/app)",
            "declared_packages(/p/app)",
            "infer_node(more)",
            "node_type(more)",
            "infer_node(first)",
            "node_type(first)",
            "infer_node(user)",
            "node_type(user)",
            "file_diagnostics(/p/main.pp)",
            "closed_files_diagnostics(/p)",
            "file_diagnostics(/p/app/main.pp)",
            "file_duplicates(/p/app/main.pp)",
            "closed_files_diagnostics(/p/app)",
        ]
    "#]]);
}

#[test]
fn adding_and_removing_a_file() {
    let mut s = Session::new(&[("/p", &[("main.pp", MAIN)])], &schemas());
    let extra = s.db.set_file_text(
        Path::new("/p/extra.pp"),
        "resource d \"alpha:index:Box\" {\n  label = c.size\n}\n".to_string(),
    );
    let mut files = s.programs[0].files(&s.db).clone();
    files.push(extra);
    s.db.set_program_files(Path::new("/p"), files.clone());
    s.expect(expect![[r#"
        [
            "program_scope(/p)",
            "file_nodes(/p/extra.pp)",
            "lower_file(/p/extra.pp)",
            "node_references(d)",
            "resolve_root(c)",
            "index_bucket(?)",
            "closed_index(/p)",
            "file_summary(/p/extra.pp)",
            "program_index(/p)",
            "index_bucket(?)",
            "index_bucket(?)",
            "declared_packages(/p)",
            "closed_graph(/p)",
            "program_cycles(/p)",
            "infer_node(d)",
            "node_type(d)",
            "closed_files_diagnostics(/p)",
            "file_diagnostics(/p/extra.pp)",
            "file_duplicates(/p/extra.pp)",
            "file_duplicates(/p/main.pp)",
        ]
    "#]]);
    files.pop();
    s.db.set_program_files(Path::new("/p"), files);
    s.expect(expect![[r#"
        [
            "program_scope(/p)",
            "closed_index(/p)",
            "program_index(/p)",
            "index_bucket(?)",
            "index_bucket(?)",
            "declared_packages(/p)",
            "closed_graph(/p)",
            "program_cycles(/p)",
            "closed_files_diagnostics(/p)",
            "file_duplicates(/p/main.pp)",
        ]
    "#]]);
}

/// The messages of a program's diagnostics, `file: message`.
fn messages(db: &RootDatabase, program: Program) -> Vec<String> {
    pcl_sema::check_program(db, program)
        .files
        .iter()
        .flat_map(|f| {
            f.diagnostics
                .iter()
                .map(move |d| format!("{}: {}", f.path.display(), d.message))
        })
        .collect()
}

#[test]
fn an_inclusion_that_closes_a_cycle_is_found_and_forgotten_incrementally() {
    const A: &str = "component b \"../b\" {}\noutput o {\n  value = b.o\n}\n";
    const B_ALONE: &str = "output o {\n  value = 1\n}\n";
    const B_BACK: &str = "component a \"../a\" {}\noutput o {\n  value = 1\n}\n";
    let mut s = Session::new(
        &[
            ("/p/a", &[("main.pp", A)]),
            ("/p/b", &[("main.pp", B_ALONE)]),
        ],
        &[],
    );
    assert_eq!(messages(&s.db, s.programs[0]), Vec::<String>::new());
    s.log.take();
    // `b` now includes `a` back: the cycle is found, and reported at the block that closes it
    // (the walk starts at `/p/a`, the smaller root), whichever program asks.
    s.edit("/p/b/main.pp", B_BACK);
    s.expect(expect![[r#"
        [
            "lower_file(/p/b/main.pp)",
            "file_nodes(/p/b/main.pp)",
            "file_summary(/p/b/main.pp)",
            "included_dirs(/p/b)",
            "inclusion_cycles(?)",
            "infer_node(b)",
            "program_scope(/p/b)",
            "component_interface(/p/b)",
            "closed_graph(/p/b)",
            "node_type(b)",
            "node_references(a)",
            "infer_node(a)",
            "node_type(a)",
            "file_diagnostics(/p/b/main.pp)",
            "closed_index(/p/b)",
            "program_index(/p/b)",
            "file_duplicates(/p/b/main.pp)",
            "closed_files_diagnostics(/p/b)",
        ]
    "#]]);
    let cycle = vec![
        "/p/b/main.pp: cannot use `../a` as a component: it includes this program again, a cycle of components (`/p/a` → `/p/b` → `/p/a`); a component cannot include itself, directly or through others".to_owned(),
    ];
    assert_eq!(messages(&s.db, s.programs[1]), cycle);
    assert_eq!(messages(&s.db, s.programs[0]), Vec::<String>::new());
    // The same answer as a fresh database.
    let fresh = Session::new(
        &[
            ("/p/a", &[("main.pp", A)]),
            ("/p/b", &[("main.pp", B_BACK)]),
        ],
        &[],
    );
    assert_eq!(messages(&fresh.db, fresh.programs[1]), cycle);
    // An edit elsewhere in `b` leaves the inclusions as they were: the cycle is not searched
    // again.
    s.edit("/p/b/main.pp", &format!("{B_BACK}x = 2\n"));
    s.check();
    assert!(!s
        .executed()
        .iter()
        .any(|q| q.starts_with("inclusion_cycles")));
    // And back: the error is gone.
    s.edit("/p/b/main.pp", B_ALONE);
    s.check();
    assert_eq!(messages(&s.db, s.programs[1]), Vec::<String>::new());
}
