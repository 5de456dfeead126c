//! Incremental equals fresh: the bytes before the first 0xFF are a program (bound against the
//! `demo` test schema); the bytes after it are an edit script, four bytes per edit (operation,
//! position high and low byte, length or snippet: `pcl_invariants::edits::decode_script`).
//! After every edit, the long-lived database must report exactly what a fresh one does.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pcl_invariants::targets::run("edit_script", data));
