//! Rules of pcl-semantics.md section 3, sentence by sentence. docs/type-system.md maps
//! each rule to the test here (or in grid.rs / print.rs / properties.rs) that shows it.

mod common;

use expect_test::expect;
use std::borrow::Borrow;

use pcl_diagnostics::Severity;
use pcl_types::{unify_all, Annotation, ConversionKind, DeferredKey, Traverser, Type};

fn show(ty: impl Borrow<Type>) -> String {
    ty.borrow().display_readable()
}

fn conv(dest: impl Borrow<Type>, src: impl Borrow<Type>) -> String {
    let c = dest.borrow().conversion_from(src.borrow());
    match c.reason {
        Some(r) => format!("{:?}: {r}", c.kind),
        None => format!("{:?}", c.kind),
    }
}

// ---- 3.1 kinds and equality -------------------------------------------------------

#[test]
fn equality_ignores_annotations_and_compares_recursive_objects_structurally() {
    let a = common::node();
    let b = common::node();
    assert_ne!(a, b, "two deferred objects are two handles");
    assert!(
        a.equals(&b),
        "but structurally equal (a seen pair counts as equal)"
    );
    assert!(!a.equals(&Type::object([("value", Type::string())])));
}

#[test]
fn is_optional_and_is_const() {
    assert!(Type::optional(Type::int()).is_optional());
    assert!(
        Type::output(Type::optional(Type::int())).is_optional(),
        "output(T?) counts"
    );
    assert!(!Type::dynamic().is_optional());
    assert!(!Type::int().is_optional());
    assert!(Type::union([Type::string_literal("a"), Type::string_literal("b")]).is_const());
    assert!(!Type::union([Type::string_literal("a"), Type::string()]).is_const());
}

// ---- 3.2 assignability ------------------------------------------------------------

#[test]
fn union_source_is_split_for_assignability() {
    // The reference answers false here (its quirk); we split the source.
    let abc = Type::union([Type::int(), Type::string(), Type::bool()]);
    let ab = Type::union([Type::int(), Type::string()]);
    assert!(abc.assignable_from(&ab));
    assert!(!ab.assignable_from(&abc));
}

#[test]
fn eventual_assignability() {
    let out = Type::output(Type::string());
    assert!(out.assignable_from(&Type::string()), "output(E) <= E");
    assert!(
        out.assignable_from(&Type::promise(Type::string())),
        "output(E) <= promise(E)"
    );
    assert!(Type::promise(Type::string()).assignable_from(&Type::string()));
    assert!(!Type::promise(Type::string()).assignable_from(&out));
    assert!(!Type::string().assignable_from(&out));
}

#[test]
fn object_assignability_allows_extra_and_optional_missing_properties() {
    let dest = Type::object([("a", Type::int()), ("b", Type::optional(Type::string()))]);
    assert!(dest.assignable_from(&Type::object([("a", Type::int()), ("z", Type::bool())])));
    assert!(!dest.assignable_from(&Type::object([("b", Type::string())])));
}

// ---- 3.3 conversion ---------------------------------------------------------------

#[test]
fn union_source_conversion() {
    expect!["Unsafe: a value of type none cannot be assigned to type string"]
        .assert_eq(&conv(Type::string(), Type::optional(Type::string())));
    expect!["Safe"].assert_eq(&conv(
        Type::string(),
        Type::union([Type::int(), Type::bool()]),
    ));
    expect!["None: cannot assign a value of type Archive | Asset to type string"].assert_eq(&conv(
        Type::string(),
        Type::union([Type::asset(), Type::archive()]),
    ));
}

#[test]
fn nested_failures_name_the_property_and_element() {
    let dest = Type::object([(
        "rules",
        Type::list(Type::object([
            ("port", Type::int()),
            ("name", Type::string()),
        ])),
    )]);
    let src = Type::object([(
        "rules",
        Type::tuple([
            Type::object([("port", Type::int()), ("name", Type::string())]),
            Type::object([("port", Type::list(Type::int())), ("name", Type::string())]),
        ]),
    )]);
    expect!["None: at `.rules[1].port`: cannot assign a value of type list(int) to type int"]
        .assert_eq(&conv(&dest, &src));
    let missing = Type::object([(
        "rules",
        Type::tuple([Type::object([("port", Type::int())])]),
    )]);
    expect!["None: at `.rules[0]`: missing required property `name` of type string"]
        .assert_eq(&conv(&dest, &missing));
    // Through `InputType`, which every binder check uses, the reason survives.
    expect![
        "None: at `.rules[0]`: missing required property `name` of type output(string) | string"
    ]
    .assert_eq(&conv(dest.input_type(), &missing));
    expect!["None: tuples (int, string) and (int) have different lengths"].assert_eq(&conv(
        Type::tuple([Type::int(), Type::string()]),
        Type::tuple([Type::int()]),
    ));
}

/// A schema object with many properties, one of them another schema object.
fn schema_object(token: &str, properties: usize, inner: Option<Type>) -> Type {
    let t = Type::deferred_object(
        DeferredKey::new(common::fresh_namespace(), token),
        true,
        vec![Annotation::SchemaObject(token.into())],
    );
    t.define_object(
        (0..properties)
            .map(|i| (format!("property{i}"), Type::string()))
            .chain(inner.map(|inner| ("spec".to_string(), inner)))
            .chain([("self".to_string(), Type::optional(t.clone()))]),
    )
    .expect("fresh deferred object");
    t
}

#[test]
fn reasons_name_schema_objects_instead_of_expanding_them() {
    let spec = schema_object("kubernetes:apps/v1:DeploymentSpec", 40, None);
    let deployment = schema_object("kubernetes:apps/v1:Deployment", 40, Some(spec));
    let dest = deployment.input_type();
    // The whole input type is big, and hover shows one level of it...
    let hover = show(&dest);
    assert!(
        hover.contains("property39: output(string) | string"),
        "{hover}"
    );
    assert!(
        hover.contains(
            "spec: kubernetes:apps/v1:DeploymentSpec | output(kubernetes:apps/v1:DeploymentSpec)"
        ),
        "{hover}"
    );
    // ...but a reason names the types.
    expect!["None: cannot assign a value of type string to type kubernetes:apps/v1:Deployment | output(kubernetes:apps/v1:Deployment)"]
        .assert_eq(&conv(&dest, Type::string()));
    let src = Type::object(
        (0..40)
            .map(|i| (format!("property{i}"), Type::string()))
            .chain([(
                "spec".to_string(),
                Type::object([("property1", Type::string())]),
            )]),
    );
    expect![
        "None: at `.spec`: missing required property `property0` of type output(string) | string"
    ]
    .assert_eq(&conv(&dest, &src));
    let src = Type::object(
        (0..40)
            .map(|i| (format!("property{i}"), Type::string()))
            .chain([("spec".to_string(), Type::int())]),
    );
    expect!["None: at `.spec`: cannot assign a value of type int to type kubernetes:apps/v1:DeploymentSpec | output(kubernetes:apps/v1:DeploymentSpec)"]
        .assert_eq(&conv(&dest, &src));
    // Unknown properties: the object's name and (some of) its property names.
    expect!["dynamic [Error: unknown property `zzz` of kubernetes:apps/v1:Deployment, an object with properties `property0`, `property1`, `property10`, `property11`, `property12`, `property13`, `property14`, `property15`, `property16`, `property17`, ...]"]
        .assert_eq(&trav(&deployment, Traverser::attr("zzz")));
    // The canonical form stays exact.
    assert!(dest
        .display_canonical()
        .contains("property39 = union(output(string), string)"));
}

#[test]
fn enum_literals_are_checked() {
    let e = common::kind_enum();
    expect!["Safe"].assert_eq(&conv(&e, Type::string_literal("A")));
    expect![[r#"None: `"C"` is not a valid value of the enum pkg:index:Kind: valid values are `"A"`, `"B"`"#]]
    .assert_eq(&conv(&e, Type::string_literal("C")));
    expect![[r#"Unsafe: a value of type string converts to type enum("A" | "B") only if it has the right form at run time"#]]
        .assert_eq(&conv(&e, Type::string()));
    // Also inside the unions a binder builds.
    expect![[r#"None: `"C"` is not a valid value of the enum pkg:index:Kind: valid values are `"A"`, `"B"`"#]]
    .assert_eq(&conv(
        Type::optional(e).input_type(),
        Type::string_literal("C"),
    ));
}

#[test]
fn const_destinations() {
    let a = Type::string_literal("a");
    expect!["Safe"].assert_eq(&conv(&a, Type::string_literal("a")));
    expect![[r#"None: expected the value "a", got "b""#]]
        .assert_eq(&conv(&a, Type::string_literal("b")));
    expect![[r#"Unsafe: a value of type string converts to type "a" only if it has the right form at run time"#]]
        .assert_eq(&conv(&a, Type::string()));
}

#[test]
fn eventual_conversions() {
    expect!["Safe"].assert_eq(&conv(
        Type::output(Type::number()),
        Type::promise(Type::int()),
    ));
    expect!["None: cannot assign a value of type output(int) to type promise(int): an output cannot become a promise"]
        .assert_eq(&conv(Type::promise(Type::int()), Type::output(Type::int())));
    expect!["Safe"].assert_eq(&conv(Type::int().input_type(), Type::output(Type::int())));
}

#[test]
fn input_type_of_a_union_also_accepts_an_output_of_the_union() {
    // 3.5: `InputType(T)` is `union(T', output(T'))` for unions too, so an optional output
    // goes into an optional input.
    let optional = Type::optional(Type::string());
    expect!["output(string) | output(string?) | string?"].assert_eq(&show(optional.input_type()));
    expect!["Safe"].assert_eq(&conv(optional.input_type(), Type::output(optional.clone())));
    expect!["Safe"].assert_eq(&conv(optional.input_type(), &optional));
    let asset_or_archive = Type::union([Type::archive(), Type::asset()]);
    expect!["Archive | Asset | output(Archive) | output(Asset) | output(Archive | Asset)"]
        .assert_eq(&show(asset_or_archive.input_type()));
    expect!["Safe"].assert_eq(&conv(
        asset_or_archive.input_type(),
        Type::output(asset_or_archive),
    ));
    // The element of the output is resolved: no output inside an output.
    let nested = Type::optional(Type::list(Type::int()));
    expect!["list(int | output(int)) | output(list(int)) | output(list(int)?)?"]
        .assert_eq(&show(nested.input_type()));
    expect!["Safe"].assert_eq(&conv(nested.input_type(), Type::output(nested)));
}

#[test]
fn recursive_types_terminate() {
    let node = common::node();
    let other = common::node();
    assert_eq!(node.conversion_from(&other).kind, ConversionKind::Safe);
    assert!(node.assignable_from(&other));
    let literal = Type::object([
        ("value", Type::string()),
        (
            "children",
            Type::tuple([Type::object([("value", Type::int())])]),
        ),
    ]);
    assert_eq!(node.conversion_from(&literal).kind, ConversionKind::Safe);
    let bad = Type::object([(
        "children",
        Type::tuple([Type::object([("value", Type::bool())])]),
    )]);
    expect!["None: missing required property `value` of type string"].assert_eq(&conv(&node, &bad));
    let (unified, kind) = node.unify(&other);
    assert_eq!(kind, ConversionKind::Safe);
    assert!(unified.equals(&node));
    let input = node.input_type();
    assert_eq!(input.conversion_from(&node).kind, ConversionKind::Safe);
    assert_eq!(
        Type::output(input.clone()),
        Type::output(input.clone()),
        "resolving outputs terminates and is memoized"
    );
    expect![[r#"
        {
          children: list(pkg:index:Node | output(pkg:index:Node)) | output(list(pkg:index:Node)) | output(list(pkg:index:Node)?)?,
          value: output(string) | string,
        } | output({ children: list(pkg:index:Node)?, value: string })"#]]
    .assert_eq(&show(&input));
}

#[test]
fn conversion_answers_do_not_depend_on_query_order() {
    // The reference's cache is keyed by source only; ours has no cross-query cache.
    let node = common::node();
    let partial = Type::object([("value", Type::string())]);
    let first = node.conversion_from(&partial);
    let _ = Type::object([("value", Type::int())]).conversion_from(&partial);
    let _ = node.conversion_from(&node);
    assert_eq!(node.conversion_from(&partial), first);
}

// ---- 3.4 unification --------------------------------------------------------------

#[test]
fn unify_examples_from_the_reference_tests() {
    let u = |a: Type, b: Type| {
        let (t, k) = a.unify(&b);
        format!("{} {k:?}", show(&t))
    };
    expect!["number Safe"].assert_eq(&u(Type::number(), Type::int()));
    expect!["string Safe"].assert_eq(&u(Type::int(), Type::string()));
    expect!["list(string) Safe"].assert_eq(&u(Type::list(Type::string()), Type::set(Type::bool())));
    expect!["{ bar: string?, foo: string? } Safe"].assert_eq(&u(
        Type::object([("foo", Type::string())]),
        Type::object([("bar", Type::string())]),
    ));
    expect!["(number, bool, string?) Safe"].assert_eq(&u(
        Type::tuple([Type::number(), Type::bool(), Type::string()]),
        Type::tuple([Type::number(), Type::bool()]),
    ));
    expect!["output(number) Safe"]
        .assert_eq(&u(Type::promise(Type::int()), Type::output(Type::number())));
    let all = |ts: Vec<Type>| {
        let r = unify_all(ts);
        format!("safe {} / unsafe {}", show(r.safe), show(r.unsafe_))
    };
    expect!["safe bool | number / unsafe number"]
        .assert_eq(&all(vec![Type::number(), Type::bool()]));
    expect!["safe bool | dynamic / unsafe bool"]
        .assert_eq(&all(vec![Type::bool(), Type::dynamic()]));
    let lit = |s: &str| Type::number_literal(s).expect("literal");
    expect!["safe 1 | 2 | 3 / unsafe 1 | 2 | 3"].assert_eq(&all(vec![
        lit("1"),
        lit("2"),
        lit("3"),
    ]));
    expect!["safe none / unsafe none"].assert_eq(&all(vec![]));
}

// ---- 3.5 eventuals ----------------------------------------------------------------

#[test]
fn resolving_and_lifting() {
    let t = Type::object([
        ("a", Type::output(Type::int())),
        ("b", Type::promise(Type::string())),
    ]);
    expect!["{ a: int, b: string }"].assert_eq(&show(t.resolve_outputs()));
    expect!["{ a: output(int), b: string }"].assert_eq(&show(t.resolve_promises()));
    expect!["output(bool)"].assert_eq(&show(Type::lift(Type::bool(), [Type::int(), t])));
    expect!["promise(bool)"].assert_eq(&show(Type::lift(
        Type::bool(),
        [Type::list(Type::promise(Type::int()))],
    )));
    expect!["bool"].assert_eq(&show(Type::lift(Type::bool(), [Type::int()])));
    assert_eq!(Type::dynamic().input_type(), Type::dynamic());
    assert_eq!(Type::none().input_type(), Type::none());
}

// ---- 3.6 traversal ----------------------------------------------------------------

fn trav(ty: impl Borrow<Type>, t: Traverser) -> String {
    let r = ty.borrow().traverse(&t);
    match r.diagnostic {
        Some((severity, reason)) => match reason.help() {
            Some(help) => format!("{} [{severity:?}: {reason}; help: {help}]", show(r.ty)),
            None => format!("{} [{severity:?}: {reason}]", show(r.ty)),
        },
        None => show(r.ty),
    }
}

#[test]
fn optional_object_traversal_is_optional() {
    let obj = Type::object([("name", Type::string())]);
    expect!["string?"].assert_eq(&trav(Type::optional(obj.clone()), Traverser::attr("name")));
    expect!["output(string?)"].assert_eq(&trav(
        Type::output(Type::optional(obj.clone())),
        Traverser::attr("name"),
    ));
    // Only the members that can be traversed count.
    let mixed = Type::union([obj, Type::int(), Type::none()]);
    expect!["string?"].assert_eq(&trav(&mixed, Traverser::attr("name")));
}

#[test]
fn unknown_properties_suggest_and_respect_strictness() {
    let obj = Type::object([("name", Type::string())]);
    expect![
        "dynamic [Error: unknown property `nmae` of object { name: string }; help: did you mean `name`?]"
    ]
    .assert_eq(&trav(&obj, Traverser::attr("nmae")));
    expect!["string [Warning: property `Name` matches `name` only when case is ignored]"]
        .assert_eq(&trav(&obj, Traverser::attr("Name")));
    let lax = Type::object_with([("name", Type::string())], false, vec![]);
    let r = lax.traverse(&Traverser::attr("zzz"));
    assert_eq!(r.diagnostic.map(|(s, _)| s), Some(Severity::Warning));
    let big = Type::object((0..30).map(|i| (format!("property{i}"), Type::string())));
    expect!["dynamic [Error: unknown property `zzz` of an object with properties `property0`, `property1`, `property10`, `property11`, `property12`, `property13`, `property14`, `property15`, `property16`, `property17`, ...]"]
        .assert_eq(&trav(&big, Traverser::attr("zzz")));
}

#[test]
fn tuple_index_equal_to_length_is_an_error_not_a_panic() {
    let t = Type::tuple([Type::int(), Type::string()]);
    expect!["dynamic [Error: tuple index 2 must be between 0 and 1]"].assert_eq(&trav(
        &t,
        Traverser::Index(Type::number_literal("2").expect("literal")),
    ));
    expect!["dynamic [Error: tuple indices must be integers, not 1.5]"].assert_eq(&trav(
        t,
        Traverser::Index(Type::number_literal("1.5").expect("literal")),
    ));
}

#[test]
fn recursive_traversal() {
    let node = common::node();
    expect!["list({ children: list(pkg:index:Node)?, value: string })?"]
        .assert_eq(&trav(&node, Traverser::attr("children")));
}

// ---- representation ---------------------------------------------------------------

#[test]
fn types_are_interned_across_threads() {
    fn salsa_friendly<T: Clone + Eq + std::hash::Hash + Send + Sync + 'static>() {}
    salsa_friendly::<Type>();
    let build = || {
        Type::output(Type::list(Type::object([(
            "a",
            Type::optional(Type::int()),
        )])))
    };
    let handles: Vec<Type> = (0..4)
        .map(|_| std::thread::spawn(build))
        .map(|h| h.join().expect("thread"))
        .collect();
    assert!(
        handles.iter().all(|t| *t == build()),
        "one handle for one type"
    );
}
