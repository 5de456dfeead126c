//! Reclamation and identity: types nothing refers to are freed (deferred objects and their
//! cycles included), interning stays one handle per type under concurrent use, and deferred
//! objects are identified by their key.
//!
//! The interner's counters are global, so the tests of this file run one at a time (other
//! test files are other processes).

mod common;

use std::sync::{Mutex, MutexGuard};

use pcl_types::{
    interner_stats, Annotation, ConstValue, DeferredKey, DefineObjectError, InternerStats, Type,
    TypeKind,
};

fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

/// The counters that must come back to where they were.
fn live(stats: InternerStats) -> (usize, usize, usize) {
    (stats.live_types, stats.live_deferred, stats.live_namespaces)
}

fn literal(i: usize) -> Type {
    Type::constant(
        Type::int(),
        ConstValue::parse_number(&i.to_string()).unwrap(),
    )
}

/// `Node = { next: Node?, value: V, peer: Peer? }` and `Peer = { back: Node }` in one
/// namespace: a cycle of two deferred objects, each also containing itself.
fn recursive_pair(namespace: u64, value: Type) -> (Type, Type) {
    let node = Type::deferred_object(
        DeferredKey::new(namespace, "pkg:index:Node"),
        true,
        vec![Annotation::SchemaObject("pkg:index:Node".into())],
    );
    let peer = Type::deferred_object(DeferredKey::new(namespace, "pkg:index:Peer"), true, vec![]);
    node.define_object([
        ("next", Type::optional(node.clone())),
        ("value", value),
        ("peer", Type::optional(peer.clone())),
    ])
    .expect("new object");
    peer.define_object([("back", node.clone())])
        .expect("new object");
    (node, peer)
}

#[test]
fn dropped_literal_types_are_freed() {
    let _serial = serial();
    let baseline = live(interner_stats());
    let mut kept = Vec::new();
    for i in 0..10_000 {
        let constant = literal(i);
        let object = Type::object([
            (format!("p{i}"), constant.clone()),
            ("s".to_string(), Type::string_literal(&format!("v{i}"))),
        ]);
        let wrapped = Type::optional(Type::list(Type::tuple([constant, object.clone()])));
        if i % 1000 == 0 {
            kept.push(wrapped);
        }
    }
    assert!(
        interner_stats().live_types > baseline.0,
        "the kept types are alive"
    );
    drop(kept);
    assert_eq!(live(interner_stats()), baseline);
}

#[test]
fn a_live_type_is_found_again_and_a_dropped_one_is_rebuilt() {
    let _serial = serial();
    let baseline = live(interner_stats());
    let a = Type::object([("x", literal(12345))]);
    let b = Type::object([("x", literal(12345))]);
    assert_eq!(a, b, "one handle for one live type");
    assert_eq!(
        interner_stats().live_types,
        baseline.0 + 2,
        "{{x}} and 12345"
    );
    drop((a, b));
    assert_eq!(live(interner_stats()), baseline);
    let c = Type::object([("x", literal(12345))]);
    assert_eq!(c.display_canonical(), "object({x = const(int, 12345)})");
}

#[test]
fn concurrent_interning_and_dropping_keeps_one_handle_per_type() {
    let _serial = serial();
    let baseline = live(interner_stats());
    // A few types kept alive by the main thread: every thread must find these very handles.
    let shared: Vec<Type> = (0..50)
        .map(|i| Type::list(Type::object([("k", literal(i))])))
        .collect();
    std::thread::scope(|scope| {
        for thread in 0..4 {
            let shared = &shared;
            scope.spawn(move || {
                for round in 0..200 {
                    for (i, expected) in shared.iter().enumerate() {
                        let built = Type::list(Type::object([("k", literal(i))]));
                        assert_eq!(&built, expected, "thread {thread} round {round}");
                    }
                    // Types built and dropped by every thread at once: each thread must get
                    // the live handle of the others, or a new one when the last was dropped.
                    let mut temporaries = Vec::new();
                    for i in 0..100 {
                        let t = Type::union([literal(1000 + i), Type::string_literal("t")]);
                        let again = Type::union([Type::string_literal("t"), literal(1000 + i)]);
                        assert_eq!(t, again);
                        temporaries.push(t);
                    }
                    if round % 2 == thread % 2 {
                        temporaries.clear();
                    }
                    let node = Type::deferred_object(
                        DeferredKey::new(7_000 + round as u64 % 3, "pkg:index:Shared"),
                        true,
                        vec![],
                    );
                    let _ = node.define_object([("self", Type::optional(node.clone()))]);
                    assert!(
                        matches!(node.kind(), TypeKind::Object(o) if o.property("self").is_some()),
                        "a found deferred object has its properties"
                    );
                }
            });
        }
    });
    drop(shared);
    assert_eq!(live(interner_stats()), baseline);
}

#[test]
fn deferred_objects_are_identified_by_key() {
    let _serial = serial();
    let namespace = common::fresh_namespace();
    let (node, _peer) = recursive_pair(namespace, Type::string());
    let again = Type::deferred_object(DeferredKey::new(namespace, "pkg:index:Node"), false, vec![]);
    assert_eq!(node, again, "the live object with that key");
    assert!(
        matches!(again.kind(), TypeKind::Object(o) if o.strict() && o.is_defined()),
        "with its own strictness and properties"
    );
    assert_eq!(
        again.define_object([("other", Type::int())]),
        Err(DefineObjectError::AlreadyDefined)
    );
    assert_eq!(
        node.display_canonical(),
        "object({next = union(none, ...), peer = union(none, object({back = ...})), value = string})"
    );
    // Another variant, or another namespace, is another object.
    let variant = Type::deferred_object(
        DeferredKey::new(namespace, "pkg:index:Node").with_variant(1),
        true,
        vec![],
    );
    assert_ne!(node, variant);
    let (other, _) = recursive_pair(common::fresh_namespace(), Type::string());
    assert_ne!(node, other);
    assert!(node.equals(&other), "but structurally equal");
    // Transformations of equal objects are equal, and found again by key.
    assert_eq!(node.input_type(), again.input_type());
    assert_eq!(
        Type::output(node.input_type()),
        Type::output(again.input_type())
    );
}

#[test]
fn a_dropped_namespace_is_reclaimed_with_its_cycles() {
    let _serial = serial();
    let baseline = live(interner_stats());
    for round in 0..20 {
        let namespace = common::fresh_namespace();
        let (node, peer) = recursive_pair(namespace, literal(round));
        // Derived objects (the input shape, resolved outputs) live in the same namespace.
        let input = node.input_type();
        let output = Type::output(input.clone());
        assert!(input.resolve_outputs().equals(&node));
        let before = interner_stats();
        assert!(before.live_deferred >= baseline.1 + 4, "{before:?}");
        // Holding a structural type that contains an object keeps the namespace alive.
        let held = Type::list(peer.clone());
        drop((node, peer, input, output));
        assert!(interner_stats().live_deferred > baseline.1);
        let back = match held.kind() {
            TypeKind::List(p) => match p.kind() {
                TypeKind::Object(o) => o.property("back").expect("defined"),
                _ => unreachable!(),
            },
            _ => unreachable!(),
        };
        assert!(
            matches!(back.kind(), TypeKind::Object(o) if o.property("value").is_some()),
            "still whole"
        );
        drop((held, back));
        assert_eq!(live(interner_stats()), baseline, "round {round}");
    }
    // The same key after its namespace died: a new, undefined object.
    let namespace = common::fresh_namespace();
    drop(recursive_pair(namespace, Type::string()));
    let fresh = Type::deferred_object(DeferredKey::new(namespace, "pkg:index:Node"), true, vec![]);
    assert!(matches!(fresh.kind(), TypeKind::Object(o) if !o.is_defined()));
    drop(fresh);
    assert_eq!(live(interner_stats()), baseline);
}

#[test]
fn namespaces_referring_to_each_other_are_reclaimed_together() {
    let _serial = serial();
    let baseline = live(interner_stats());
    let collected = interner_stats().collected_namespaces;
    for _ in 0..10 {
        let (a_ns, b_ns) = (common::fresh_namespace(), common::fresh_namespace());
        let a = Type::deferred_object(DeferredKey::new(a_ns, "a:index:A"), true, vec![]);
        let b = Type::deferred_object(DeferredKey::new(b_ns, "b:index:B"), true, vec![]);
        a.define_object([("b", Type::optional(b.clone()))])
            .expect("new");
        b.define_object([("a", Type::list(a.clone()))])
            .expect("new");
        let input = a.input_type();
        drop(a);
        // `b` keeps `a`'s namespace alive through its properties.
        let a_again = match b.kind() {
            TypeKind::Object(o) => o.property("a").expect("defined"),
            _ => unreachable!(),
        };
        expect_test::expect!["list({ b: b:index:B? })"].assert_eq(&a_again.display_readable());
        drop((b, a_again, input));
        assert_eq!(live(interner_stats()), baseline);
    }
    assert_eq!(interner_stats().collected_namespaces, collected + 20);
}

/// Two namespaces referring to each other, one held by this thread while others keep
/// taking and dropping handles into the other: the cycle checks that run meanwhile must
/// never collect them (a property read after them still works), and dropping the last
/// handle collects both.
#[test]
fn a_cycle_of_namespaces_in_use_is_not_collected() {
    let _serial = serial();
    let baseline = live(interner_stats());
    let (a_ns, b_ns) = (common::fresh_namespace(), common::fresh_namespace());
    let a = Type::deferred_object(DeferredKey::new(a_ns, "a:index:A"), true, vec![]);
    let b = Type::deferred_object(DeferredKey::new(b_ns, "b:index:B"), true, vec![]);
    a.define_object([("b", b.clone()), ("value", Type::string())])
        .expect("new");
    b.define_object([("a", a.clone())]).expect("new");
    drop(b);
    let property = |t: &Type, name: &str| match t.kind() {
        TypeKind::Object(o) => o.property(name).expect("a defined object"),
        _ => panic!("not an object"),
    };
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for _ in 0..2_000 {
                    // Only `a` is held outside the cycle: each `b` dropped here leaves `b`'s
                    // namespace referred to by `a`'s only, which starts a cycle check.
                    let b = property(&a, "b");
                    let a_again = property(&b, "a");
                    drop(b);
                    assert_eq!(a_again, a);
                    assert_eq!(property(&a_again, "value"), Type::string());
                }
            });
        }
    });
    assert_eq!(property(&property(&a, "b"), "a"), a);
    drop(a);
    assert_eq!(live(interner_stats()), baseline);
}

#[test]
fn namespaces_dropped_from_several_threads_are_reclaimed() {
    let _serial = serial();
    let baseline = live(interner_stats());
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for round in 0..50 {
                    let namespace = common::fresh_namespace();
                    let (node, peer) = recursive_pair(namespace, literal(round));
                    let input = node.input_type();
                    assert!(input.conversion_from(&node).exists());
                    drop((node, peer, input));
                }
            });
        }
    });
    assert_eq!(live(interner_stats()), baseline);
}

#[test]
fn deep_types_drop_without_deep_recursion() {
    let _serial = serial();
    let baseline = live(interner_stats());
    // Dropping nests as deep as the type; the interner drops children from a queue.
    let deep = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let mut t = Type::string();
            for _ in 0..20_000 {
                t = Type::list(t);
            }
            drop(t);
        })
        .expect("thread");
    deep.join().expect("no stack overflow");
    assert_eq!(live(interner_stats()), baseline);
}
