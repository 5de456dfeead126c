//! Eventual types: resolving outputs and promises away, `InputType`, and lifting.
//!
//! All of these rebuild a type bottom-up. Deferred (possibly recursive) objects are
//! rebuilt as new deferred objects, memoized per (object, transformation) so that a cycle
//! maps to a cycle and repeated calls give the same handle.
//!
//! Thread safety: a new deferred object is undefined until its properties are computed,
//! and computing them may come back to it (a cycle). So the transformed objects are built
//! privately, by one thread at a time (the `BUILD` lock), in a per-thread table, and
//! published to the shared memo only when every object built is defined. Other threads
//! either find a finished object in the memo or wait for the lock and then find it there.

use std::cell::RefCell;
use std::sync::{Mutex, MutexGuard, OnceLock};

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
    /// Not a transformation: maps an object made by `Input` back to the object it was
    /// made from, so that resolving its outputs gives that object resolved (the same type)
    /// without looking at the new object, which may still be being built.
    InputOrigin,
}

type Memo = FxHashMap<(Type, Transform), Type>;

/// Published transforms of deferred objects: every object in it is defined.
fn deferred_memo() -> MutexGuard<'static, Memo> {
    static MEMO: OnceLock<Mutex<Memo>> = OnceLock::new();
    // A poisoned lock only means a panic elsewhere; the map holds only finished entries.
    MEMO.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// Held by the one thread building transforms of deferred objects.
fn build_lock() -> MutexGuard<'static, ()> {
    static BUILD: Mutex<()> = Mutex::new(());
    BUILD.lock().unwrap_or_else(|p| p.into_inner())
}

thread_local! {
    /// While this thread holds the build lock: the objects it has created and not yet
    /// published (some of them still being defined).
    static BUILDING: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// Ends a build: publishes what was built (or, after a panic, just forgets it).
struct Build {
    _lock: MutexGuard<'static, ()>,
}

impl Drop for Build {
    fn drop(&mut self) {
        let built = BUILDING.with(|b| b.borrow_mut().take()).unwrap_or_default();
        if !std::thread::panicking() {
            deferred_memo().extend(built);
        }
    }
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
        // Resolved away, or (`InputType`) wrapped even when the element is `dynamic`.
        TypeKind::Promise(_) => true,
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

/// `InputType` of a type that is not dynamic, none or an output: `union(T', output(T))`,
/// where `T'` has the same treatment applied inside. The reference wraps `output(T')`; the
/// element of an output has its outputs resolved, and resolving the outputs of `T'` gives
/// `T` resolved, so this is the same type, without resolving a deferred object that may be
/// still being built.
fn input(ty: Type) -> Type {
    let inner = match ty.kind() {
        TypeKind::Dynamic | TypeKind::None | TypeKind::Output(_) => return ty,
        TypeKind::Promise(e) => Type::promise(input(*e)),
        TypeKind::List(e) => Type::list(input(*e)),
        TypeKind::Map(e) => Type::map(input(*e)),
        TypeKind::Union(es) => Type::union(es.iter().map(|e| input(*e))),
        TypeKind::Object(_) => map_object(ty, Transform::Input, input),
        _ => ty,
    };
    Type::union([inner, Type::output(ty)])
}

/// A memoized transform of a deferred object: published, or built by this thread.
fn lookup(ty: Type, how: Transform) -> Option<Type> {
    BUILDING
        .with(|b| b.borrow().as_ref()?.get(&(ty, how)).copied())
        .or_else(|| deferred_memo().get(&(ty, how)).copied())
}

/// Rebuilds an object with `f` applied to each property. Deferred objects become new
/// deferred objects, registered (privately, see the module doc) before their properties
/// are computed so that cycles close.
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
    if how == Transform::ResolveOutputs {
        if let Some(origin) = lookup(ty, Transform::InputOrigin) {
            // `ResolveOutputs(InputType(T))` is `ResolveOutputs(T)`.
            return origin.resolve_outputs();
        }
    }
    if let Some(published) = deferred_memo().get(&(ty, how)) {
        return *published;
    }
    let building = BUILDING.with(|b| b.borrow().is_some());
    let _build = if building {
        if let Some(in_progress) = BUILDING.with(|b| b.borrow().as_ref()?.get(&(ty, how)).copied())
        {
            return in_progress;
        }
        None
    } else {
        // The outermost transform of this thread: wait for any other build, then look
        // again, as that build may have published this very object.
        let lock = build_lock();
        if let Some(published) = deferred_memo().get(&(ty, how)) {
            return *published;
        }
        BUILDING.with(|b| *b.borrow_mut() = Some(Memo::default()));
        Some(Build { _lock: lock })
    };
    let created = Type::deferred_object(
        object.deferred_name().unwrap_or("object"),
        object.strict(),
        object.annotations().to_vec(),
    );
    BUILDING.with(|b| {
        if let Some(table) = b.borrow_mut().as_mut() {
            table.insert((ty, how), created);
            if how == Transform::Input {
                table.insert((created, Transform::InputOrigin), ty);
            }
        }
    });
    let properties: Vec<(Box<str>, Type)> = object
        .properties()
        .iter()
        .map(|(k, t)| (k.clone(), f(*t)))
        .collect();
    // `created` is fresh and private to this build, so it cannot already be defined.
    let _ = created.define_object(properties);
    // Dropping `_build` (for the outermost object) publishes everything built.
    created
}
