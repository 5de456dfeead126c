//! Structured mutations of a real schema (the `demo` test schema): the bytes are a mutation
//! script (wrong kinds in the right places, removed keys, `$ref`s to missing, external and
//! enclosing types, deep nesting). The result goes through schema loading (every problem
//! located by a JSON pointer) and binds programs that use the schema's resources and functions.

#![no_main]

use libfuzzer_sys::fuzz_target;

const DEMO: &str = include_str!("../../test_data/schemas/binding/demo-1.0.0.json");
const INPUTS: &str = include_str!("../../test_data/programs/resource-inputs/main.pp");
const INVOKES: &str = include_str!("../../test_data/programs/invokes/main.pp");

fuzz_target!(|data: &[u8]| {
    let mut document: serde_json::Value = serde_json::from_str(DEMO).expect("the demo schema");
    pcl_invariants::schema::mutate(&mut document, data);
    let text = document.to_string();
    pcl_invariants::schema::check_schema(&text);
    // Resources and invokes; names the two files share are duplicates, which is fine here.
    pcl_invariants::schema::check_bound_program("demo", &text, &format!("{INPUTS}\n{INVOKES}"));
});
