//! Long reference chains and long cycles cost no stack: nodes are inferred dependencies
//! first, and cycles are found by an iterative search. Runs on the test harness's default
//! 2 MiB thread stack.

mod common;

use std::fmt::Write;
use std::path::{Path, PathBuf};

use pcl_db::RootDatabase;

const N: usize = 20_000;

#[test]
fn a_long_chain_of_locals_checks_and_rechecks_without_deep_recursion() {
    let mut text = String::from("a0 = 1\n");
    for i in 1..N {
        let _ = writeln!(text, "a{i} = a{} + 1", i - 1);
    }
    let mut db = RootDatabase::default();
    let files = [(PathBuf::from("chain.pp"), text.clone())];
    let program = pcl_project::load_in_memory(&mut db, Path::new("/chain"), &files);
    let report = pcl_sema::check_program(&db, program);
    assert_eq!(report.error_count(), 0);
    assert_eq!(report.types.last().map(|t| t.ty.as_str()), Some("int"));
    // Change the head's type: every node re-infers, in dependency order.
    db.set_file_text(
        Path::new("chain.pp"),
        text.replacen("a0 = 1", "a0 = 1.5", 1),
    );
    let report = pcl_sema::check_program(&db, program);
    assert_eq!(report.types.last().map(|t| t.ty.as_str()), Some("number"));
}

#[test]
fn a_long_cycle_is_reported_once() {
    let mut text = String::new();
    for i in 0..N {
        let _ = writeln!(text, "c{i} = c{}", (i + 1) % N);
    }
    let mut db = RootDatabase::default();
    let program =
        pcl_project::load_in_memory(&mut db, Path::new("/cycle"), &[("cycle.pp".into(), text)]);
    let report = pcl_sema::check_program(&db, program);
    let diagnostics = &report.files[0].diagnostics;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert!(diagnostics[0]
        .message
        .starts_with("circular reference: `c0` -> `c1` -> `c2`"));
    assert!(report.types.iter().all(|t| t.ty == "dynamic"));
}

/// Levels of the programs below whose values share their parts: `x0 = { a = 1 }`, then
/// `x1 = { l = x0, r = x0 }` and so on. The type of `x63` has 64 parts and a tree of 2^64
/// leaves: inference, widening, relations and printing must visit each part once, and every
/// printed type is bounded. (It used to take 10 s and 561 MB at 20 levels; nothing here
/// times anything: a walk over the tree would never finish.)
const LEVELS: usize = 64;

/// The largest message a check may print about these programs.
const MAX_MESSAGE: usize = 4096;

/// `name0 = first`, then `nameI = wrap(nameI-1)` up to `LEVELS - 1`.
fn chain(text: &mut String, name: &str, first: &str, wrap: &str) {
    let _ = writeln!(text, "{name}0 = {first}");
    for i in 1..LEVELS {
        let previous = format!("{name}{}", i - 1);
        let _ = writeln!(text, "{name}{i} = {}", wrap.replace('_', &previous));
    }
}

fn check(text: &str) -> (RootDatabase, pcl_db::Program, pcl_sema::ProgramReport) {
    let mut db = RootDatabase::default();
    let files = [(PathBuf::from("shared.pp"), text.to_string())];
    let program = pcl_project::load_in_memory(&mut db, Path::new("/shared"), &files);
    let report = pcl_sema::check_program(&db, program);
    (db, program, report)
}

fn node_type(db: &RootDatabase, program: pcl_db::Program, name: &str) -> pcl_types::Type {
    let scope = pcl_hir::program_scope(db, program);
    let node = scope
        .nodes
        .iter()
        .find(|n| n.name(db).as_str() == name)
        .unwrap_or_else(|| panic!("no node {name}"));
    pcl_sema::node_type(db, *node)
}

fn messages(report: &pcl_sema::ProgramReport) -> Vec<String> {
    report.files[0]
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn values_sharing_their_parts_check_in_proportion_to_their_types() {
    let mut text = String::from("config c \"bool\" {\n}\n");
    chain(&mut text, "x", "{ a = 1 }", "{ l = _, r = _ }");
    chain(&mut text, "y", "{ a = \"s\" }", "{ l = _, r = _ }");
    chain(&mut text, "t", "[1, \"a\"]", "[_, _]");
    let last = LEVELS - 1;
    let _ = writeln!(text, "joined = c ? x{last} : y{last}");
    let _ = writeln!(text, "either = c ? x{last} : [1]");
    let _ = writeln!(text, "both = [x{last}, y{last}, t{last}]");
    let _ = writeln!(
        text,
        "each = [for k, v in {{ a = x{last}, b = y{last} }} : v]"
    );
    let _ = writeln!(text, "bad = x{last} + 1");
    let _ = writeln!(text, "badTuple = t{last} + 1");
    let (db, program, report) = check(&text);
    let found = messages(&report);
    assert_eq!(found.len(), 2, "{found:#?}");
    for message in &found {
        assert!(
            message.starts_with(
                "the operands of `+` must be of type number: cannot assign a value of type "
            ),
            "{message}"
        );
        assert!(message.len() < MAX_MESSAGE, "{} bytes", message.len());
        assert!(message.contains('…'), "{message}");
        assert!(message.ends_with(" to type number"), "{message}");
    }
    // Literal types are widened, and the types are the ones built from the same parts.
    let x = node_type(&db, program, &format!("x{last}"));
    let y = node_type(&db, program, &format!("y{last}"));
    assert!(!x.has_literal_parts());
    assert_eq!(
        node_type(&db, program, "x1"),
        pcl_types::Type::object([
            (
                "l",
                pcl_types::Type::object([("a", pcl_types::Type::int())])
            ),
            (
                "r",
                pcl_types::Type::object([("a", pcl_types::Type::int())])
            ),
        ])
    );
    // `int` and `string` unify to `string` at every leaf: the result is y's type itself.
    assert_eq!(node_type(&db, program, "joined"), y);
    let either = node_type(&db, program, "either");
    assert_eq!(either.union_elements().len(), 2);
    assert!(either.union_elements().contains(&x));
    assert_eq!(
        node_type(&db, program, "each"),
        pcl_types::Type::list(y.clone())
    );
    // The report's types are bounded too.
    assert_eq!(report.types.len(), 3 * LEVELS + 7);
    for line in &report.types {
        assert!(
            line.ty.len() < MAX_MESSAGE,
            "{}: {} bytes",
            line.name,
            line.ty.len()
        );
    }
    // Without `--emit-types`, the report prints no type.
    let quiet = pcl_sema::program_report(&db, program, pcl_sema::NodeTypes::Omitted);
    assert!(quiet.types.is_empty());
    assert_eq!(messages(&quiet), found);
}

#[test]
fn eventual_values_sharing_their_parts() {
    let mut text = String::from("config s \"string\" {\n  secret = true\n}\n");
    chain(&mut text, "o", "{ a = s }", "{ l = _, r = _ }");
    chain(&mut text, "x", "{ a = 1 }", "{ l = _, r = _ }");
    let last = LEVELS - 1;
    let path = ".l.r".repeat(last / 2) + ".l.a";
    let _ = writeln!(text, "leaf = o{last}{path}");
    let _ = writeln!(text, "mixed = [o{last}, x{last}]");
    let _ = writeln!(text, "bad = o{last} + 1");
    let _ = writeln!(text, "text = \"${{o{last}{path}}}\"");
    // Declared types as deep as the values: converted pair by pair; the reason's path goes
    // down to the leaf.
    let deep = |leaf: &str| format!("{}{leaf}{}", "map(".repeat(LEVELS), ")".repeat(LEVELS));
    let _ = writeln!(
        text,
        "output typed \"{}\" {{\n  value = x{last}\n}}",
        deep("list(int)")
    );
    let _ = writeln!(
        text,
        "output fits \"{}\" {{\n  value = x{last}\n}}",
        deep("int")
    );
    let (db, program, report) = check(&text);
    let found = messages(&report);
    assert_eq!(found.len(), 2, "{found:#?}");
    for message in &found {
        assert!(
            message.len() < MAX_MESSAGE,
            "{} bytes: {message}",
            message.len()
        );
    }
    assert!(
        found[0].starts_with(
            "the operands of `+` must be of type number: cannot assign a value of type {\n  l: {"
        ),
        "{}",
        found[0]
    );
    assert!(
        found[1].starts_with("the value does not fit the output's type map(map("),
        "{}",
        found[1]
    );
    assert!(found[1].contains(": at `.l.l.l"), "{}", found[1]);
    assert!(found[1].contains("….l.l"), "{}", found[1]);
    assert!(
        found[1].ends_with(".a`: cannot assign a value of type int to type list(int)"),
        "{}",
        found[1]
    );
    assert_eq!(
        node_type(&db, program, "leaf"),
        pcl_types::Type::output(pcl_types::Type::string())
    );
    let o = node_type(&db, program, &format!("o{last}"));
    assert_eq!(o.eventual_strength(), pcl_types::Eventual::Output);
    assert_eq!(
        node_type(&db, program, "mixed").eventual_strength(),
        pcl_types::Eventual::Output
    );
    assert_eq!(
        node_type(&db, program, "text"),
        pcl_types::Type::output(pcl_types::Type::string())
    );
}

/// A component's output at the end of a long chain of locals in the component's program:
/// checking the program that includes it types the component's interface, dependencies
/// first (it recursed down the chain and overflowed the stack, `pcl check` included), and so
/// does the re-check after the chain's head changes type.
#[test]
fn a_long_chain_inside_a_component_program_checks_without_deep_recursion() {
    let mut text = String::from("a0 = 1\n");
    for i in 1..N {
        let _ = writeln!(text, "a{i} = a{}", i - 1);
    }
    let _ = writeln!(text, "output result {{\n  value = a{}\n}}", N - 1);
    let mut db = RootDatabase::default();
    let component = pcl_project::load_in_memory(
        &mut db,
        Path::new("/app/comp"),
        &[(PathBuf::from("/app/comp/main.pp"), text.clone())],
    );
    let main = "component c \"./comp\" {\n}\n\ny = c.result\n";
    let program = pcl_project::load_in_memory(
        &mut db,
        Path::new("/app"),
        &[(PathBuf::from("/app/main.pp"), main.to_string())],
    );
    let type_of_y = |db: &RootDatabase| {
        let report = pcl_sema::check_program(db, program);
        assert_eq!(report.error_count(), 0, "{:#?}", report.files);
        let y = report.types.into_iter().find(|t| t.name == "y");
        y.map(|t| t.ty)
    };
    assert_eq!(type_of_y(&db).as_deref(), Some("output(int)"));
    db.set_file_text(
        Path::new("/app/comp/main.pp"),
        text.replacen("a0 = 1", "a0 = \"one\"", 1),
    );
    assert_eq!(type_of_y(&db).as_deref(), Some("output(string)"));
    assert_eq!(pcl_sema::check_program(&db, component).error_count(), 0);
}
