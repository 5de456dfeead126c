//! Eventual types: resolving outputs and promises away, `InputType`, and lifting.
//!
//! All of these rebuild a type bottom-up. A deferred (possibly recursive) object is rebuilt
//! as a new deferred object whose key is derived from the original's key and the
//! transformation, so that a cycle maps to a cycle, and repeating a transformation (in this
//! thread or another, now or after reloading the same schema) finds the same object by key
//! instead of consulting a memo. The derived object lives in the original's namespace and is
//! reclaimed with it.
//!
//! Thread safety: a new deferred object is undefined until its properties are computed,
//! and computing them may come back to it (a cycle). So the transformed objects are built
//! by one thread at a time (the `BUILD` lock), found through a per-thread table while they
//! are built, and *published* (made visible to lookups from other threads) only when every
//! object built is defined. Other threads either find a published object or wait for the
//! lock and then find it.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::sync::atomic::Ordering;
use std::sync::{Mutex, MutexGuard};

use rustc_hash::{FxHashMap, FxHashSet, FxHasher};

use crate::kinds::{DeferredKey, Type, TypeKind};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Transform {
    /// Remove every output and promise.
    ResolveOutputs,
    /// Remove every promise.
    ResolvePromises,
    /// `InputType`: accept an output wherever a value is expected.
    Input,
}

/// The key of the object a transformation makes from the deferred object with key `key`:
/// same namespace and name (printers show the original's name), a variant derived from the
/// original's and the transformation.
fn derived_key(key: &DeferredKey, how: Transform) -> DeferredKey {
    let mut hasher = FxHasher::default();
    ("pcl-types transformed object", key.variant, how).hash(&mut hasher);
    DeferredKey {
        namespace: key.namespace,
        variant: hasher.finish(),
        name: key.name.clone(),
    }
}

/// Held by the one thread building transforms of deferred objects.
fn build_lock() -> MutexGuard<'static, ()> {
    static BUILD: Mutex<()> = Mutex::new(());
    BUILD.lock().unwrap_or_else(|p| p.into_inner())
}

thread_local! {
    /// While this thread holds the build lock: the objects it has created and not yet
    /// published (some of them still being defined), by key.
    static BUILDING: RefCell<Option<FxHashMap<DeferredKey, Type>>> = const { RefCell::new(None) };
}

/// Ends a build: publishes what was built (or, after a panic, leaves it unpublished; a
/// later build finds those objects by key and completes them).
struct Build {
    _lock: MutexGuard<'static, ()>,
}

impl Drop for Build {
    fn drop(&mut self) {
        let built = BUILDING.with(|b| b.borrow_mut().take()).unwrap_or_default();
        if !std::thread::panicking() {
            for ty in built.values() {
                ty.publish();
            }
        }
        drop(built);
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
    pub fn resolve_outputs(&self) -> Type {
        transform(self, Transform::ResolveOutputs)
    }

    /// `ResolvePromises`: the type with every promise removed, deeply.
    pub fn resolve_promises(&self) -> Type {
        transform(self, Transform::ResolvePromises)
    }

    /// `InputType`: `T | output(T)`, applied recursively into promises, maps, lists,
    /// unions and objects; `dynamic`, `none` and outputs are left as they are.
    pub fn input_type(&self) -> Type {
        transform(self, Transform::Input)
    }

    /// The strongest eventual anywhere inside this type (`ContainsEventuals`).
    pub fn eventual_strength(&self) -> Eventual {
        let mut seen = FxHashSet::default();
        strength(self, &mut seen)
    }

    /// `liftOperationType`: wraps `result` in the strongest eventual among `args`.
    pub fn lift<T: Borrow<Type>>(result: Type, args: impl IntoIterator<Item = T>) -> Type {
        let strongest = args
            .into_iter()
            .map(|t| t.borrow().eventual_strength())
            .max()
            .unwrap_or(Eventual::None);
        match strongest {
            Eventual::None => result,
            Eventual::Promise => Type::promise(result),
            Eventual::Output => Type::output(result),
        }
    }

    /// The element of an output or promise, or the type itself.
    pub fn unwrap_eventual(&self) -> Type {
        match self.kind() {
            TypeKind::Output(e) | TypeKind::Promise(e) => e.clone(),
            _ => self.clone(),
        }
    }
}

/// `seen` holds the addresses of objects visited (all alive: they are parts of `ty`).
fn strength(ty: &Type, seen: &mut FxHashSet<usize>) -> Eventual {
    crate::on_enough_stack(|| match ty.kind() {
        TypeKind::Output(_) => Eventual::Output,
        TypeKind::Promise(e) => Eventual::Promise.max(strength(e, seen)),
        TypeKind::List(e) | TypeKind::Map(e) | TypeKind::Set(e) => strength(e, seen),
        TypeKind::Tuple(es) | TypeKind::Union(es) => es
            .iter()
            .map(|e| strength(e, seen))
            .max()
            .unwrap_or(Eventual::None),
        TypeKind::Object(object) => {
            if !seen.insert(ty.addr()) {
                return Eventual::None;
            }
            object
                .properties()
                .iter()
                .map(|(_, t)| strength(t, seen))
                .max()
                .unwrap_or(Eventual::None)
        }
        _ => Eventual::None,
    })
}

/// Bits of `DeferredObject::eventual_cache`: for `ResolveOutputs` and `ResolvePromises`,
/// whether the answer is known and what it is.
const OUTPUTS_KNOWN: u8 = 1;
const OUTPUTS_INSIDE: u8 = 2;
const PROMISES_KNOWN: u8 = 4;
const PROMISES_INSIDE: u8 = 8;

/// Whether `transform` would change anything in `ty` (cycle-safe). For a defined deferred
/// object, the answer is cached in the object (when every object the scan met was defined),
/// so that building `output(T)` around a large schema type scans it once, not every time.
/// Only the root of a scan is cached: an object met inside a cycle is answered with the
/// cycle's start assumed false, which is right for the root only.
fn affected(ty: &Type, how: Transform, seen: &mut FxHashSet<usize>) -> bool {
    let (known, inside) = match how {
        Transform::ResolveOutputs => (OUTPUTS_KNOWN, OUTPUTS_INSIDE),
        Transform::ResolvePromises => (PROMISES_KNOWN, PROMISES_INSIDE),
        Transform::Input => return affected_in(ty, how, seen, &mut false),
    };
    let deferred = match ty.kind() {
        TypeKind::Object(object) if object.is_defined() => object.deferred(),
        _ => None,
    };
    let Some(deferred) = deferred else {
        return affected_in(ty, how, seen, &mut false);
    };
    let cached = deferred.eventual_cache.load(Ordering::Acquire);
    if cached & known != 0 {
        return cached & inside != 0;
    }
    let mut incomplete = false;
    let answer = affected_in(ty, how, seen, &mut incomplete);
    if !incomplete {
        let bits = known | if answer { inside } else { 0 };
        deferred.eventual_cache.fetch_or(bits, Ordering::AcqRel);
    }
    answer
}

/// The scan of [`affected`]; `incomplete` is set when an undefined object was met.
fn affected_in(
    ty: &Type,
    how: Transform,
    seen: &mut FxHashSet<usize>,
    incomplete: &mut bool,
) -> bool {
    crate::on_enough_stack(|| {
        match ty.kind() {
            TypeKind::Output(_) => how == Transform::ResolveOutputs,
            // Resolved away, or (`InputType`) wrapped even when the element is `dynamic`.
            TypeKind::Promise(_) => true,
            TypeKind::List(e) | TypeKind::Map(e) => {
                how == Transform::Input || affected_in(e, how, seen, incomplete)
            }
            TypeKind::Set(e) => how == Transform::Input || affected_in(e, how, seen, incomplete),
            TypeKind::Tuple(es) | TypeKind::Union(es) => {
                how == Transform::Input || es.iter().any(|e| affected_in(e, how, seen, incomplete))
            }
            TypeKind::Object(object) => {
                if how == Transform::Input {
                    return true;
                }
                if let Some(deferred) = object.deferred() {
                    if !object.is_defined() {
                        *incomplete = true;
                        return false;
                    }
                    let (known, inside) = match how {
                        Transform::ResolveOutputs => (OUTPUTS_KNOWN, OUTPUTS_INSIDE),
                        _ => (PROMISES_KNOWN, PROMISES_INSIDE),
                    };
                    let cached = deferred.eventual_cache.load(Ordering::Acquire);
                    if cached & known != 0 {
                        return cached & inside != 0;
                    }
                }
                if !seen.insert(ty.addr()) {
                    return false;
                }
                object
                    .properties()
                    .iter()
                    .any(|(_, t)| affected_in(t, how, seen, incomplete))
            }
            TypeKind::Dynamic | TypeKind::None => false,
            _ => how == Transform::Input,
        }
    })
}

fn transform(ty: &Type, how: Transform) -> Type {
    crate::on_enough_stack(|| {
        if !affected(ty, how, &mut FxHashSet::default()) {
            return ty.clone();
        }
        if how == Transform::Input {
            return input(ty);
        }
        let recurse = |t: &Type| transform(t, how);
        match ty.kind() {
            TypeKind::Output(e) => match how {
                Transform::ResolveOutputs => recurse(e),
                _ => ty.clone(),
            },
            TypeKind::Promise(e) => recurse(e),
            TypeKind::List(e) => Type::list(recurse(e)),
            TypeKind::Map(e) => Type::map(recurse(e)),
            TypeKind::Set(e) => Type::set(recurse(e)),
            TypeKind::Tuple(es) => Type::tuple(es.iter().map(recurse)),
            TypeKind::Union(es) => Type::union(es.iter().map(recurse)),
            TypeKind::Object(_) => map_object(ty, how, recurse),
            _ => ty.clone(),
        }
    })
}

/// `InputType` of a type that is not dynamic, none or an output: `union(T', output(T))`,
/// where `T'` has the same treatment applied inside. The reference wraps `output(T')`; the
/// element of an output has its outputs resolved, and resolving the outputs of `T'` gives
/// `T` resolved, so this is the same type, without resolving a deferred object that may be
/// still being built.
fn input(ty: &Type) -> Type {
    crate::on_enough_stack(|| {
        let inner = match ty.kind() {
            TypeKind::Dynamic | TypeKind::None | TypeKind::Output(_) => return ty.clone(),
            TypeKind::Promise(e) => Type::promise(input(e)),
            TypeKind::List(e) => Type::list(input(e)),
            TypeKind::Map(e) => Type::map(input(e)),
            TypeKind::Union(es) => Type::union(es.iter().map(input)),
            TypeKind::Object(_) => map_object(ty, Transform::Input, input),
            _ => ty.clone(),
        };
        Type::union([inner, Type::output(ty.clone())])
    })
}

/// A transformed object made by this thread's build, or a published one.
fn lookup(key: &DeferredKey) -> Option<Type> {
    BUILDING
        .with(|b| b.borrow().as_ref()?.get(key).cloned())
        .or_else(|| published(key))
}

fn published(key: &DeferredKey) -> Option<Type> {
    Type::find_deferred(key.clone()).filter(is_published)
}

fn is_published(ty: &Type) -> bool {
    match ty.kind() {
        TypeKind::Object(object) => object.deferred().is_some_and(|d| d.is_published()),
        _ => false,
    }
}

/// Rebuilds an object with `f` applied to each property. A deferred object becomes the
/// deferred object with the derived key, created (privately, see the module doc) before
/// its properties are computed so that cycles close.
fn map_object(ty: &Type, how: Transform, f: impl Fn(&Type) -> Type) -> Type {
    let TypeKind::Object(object) = ty.kind() else {
        return ty.clone();
    };
    let Some(key) = object.deferred_key() else {
        let properties: Vec<(Box<str>, Type)> = object
            .properties()
            .iter()
            .map(|(k, t)| (k.clone(), f(t)))
            .collect();
        return Type::object_with(properties, object.strict(), object.annotations().to_vec());
    };
    if how == Transform::ResolveOutputs {
        if let Some(origin) = object.input_origin() {
            // `ResolveOutputs(InputType(T))` is `ResolveOutputs(T)`.
            return origin.resolve_outputs();
        }
    }
    let derived = derived_key(key, how);
    if let Some(found) = lookup(&derived) {
        return found;
    }
    let building = BUILDING.with(|b| b.borrow().is_some());
    let _build = if building {
        None
    } else {
        // The outermost transform of this thread: wait for any other build, then look
        // again, as that build may have published this very object.
        let lock = build_lock();
        if let Some(found) = published(&derived) {
            return found;
        }
        BUILDING.with(|b| *b.borrow_mut() = Some(FxHashMap::default()));
        Some(Build { _lock: lock })
    };
    let origin = (how == Transform::Input).then(|| ty.clone());
    let created = Type::deferred_object_from(
        derived.clone(),
        object.strict(),
        object.annotations().to_vec(),
        origin,
    );
    BUILDING.with(|b| {
        if let Some(table) = b.borrow_mut().as_mut() {
            table.insert(derived, created.clone());
        }
    });
    let properties: Box<[(Box<str>, Type)]> = object
        .properties()
        .iter()
        .map(|(k, t)| (k.clone(), f(t)))
        .collect();
    // `created` is new, or left unpublished by a build that panicked: if that build had
    // defined it, its properties are the same as these.
    let _ = created.define_deferred(properties, false);
    // Dropping `_build` (for the outermost object) publishes everything built.
    created
}
