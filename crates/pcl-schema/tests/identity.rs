//! Type identity across loads of a schema, and reclamation: the same schema loaded twice gives
//! the same (`==`) types, recursive ones included; a changed schema gives new ones; and types
//! of dropped packages are freed, cycles included.
//!
//! The interner's counters are global, so the tests of this file run one at a time.

use std::sync::{Mutex, MutexGuard};

use pcl_schema::{check_package, Package, SchemaRegistry, Shape, TypeMapper};
use pcl_types::{interner_stats, Type, TypeKind};

fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

fn widgets_text() -> String {
    let path =
        pcl_test_support::workspace_root().join("test_data/schemas/registry/widgets-1.2.0.json");
    std::fs::read_to_string(path).expect("widgets schema")
}

/// The types of a package that involve recursion: the outputs of `Gadget` (whose `owner` is a
/// `Gadget`), and both shapes of `Tree` (a tree of trees).
fn recursive_types(package: &Package, registry: &SchemaRegistry) -> [Type; 4] {
    let mapper = TypeMapper::new(registry);
    let gadget = package.lookup_resource("widgets::Gadget").expect("Gadget");
    let tree = package.lookup_type("widgets::Tree").expect("Tree");
    [
        mapper.resource_output_type(package, &gadget),
        mapper.resource_input_type(package, &gadget),
        mapper
            .named_type(package, &tree, Shape::Plain)
            .expect("type"),
        mapper
            .named_type(package, &tree, Shape::Input)
            .expect("type"),
    ]
}

fn owner(outputs: &Type) -> Type {
    let TypeKind::Object(object) = outputs.kind() else {
        panic!("not an object: {outputs:?}");
    };
    object.property("owner").expect("an owner property")
}

#[test]
fn the_same_schema_loaded_twice_gives_the_same_types() {
    let _serial = serial();
    let text = widgets_text();
    let registry = SchemaRegistry::new();
    let first = Package::parse("widgets.json", text.as_str()).expect("parses");
    let second = Package::parse("elsewhere/widgets.json", text.as_str()).expect("parses");
    assert_eq!(first.namespace(), second.namespace());
    let a = recursive_types(&first, &registry);
    // Mapped from a second registry too: nothing is shared but the schema text.
    let other_registry = SchemaRegistry::new();
    let b = recursive_types(&second, &other_registry);
    assert_eq!(a, b);
    // The recursive resource type itself, reached through a property.
    let owner_a = owner(&a[0]);
    assert_eq!(owner_a, owner(&b[0]));
    assert!(matches!(owner_a.kind(), TypeKind::Output(_)));
    // Dropping the first package keeps the types alive for the second.
    drop(first);
    drop(a);
    let again = recursive_types(&second, &other_registry);
    assert_eq!(again, b);
}

#[test]
fn a_changed_schema_gives_new_types() {
    let _serial = serial();
    let text = widgets_text();
    let changed = text.replace("Finds a gadget.", "Finds a gadget, or none.");
    assert_ne!(text, changed);
    let registry = SchemaRegistry::new();
    let original = Package::parse("widgets.json", text.as_str()).expect("parses");
    let edited = Package::parse("widgets.json", changed.as_str()).expect("parses");
    assert_ne!(original.namespace(), edited.namespace());
    let a = recursive_types(&original, &registry);
    let b = recursive_types(&edited, &registry);
    for (x, y) in a.iter().zip(&b) {
        assert_ne!(x, y, "a deferred object of another schema is another type");
        assert!(x.equals(y), "of the same structure");
    }
}

#[test]
fn dropped_packages_free_their_types() {
    let _serial = serial();
    let text = widgets_text();
    let before = interner_stats();
    for round in 0..10 {
        // Alternately the same schema and a different one each time.
        let text = if round % 2 == 0 {
            text.clone()
        } else {
            text.replace("Finds a gadget.", &format!("Finds gadget {round}."))
        };
        let registry = SchemaRegistry::new();
        let package = Package::parse("widgets.json", text).expect("parses");
        let diagnostics = check_package(&package, &registry);
        assert!(diagnostics.iter().all(|d| !d.message.is_empty()));
        let types = recursive_types(&package, &registry);
        assert!(interner_stats().live_deferred > before.live_deferred);
        drop(types);
        drop(package);
        let after = interner_stats();
        assert_eq!(
            (after.live_types, after.live_deferred, after.live_namespaces),
            (
                before.live_types,
                before.live_deferred,
                before.live_namespaces
            ),
            "round {round}"
        );
    }
}
