//! Arbitrary bytes as a program through the whole check pipeline (parse, lowering, inference,
//! binding against the `demo` test schema, the edge): no panic, no hang, every diagnostic
//! inside its file. A 0xFF byte (never part of UTF-8) starts another file, so multi-file
//! programs are reached; the input's length picks strict or lenient mode.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pcl_invariants::targets::run("check", data));
