//! Incrementality: which queries run again after an edit, read from salsa's execution
//! events. Only the edited file's parse and item tree, the edited node's inference, the
//! inference of nodes whose inputs' types really changed, and the edge may run.

mod common;

use std::path::Path;

use expect_test::{expect, Expect};
use pcl_db::{Program, RootDatabase};
use pcl_hir::{file_nodes, ProgramFile};
use salsa::plumbing::AsId;

/// The executed queries, with salsa ids replaced by what they stand for (file paths, node
/// names), so that the snapshot says *which* file or node re-ran.
fn executed(db: &RootDatabase, program: Program) -> Vec<String> {
    let mut names: Vec<(String, String)> = Vec::new();
    names.push((format!("{:?}", program.as_id()), "program".into()));
    for &file in program.files(db) {
        let path = file.path(db).display().to_string();
        names.push((format!("{:?}", file.as_id()), path.clone()));
        let pf = ProgramFile::new(db, program, file);
        names.push((format!("{:?}", pf.as_id()), path.clone()));
        for &node in file_nodes(db, pf) {
            names.push((format!("{:?}", node.as_id()), node.name(db).to_string()));
            // The keys of `resolve_root`: every name a body uses.
            for (_, expr) in node.body(db).exprs() {
                if let pcl_hir::Expr::Variable { name, .. } = expr {
                    let key = pcl_hir::RootName::new(db, program, name.clone());
                    names.push((format!("{:?}", key.as_id()), name.to_string()));
                }
            }
        }
    }
    let log = db.take_executed();
    log.into_iter()
        .map(|key| {
            // `query(Id(12))` → `query(name)`
            match key.split_once('(') {
                Some((query, rest)) => {
                    let id = rest.trim_end_matches(')');
                    let id = format!("{id})");
                    let name = names
                        .iter()
                        .find(|(k, _)| *k == id)
                        .map_or_else(|| "?".to_string(), |(_, n)| n.clone());
                    format!("{query}({name})")
                }
                None => key,
            }
        })
        .collect()
}

struct Session {
    db: RootDatabase,
    program: Program,
}

impl Session {
    fn new(files: &[(&str, &str)]) -> Session {
        let mut db = RootDatabase::default();
        let files: Vec<(String, String)> = files
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        let program = common::load(&mut db, &files);
        pcl_ty::check_program(&db, program);
        db.start_logging();
        Session { db, program }
    }

    /// Sets a file's text, checks the program again, and compares what ran.
    fn edit(&mut self, path: &str, text: &str, expect: Expect) {
        self.db.set_file_text(Path::new(path), text.to_string());
        pcl_ty::check_program(&self.db, self.program);
        // Name the ids after the check, so that new nodes have names too.
        let ran = executed(&self.db, self.program);
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
                "infer_node(x)",
                "file_name_uses(main.pp)",
                "node_type(x)",
                "file_diagnostics(main.pp)",
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
                "program_scope(program)",
                "resolve_root(x)",
                "resolve_root(y)",
                "node_references(renamed)",
                "program_cycles(program)",
                "file_name_uses(main.pp)",
                "infer_node(renamed)",
                "node_type(renamed)",
                "file_diagnostics(main.pp)",
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
                "infer_node(x)",
                "file_name_uses(main.pp)",
                "node_type(x)",
                "infer_node(y)",
                "node_type(y)",
                "infer_node(z)",
                "node_type(z)",
                "file_diagnostics(main.pp)",
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
                "node_references(lonely)",
                "file_name_uses(other.pp)",
                "infer_node(lonely)",
                "node_type(lonely)",
                "file_diagnostics(other.pp)",
            ]
        "#]],
    );
}
