//! Arbitrary bytes as a package schema: parse, `check_package` (which decodes every
//! definition and maps every one to PCL types), a few type operations on the results, then
//! drop everything and require that the type interner is empty again: every type the input
//! made, recursive schema types and their cycles included, must have been freed. (A leak
//! through a cycle would not be reported by LeakSanitizer: the interner's table still points
//! at such types.)

#![no_main]

use libfuzzer_sys::fuzz_target;
use pcl_schema::{check_package, Package, SchemaRegistry, Shape, TypeMapper};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    run(text);
    let stats = pcl_types::interner_stats();
    assert_eq!(
        (stats.live_types, stats.live_deferred, stats.live_namespaces),
        (0, 0, 0),
        "types outlived their package: {stats:?}"
    );
});

fn run(text: &str) {
    let Ok(package) = Package::parse("fuzz.json", text) else {
        return;
    };
    let registry = SchemaRegistry::new();
    let _ = check_package(&package, &registry);
    let mapper = TypeMapper::new(&registry);
    // The shapes a binder builds from resource and object types, on a few of them.
    for token in package.resource_tokens().iter().take(8) {
        if let Ok(found) = package.lookup_resource(token) {
            let inputs = mapper.resource_input_type(&package, &found);
            let outputs = mapper.resource_output_type(&package, &found);
            let _ = inputs.display_readable();
            let _ = outputs.resolve_outputs().display_canonical().len();
            let _ = inputs.conversion_from(&outputs.resolve_outputs());
        }
    }
    for token in package.type_tokens().iter().take(8) {
        if let Ok(found) = package.lookup_type(token) {
            if let Some(plain) = mapper.named_type(&package, &found, Shape::Plain) {
                let input = plain.input_type();
                let _ = input.conversion_from(&plain);
                let _ = plain.unify(&input);
                let _ = input.display_readable();
            }
        }
    }
}
