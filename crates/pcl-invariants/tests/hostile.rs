//! Hostile inputs through the library: each is checked (no panic, every diagnostic inside its
//! file, the stack bounded: the test harness's threads have 2 MiB) and must produce the
//! diagnostic that explains it. Their timings are benchmarks (`examples/hostile.rs`,
//! `docs/benchmarks.md`), not assertions.
//!
//! The inputs of 100,000 parts (and the 10 MB line) take a minute in a debug build: the default
//! test run checks each at a tenth of that size or less, which takes every path the full size
//! takes (nesting beyond the limit, a chain far longer than any stack would allow), and the full
//! sizes run with the long tests: `cargo test --workspace --locked -- --ignored` (in CI too).

use std::sync::Arc;

use pcl_invariants::hostile::{self, Nesting};
use pcl_invariants::program::{check_program, ProgramInput};

fn with_demo(text: String) -> ProgramInput {
    ProgramInput {
        schemas: pcl_invariants::targets::demo_schemas(),
        ..ProgramInput::single(text)
    }
}

/// The lines of the report that are diagnostics (not node types).
fn diagnostics(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter(|l| l.starts_with("main.pp "))
        .collect()
}

#[test]
fn nesting_10_000_deep_is_reported_once_per_construct() {
    nesting_is_reported_once_per_construct(10_000);
}

#[test]
#[ignore = "long: run by `cargo test --workspace --locked -- --ignored`"]
fn nesting_100_000_deep_is_reported_once_per_construct() {
    nesting_is_reported_once_per_construct(100_000);
}

fn nesting_is_reported_once_per_construct(depth: usize) {
    for kind in Nesting::ALL {
        let text = hostile::nested(kind, depth);
        pcl_invariants::syntax::check_syntax(&text);
        pcl_invariants::format::check_format(&text);
        let report = check_program(&with_demo(text));
        let found = diagnostics(&report);
        assert!(
            found.iter().any(|d| d.contains("nesting too deep")),
            "{}: {found:#?}",
            kind.name()
        );
        assert!(found.len() <= 3, "{}: {found:#?}", kind.name());
    }
}

#[test]
fn nesting_within_the_limit_is_accepted() {
    for kind in Nesting::ALL {
        let depth = if kind == Nesting::ForExpressions {
            60
        } else {
            100
        };
        let report = check_program(&with_demo(hostile::nested(kind, depth)));
        assert!(
            !report.contains("Nesting too deep"),
            "{}: {report}",
            kind.name()
        );
    }
}

#[test]
fn a_one_megabyte_line() {
    a_long_line(1 << 20);
}

#[test]
#[ignore = "long: run by `cargo test --workspace --locked -- --ignored`"]
fn a_ten_megabyte_line() {
    a_long_line(10 << 20);
}

fn a_long_line(bytes: usize) {
    let text = hostile::long_line(bytes);
    pcl_invariants::syntax::check_syntax(&text);
    let report = check_program(&ProgramInput::single(text));
    assert!(diagnostics(&report).is_empty(), "{report}");
    // A list literal is a tuple (1.3 million elements at 10 MB), printed in full.
    assert!(
        report.contains("local values: (int, int, int"),
        "{}",
        &report[..200]
    );
}

#[test]
fn an_integer_of_100_000_digits() {
    let report = check_program(&ProgramInput::single(hostile::huge_integer(100_000)));
    assert!(diagnostics(&report).is_empty(), "{report}");
    // As in Pulumi, an integer literal is `int` only within 32 bits.
    assert!(report.contains("local big: number"), "{report}");
}

#[test]
fn a_block_of_10_000_attributes() {
    a_block_of_attributes(10_000);
}

#[test]
#[ignore = "long: run by `cargo test --workspace --locked -- --ignored`"]
fn a_block_of_100_000_attributes() {
    a_block_of_attributes(100_000);
}

fn a_block_of_attributes(n: usize) {
    let report = check_program(&with_demo(hostile::many_attributes(n)));
    let found = diagnostics(&report);
    assert_eq!(found.len(), n, "one unsupported property per attribute");
    assert!(found[0].contains("attr0"), "{}", found[0]);
}

#[test]
fn an_object_literal_of_10_000_keys() {
    an_object_literal_of_keys(10_000);
}

#[test]
#[ignore = "long: run by `cargo test --workspace --locked -- --ignored`"]
fn an_object_literal_of_200_000_keys() {
    an_object_literal_of_keys(200_000);
}

fn an_object_literal_of_keys(n: usize) {
    let report = check_program(&with_demo(hostile::many_object_keys(n)));
    assert!(diagnostics(&report).is_empty(), "{report}");
}

#[test]
fn a_property_set_10_000_times() {
    a_property_set_many_times(10_000);
}

#[test]
#[ignore = "long: run by `cargo test --workspace --locked -- --ignored`"]
fn a_property_set_200_000_times() {
    a_property_set_many_times(200_000);
}

fn a_property_set_many_times(n: usize) {
    let report = check_program(&with_demo(hostile::many_settled_attributes(n)));
    // Every setting after the first is a redefinition.
    assert_eq!(
        diagnostics(&report).len(),
        n - 1,
        "{}",
        &report[..report.len().min(2000)]
    );
}

#[test]
fn invalid_utf8_and_nul_bytes() {
    let bytes = b"a = \"x\xff\xfe\"\nb = 1\0\nc = \0\"\0\"\n\xc3";
    let text = pcl_invariants::text_of(bytes);
    pcl_invariants::syntax::check_syntax(&text);
    pcl_invariants::format::check_format(&text);
    let report = check_program(&ProgramInput::single(text));
    let found = diagnostics(&report);
    assert!(!found.is_empty(), "NUL bytes are reported");
    assert!(
        report.contains("local b: int"),
        "recovery keeps the valid parts: {report}"
    );
}

#[test]
fn a_chain_of_10_000_locals() {
    a_chain_of_locals(10_000);
}

#[test]
#[ignore = "long: run by `cargo test --workspace --locked -- --ignored`"]
fn a_chain_of_100_000_locals() {
    a_chain_of_locals(100_000);
}

fn a_chain_of_locals(n: usize) {
    let report = check_program(&ProgramInput::single(hostile::local_chain(n)));
    assert!(diagnostics(&report).is_empty());
    assert!(report.ends_with(&format!("local a{}: int\n", n - 1)));
}

#[test]
fn a_cycle_of_10_000_locals_is_one_diagnostic() {
    a_cycle_of_locals_is_one_diagnostic(10_000);
}

#[test]
#[ignore = "long: run by `cargo test --workspace --locked -- --ignored`"]
fn a_cycle_of_100_000_locals_is_one_diagnostic() {
    a_cycle_of_locals_is_one_diagnostic(100_000);
}

fn a_cycle_of_locals_is_one_diagnostic(n: usize) {
    let report = check_program(&ProgramInput::single(hostile::local_cycle(n)));
    let found = diagnostics(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].contains("circular reference: `c0` -> `c1` -> `c2`"),
        "{}",
        found[0]
    );
    assert!(
        found[0].len() < 1_000,
        "the message names a few members, not all"
    );
}

#[test]
fn a_fan_in_of_10_000_resources() {
    a_fan_in_of_resources(10_000);
}

#[test]
#[ignore = "long: run by `cargo test --workspace --locked -- --ignored`"]
fn a_fan_in_of_100_000_resources() {
    a_fan_in_of_resources(100_000);
}

fn a_fan_in_of_resources(n: usize) {
    let report = check_program(&with_demo(hostile::fan_in(n)));
    assert!(diagnostics(&report).is_empty(), "{}", &report[..500]);
    assert!(report.contains(&format!("resource r{}: ", n - 1)));
}

#[test]
fn ranges_over_a_trillion_allocate_nothing_per_element() {
    let report = check_program(&with_demo(hostile::huge_ranges()));
    assert!(diagnostics(&report).is_empty(), "{report}");
    assert!(report.contains("local huge: list(int)"), "{report}");
    assert!(report.contains("local count: int"), "{report}");
    assert!(report.contains("resource many: list("), "{report}");
}

#[test]
fn a_schema_with_types_in_a_cycle() {
    let input = ProgramInput {
        schemas: vec![(
            "cyc".into(),
            Some("1.0.0".into()),
            Arc::from(hostile::cyclic_schema(1_000)),
        )],
        ..ProgramInput::single(hostile::CYCLIC_SCHEMA_USER)
    };
    let report = check_program(&input);
    assert!(diagnostics(&report).is_empty(), "{report}");
    assert!(
        report.contains("local value: output(list(cyc::T2)?)"),
        "{report}"
    );
    pcl_invariants::schema::check_schema(&hostile::cyclic_schema(1_000));
}

#[test]
fn a_schema_nested_100_000_levels_deep() {
    let schema = hostile::deep_schema(100_000);
    pcl_invariants::schema::check_schema(&schema);
    // The document's syntax is checked without recursion; decoding the definition reports
    // the depth at the definition's JSON pointer.
    let package = pcl_schema::Package::parse("deep.json", schema.as_str()).expect("valid JSON");
    let problems = pcl_schema::check_package(&package, &pcl_schema::SchemaRegistry::new());
    let problem = problems
        .iter()
        .find(|p| p.message.contains("nested too deeply"))
        .unwrap_or_else(|| panic!("{problems:#?}"));
    assert_eq!(problem.path.as_str(), "/resources/deep:index:R");
    assert!(
        problem.message.ends_with("(at line 1 column 242)"),
        "{}",
        problem.message
    );
    // Through binding: the resource's package cannot be loaded, and the user is told why.
    let input = ProgramInput {
        schemas: vec![("deep".into(), Some("1.0.0".into()), Arc::from(schema))],
        ..ProgramInput::single("resource r \"deep:index:R\" {\n  p = \"x\"\n}\n")
    };
    let report = check_program(&input);
    let found = diagnostics(&report);
    assert_eq!(found.len(), 1, "{report}");
    assert!(
        found[0].contains("E0502 the schema's definition of resource type `deep:index:R` cannot be used: /resources/deep:index:R: this definition is nested too deeply"),
        "{}",
        found[0]
    );
}

/// The messages of a program's diagnostics, and its report of node types.
fn messages_and_types(input: &ProgramInput) -> (Vec<String>, Vec<String>) {
    let (db, program) = input.load();
    let report = pcl_sema::check_program(&db, program);
    let messages = report
        .files
        .iter()
        .flat_map(|f| &f.diagnostics)
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect();
    let types = report.types.iter().map(|t| t.ty.clone()).collect();
    (messages, types)
}

#[test]
fn types_shared_by_reference_64_levels_deep() {
    // 2^64 leaves in the tree of the deepest types, 64 parts each: this used to take 10 s and
    // 561 MB at 20 levels and print 79 MB for one error.
    let input = with_demo(hostile::shared_types(64));
    check_program(&input);
    let (messages, types) = messages_and_types(&input);
    for message in &messages {
        assert!(message.len() < 4096, "{} bytes: {message}", message.len());
    }
    for ty in &types {
        assert!(ty.len() < 4096, "{} bytes: {ty}", ty.len());
    }
    let starts = |prefix: &str| messages.iter().filter(|m| m.starts_with(prefix)).count();
    assert_eq!(
        starts("E0304 the operands of `+` must be of type number: cannot assign a value of type "),
        4,
        "{messages:#?}"
    );
    assert_eq!(
        starts("E0304 the value does not fit the output's type map(map("),
        1,
        "{messages:#?}"
    );
    assert_eq!(
        starts("E0304 the attribute `tags` of resource type `demo:storage:Bucket`: at `.l`: cannot assign a value of type {"),
        1,
        "{messages:#?}"
    );
    assert_eq!(
        starts("E0304 the attribute `website` of resource type `demo:storage:Bucket`: at `.errorDocument`: cannot assign a value of type {"),
        1,
        "{messages:#?}"
    );
    assert_eq!(messages.len(), 7, "{messages:#?}");
}

#[test]
fn a_value_16_000_levels_deep_converted_to_a_recursive_schema_type() {
    // Each level's reason used to copy the path below it: 71 s and 22 GB.
    let input = ProgramInput {
        schemas: vec![(
            "cyc".into(),
            Some("1.0.0".into()),
            Arc::from(hostile::cyclic_schema(1)),
        )],
        ..ProgramInput::single(hostile::deep_value_for_cyclic_schema(16_000))
    };
    let (messages, _) = messages_and_types(&input);
    assert_eq!(messages.len(), 1, "{messages:#?}");
    let message = &messages[0];
    assert!(message.len() < 1_000, "{message}");
    assert!(
        message
            .starts_with("E0304 the attribute `head` of resource type `cyc::Node`: at `.next.next"),
        "{message}"
    );
    assert!(
        message.ends_with(".next.me`: cannot assign a value of type string to type cyc::T0?"),
        "{message}"
    );
}

#[test]
fn a_schema_property_one_of_10_000_object_types() {
    // Each union compared every pair of its members: 3.7 s at 10,000 members, and members that
    // differ only far down (`C{i} = {next: C{i-1}}`) cost as much as they are deep: 170 s at
    // 1,000 of them. Members are now compared only within their structural class.
    let input = ProgramInput {
        schemas: vec![(
            "wide".into(),
            Some("1.0.0".into()),
            Arc::from(hostile::one_of_schema(10_000)),
        )],
        ..ProgramInput::single(hostile::ONE_OF_SCHEMA_USER)
    };
    let report = check_program(&input);
    assert!(diagnostics(&report).is_empty(), "{}", &report[..2000]);
    for (name, members) in [
        ("flat", "wide::F0 | wide::F1 | "),
        ("chain", "wide::C0 | wide::C1 | "),
    ] {
        let line = report
            .lines()
            .find(|l| l.starts_with(&format!("local {name}: output(")))
            .unwrap_or_else(|| panic!("{}", &report[..2000]));
        assert!(line.contains(members), "{line}");
    }
}

#[test]
fn conditional_unions_of_lists_nested_200_deep() {
    nested_list_unions(200);
}

#[test]
#[ignore = "long: run by `cargo test --workspace --locked -- --ignored`"]
fn conditional_unions_of_lists_nested_1_000_deep() {
    nested_list_unions(1_000);
}

fn nested_list_unions(depth: usize) {
    // `u{j} = c ? l{j} : u{j-1}`: each union compared its new list with every member, each
    // comparison as deep as the shallower list, at each level of a conversion, and sorted the
    // new list among the members comparing it with each: 10 s at 200.
    let report = check_program(&ProgramInput::single(hostile::nested_list_unions(depth)));
    assert!(diagnostics(&report).is_empty(), "{}", &report[..2000]);
    let prefix = format!("local u{depth}: list(int) | list(list(int)) | ");
    assert!(
        report.lines().any(|l| l.starts_with(&prefix)),
        "{}",
        &report[report.len().saturating_sub(2000)..]
    );
}

#[test]
fn shared_literals_converted_to_nested_collections() {
    // A list of 20 lists of 20 lists, 8 deep, and the same as objects, given to typed configs:
    // 20^8 paths to their numbers, which a conversion walked one by one when it kept no memo
    // (48 s for the objects in a release build; found by review).
    let (width, depth) = (20, 8);
    let items = |name: &str, value: &str| -> String {
        (0..width)
            .map(|i| format!("{name}{i} = {value}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut text = format!(
        "l0 = [{}]\nm0 = {{{}}}\n",
        vec!["1"; width].join(", "),
        items("a", "1")
    );
    for d in 1..depth {
        let list = vec![format!("l{}", d - 1); width].join(", ");
        text += &format!(
            "l{d} = [{list}]\nm{d} = {{{}}}\n",
            items("a", &format!("m{}", d - 1))
        );
    }
    let nested = |outer: &str| {
        format!(
            "{}int{}",
            format!("{outer}(").repeat(depth),
            ")".repeat(depth)
        )
    };
    text += &format!(
        "config cl \"{}\" {{\n  default = l{last}\n}}\nconfig cm \"{}\" {{\n  default = m{last}\n}}\n",
        nested("list"),
        nested("map"),
        last = depth - 1
    );
    let input = with_demo(text);
    check_program(&input);
    let (messages, _) = messages_and_types(&input);
    assert!(messages.is_empty(), "{messages:#?}");
}
