//! Arbitrary bytes as a package schema through `pcl_invariants::schema::check_schema` (parse,
//! `check_package`, which decodes every definition and maps every one to PCL types, and the
//! shapes a binder builds on a few of them), then require that the type interner is empty
//! again: every type the input made, recursive schema types and their cycles included, must
//! have been freed. (A leak through a cycle would not be reported by LeakSanitizer: the
//! interner's table still points at such types.)

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    pcl_invariants::schema::check_schema(text);
    let stats = pcl_types::interner_stats();
    assert_eq!(
        (stats.live_types, stats.live_deferred, stats.live_namespaces),
        (0, 0, 0),
        "types outlived their package: {stats:?}"
    );
});
