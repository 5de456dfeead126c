//! Arbitrary bytes (read as `pcl` reads files: invalid UTF-8 becomes U+FFFD) through the lexer
//! and parser: no panic, the tokens tile the input, the tree's text is the input, every error
//! lies inside it.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pcl_invariants::targets::run("syntax", data));
