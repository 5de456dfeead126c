//! What each fuzz target does with its input bytes, so that the fuzz targets (`fuzz/`) and the
//! regression tests (`tests/regressions.rs`, replaying `test_data/fuzz/<target>/`) run exactly
//! the same thing.

use std::path::PathBuf;
use std::sync::Arc;

use crate::edits::{check_edit_script, decode_script};
use crate::program::{check_program, ProgramInput};

/// The `demo` test schema, which programs are bound against.
pub const DEMO_SCHEMA: &str = include_str!("../../../test_data/schemas/binding/demo-1.0.0.json");
const DEMO_RESOURCES: &str = include_str!("../../../test_data/programs/resource-inputs/main.pp");
const DEMO_INVOKES: &str = include_str!("../../../test_data/programs/invokes/main.pp");

/// The names of the targets, as directories of `test_data/fuzz/` and binaries of `fuzz/`.
pub const TARGETS: [&str; 7] = [
    "syntax",
    "format",
    "check",
    "edit_script",
    "schema",
    "schema_mutations",
    "check_package",
];

/// The `demo` schema, as a program's schema list.
pub fn demo_schemas() -> Vec<(String, Option<String>, Arc<str>)> {
    vec![("demo".into(), Some("1.0.0".into()), Arc::from(DEMO_SCHEMA))]
}

/// Runs target `name` on `data`; panics on a broken promise, or on an unknown name.
pub fn run(name: &str, data: &[u8]) {
    match name {
        "syntax" => {
            crate::syntax::check_syntax(&crate::text_of(data));
        }
        "format" => crate::format::check_format(&crate::text_of(data)),
        "check" => check(data),
        "edit_script" => edit_script(data),
        "schema" => crate::schema::check_schema(&crate::text_of(data)),
        "schema_mutations" => schema_mutations(data),
        "check_package" => check_package(data),
        other => panic!("no fuzz target named {other}"),
    }
}

/// A program of up to four files (split at 0xFF bytes, never part of UTF-8), strict or lenient
/// by the input's length, bound against the `demo` schema.
pub fn check(data: &[u8]) {
    let files = data
        .split(|&b| b == 0xFF)
        .take(4)
        .enumerate()
        .map(|(i, part)| (PathBuf::from(format!("f{i}.pp")), crate::text_of(part)))
        .collect();
    check_program(&ProgramInput {
        files,
        schemas: demo_schemas(),
        lenient: data.len() % 2 == 1,
    });
}

/// A program (the bytes before the first 0xFF), then an edit script (the bytes after it, in
/// the format of [`decode_script`]).
pub fn edit_script(data: &[u8]) {
    let (program, script) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let input = ProgramInput {
        schemas: demo_schemas(),
        ..ProgramInput::single(crate::text_of(program))
    };
    check_edit_script(&input, &decode_script(script));
}

/// A mutation script applied to the `demo` schema ([`crate::schema::mutate`]); the result is
/// loaded and checked, then programs using its resources and functions are bound against it.
pub fn schema_mutations(data: &[u8]) {
    let mut document: serde_json::Value =
        serde_json::from_str(DEMO_SCHEMA).expect("the demo schema is JSON");
    crate::schema::mutate(&mut document, data);
    let text = document.to_string();
    crate::schema::check_schema(&text);
    // Resources and invokes; names the two files share are duplicates, which is fine here.
    crate::schema::check_bound_program("demo", &text, &format!("{DEMO_RESOURCES}\n{DEMO_INVOKES}"));
}

/// A schema (valid UTF-8 only) through [`crate::schema::check_schema`], after which every type
/// it made must have been freed: as many types, deferred objects and namespaces are alive as
/// before, recursive schema types and their cycles included. (LeakSanitizer cannot see such a
/// leak: the interner's table still points at the types.) Other threads must not make types
/// meanwhile; the fuzz target has none, and the regression replay runs on one thread.
pub fn check_package(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let live = || {
        let stats = pcl_types::interner_stats();
        (stats.live_types, stats.live_deferred, stats.live_namespaces)
    };
    let before = live();
    crate::schema::check_schema(text);
    assert_eq!(live(), before, "types outlived their package");
}
