//! Property tests over random types of every kind (small, so the suite stays fast).

use pcl_types::{ConstValue, ConversionKind, Type};
use proptest::prelude::*;

fn leaf() -> impl Strategy<Value = Type> {
    prop_oneof![
        Just(Type::dynamic()),
        Just(Type::none()),
        Just(Type::bool()),
        Just(Type::int()),
        Just(Type::number()),
        Just(Type::string()),
        Just(Type::asset()),
        Just(Type::string_literal("a")),
        Just(Type::string_literal("b")),
        Just(Type::number_literal("1").expect("literal")),
        Just(Type::number_literal("2.5").expect("literal")),
        Just(Type::null_literal()),
        Just(Type::enumeration(
            "pkg:index:Kind",
            Type::string(),
            [
                ConstValue::String("a".into()),
                ConstValue::String("c".into())
            ],
        )),
    ]
}

fn ty() -> impl Strategy<Value = Type> {
    leaf().prop_recursive(3, 24, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(Type::list),
            inner.clone().prop_map(Type::map),
            inner.clone().prop_map(Type::set),
            inner.clone().prop_map(Type::optional),
            inner.clone().prop_map(Type::output),
            inner.clone().prop_map(Type::promise),
            prop::collection::vec(inner.clone(), 0..3).prop_map(Type::tuple),
            prop::collection::vec(inner.clone(), 1..4).prop_map(Type::union),
            prop::collection::vec((prop::sample::select(vec!["a", "b", "c"]), inner), 0..3)
                .prop_map(Type::object),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn conversion_to_itself_is_safe(t in ty()) {
        prop_assert_eq!(t.conversion_from(&t).kind, ConversionKind::Safe);
        prop_assert!(t.assignable_from(&t));
        prop_assert!(t.equals(&t));
    }

    #[test]
    fn assignable_implies_safe_conversion(d in ty(), s in ty()) {
        if d.assignable_from(&s) {
            let c = d.conversion_from(&s);
            prop_assert_eq!(c.kind, ConversionKind::Safe, "{:?} <- {:?}: {:?}", d, s, c.reason.map(|r| r.to_string()));
        }
    }

    #[test]
    fn unify_is_symmetric(a in ty(), b in ty()) {
        let (ab, kab) = a.unify(&b);
        let (ba, kba) = b.unify(&a);
        prop_assert!(ab.equals(&ba), "{:?} vs {:?}", ab, ba);
        prop_assert_eq!(kab, kba);
    }

    #[test]
    fn unification_answers_the_same_on_a_thread_that_remembers_nothing(a in ty(), b in ty()) {
        // Each thread remembers facts about types without deferred objects across queries
        // (this one, from every case before): a new thread must find the same.
        let here = (a.unify(&b), b.unify(&a), a.equals(&b));
        let (a2, b2) = (a.clone(), b.clone());
        let fresh = std::thread::spawn(move || (a2.unify(&b2), b2.unify(&a2), a2.equals(&b2)))
            .join()
            .expect("thread");
        prop_assert_eq!(here, fresh);
    }

    #[test]
    fn none_and_unsafe_conversions_have_reasons(d in ty(), s in ty()) {
        let c = d.conversion_from(&s);
        if c.kind != ConversionKind::Safe {
            prop_assert!(c.reason.is_some(), "{:?} <- {:?}", d, s);
        }
    }

    #[test]
    fn union_construction_is_idempotent_and_order_independent(ts in prop::collection::vec(ty(), 1..4)) {
        let u = Type::union(ts.clone());
        prop_assert_eq!(&Type::union([u.clone()]), &u);
        prop_assert_eq!(&Type::union(ts.iter().chain(ts.iter()).cloned()), &u);
        prop_assert_eq!(&Type::union(ts.iter().rev().cloned()), &u);
        for t in &ts {
            prop_assert!(u.assignable_from(t), "{:?} <- {:?}", u, t);
            // A union given again with one of its parts is the union itself, whichever comes
            // first (for types that reach no deferred object, as these).
            prop_assert_eq!(&Type::union([u.clone(), t.clone()]), &u);
            prop_assert_eq!(&Type::union([t.clone(), u.clone(), t.clone()]), &u);
        }
        // Parts of parts: `T?` with `none`, with `T`.
        let optional = Type::optional(u.clone());
        prop_assert_eq!(&Type::union([optional.clone(), Type::none()]), &optional);
        // `optional` of an optional type is that type, as the union rules make it.
        prop_assert_eq!(&Type::optional(optional.clone()), &Type::union([optional.clone(), Type::none()]));
        prop_assert_eq!(&Type::union([Type::none(), optional.clone(), u.clone()]), &optional);
    }

    #[test]
    fn eventuals_collapse(t in ty()) {
        prop_assert_eq!(Type::output(Type::output(t.clone())), Type::output(t.clone()));
        prop_assert_eq!(Type::promise(Type::promise(t.clone())), Type::promise(t.clone()));
        prop_assert_eq!(Type::output(t.clone()).resolve_outputs(), t.resolve_outputs());
        prop_assert!(t.input_type().conversion_from(&t).kind == ConversionKind::Safe);
    }

    /// 3.5: `InputType(T)` accepts `T` and `output(T)` (unions included). `none` is the
    /// exception: `InputType(none)` is `none`, as in the reference.
    #[test]
    fn input_type_accepts_the_type_and_its_output(t in ty()) {
        let input = t.input_type();
        if t.is_none() {
            prop_assert_eq!(input, t);
            return Ok(());
        }
        let from_value = input.conversion_from(&t);
        prop_assert_eq!(from_value.kind, ConversionKind::Safe, "{:?} <- {:?}: {:?}", input, t, from_value.reason.map(|r| r.to_string()));
        let output = Type::output(t.clone());
        let from_output = input.conversion_from(&output);
        prop_assert_eq!(from_output.kind, ConversionKind::Safe, "{:?} <- {:?}: {:?}", input, output, from_output.reason.map(|r| r.to_string()));
    }
}
