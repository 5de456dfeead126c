//! Structured mutations of a real schema (the `demo` test schema): the bytes are a mutation
//! script (wrong kinds in the right places, removed keys, `$ref`s to missing, external and
//! enclosing types, deep nesting). The result goes through schema loading (every problem
//! located by a JSON pointer) and binds programs that use the schema's resources and functions.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pcl_invariants::targets::run("schema_mutations", data));
