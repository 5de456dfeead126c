//! Incrementality: which queries run again after an edit, read from salsa's execution
//! events. Only the edited file's parse and item tree, the edited node's inference, the
//! inference of nodes whose inputs' types really changed, and the edge may run.

mod common;

use std::path::Path;

use expect_test::{expect, Expect};
use pcl_db::{Program, QueryLog, RootDatabase};

struct Session {
    db: RootDatabase,
    log: QueryLog,
    program: Program,
}

impl Session {
    fn new(files: &[(&str, &str)]) -> Session {
        let mut db = RootDatabase::with_query_hooks();
        let files: Vec<(String, String)> = files
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        let program = common::load(&mut db, &files);
        pcl_sema::check_program(&db, program);
        let log = QueryLog::install(&db).unwrap();
        Session { db, log, program }
    }

    /// Sets a file's text, checks the program again, and compares what ran.
    fn edit(&mut self, path: &str, text: &str, expect: Expect) {
        self.db.set_file_text(Path::new(path), text.to_string());
        pcl_sema::check_program(&self.db, self.program);
        // Name the ids after the check, so that new nodes have names too.
        let ran = common::executed_queries(&self.db, &self.log, &[self.program]);
        expect.assert_debug_eq(&ran);
    }

    fn dump(&self) -> String {
        common::dump(&self.db, self.program, false)
    }
}

const MAIN: &str = "\
x = { a = 1, b = \"one\" }
y = x.a + 1
z = \"${y}\"
unused = 5
";

#[test]
fn changing_a_literal_reinfers_only_that_node() {
    let mut s = Session::new(&[("main.pp", MAIN)]);
    s.edit(
        "main.pp",
        &MAIN.replace("a = 1", "a = 2"),
        expect![[r#"
            [
                "lower_file(main.pp)",
                "file_nodes(main.pp)",
                "node_references(x)",
                "file_summary(main.pp)",
                "infer_node(x)",
                "node_type(x)",
                "file_diagnostics(main.pp)",
                "closed_files_diagnostics(/program)",
            ]
        "#]],
    );
}

#[test]
fn a_blank_line_or_comment_at_the_top_reinfers_nothing() {
    let mut s = Session::new(&[("main.pp", MAIN)]);
    s.edit(
        "main.pp",
        &format!("\n{MAIN}"),
        expect![[r#"
            [
                "lower_file(main.pp)",
                "file_nodes(main.pp)",
                "file_diagnostics(main.pp)",
                "closed_files_diagnostics(/program)",
            ]
        "#]],
    );
    s.edit(
        "main.pp",
        &format!("# a comment\n\n{MAIN}"),
        expect![[r#"
            [
                "lower_file(main.pp)",
                "file_nodes(main.pp)",
                "file_diagnostics(main.pp)",
                "closed_files_diagnostics(/program)",
            ]
        "#]],
    );
}

#[test]
fn renaming_an_unused_local_reinfers_only_it() {
    let mut s = Session::new(&[("main.pp", MAIN)]);
    s.edit(
        "main.pp",
        &MAIN.replace("unused = 5", "renamed = 5"),
        expect![[r#"
            [
                "lower_file(main.pp)",
                "file_nodes(main.pp)",
                "program_scope(/program)",
                "file_summary(main.pp)",
                "closed_index(/program)",
                "program_index(/program)",
                "index_bucket(?)",
                "file_node_map(main.pp)",
                "resolve_root(x)",
                "index_bucket(?)",
                "resolve_root(y)",
                "node_references(renamed)",
                "closed_graph(/program)",
                "infer_node(renamed)",
                "node_type(renamed)",
                "file_diagnostics(main.pp)",
                "file_duplicates(main.pp)",
                "closed_files_diagnostics(/program)",
            ]
        "#]],
    );
}

#[test]
fn a_type_change_reinfers_the_users() {
    let mut s = Session::new(&[("main.pp", MAIN)]);
    s.edit(
        "main.pp",
        &MAIN.replace("a = 1", "a = \"s\""),
        expect![[r#"
            [
                "lower_file(main.pp)",
                "file_nodes(main.pp)",
                "node_references(x)",
                "file_summary(main.pp)",
                "infer_node(x)",
                "node_type(x)",
                "infer_node(y)",
                "node_type(y)",
                "infer_node(z)",
                "node_type(z)",
                "file_diagnostics(main.pp)",
                "closed_files_diagnostics(/program)",
            ]
        "#]],
    );
    expect![[r#"
        -- types --
        local x: { a: string, b: string }
        local y: number
        local z: number
        local unused: int
        -- diagnostics --
    "#]]
    .assert_eq(&s.dump());
}

#[test]
fn editing_one_file_of_two_touches_only_that_file() {
    let mut s = Session::new(&[
        ("main.pp", "a = 1\nb = other + a\n"),
        ("other.pp", "other = 10\nlonely = \"x\"\n"),
    ]);
    s.edit(
        "other.pp",
        "other = 10\nlonely = \"y\"\n",
        expect![[r#"
            [
                "lower_file(other.pp)",
                "file_nodes(other.pp)",
                "file_summary(other.pp)",
                "node_references(lonely)",
                "infer_node(lonely)",
                "node_type(lonely)",
                "file_diagnostics(other.pp)",
                "closed_files_diagnostics(/program)",
            ]
        "#]],
    );
}
