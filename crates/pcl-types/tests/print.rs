//! Printing and construction: the canonical and readable forms of every kind
//! (pcl-semantics.md 3.1).

use expect_test::{expect, Expect};
use pcl_types::{Annotation, ConstValue, DeferredKey, Type};

fn check(ty: Type, canonical: Expect, readable: Expect) {
    canonical.assert_eq(&ty.display_canonical());
    readable.assert_eq(&ty.display_readable());
}

#[test]
fn primitives_and_opaques() {
    let rows: Vec<String> = [
        Type::dynamic(),
        Type::none(),
        Type::bool(),
        Type::int(),
        Type::number(),
        Type::string(),
        Type::asset(),
        Type::archive(),
        Type::opaque("Property"),
        Type::opaque("aws:s3/bucket:Bucket"),
        Type::opaque("boolean"),
        Type::opaque("any"),
    ]
    .iter()
    .map(|t| format!("{} | {}", t.display_canonical(), t.display_readable()))
    .collect();
    expect![[r#"
        dynamic | dynamic
        none | none
        bool | bool
        int | int
        number | number
        string | string
        Asset | Asset
        Archive | Archive
        Property | Property
        type(aws:s3/bucket:Bucket) | type(aws:s3/bucket:Bucket)
        bool | bool
        dynamic | dynamic"#]]
    .assert_eq(&rows.join("\n"));
}

#[test]
fn collections() {
    check(
        Type::output(Type::list(Type::string())),
        expect!["output(list(string))"],
        expect!["output(list(string))"],
    );
    check(
        Type::map(Type::int()),
        expect!["map(int)"],
        expect!["map(int)"],
    );
    check(
        Type::set(Type::bool()),
        expect!["set(bool)"],
        expect!["set(bool)"],
    );
    check(
        Type::tuple([Type::tuple([]), Type::object::<&str>([])]),
        expect!["tuple(tuple(), object({}))"],
        expect!["((), {})"],
    );
}

#[test]
fn unions_are_flattened_sorted_and_deduplicated() {
    let u = Type::union([Type::string(), Type::union([Type::int(), Type::string()])]);
    check(
        u.clone(),
        expect!["union(int, string)"],
        expect!["int | string"],
    );
    assert_eq!(u, Type::union([Type::int(), Type::string()]));
    check(
        Type::optional(Type::string()),
        expect!["union(none, string)"],
        expect!["string?"],
    );
    check(
        Type::optional(Type::union([Type::int(), Type::string()])),
        expect!["union(int, none, string)"],
        expect!["int | string?"],
    );
    // One element collapses to that element; none gives none.
    assert_eq!(Type::union([Type::int(), Type::int()]), Type::int());
    assert_eq!(Type::union([]), Type::none());
}

#[test]
fn input_type_prints_like_the_reference() {
    check(
        Type::int().input_type(),
        expect!["union(int, output(int))"],
        expect!["int | output(int)"],
    );
    check(
        Type::list(Type::string()).input_type(),
        expect!["union(list(union(output(string), string)), output(list(string)))"],
        expect!["list(output(string) | string) | output(list(string))"],
    );
}

#[test]
fn eventuals_collapse() {
    let t = Type::output(Type::list(Type::output(Type::string())));
    check(
        t,
        expect!["output(list(string))"],
        expect!["output(list(string))"],
    );
    check(
        Type::output(Type::promise(Type::int())),
        expect!["output(int)"],
        expect!["output(int)"],
    );
    check(
        Type::promise(Type::promise(Type::int())),
        expect!["promise(int)"],
        expect!["promise(int)"],
    );
    check(
        Type::promise(Type::output(Type::int())),
        expect!["promise(output(int))"],
        expect!["promise(output(int))"],
    );
}

#[test]
fn objects() {
    let small = Type::object([("b", Type::string()), ("a", Type::optional(Type::int()))]);
    check(
        small.clone(),
        expect!["object({a = union(int, none), b = string})"],
        expect!["{ a: int?, b: string }"],
    );
    let annotated = Type::object_with(
        [("b", Type::string()), ("a", Type::optional(Type::int()))],
        true,
        vec![Annotation::SchemaObject("pkg:index:Thing".into())],
    );
    assert_ne!(
        small, annotated,
        "annotations are part of the interned identity"
    );
    assert!(small.equals(&annotated), "but not of PCL type equality");
    let big = Type::object((0..8).map(|i| {
        (
            format!("someLongPropertyName{i}"),
            Type::list(Type::object([("inner", Type::string())])),
        )
    }));
    check(
        big,
        expect!["object({someLongPropertyName0 = list(object({inner = string})), someLongPropertyName1 = list(object({inner = string})), someLongPropertyName2 = list(object({inner = string})), someLongPropertyName3 = list(object({inner = string})), someLongPropertyName4 = list(object({inner = string})), someLongPropertyName5 = list(object({inner = string})), someLongPropertyName6 = list(object({inner = string})), someLongPropertyName7 = list(object({inner = string}))})"],
        expect![[r#"
            {
              someLongPropertyName0: list({ inner: string }),
              someLongPropertyName1: list({ inner: string }),
              someLongPropertyName2: list({ inner: string }),
              someLongPropertyName3: list({ inner: string }),
              someLongPropertyName4: list({ inner: string }),
              someLongPropertyName5: list({ inner: string }),
              someLongPropertyName6: list({ inner: string }),
              someLongPropertyName7: list({ inner: string }),
            }"#]],
    );
    check(
        Type::object([("a-b", Type::int())]),
        expect!["object({a-b = int})"],
        expect!["{ a-b: int }"],
    );
}

#[test]
fn recursive_objects_print_finitely() {
    let node = Type::deferred_object(DeferredKey::new(1, "example:index:Node"), true, vec![]);
    node.define_object([
        ("children", Type::list(node.clone())),
        ("value", Type::string()),
    ])
    .unwrap();
    check(
        node.clone(),
        expect!["object({children = list(...), value = string})"],
        expect!["{ children: list(example:index:Node), value: string }"],
    );
    assert!(
        node.define_object([("x", Type::int())]).is_err(),
        "defined once"
    );
}

#[test]
fn consts_and_enums() {
    check(
        Type::string_literal("a"),
        expect![[r#"const(string, "a")"#]],
        expect![[r#""a""#]],
    );
    check(
        Type::bool_literal(true),
        expect!["const(bool, true)"],
        expect!["true"],
    );
    check(
        Type::null_literal(),
        expect!["const(none, null)"],
        expect!["null"],
    );
    check(
        Type::number_literal("42").unwrap(),
        expect!["const(int, 42)"],
        expect!["42"],
    );
    check(
        Type::number_literal("-2147483648").unwrap(),
        expect!["const(int, -2147483648)"],
        expect!["-2147483648"],
    );
    check(
        Type::number_literal("2147483648").unwrap(),
        expect!["const(number, 2147483648)"],
        expect!["2147483648"],
    );
    check(
        Type::number_literal("1.50").unwrap(),
        expect!["const(number, 1.5)"],
        expect!["1.5"],
    );
    check(
        Type::number_literal("123456789012345678901234567890").unwrap(),
        expect!["const(number, 123456789012345678901234567890)"],
        expect!["123456789012345678901234567890"],
    );
    check(
        Type::number_literal("1e400").unwrap(),
        expect!["const(number, 1e400)"],
        expect!["1e400"],
    );
    check(
        Type::number_literal("2.5e-30").unwrap(),
        expect!["const(number, 2.5e-30)"],
        expect!["2.5e-30"],
    );
    assert!(Type::number_literal("1e99999999999999999999").is_err());
    assert!(Type::number_literal("abc").is_err());
    assert!(Type::number_literal("1.").is_err());
    let e = Type::enumeration(
        "azure:storage:Kind",
        Type::string(),
        [
            ConstValue::String("Storage".into()),
            ConstValue::String("BlobStorage".into()),
        ],
    );
    check(
        e,
        expect![[r#"enum(azure:storage:Kind(string): "Storage", "BlobStorage")"#]],
        expect![[r#"enum("Storage" | "BlobStorage")"#]],
    );
}
