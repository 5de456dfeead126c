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
        Transformer::new(Transform::ResolveOutputs).transform(self)
    }

    /// `ResolvePromises`: the type with every promise removed, deeply.
    pub fn resolve_promises(&self) -> Type {
        Transformer::new(Transform::ResolvePromises).transform(self)
    }

    /// `InputType`: `T | output(T)`, applied recursively into promises, maps, lists,
    /// unions and objects; `dynamic`, `none` and outputs are left as they are.
    pub fn input_type(&self) -> Type {
        Transformer::new(Transform::Input).transform(self)
    }

    /// The strongest eventual anywhere inside this type (`ContainsEventuals`).
    pub fn eventual_strength(&self) -> Eventual {
        let bits = reach(self);
        if bits & OUTPUT != 0 {
            Eventual::Output
        } else if bits & PROMISE != 0 {
            Eventual::Promise
        } else {
            Eventual::None
        }
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

/// Bits of a node's `eventuals`: whether they are known, and whether an output or a promise
/// is reachable (not looking inside outputs, whose elements have neither, nor inside literals
/// and enums).
pub(crate) const KNOWN: u8 = 1;
const OUTPUT: u8 = 2;
const PROMISE: u8 = 4;

/// What a kind reaches by itself (`OUTPUT`, `PROMISE`).
fn own_reach(kind: &TypeKind) -> u8 {
    match kind {
        TypeKind::Output(_) => OUTPUT,
        TypeKind::Promise(_) => PROMISE,
        _ => 0,
    }
}

/// Whether the reach of a kind includes that of its parts.
fn looks_inside(kind: &TypeKind) -> bool {
    !matches!(
        kind,
        TypeKind::Output(_) | TypeKind::Const(_) | TypeKind::Enum(_)
    )
}

/// The `eventuals` bits of a new node that reaches no deferred object, from its parts (whose
/// bits are known, for the same reason).
pub(crate) fn reach_of_parts(kind: &TypeKind) -> u8 {
    let mut bits = KNOWN | own_reach(kind);
    if looks_inside(kind) {
        kind.for_each_structural_child(&mut |child| {
            let known = child.data().eventuals().load(Ordering::Relaxed);
            if known & KNOWN == 0 {
                // Cannot happen for parts without deferred objects; if it did, the node is
                // scanned when asked, as one with deferred objects is.
                bits &= !KNOWN;
            }
            bits |= known & (OUTPUT | PROMISE);
        });
    }
    if bits & KNOWN == 0 {
        0
    } else {
        bits
    }
}

/// The outputs and promises `ty` reaches (`OUTPUT`, `PROMISE`). Known from the node for a type
/// without deferred objects; otherwise one scan of the type's graph, kept in the node when it
/// met no undefined object (a type being built by a transformation), so that building
/// `output(T)` around a large schema type scans it once, not every time.
fn reach(ty: &Type) -> u8 {
    let cell = ty.data().eventuals();
    let cached = cell.load(Ordering::Acquire);
    if cached & KNOWN != 0 {
        return cached;
    }
    let mut incomplete = false;
    let bits = scan(ty, &mut FxHashSet::default(), &mut incomplete);
    if !incomplete {
        // Only the root of a scan is kept: a part met again inside a cycle answered 0 for
        // what was already being counted, which is right for the root only.
        cell.fetch_or(KNOWN | bits, Ordering::AcqRel);
    }
    bits
}

/// The scan of [`reach`]: every part reachable, each once (`seen` holds the addresses of the
/// composite parts visited, all alive as parts of the root); `incomplete` is set when an
/// undefined object is met.
fn scan(ty: &Type, seen: &mut FxHashSet<usize>, incomplete: &mut bool) -> u8 {
    crate::on_enough_stack(|| {
        let cached = ty.data().eventuals().load(Ordering::Acquire);
        if cached & KNOWN != 0 {
            return cached & (OUTPUT | PROMISE);
        }
        let kind = ty.kind();
        let mut bits = own_reach(kind);
        if !looks_inside(kind) {
            return bits;
        }
        if let TypeKind::Object(object) = kind {
            if object.is_undefined() {
                *incomplete = true;
                return bits;
            }
        }
        if !seen.insert(ty.addr()) {
            return 0;
        }
        let mut visit = |child: &Type, bits: &mut u8| {
            if *bits != OUTPUT | PROMISE {
                *bits |= scan(child, seen, incomplete);
            }
        };
        match kind {
            TypeKind::Object(object) => {
                for (_, t) in &object.properties() {
                    visit(t, &mut bits);
                }
            }
            other => other.for_each_structural_child(&mut |child| visit(child, &mut bits)),
        }
        bits
    })
}

/// Whether `transform` would change anything in `ty`.
fn affected(ty: &Type, how: Transform) -> bool {
    match how {
        Transform::ResolveOutputs => reach(ty) & (OUTPUT | PROMISE) != 0,
        Transform::ResolvePromises => reach(ty) & PROMISE != 0,
        // Everything but `dynamic`, `none` and outputs is wrapped.
        Transform::Input => !matches!(
            ty.kind(),
            TypeKind::Dynamic | TypeKind::None | TypeKind::Output(_)
        ),
    }
}

/// One top-level transformation. Its memo maps the address of each part transformed (a part
/// of the argument, alive while the call runs) to the result, so a type that shares parts
/// (`{ l = x, r = x }`, nested) costs its number of distinct parts, not the size of its tree.
struct Transformer {
    how: Transform,
    memo: FxHashMap<usize, Type>,
    /// For `InputType`: resolves the outputs of the parts, around which `output(..)` is built.
    resolve: Option<Box<Transformer>>,
}

impl Transformer {
    fn new(how: Transform) -> Transformer {
        Transformer {
            how,
            memo: FxHashMap::default(),
            resolve: None,
        }
    }

    fn transform(&mut self, ty: &Type) -> Type {
        crate::on_enough_stack(|| {
            if !affected(ty, self.how) {
                return ty.clone();
            }
            if let Some(known) = self.memo.get(&ty.addr()) {
                return known.clone();
            }
            let result = match self.how {
                Transform::Input => self.input(ty),
                how => match ty.kind() {
                    TypeKind::Output(e) => match how {
                        Transform::ResolveOutputs => self.transform(e),
                        _ => ty.clone(),
                    },
                    TypeKind::Promise(e) => self.transform(e),
                    TypeKind::List(e) => Type::list(self.transform(e)),
                    TypeKind::Map(e) => Type::map(self.transform(e)),
                    TypeKind::Set(e) => Type::set(self.transform(e)),
                    TypeKind::Tuple(es) => Type::tuple(es.iter().map(|e| self.transform(e))),
                    TypeKind::Union(es) => Type::union(es.iter().map(|e| self.transform(e))),
                    TypeKind::Object(_) => map_object(ty, how, &mut |t| self.transform(t)),
                    _ => ty.clone(),
                },
            };
            self.memo.insert(ty.addr(), result.clone());
            result
        })
    }

    /// `InputType` of a type that is not dynamic, none or an output: `union(T', output(T))`,
    /// where `T'` has the same treatment applied inside. The reference wraps `output(T')`; the
    /// element of an output has its outputs resolved, and resolving the outputs of `T'` gives
    /// `T` resolved, so this is the same type, without resolving a deferred object that may be
    /// still being built.
    fn input(&mut self, ty: &Type) -> Type {
        let inner = match ty.kind() {
            TypeKind::Promise(e) => Type::promise(self.transform(e)),
            TypeKind::List(e) => Type::list(self.transform(e)),
            TypeKind::Map(e) => Type::map(self.transform(e)),
            TypeKind::Union(es) => Type::union(es.iter().map(|e| self.transform(e))),
            TypeKind::Object(_) => map_object(ty, Transform::Input, &mut |t| self.transform(t)),
            _ => ty.clone(),
        };
        // `output(T)`: the outputs of `T` resolved with one memo for the whole call.
        let resolved = self
            .resolve
            .get_or_insert_with(|| Box::new(Transformer::new(Transform::ResolveOutputs)))
            .transform(ty);
        Type::union([inner, crate::interner::intern(TypeKind::Output(resolved))])
    }
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
fn map_object(ty: &Type, how: Transform, f: &mut dyn FnMut(&Type) -> Type) -> Type {
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
