//! Unification: the common type of two (or more) types, and how safely each converts to it.

use std::borrow::Borrow;

use crate::conversion::{pair, ConversionKind, Ctx, Mode};
use crate::kinds::{Type, TypeKind};

/// The result of [`unify_all`] (`UnifyTypes`): `safe` unifies only through Safe steps
/// (forming unions otherwise), `unsafe_` also through Unsafe ones.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UnifyAll {
    pub safe: Type,
    pub unsafe_: Type,
}

/// `UnifyTypes`: folds [`Type::unify`] over `types`, left to right. Empty input gives
/// `none` for both.
pub fn unify_all<T: Borrow<Type>>(types: impl IntoIterator<Item = T>) -> UnifyAll {
    let mut safe: Option<Type> = None;
    let mut unsafe_: Option<Type> = None;
    for t in types {
        let t = t.borrow();
        // While both folds have the same type so far (always, for two types), one
        // unification serves both.
        let shared = match (&safe, &unsafe_) {
            (Some(s), Some(u)) if s == u => Some(s.unify(t)),
            _ => None,
        };
        safe = Some(match safe {
            None => t.clone(),
            Some(acc) => match shared.clone().unwrap_or_else(|| acc.unify(t)) {
                (unified, ConversionKind::Safe) => unified,
                _ => Type::union([acc, t.clone()]),
            },
        });
        unsafe_ = Some(match unsafe_ {
            None => t.clone(),
            Some(acc) => match shared.unwrap_or_else(|| acc.unify(t)) {
                (unified, ConversionKind::Safe | ConversionKind::Unsafe) => unified,
                _ => Type::union([acc, t.clone()]),
            },
        });
    }
    UnifyAll {
        safe: safe.unwrap_or_else(Type::none),
        unsafe_: unsafe_.unwrap_or_else(Type::none),
    }
}

impl Type {
    /// The common type of `self` and `other`, and the worst conversion kind needed to get
    /// there. `int` with `number` gives `number`; with `string` gives `string`; promise with
    /// output gives output; unrelated types give their union.
    pub fn unify(&self, other: &Type) -> (Type, ConversionKind) {
        Ctx::with(Mode::Unify, |cx| unify(cx, self, other))
    }
}

pub(crate) fn unify(ctx: &mut Ctx, t0: &Type, t1: &Type) -> (Type, ConversionKind) {
    crate::on_enough_stack(|| {
        // `dynamic` goes on the right.
        let (t0, t1) = if t0.is_dynamic() { (t1, t0) } else { (t0, t1) };
        if ctx.equals(t0, t1) {
            return (t0.clone(), ConversionKind::Safe);
        }
        if t1.is_dynamic() {
            return (t0.clone(), ConversionKind::Unsafe);
        }
        let key = pair(t0, t1);
        if let Some(known) = ctx.unify_memo.get(&key) {
            return known.clone();
        }
        if ctx.unify_stack.contains(&key) {
            // Recursive types: cut the cycle at the left type.
            ctx.unify_cycles += 1;
            return (t0.clone(), ConversionKind::Safe);
        }
        let cycles_before = ctx.unify_cycles;
        ctx.unify_stack.insert(key);
        let result = unify_uncached(ctx, t0, t1);
        ctx.unify_stack.remove(&key);
        if ctx.unify_cycles == cycles_before {
            ctx.pin(t0, t1);
            ctx.unify_memo.insert(key, result.clone());
        }
        result
    })
}

fn unify_uncached(ctx: &mut Ctx, t0: &Type, t1: &Type) -> (Type, ConversionKind) {
    let from = ctx.convert(t0, t1).kind;
    let to = ctx.convert(t1, t0).kind;
    if from > to {
        return (t0.clone(), from);
    }
    if to > from {
        return (t1.clone(), to);
    }
    if from == ConversionKind::None {
        return (Type::union([t0.clone(), t1.clone()]), ConversionKind::Safe);
    }
    if let TypeKind::Union(_) = t1.kind() {
        return unify_union_with(ctx, t1, t0);
    }
    unify_by_kind(ctx, t0, t1)
}

/// `union | other`: each element unified with `other`; a union of unions is their union.
fn unify_union_with(ctx: &mut Ctx, union: &Type, other: &Type) -> (Type, ConversionKind) {
    if let TypeKind::Union(_) = other.kind() {
        return (
            Type::union([union.clone(), other.clone()]),
            ConversionKind::Safe,
        );
    }
    let mut kind = ConversionKind::Safe;
    let mut elements = Vec::new();
    for e in union.union_elements() {
        let (t, k) = unify(ctx, e, other);
        kind = kind.min(k);
        elements.push(t);
    }
    (Type::union(elements), kind)
}

/// The order in which opaque types win a unification.
fn opaque_rank(t: &Type) -> Option<usize> {
    match t.kind() {
        TypeKind::String => Some(0),
        TypeKind::Number => Some(1),
        TypeKind::Int => Some(2),
        TypeKind::Bool => Some(3),
        TypeKind::Opaque(name) if &**name == "id" => Some(4),
        _ => None,
    }
}

fn is_opaque(t: &Type) -> bool {
    matches!(
        t.kind(),
        TypeKind::Bool | TypeKind::Int | TypeKind::Number | TypeKind::String | TypeKind::Opaque(_)
    )
}

fn unify_by_kind(ctx: &mut Ctx, t0: &Type, t1: &Type) -> (Type, ConversionKind) {
    use ConversionKind::{Safe, Unsafe};
    match (t0.kind(), t1.kind()) {
        _ if is_opaque(t0) && is_opaque(t1) => {
            let goal = match (opaque_rank(t0), opaque_rank(t1)) {
                (Some(a), Some(b)) if a <= b => t0,
                (Some(_), Some(_)) | (None, Some(_)) => t1,
                (Some(_), None) => t0,
                (None, None) => return (Type::dynamic(), Unsafe),
            };
            let other = if goal == t0 { t1 } else { t0 };
            (goal.clone(), ctx.convert(goal, other).kind)
        }
        (TypeKind::Union(_), _) => unify_union_with(ctx, t0, t1),
        (_, TypeKind::Union(_)) => unify_union_with(ctx, t1, t0),
        (TypeKind::List(a) | TypeKind::Set(a), TypeKind::List(b))
        | (TypeKind::List(a), TypeKind::Set(b)) => {
            let (e, k) = unify(ctx, a, b);
            (Type::list(e), k)
        }
        (TypeKind::Set(a), TypeKind::Set(b)) => {
            let (e, k) = unify(ctx, a, b);
            (Type::set(e), k)
        }
        (TypeKind::List(a), TypeKind::Tuple(bs)) | (TypeKind::Tuple(bs), TypeKind::List(a)) => {
            let (e, k) = unify_elements(ctx, a, bs.iter(), Safe);
            (Type::list(e), k)
        }
        (TypeKind::Set(a), TypeKind::Tuple(bs)) | (TypeKind::Tuple(bs), TypeKind::Set(a)) => {
            let (e, k) = unify_elements(ctx, a, bs.iter(), Unsafe);
            (Type::set(e), k)
        }
        (TypeKind::Map(a), TypeKind::Map(b)) => {
            let (e, k) = unify(ctx, a, b);
            (Type::map(e), k)
        }
        (TypeKind::Map(a), TypeKind::Object(o)) | (TypeKind::Object(o), TypeKind::Map(a)) => {
            let properties = o.properties();
            let (e, k) = unify_elements(ctx, a, properties.iter().map(|(_, t)| t), Safe);
            (Type::map(e), k)
        }
        (TypeKind::Tuple(_), TypeKind::Tuple(_)) | (TypeKind::Object(_), TypeKind::Object(_)) => {
            unify_structural(ctx, t0, t1)
        }
        (TypeKind::Output(a), TypeKind::Output(b) | TypeKind::Promise(b))
        | (TypeKind::Promise(b), TypeKind::Output(a)) => {
            let (e, k) = unify(ctx, a, &b.resolve_outputs());
            (Type::output(e), k)
        }
        (TypeKind::Output(a), _) | (_, TypeKind::Output(a)) => {
            let other = if let TypeKind::Output(_) = t0.kind() {
                t1
            } else {
                t0
            };
            let (e, k) = unify(ctx, a, &other.resolve_outputs());
            (Type::output(e), k)
        }
        (TypeKind::Promise(a), TypeKind::Promise(b)) => {
            let (e, k) = unify(ctx, a, b);
            (Type::promise(e), k)
        }
        (TypeKind::Promise(a), _) | (_, TypeKind::Promise(a)) => {
            let other = if let TypeKind::Promise(_) = t0.kind() {
                t1
            } else {
                t0
            };
            let (e, k) = unify(ctx, a, &other.resolve_promises());
            (Type::promise(e), k)
        }
        (TypeKind::Const(_), _) => (t0.clone(), ctx.convert(t1, t0).kind),
        (_, TypeKind::Const(_)) => (t1.clone(), ctx.convert(t0, t1).kind),
        (TypeKind::None, _) => (t0.clone(), ctx.convert(t1, t0).kind),
        (_, TypeKind::None) => (t1.clone(), ctx.convert(t0, t1).kind),
        // Both directions convert equally well but nothing above applies (e.g. enums):
        // keep both.
        _ => (Type::union([t0.clone(), t1.clone()]), Safe),
    }
}

/// Unifies `start` with each of `elements` in turn, starting from `kind`.
fn unify_elements<'a>(
    ctx: &mut Ctx,
    start: &Type,
    elements: impl Iterator<Item = &'a Type>,
    kind: ConversionKind,
) -> (Type, ConversionKind) {
    let mut acc = start.clone();
    let mut kind = kind;
    for e in elements {
        let (t, k) = unify(ctx, &acc, e);
        acc = t;
        kind = kind.min(k);
    }
    (acc, kind)
}

/// Tuples with tuples and objects with objects: element-wise (property-wise) unification,
/// where an element (property) present on one side only becomes optional.
pub(crate) fn unify_structural(ctx: &mut Ctx, t0: &Type, t1: &Type) -> (Type, ConversionKind) {
    let mut kind = ConversionKind::Safe;
    match (t0.kind(), t1.kind()) {
        (TypeKind::Tuple(a), TypeKind::Tuple(b)) => {
            let mut elements = Vec::with_capacity(a.len().max(b.len()));
            for i in 0..a.len().max(b.len()) {
                elements.push(match (a.get(i), b.get(i)) {
                    (Some(x), Some(y)) => {
                        let (t, k) = unify(ctx, x, y);
                        kind = kind.min(k);
                        t
                    }
                    (Some(x), None) | (None, Some(x)) => Type::optional(x.clone()),
                    (None, None) => Type::none(),
                });
            }
            (Type::tuple(elements), kind)
        }
        (TypeKind::Object(a), TypeKind::Object(b)) => {
            let mut properties: Vec<(Box<str>, Type)> = Vec::new();
            for (key, x) in &a.properties() {
                let t = match b.property(key) {
                    Some(y) => {
                        let (t, k) = unify(ctx, x, &y);
                        kind = kind.min(k);
                        t
                    }
                    None => Type::optional(x.clone()),
                };
                properties.push((key.clone(), t));
            }
            for (key, y) in &b.properties() {
                if a.property(key).is_none() {
                    properties.push((key.clone(), Type::optional(y.clone())));
                }
            }
            // An object unified with itself structurally keeps its annotations.
            let annotations = if a.annotations() == b.annotations() {
                a.annotations().to_vec()
            } else {
                Vec::new()
            };
            (
                Type::object_with(properties, a.strict() && b.strict(), annotations),
                kind,
            )
        }
        _ => (Type::union([t0.clone(), t1.clone()]), kind),
    }
}
