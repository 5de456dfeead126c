//! Types that share their parts: `x0 = { a = int }`, `x1 = { l = x0, r = x0 }`, and so on. The
//! type of `x63` has 64 distinct parts but a tree of 2^64 leaves, so every relation, transform
//! and printer must visit each part (or pair of parts) once, and print a bounded text. Each
//! of these would never finish if it walked the tree; nothing here times anything.

use pcl_types::{
    unify_all, ConversionKind, Eventual, NamedObjects, Traverser, Type, TypeKind,
    MAX_CANONICAL_LEN, MAX_READABLE_LEN,
};

const LEVELS: usize = 64;

/// `levels` types, each an object of two references to the previous one, over `leaf`.
fn objects(leaf: Type, levels: usize) -> Vec<Type> {
    let mut types = vec![Type::object([("a", leaf)])];
    for _ in 1..levels {
        let previous = types.last().expect("one type").clone();
        types.push(Type::object([("l", previous.clone()), ("r", previous)]));
    }
    types
}

/// The same with tuples: `[t, t]`.
fn tuples(leaf: Type, levels: usize) -> Vec<Type> {
    let mut types = vec![Type::tuple([leaf.clone(), leaf])];
    for _ in 1..levels {
        let previous = types.last().expect("one type").clone();
        types.push(Type::tuple([previous.clone(), previous]));
    }
    types
}

fn deepest(types: &[Type]) -> Type {
    types.last().expect("levels").clone()
}

#[test]
fn relations_visit_each_pair_of_parts_once() {
    let x = deepest(&objects(Type::int(), LEVELS));
    let y = deepest(&objects(Type::string(), LEVELS));
    let same = deepest(&objects(Type::int(), LEVELS));
    assert_eq!(x, same, "hash-consed: the same parts give the same type");
    assert!(!x.equals(&y));
    assert!(x.equals(&same));
    assert!(!x.assignable_from(&y));
    // Answers that need every pair of parts: equal but not identical (annotations differ),
    // assignable but not equal.
    let annotated = Type::object_with(
        [("a", Type::int())],
        true,
        vec![pcl_types::Annotation::Other("leaf".into())],
    );
    let tx = deepest(&tuples(Type::object([("a", Type::int())]), LEVELS));
    let ta = deepest(&tuples(annotated, LEVELS));
    assert_ne!(tx, ta);
    assert!(tx.equals(&ta));
    assert!(tx.assignable_from(&ta));
    let optional = deepest(&objects(Type::optional(Type::int()), LEVELS));
    assert!(optional.assignable_from(&x));
    assert!(!x.assignable_from(&optional));
    // int converts to string safely, string to int only at run time.
    assert_eq!(y.conversion_from(&x).kind, ConversionKind::Safe);
    let back = x.conversion_from(&y);
    assert_eq!(back.kind, ConversionKind::Unsafe);
    // The reason's path goes all the way down, and prints its ends only.
    let reason = back.reason.expect("a reason");
    assert_eq!(reason.path_len(), LEVELS);
    let text = reason.to_string();
    assert!(text.starts_with("at `.l.l.l"), "{text}");
    assert!(text.contains('…'), "{text}");
    assert!(text.len() < 4096, "{} bytes", text.len());
    // Unification takes the safe direction at the leaves: the result is y itself.
    let (unified, kind) = x.unify(&y);
    assert_eq!(kind, ConversionKind::Safe);
    assert_eq!(unified, y);
    assert_eq!(unify_all([&x, &y, &x]).safe, y);
    // A list of them converts element by element.
    assert_eq!(
        Type::list(y.clone())
            .conversion_from(&Type::tuple([x.clone(), y.clone()]))
            .kind,
        ConversionKind::Safe
    );
}

#[test]
fn unions_of_big_types_sort_without_printing_them() {
    let x = deepest(&objects(Type::int(), LEVELS));
    let y = deepest(&objects(Type::string(), LEVELS));
    let t = deepest(&tuples(Type::int(), LEVELS));
    let u = Type::union([x.clone(), y.clone(), t.clone(), Type::none()]);
    // The order depends on the types only, not on the order they are given in.
    assert_eq!(
        u,
        Type::union([t.clone(), Type::none(), y.clone(), x.clone()])
    );
    assert_eq!(
        u,
        Type::union([y.clone(), x.clone(), t.clone(), Type::none()])
    );
    assert_eq!(u.union_elements().len(), 4);
    // The same holds for elements whose texts agree far beyond the sort key's length.
    let late = |leaf: Type| deepest(&objects(leaf, LEVELS));
    let a = late(Type::bool());
    let b = late(Type::number());
    assert_eq!(
        Type::union([a.clone(), b.clone()]),
        Type::union([b.clone(), a.clone()])
    );
    assert!(u.is_optional());
    assert!(!u.without_none().is_optional());
}

#[test]
fn eventual_shapes_are_built_once_per_part() {
    let plain = deepest(&objects(Type::string(), LEVELS));
    let outputs = deepest(&objects(Type::output(Type::string()), LEVELS));
    let promises = deepest(&objects(Type::promise(Type::string()), LEVELS));
    assert_eq!(plain.eventual_strength(), Eventual::None);
    let output_tuples = deepest(&tuples(Type::output(Type::string()), LEVELS));
    let promise_tuples = deepest(&tuples(Type::promise(Type::string()), LEVELS));
    assert_eq!(output_tuples.eventual_strength(), Eventual::Output);
    assert_eq!(
        Type::tuple([promise_tuples.clone(), Type::int()]).eventual_strength(),
        Eventual::Promise
    );
    assert_eq!(
        output_tuples.resolve_outputs(),
        deepest(&tuples(Type::string(), LEVELS))
    );
    assert_eq!(outputs.eventual_strength(), Eventual::Output);
    assert_eq!(promises.eventual_strength(), Eventual::Promise);
    assert_eq!(outputs.resolve_outputs(), plain);
    assert_eq!(promises.resolve_promises(), plain);
    assert_eq!(promises.resolve_outputs(), plain);
    assert_eq!(plain.resolve_outputs(), plain);
    let input = plain.input_type();
    assert_eq!(input.resolve_outputs().without_none(), plain);
    assert_eq!(input.conversion_from(&outputs).kind, ConversionKind::Safe);
    assert_eq!(input.conversion_from(&plain).kind, ConversionKind::Safe);
    assert!(input.assignable_from(&outputs));
    let lifted = Type::lift(Type::int(), [&plain, &promises, &outputs]);
    assert_eq!(lifted, Type::output(Type::int()));
    // A traversal of an output object stays an output.
    let step = Type::output(plain.clone()).traverse(&Traverser::attr("l"));
    assert!(step.diagnostic.is_none());
    assert!(matches!(step.ty.kind(), TypeKind::Output(_)));
    // Widening literal types: none here, at any depth.
    assert!(!plain.has_literal_parts());
    let literal = deepest(&objects(Type::string_literal("s"), LEVELS));
    assert!(literal.has_literal_parts());
    assert!(Type::list(literal).has_literal_parts());
}

#[test]
fn printed_types_are_bounded() {
    for ty in [
        deepest(&objects(Type::int(), LEVELS)),
        deepest(&tuples(Type::int(), LEVELS)),
        Type::output(deepest(&objects(Type::string(), LEVELS))).input_type(),
        Type::union([
            deepest(&objects(Type::int(), LEVELS)),
            deepest(&tuples(Type::string(), LEVELS)),
        ]),
    ] {
        for named in [
            NamedObjects::Always,
            NamedObjects::TopLevel,
            NamedObjects::Never,
        ] {
            let text = ty.display_readable_with(named);
            assert!(
                text.len() <= MAX_READABLE_LEN + '…'.len_utf8(),
                "{}",
                text.len()
            );
            assert!(text.ends_with(['}', ')', '?', '…']), "{text}");
        }
        let canonical = ty.display_canonical();
        assert!(canonical.len() <= MAX_CANONICAL_LEN + '…'.len_utf8());
        // Cut short, with its brackets closed.
        assert!(canonical.contains('…'));
        assert!(
            canonical.ends_with(')'),
            "{}",
            &canonical[canonical.len() - 40..]
        );
        // Debug prints the canonical form.
        assert!(format!("{ty:?}").len() <= MAX_CANONICAL_LEN + '…'.len_utf8());
    }
    // Small types print in full, as before.
    let small = deepest(&objects(Type::int(), 3));
    expect_test::expect![
        "{ l: { l: { a: int }, r: { a: int } }, r: { l: { a: int }, r: { a: int } } }"
    ]
    .assert_eq(&small.display_readable());
    expect_test::expect!["object({l = object({l = object({a = int}), r = object({a = int})}), r = object({l = object({a = int}), r = object({a = int})})})"]
        .assert_eq(&small.display_canonical());
}

#[test]
fn printing_elides_deep_and_long_parts() {
    // Nesting deeper than the limit prints as `…`.
    let mut nested = Type::int();
    for _ in 0..40 {
        nested = Type::list(nested);
    }
    let text = nested.display_readable();
    assert_eq!(text.matches("list(").count(), 16, "{text}");
    assert!(text.contains("list(…)"), "{text}");
    // A long literal is cut, and so is a long property name.
    let long = "x".repeat(10_000);
    let literal = Type::string_literal(&long);
    let text = literal.display_readable();
    assert!(text.len() <= MAX_READABLE_LEN + 3 && text.ends_with('…'));
    let object = Type::object([(long.clone(), Type::int())]);
    let text = object.display_readable();
    assert!(text.len() <= MAX_READABLE_LEN + 3, "{}", text.len());
    assert!(
        text.starts_with("{\n  xxx") && text.ends_with("x…\n}"),
        "{text}"
    );
    // Many properties: the ones that fit, then `…`, with the object still closed.
    let wide = Type::object((0..1000).map(|i| (format!("property{i}"), Type::string())));
    let text = wide.display_readable_with(NamedObjects::Never);
    assert!(text.len() <= MAX_READABLE_LEN + 3, "{}", text.len());
    assert!(text.starts_with("{\n  property0: string,\n"), "{text}");
    assert!(text.ends_with("…\n}"), "{}", &text[text.len() - 40..]);
}
