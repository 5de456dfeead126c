//! Arbitrary bytes through the formatter: no panic, the same tokens and line breaks, damaged
//! items kept byte for byte, edits that give the output, and idempotence.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pcl_invariants::targets::run("format", data));
