//! Arbitrary bytes as a package schema through `pcl_invariants::schema::check_schema` (parse,
//! `check_package`, which decodes every definition and maps every one to PCL types, and the
//! shapes a binder builds on a few of them), then require that every type the input made,
//! recursive schema types and their cycles included, has been freed
//! (`pcl_invariants::targets::check_package`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pcl_invariants::targets::run("check_package", data));
