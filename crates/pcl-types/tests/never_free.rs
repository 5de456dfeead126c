//! `pcl_types::never_free` is a one-way switch for the whole process, so it is tested in a
//! test binary of its own: once it is on, types made before and after it are found again by
//! pointer, on every thread, recursive schema objects work as before, and nothing is freed
//! when handles are copied and dropped.

use pcl_types::{interner_stats, Annotation, DeferredKey, Type, TypeKind};

/// The properties of an object type, by name.
fn property(ty: &Type, name: &str) -> Option<Type> {
    match ty.kind() {
        TypeKind::Object(object) => object.properties().get(name).cloned(),
        _ => None,
    }
}

/// The deferred object `pkg:index:Node` of `namespace`: the live one, if there is one.
fn node_of(namespace: u64) -> Type {
    Type::deferred_object(
        DeferredKey::new(namespace, "pkg:index:Node"),
        true,
        vec![Annotation::SchemaObject("pkg:index:Node".into())],
    )
}

/// `Node = { next: Node?, label: string }`, the shape of a recursive schema type.
fn recursive(namespace: u64) -> Type {
    let node = node_of(namespace);
    node.define_object([
        ("next", Type::optional(node.clone())),
        ("label", Type::string()),
    ])
    .expect("a new object");
    node
}

#[test]
fn types_stay_interned_and_alive_once_never_freed() {
    let before = Type::list(Type::string_literal("made before the switch"));
    let node_before = recursive(1);
    pcl_types::never_free();

    // Handles made, copied and dropped: equal types are one node, found again by pointer.
    let lists: Vec<Type> = (0..2_000)
        .map(|i| Type::list(Type::string_literal(&format!("v{}", i % 100))))
        .collect();
    let copies: Vec<Type> = lists.to_vec();
    for (a, b) in lists.iter().zip(&copies) {
        assert_eq!(a, b);
    }
    assert_eq!(Type::list(Type::string_literal("v7")), lists[7]);
    assert_eq!(
        Type::list(Type::string_literal("made before the switch")),
        before
    );

    // Other threads see the same types, and may make them first.
    let from_thread = std::thread::spawn(|| Type::list(Type::string_literal("v42")))
        .join()
        .unwrap();
    assert_eq!(from_thread, lists[42]);
    let made_there = std::thread::spawn(|| Type::map(Type::string_literal("only there")))
        .join()
        .unwrap();
    assert_eq!(Type::map(Type::string_literal("only there")), made_there);

    // Recursive objects: made before or after the switch, found again by key, with their
    // properties, however many handles come and go.
    let node = recursive(2);
    assert_eq!(node_of(2), node);
    assert_eq!(node_of(1), node_before);
    let next = property(&node, "next").expect("`next`");
    assert_eq!(next, Type::optional(node.clone()));
    for _ in 0..1_000 {
        let copy = node.clone();
        drop(copy);
    }

    // Nothing was freed: every type is still in the table, as it was.
    let live = interner_stats().live_types;
    drop(copies);
    drop(lists);
    drop(before);
    drop(node);
    drop(node_before);
    drop(from_thread);
    drop(made_there);
    assert_eq!(interner_stats().live_types, live);
    assert!(interner_stats().collected_namespaces == 0);
    let again = node_of(2);
    assert_eq!(property(&again, "label"), Some(Type::string()));
    assert_eq!(
        Type::list(Type::string_literal("v99")).display_canonical(),
        "list(const(string, \"v99\"))"
    );
}
