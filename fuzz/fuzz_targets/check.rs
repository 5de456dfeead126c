//! Arbitrary bytes as a program through the whole check pipeline (parse, lowering, inference,
//! binding against the `demo` test schema, the edge): no panic, no hang, every diagnostic
//! inside its file. A 0xFF byte (never part of UTF-8) starts another file, so multi-file
//! programs are reached; the input's length picks strict or lenient mode.

#![no_main]

use std::path::PathBuf;
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use pcl_invariants::program::{check_program, ProgramInput};

const DEMO: &str = include_str!("../../test_data/schemas/binding/demo-1.0.0.json");

fuzz_target!(|data: &[u8]| {
    let files = data
        .split(|&b| b == 0xFF)
        .take(4)
        .enumerate()
        .map(|(i, part)| (PathBuf::from(format!("f{i}.pp")), pcl_invariants::text_of(part)))
        .collect();
    check_program(&ProgramInput {
        files,
        schemas: vec![("demo".into(), Some("1.0.0".into()), Arc::from(DEMO))],
        lenient: data.len() % 2 == 1,
    });
});
