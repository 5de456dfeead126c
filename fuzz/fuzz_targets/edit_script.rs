//! Incremental equals fresh: the bytes before the first 0xFF are a program (bound against the
//! `demo` test schema); the bytes after it are an edit script, four bytes per edit (operation,
//! position high and low byte, length or snippet: `pcl_invariants::edits::decode_script`).
//! After every edit, the long-lived database must report exactly what a fresh one does.

#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use pcl_invariants::edits::{check_edit_script, decode_script};
use pcl_invariants::program::ProgramInput;

const DEMO: &str = include_str!("../../test_data/schemas/binding/demo-1.0.0.json");

fuzz_target!(|data: &[u8]| {
    let (program, script) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let input = ProgramInput {
        schemas: vec![("demo".into(), Some("1.0.0".into()), Arc::from(DEMO))],
        ..ProgramInput::single(pcl_invariants::text_of(program))
    };
    check_edit_script(&input, &decode_script(script));
});
