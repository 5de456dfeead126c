//! A check settles an object or tuple literal given to a property whose type it fits without
//! building the literal's type (`infer_node`); `infer_node_fully` types it. Every other test
//! program is also compared both ways (`pcl_invariants::program::settling_difference`, run by
//! the snapshot tests and the corpus test); these pin which literals are settled.

mod common;

use pcl_db::RootDatabase;
use pcl_hir::{file_nodes, Expr, ProgramFile};

/// For the resource `name` of a one-file program bound against the `demo` schema: the types
/// of its object and tuple literals as the check has them, and as typed fully, one per line;
/// and the check's diagnostics.
fn literal_types(text: &str, name: &str) -> String {
    let root = pcl_test_support::workspace_root();
    let mut db = RootDatabase::default();
    common::schema_dir(&mut db, &[&root.join("test_data/schemas/binding")]);
    let program = common::load(&mut db, &[("main.pp".to_string(), text.to_string())]);
    assert_eq!(
        pcl_invariants::program::settling_difference(&db, program),
        None
    );
    let file = program.files(&db)[0];
    let pf = ProgramFile::new(&db, program, file);
    let node = *file_nodes(&db, pf)
        .iter()
        .find(|n| n.name(&db).as_str() == name)
        .expect("the node");
    let checked = pcl_sema::infer_node(&db, node);
    let full = pcl_sema::infer_node_fully(&db, node);
    let node_map = node.source_map(&db);
    let map = node_map.body();
    let mut out = String::new();
    for (id, expr) in node.body(&db).exprs() {
        if matches!(expr, Expr::Object(_) | Expr::Tuple(_)) {
            let range = map.expr(id);
            let snippet: String = text[usize::from(range.start())..usize::from(range.end())]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            out.push_str(&format!(
                "{snippet}\n  checked: {}\n  fully: {}\n",
                checked.expr_type(id).display_readable(),
                full.expr_type(id).display_readable()
            ));
        }
    }
    for d in &checked.diagnostics {
        out.push_str(&format!("{:?}: {}\n", d.code, d.message));
    }
    out
}

#[test]
fn literals_that_fit_are_settled_without_their_types() {
    let text = r#"
resource logs "demo:storage/bucket:Bucket" {
  name = "logs"
}

resource site "demo:storage/bucket:Bucket" {
  name = "site"
  website = { indexDocument = "index.html" }
  tags = { team = "web", tier = logs.name }
  lifecycleRules = [{ days = 30 }]
}
"#;
    expect_test::expect![[r#"
        { indexDocument = "index.html" }
          checked: dynamic
          fully: { indexDocument: "index.html" }
        { team = "web", tier = logs.name }
          checked: dynamic
          fully: { team: "web", tier: output(string) }
        { days = 30 }
          checked: dynamic
          fully: { days: 30 }
        [{ days = 30 }]
          checked: dynamic
          fully: ({ days: 30 })
    "#]]
    .assert_eq(&literal_types(text, "site"));
}

#[test]
fn literals_with_something_to_report_are_typed_and_checked_as_before() {
    // An unknown key (a warning), an object for an enum, a string that is no number; a
    // required property left out.
    let text = r#"
resource site "demo:storage/bucket:Bucket" {
  name = "site"
  website = { indexDocument = "index.html", indexDocumnet = "typo.html" }
  acl = {}
  lifecycleRules = [{ days = "thirty" }]
}

resource other "demo:storage/bucket:Bucket" {
  name = "other"
  website = { errorDocument = "404.html" }
}
"#;
    expect_test::expect![[r#"
        { indexDocument = "index.html", indexDocumnet = "typo.html" }
          checked: { indexDocument: "index.html", indexDocumnet: "typo.html" }
          fully: { indexDocument: "index.html", indexDocumnet: "typo.html" }
        {}
          checked: {}
          fully: {}
        { days = "thirty" }
          checked: { days: "thirty" }
          fully: { days: "thirty" }
        [{ days = "thirty" }]
          checked: ({ days: "thirty" })
          fully: ({ days: "thirty" })
        UnknownObjectKey: unknown property `indexDocumnet` of demo:storage:Website: it is ignored
        TypeMismatch: the attribute `acl` of resource type `demo:storage:Bucket`: cannot assign a value of type {} to type enum("private" | "public-read")?
        TypeMismatch: the attribute `lifecycleRules` of resource type `demo:storage:Bucket`: the string `"thirty"` is not a number
        { errorDocument = "404.html" }
          checked: { errorDocument: "404.html" }
          fully: { errorDocument: "404.html" }
        TypeMismatch: the attribute `website` of resource type `demo:storage:Bucket`: missing required property `indexDocument` of type string
    "#]]
    .assert_eq(&(literal_types(text, "site") + &literal_types(text, "other")));
}

#[test]
fn deep_literals_and_literals_for_resources_go_the_general_way() {
    // A literal nested 70 deep (deeper than the shape check looks) where a string is
    // expected; an object literal where a resource is expected (a reference, not a value).
    let mut deep = String::from("\"x\"");
    for _ in 0..70 {
        deep = format!("{{ a = {deep} }}");
    }
    let text = format!(
        r#"
resource bucket "demo:storage/bucket:Bucket" {{
  name = "b"
  tags = {{ deep = {deep} }}
}}

resource holder "demo:index:Holder" {{
  bucket = {{ id = "x", urn = "u" }}
  anyBucket = {{ name = "n" }}
}}
"#
    );
    let bucket = literal_types(&text, "bucket");
    let holder = literal_types(&text, "holder");
    // The literal of 70 levels is reported once, at its top: the lines of its outermost
    // object and of the diagnostics.
    let tail: Vec<&str> = bucket
        .lines()
        .filter(|l| l.starts_with("{ deep") || l.contains(": the attribute"))
        .map(|l| l.get(..100).unwrap_or(l))
        .collect();
    expect_test::expect![[r#"
        { deep = { a = { a = { a = { a = { a = { a = { a = { a = { a = { a = { a = { a = { a = { a = { a = {
        TypeMismatch: the attribute `tags` of resource type `demo:storage:Bucket`: at `.deep`: cannot assign
        { id = "x", urn = "u" }
          checked: { id: "x", urn: "u" }
          fully: { id: "x", urn: "u" }
        { name = "n" }
          checked: { name: "n" }
          fully: { name: "n" }
        UnknownObjectKey: unknown property `id` of resource(demo:storage:Bucket): it is ignored
        TypeMismatch: the attribute `bucket` of resource type `demo::Holder`: missing required property `arn` of type string, and `urn` is not a property of resource(demo:storage:Bucket)
        TypeMismatch: the attribute `anyBucket` of resource type `demo::Holder`: missing required property `arn` of type string
    "#]]
    .assert_eq(&format!("{}\n{holder}", tail.join("\n")));
}
