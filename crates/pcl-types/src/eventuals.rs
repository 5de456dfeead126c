//! Eventual types: resolving outputs and promises away, `InputType`, and lifting.
//!
//! All of these rebuild a type bottom-up. Deferred (possibly recursive) objects are
//! rebuilt as new deferred objects, memoized per (object, transformation) so that a cycle
//! maps to a cycle and repeated calls give the same handle.

use std::sync::{Mutex, OnceLock};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::kinds::{Type, TypeKind};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Transform {
    /// Remove every output and promise.
    ResolveOutputs,
    /// Remove every promise.
    ResolvePromises,
    /// `InputType`: accept an output wherever a value is expected.
    Input,
}

fn deferred_memo() -> &'static Mutex<FxHashMap<(Type, Transform), Type>> {
    static MEMO: OnceLock<Mutex<FxHashMap<(Type, Transform), Type>>> = OnceLock::new();
    MEMO.get_or_init(Default::default)
}

/// The strength of an eventual: identity < promise < output.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Eventual {
    None,
    Promise,
    Output,
}

impl Type {
    /// `ResolveOutputs`: the type with every output and promise removed, deeply.
    pub fn resolve_outputs(self) -> Type {
        transform(self, Transform::ResolveOutputs)
    }

    /// `ResolvePromises`: the type with every promise removed, deeply.
    pub fn resolve_promises(self) -> Type {
        transform(self, Transform::ResolvePromises)
    }

    /// `InputType`: `T | output(T)`, applied recursively into promises, maps, lists,
    /// unions and objects; `dynamic`, `none` and outputs are left as they are.
    pub fn input_type(self) -> Type {
        transform(self, Transform::Input)
    }

    /// The strongest eventual anywhere inside this type (`ContainsEventuals`).
    pub fn eventual_strength(self) -> Eventual {
        let mut seen = FxHashSet::default();
        strength(self, &mut seen)
    }

    /// `liftOperationType`: wraps `result` in the strongest eventual among `args`.
    pub fn lift(result: Type, args: impl IntoIterator<Item = Type>) -> Type {
        let strongest = args
            .into_iter()
            .map(Type::eventual_strength)
            .max()
            .unwrap_or(Eventual::None);
        match strongest {
            Eventual::None => result,
            Eventual::Promise => Type::promise(result),
            Eventual::Output => Type::output(result),
        }
    }

    /// The element of an output or promise, or the type itself.
    pub fn unwrap_eventual(self) -> Type {
        match self.kind() {
            TypeKind::Output(e) | TypeKind::Promise(e) => *e,
            _ => self,
        }
    }
}

fn strength(ty: Type, seen: &mut FxHashSet<Type>) -> Eventual {
    match ty.kind() {
        TypeKind::Output(_) => Eventual::Output,
        TypeKind::Promise(e) => Eventual::Promise.max(strength(*e, seen)),
        TypeKind::List(e) | TypeKind::Map(e) | TypeKind::Set(e) => strength(*e, seen),
        TypeKind::Tuple(es) | TypeKind::Union(es) => es
            .iter()
            .map(|e| strength(*e, seen))
            .max()
            .unwrap_or(Eventual::None),
        TypeKind::Object(object) => {
            if !seen.insert(ty) {
                return Eventual::None;
            }
            object
                .properties()
                .iter()
                .map(|(_, t)| strength(*t, seen))
                .max()
                .unwrap_or(Eventual::None)
        }
        _ => Eventual::None,
    }
}

/// Whether `transform` would change anything in `ty` (cycle-safe).
fn affected(ty: Type, how: Transform, seen: &mut FxHashSet<Type>) -> bool {
    match ty.kind() {
        TypeKind::Output(_) => how == Transform::ResolveOutputs,
        TypeKind::Promise(e) => how != Transform::Input || affected(*e, how, seen),
        TypeKind::List(e) | TypeKind::Map(e) => how == Transform::Input || affected(*e, how, seen),
        TypeKind::Set(e) => how == Transform::Input || affected(*e, how, seen),
        TypeKind::Tuple(es) | TypeKind::Union(es) => {
            how == Transform::Input || es.iter().any(|e| affected(*e, how, seen))
        }
        TypeKind::Object(object) => {
            if how == Transform::Input {
                return true;
            }
            if !seen.insert(ty) {
                return false;
            }
            object
                .properties()
                .iter()
                .any(|(_, t)| affected(*t, how, seen))
        }
        TypeKind::Dynamic | TypeKind::None => false,
        _ => how == Transform::Input,
    }
}

fn transform(ty: Type, how: Transform) -> Type {
    if !affected(ty, how, &mut FxHashSet::default()) {
        return ty;
    }
    if how == Transform::Input {
        return input(ty);
    }
    let recurse = |t: Type| transform(t, how);
    match ty.kind() {
        TypeKind::Output(e) => match how {
            Transform::ResolveOutputs => recurse(*e),
            _ => ty,
        },
        TypeKind::Promise(e) => recurse(*e),
        TypeKind::List(e) => Type::list(recurse(*e)),
        TypeKind::Map(e) => Type::map(recurse(*e)),
        TypeKind::Set(e) => Type::set(recurse(*e)),
        TypeKind::Tuple(es) => Type::tuple(es.iter().map(|e| recurse(*e))),
        TypeKind::Union(es) => Type::union(es.iter().map(|e| recurse(*e))),
        TypeKind::Object(_) => map_object(ty, how, recurse),
        _ => ty,
    }
}

/// `InputType` of a type that is not dynamic, none or an output.
fn input(ty: Type) -> Type {
    let inner = match ty.kind() {
        TypeKind::Dynamic | TypeKind::None | TypeKind::Output(_) => return ty,
        TypeKind::Promise(e) => Type::promise(input(*e)),
        TypeKind::List(e) => Type::list(input(*e)),
        TypeKind::Map(e) => Type::map(input(*e)),
        TypeKind::Union(es) => {
            // The union's own elements are each made inputs; no extra wrapping needed.
            return Type::union(es.iter().map(|e| input(*e)));
        }
        TypeKind::Object(_) => map_object(ty, Transform::Input, input),
        _ => ty,
    };
    Type::union([inner, Type::output(inner)])
}

/// Rebuilds an object with `f` applied to each property. Deferred objects become new
/// deferred objects, registered before their properties are computed so cycles close.
fn map_object(ty: Type, how: Transform, f: impl Fn(Type) -> Type) -> Type {
    let TypeKind::Object(object) = ty.kind() else {
        return ty;
    };
    if !object.is_deferred() {
        let properties: Vec<(Box<str>, Type)> = object
            .properties()
            .iter()
            .map(|(k, t)| (k.clone(), f(*t)))
            .collect();
        return Type::object_with(properties, object.strict(), object.annotations().to_vec());
    }
    let created = {
        let mut memo = deferred_memo().lock().unwrap_or_else(|p| p.into_inner());
        if let Some(existing) = memo.get(&(ty, how)) {
            return *existing;
        }
        let created = Type::deferred_object(
            object.deferred_name().unwrap_or("object"),
            object.strict(),
            object.annotations().to_vec(),
        );
        memo.insert((ty, how), created);
        created
    };
    // The lock is released here: computing the properties may come back for other objects.
    let properties: Vec<(Box<str>, Type)> = object
        .properties()
        .iter()
        .map(|(k, t)| (k.clone(), f(*t)))
        .collect();
    // `created` is fresh and private to this call, so it cannot already be defined.
    let _ = created.define_object(properties);
    created
}
