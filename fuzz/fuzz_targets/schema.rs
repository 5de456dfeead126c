//! Arbitrary bytes as a package schema: no panic, and every problem has a message and a JSON
//! pointer that names a place in the document.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pcl_invariants::targets::run("schema", data));
