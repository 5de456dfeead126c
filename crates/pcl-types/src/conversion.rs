//! `ConversionFrom`: can a value of one type be converted to another, and how safely.
//!
//! Unlike the reference, there is no cache that outlives a query: each top-level call has
//! its own memo keyed by `(dest, src)` (the mode is fixed per call), and results that
//! relied on a cycle assumption are kept only provisionally: reused while the assumption
//! stands (its pair is still being converted), memoized once that pair turns out Safe, and
//! dropped if it does not. So answers never depend on query order, and densely recursive
//! types do not make a query exponential.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::assignable::{equals_closed, equals_remembered, EqualsMemo};
use crate::facts;
use crate::kinds::{Type, TypeKind};
use crate::reason::{PathStep, Reason, ReasonKind};

/// How a value converts: not at all, with a check that can fail at run time, or always.
/// Ordered: `None < Unsafe < Safe`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConversionKind {
    None,
    Unsafe,
    Safe,
}

/// The answer of [`Type::conversion_from`]: a kind, and for `None` and `Unsafe` a reason.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Conversion {
    pub kind: ConversionKind,
    pub reason: Option<Reason>,
}

impl Conversion {
    pub fn safe() -> Conversion {
        Conversion {
            kind: ConversionKind::Safe,
            reason: None,
        }
    }
    fn unsafe_(reason: Reason) -> Conversion {
        Conversion {
            kind: ConversionKind::Unsafe,
            reason: Some(reason),
        }
    }
    fn none(reason: Reason) -> Conversion {
        Conversion {
            kind: ConversionKind::None,
            reason: Some(reason),
        }
    }
    fn cannot(dest: &Type, src: &Type) -> Conversion {
        Conversion::none(Reason::new(ReasonKind::CannotAssign {
            dest: dest.clone(),
            src: src.clone(),
        }))
    }
    fn may_fail(dest: &Type, src: &Type) -> Conversion {
        Conversion::unsafe_(Reason::new(ReasonKind::MayFail {
            dest: dest.clone(),
            src: src.clone(),
        }))
    }

    /// `Exists()`: not `None`.
    pub fn exists(&self) -> bool {
        self.kind != ConversionKind::None
    }

    fn within(mut self, step: PathStep) -> Conversion {
        self.reason = self.reason.map(|r| r.within(step));
        self
    }

    /// [`Conversion::within`] a property: its name is copied only into a reason.
    fn within_property(mut self, name: &str) -> Conversion {
        self.reason = self
            .reason
            .map(|r| r.within(PathStep::Property(name.into())));
        self
    }

    /// A root-level "cannot assign" about a part of `dest`/`src` (an output's element, a
    /// literal's underlying type) is restated about the types the caller asked about.
    fn about(mut self, dest: &Type, src: &Type) -> Conversion {
        if let Some(reason) = &mut self.reason {
            if reason.path_len() == 0 {
                if let ReasonKind::CannotAssign { dest: d, src: s } = &mut reason.kind {
                    *d = dest.clone();
                    *s = src.clone();
                }
            }
        }
        self
    }

    /// At most `Unsafe`; a Safe result gets `reason` as the reason it is only unsafe.
    fn at_most_unsafe(self, reason: impl FnOnce() -> Reason) -> Conversion {
        match self.kind {
            ConversionKind::Safe => Conversion::unsafe_(reason()),
            _ => self,
        }
    }
}

/// Keeps the worse of two results (the first one on a tie).
fn worst(acc: Conversion, next: Conversion) -> Conversion {
    if next.kind < acc.kind {
        next
    } else {
        acc
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// The ordinary `conversion_from`.
    Convert,
    /// Used by unification: tuples and objects of different shapes unify.
    Unify,
}

/// A `(dest, src)` pair of types, by address. Every address used as a key of a table of
/// [`Ctx`] belongs to a type the context keeps alive (a frame's arguments while the frame
/// runs, [`Ctx::pins`] for memo tables), so it cannot be reused by another type meanwhile.
pub(crate) type Pair = (usize, usize);

pub(crate) fn pair(dest: &Type, src: &Type) -> Pair {
    (dest.addr(), src.addr())
}

/// A type whose conversions involve no other composite type.
fn is_leaf(ty: &Type) -> bool {
    match ty.kind() {
        TypeKind::Const(c) => is_leaf(&c.ty),
        TypeKind::Enum(e) => is_leaf(&e.element),
        TypeKind::Bool
        | TypeKind::Int
        | TypeKind::Number
        | TypeKind::String
        | TypeKind::Dynamic
        | TypeKind::None
        | TypeKind::Opaque(_) => true,
        _ => false,
    }
}

/// The state of one top-level relation query (conversion or unification).
pub(crate) struct Ctx {
    mode: Mode,
    /// The conversion's source reaches no deferred object: it is a finite tree, every pair
    /// below has a smaller source, so no pair can meet itself (a destination's cycle passes
    /// through an object, whose properties are converted from the source's), and no frame
    /// needs the stack and assumptions of coinduction, only the memo.
    acyclic: bool,
    /// The `(dest, src)` pairs being converted, with their depth (outermost 0): a map, so
    /// that finding a pair costs the same at any depth.
    stack: FxHashMap<Pair, usize>,
    /// Per stack frame: whether some inner pair assumed it Safe.
    assumed: Vec<bool>,
    memo: FxHashMap<Pair, Conversion>,
    /// Results that rely on the assumption that the frame at the given depth (the
    /// shallowest they rely on) is Safe.
    provisional: FxHashMap<Pair, (usize, Conversion)>,
    /// The keys of `provisional` by depth (may hold stale keys; the map is the truth).
    provisional_by_depth: Vec<Vec<Pair>>,
    /// The shallowest stack frame whose pair was assumed Safe while computing the current
    /// frame; results that depend on an enclosing frame's assumption are not memoized.
    lowest_assumption: usize,
    pub(crate) unify_stack: FxHashSet<Pair>,
    pub(crate) unify_memo: FxHashMap<Pair, (Type, ConversionKind)>,
    /// Counts cyclic unifications cut short; used to avoid memoizing their results.
    pub(crate) unify_cycles: usize,
    /// What [`Ctx::equals`] learnt about pairs of parts (see `equals_remembered`).
    equals_memo: EqualsMemo,
    /// The types whose addresses key `memo`, `provisional`, `unify_memo` and `equals_memo`.
    pins: Vec<Type>,
}

impl Ctx {
    pub(crate) fn new(mode: Mode) -> Ctx {
        Ctx {
            mode,
            acyclic: false,
            stack: FxHashMap::default(),
            assumed: Vec::new(),
            memo: FxHashMap::default(),
            provisional: FxHashMap::default(),
            provisional_by_depth: Vec::new(),
            lowest_assumption: usize::MAX,
            unify_stack: FxHashSet::default(),
            unify_memo: FxHashMap::default(),
            unify_cycles: 0,
            equals_memo: EqualsMemo::default(),
            pins: Vec::new(),
        }
    }

    /// Runs `f` with a context in `mode`: a pooled one of this thread, cleared, so that its
    /// tables keep their capacity between conversions (growing them was 2% of a large
    /// check's instructions). A context whose tables grew large is dropped, not pooled.
    pub(crate) fn with<R>(mode: Mode, f: impl FnOnce(&mut Ctx) -> R) -> R {
        thread_local! {
            static POOL: std::cell::RefCell<Vec<Ctx>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let mut cx = POOL
            .try_with(|pool| pool.borrow_mut().pop())
            .ok()
            .flatten()
            .unwrap_or_else(|| Ctx::new(mode));
        cx.mode = mode;
        let result = f(&mut cx);
        if cx.reset() {
            let _ = POOL.try_with(|pool| {
                let mut pool = pool.borrow_mut();
                if pool.len() < 4 {
                    pool.push(cx);
                }
            });
        }
        result
    }

    /// Back to the state of [`Ctx::new`], keeping the tables' capacity; false when they grew
    /// too large to keep.
    fn reset(&mut self) -> bool {
        const KEEP: usize = 256;
        // Every field, so that a new one cannot be forgotten here (it would not compile).
        let Ctx {
            mode: _,
            acyclic,
            stack,
            assumed,
            memo,
            provisional,
            provisional_by_depth,
            lowest_assumption,
            unify_stack,
            unify_memo,
            unify_cycles,
            equals_memo,
            pins,
        } = self;
        let small = stack.capacity() <= KEEP
            && memo.capacity() <= KEEP
            && provisional.capacity() <= KEEP
            && unify_stack.capacity() <= KEEP
            && unify_memo.capacity() <= KEEP
            && equals_memo.capacity() <= KEEP
            && pins.capacity() <= 2 * KEEP
            && assumed.capacity() <= KEEP
            && provisional_by_depth.capacity() <= KEEP;
        if !small {
            return false;
        }
        *acyclic = false;
        stack.clear();
        assumed.clear();
        memo.clear();
        provisional.clear();
        provisional_by_depth.clear();
        *lowest_assumption = usize::MAX;
        unify_stack.clear();
        unify_memo.clear();
        *unify_cycles = 0;
        equals_memo.clear();
        pins.clear();
        true
    }

    /// Keeps `dest` and `src` alive as long as this context, so that their pair can key a
    /// table.
    pub(crate) fn pin(&mut self, dest: &Type, src: &Type) {
        self.pins.push(dest.clone());
        self.pins.push(src.clone());
    }

    /// [`Type::equals`], remembering what it learns for the rest of the query: a relation
    /// compares the parts of its types at each level (a conversion of a list nested `n` deep
    /// compares the lists below each level), which would cost `n²` comparisons of parts.
    pub(crate) fn equals(&mut self, a: &Type, b: &Type) -> bool {
        if a == b {
            return true;
        }
        if !a.composite_pair(b) {
            return a.equals(b);
        }
        if facts::closed(a, b) {
            if let Some(equal) = facts::with_closed(|c| equals_closed(a, b, &mut c.equal)) {
                return equal;
            }
        }
        let known = self.equals_memo.len();
        let equal = equals_remembered(a, b, &mut self.equals_memo);
        if self.equals_memo.len() != known {
            // The pairs learnt are parts of these two.
            self.pin(a, b);
        }
        equal
    }

    pub(crate) fn convert(&mut self, dest: &Type, src: &Type) -> Conversion {
        crate::on_enough_stack(|| {
            if dest == src || dest.is_dynamic() {
                return Conversion::safe();
            }
            // A resource is a reference: a resource variable (its outputs) is the value of a
            // property whose schema type is that resource (`$ref: #/resources/...`, its plain
            // outputs), plain or not, as Pulumi's binder has it. Only its attributes are
            // eventual.
            if let (Some(d), Some(s)) = (resource_token(dest), resource_token(src)) {
                return if d == s {
                    Conversion::safe()
                } else {
                    // Not "missing property": one resource's outputs are never another's.
                    Conversion::cannot(dest, src)
                };
            }
            // Two leaves (primitives, literals, enums, opaques) cannot recurse: no memo, no stack.
            if is_leaf(dest) && is_leaf(src) {
                return self.convert_uncached(dest, src);
            }
            if self.mode == Mode::Unify && facts::closed(dest, src) {
                // Only the kind of a conversion matters to a unification, and between closed
                // types it is the same in every query: the thread remembers it (`facts.rs`).
                if let Some(Some(kind)) = facts::with_closed(|c| c.unify.get(dest, src)) {
                    return Conversion { kind, reason: None };
                }
                let result = self.convert_composite(dest, src);
                facts::with_closed(|c| c.unify.insert(dest, src, result.kind));
                return result;
            }
            self.convert_composite(dest, src)
        })
    }

    /// [`Ctx::convert`] of two types that are not both leaves.
    fn convert_composite(&mut self, dest: &Type, src: &Type) -> Conversion {
        if self.equals(dest, src) {
            return Conversion::safe();
        }
        let key = pair(dest, src);
        if let Some(known) = self.memo.get(&key) {
            return known.clone();
        }
        if self.acyclic {
            let result = self.convert_uncached(dest, src);
            self.pin(dest, src);
            self.memo.insert(key, result.clone());
            return result;
        }
        if let Some((depth, known)) = self.provisional.get(&key) {
            // Valid while the frame it relies on is on the stack, which it is (entries are
            // settled when their frame ends); the caller now relies on that frame too.
            self.lowest_assumption = self.lowest_assumption.min(*depth);
            return known.clone();
        }
        if let Some(&depth) = self.stack.get(&key) {
            // A recursive type met itself: assume Safe (coinduction).
            self.lowest_assumption = self.lowest_assumption.min(depth);
            self.assumed[depth] = true;
            return Conversion::safe();
        }
        let depth = self.stack.len();
        self.stack.insert(key, depth);
        self.assumed.push(false);
        let outer_assumption = std::mem::replace(&mut self.lowest_assumption, usize::MAX);
        let result = self.convert_uncached(dest, src);
        self.stack.remove(&key);
        let was_assumed = self.assumed.pop().unwrap_or(false);
        let inner_assumption = self.lowest_assumption;
        if was_assumed && result.kind != ConversionKind::Safe {
            // The assumption that this pair is Safe was wrong: drop everything that may
            // rely on it (conservatively, every provisional result).
            self.provisional.clear();
            self.provisional_by_depth.clear();
        }
        let dependents = self
            .provisional_by_depth
            .get_mut(depth)
            .map(std::mem::take)
            .unwrap_or_default();
        if inner_assumption >= depth {
            // Only assumptions about this very frame (now discharged), or none at all.
            self.pin(dest, src);
            self.memo.insert(key, result.clone());
            for key in dependents {
                if let Some((d, known)) = self.provisional.remove(&key) {
                    if d == depth {
                        self.memo.insert(key, known);
                    } else {
                        self.provisional.insert(key, (d, known));
                    }
                }
            }
            self.lowest_assumption = outer_assumption;
        } else {
            // Relies on an enclosing frame: provisional, and so is what relied on this one.
            if self.provisional_by_depth.len() <= inner_assumption {
                self.provisional_by_depth
                    .resize_with(inner_assumption + 1, Vec::new);
            }
            for key in dependents {
                if let Some(entry) = self.provisional.get_mut(&key) {
                    if entry.0 == depth {
                        entry.0 = inner_assumption;
                        self.provisional_by_depth[inner_assumption].push(key);
                    }
                }
            }
            self.pin(dest, src);
            self.provisional
                .insert(key, (inner_assumption, result.clone()));
            self.provisional_by_depth[inner_assumption].push(key);
            self.lowest_assumption = outer_assumption.min(inner_assumption);
        }
        result
    }

    fn convert_uncached(&mut self, dest: &Type, src: &Type) -> Conversion {
        // A union source converts element by element: Safe if all are Safe, None if none
        // convert, Unsafe otherwise.
        if let TypeKind::Union(elements) = src.kind() {
            return self.convert_union_source(dest, src, elements);
        }
        if src.is_dynamic() {
            // Deviation: a destination that accepts `dynamic` as it is (e.g. `dynamic?`,
            // `output(dynamic)`) is Safe, so that assignability implies a Safe conversion.
            return if dest.assignable_from(src) {
                Conversion::safe()
            } else {
                Conversion::unsafe_(Reason::new(ReasonKind::DynamicSource {
                    dest: dest.clone(),
                }))
            };
        }
        match dest.kind() {
            TypeKind::Union(elements) => return self.convert_to_union(dest, src, elements),
            TypeKind::Output(element) => {
                let result = match src.kind() {
                    TypeKind::Output(u) | TypeKind::Promise(u) => {
                        self.convert(element, &u.resolve_outputs())
                    }
                    _ => self.convert(element, src),
                };
                return result.about(dest, src);
            }
            TypeKind::Promise(element) => {
                return match src.kind() {
                    TypeKind::Promise(u) => self.convert(element, u),
                    TypeKind::Output(_) => {
                        Conversion::none(Reason::new(ReasonKind::OutputToPromise {
                            dest: dest.clone(),
                            src: src.clone(),
                        }))
                    }
                    _ => self.convert(element, src).about(dest, src),
                };
            }
            TypeKind::Enum(e) => return self.convert_to_enum(dest, &e.element, src),
            TypeKind::Const(c) => return self.convert_to_const(dest, c, src),
            _ => {}
        }
        // Every other destination sees through literals and enums to their underlying type.
        match src.kind() {
            TypeKind::Const(c) => return self.convert(dest, &c.ty).about(dest, src),
            TypeKind::Enum(e) => return self.convert(dest, &e.element).about(dest, src),
            _ => {}
        }
        if let (Some(d), Some(s)) = (Primitive::of(dest), Primitive::of(src)) {
            return primitive(d, s, dest, src);
        }
        self.convert_structured(dest, src)
    }

    fn convert_union_source(&mut self, dest: &Type, src: &Type, elements: &[Type]) -> Conversion {
        let results: Vec<Conversion> = elements.iter().map(|e| self.convert(dest, e)).collect();
        if results.iter().all(|r| r.kind == ConversionKind::Safe) {
            return Conversion::safe();
        }
        if results.iter().all(|r| r.kind == ConversionKind::None) {
            return Conversion::cannot(dest, src);
        }
        let failing: Vec<Type> = elements
            .iter()
            .zip(&results)
            .filter(|(_, r)| r.kind == ConversionKind::None)
            .map(|(e, _)| e.clone())
            .collect();
        if failing.is_empty() {
            // Some are Unsafe and none fail: report the first unsafe one.
            return results
                .into_iter()
                .find(|r| r.kind == ConversionKind::Unsafe)
                .unwrap_or_else(Conversion::safe);
        }
        Conversion::unsafe_(Reason::new(ReasonKind::SomeUnionMembers {
            dest: dest.clone(),
            failing: Type::union(failing),
        }))
    }

    fn convert_to_union(&mut self, dest: &Type, src: &Type, elements: &[Type]) -> Conversion {
        if elements.iter().any(|e| self.equals(e, src)) {
            return Conversion::safe();
        }
        let mut best: Option<Conversion> = None;
        let mut deepest_failure: Option<Reason> = None;
        for element in elements {
            // `none` (of every optional type) takes only `null`, `none` and `dynamic`: a value
            // of another shape (a literal of a primitive type included) fails against it with
            // the plain reason, which is not kept, so it is not asked (its reason's copies of
            // both types were most of an optional property's cost).
            if element.is_none()
                && matches!(
                    src.kind(),
                    TypeKind::Bool
                        | TypeKind::Int
                        | TypeKind::Number
                        | TypeKind::String
                        | TypeKind::List(_)
                        | TypeKind::Map(_)
                        | TypeKind::Set(_)
                        | TypeKind::Tuple(_)
                        | TypeKind::Object(_)
                )
                || element.is_none()
                    && matches!(src.kind(), TypeKind::Const(c) if Primitive::of(&c.ty).is_some())
            {
                continue;
            }
            let result = self.convert(element, src);
            if result.kind == ConversionKind::Safe {
                return result;
            }
            if result.kind == ConversionKind::None {
                // Deviation: keep the most specific reason (the longest path) instead of
                // dropping them all, so `T?` and `T | output(T)` explain what is wrong.
                if let Some(reason) = result.reason {
                    let deeper = deepest_failure
                        .as_ref()
                        .is_none_or(|known| reason.path_len() > known.path_len());
                    if deeper && !is_plain_cannot_assign(&reason) {
                        deepest_failure = Some(reason);
                    }
                }
                continue;
            }
            if best.as_ref().is_none_or(|b| result.kind > b.kind) {
                best = Some(result);
            }
        }
        match best {
            Some(result) => result,
            None => Conversion::none(deepest_failure.unwrap_or_else(|| {
                Reason::new(ReasonKind::CannotAssign {
                    dest: dest.clone(),
                    src: src.clone(),
                })
            })),
        }
    }

    fn convert_to_enum(&mut self, dest: &Type, element: &Type, src: &Type) -> Conversion {
        let TypeKind::Enum(e) = dest.kind() else {
            return Conversion::cannot(dest, src);
        };
        match src.kind() {
            TypeKind::Const(c) => {
                let underlying = self.convert(element, &c.ty);
                if !underlying.exists() {
                    return Conversion::cannot(dest, src);
                }
                // Deviation: the reference never checks literal values against the enum.
                if e.values.iter().any(|v| v.same_value(&c.value)) {
                    Conversion::safe()
                } else {
                    Conversion::none(Reason::new(ReasonKind::NotEnumMember {
                        value: c.value.clone(),
                        enum_type: dest.clone(),
                    }))
                }
            }
            _ => {
                let source = match src.kind() {
                    TypeKind::Enum(other) => &other.element,
                    _ => src,
                };
                self.convert(element, source)
                    .about(dest, src)
                    .at_most_unsafe(|| may_fail_reason(dest, src))
            }
        }
    }

    fn convert_to_const(
        &mut self,
        dest: &Type,
        expected: &crate::ConstType,
        src: &Type,
    ) -> Conversion {
        match src.kind() {
            TypeKind::Const(actual) => {
                // Deviation: a different literal is None, not Unsafe.
                if !actual.value.same_value(&expected.value) {
                    return Conversion::none(Reason::new(ReasonKind::WrongLiteral {
                        dest: dest.clone(),
                        src: src.clone(),
                    }));
                }
                self.convert(&expected.ty, &actual.ty)
                    .at_most_unsafe(|| may_fail_reason(dest, src))
            }
            _ => {
                let underlying = self.convert(&expected.ty, src);
                if underlying.exists() {
                    Conversion::may_fail(dest, src)
                } else {
                    Conversion::cannot(dest, src)
                }
            }
        }
    }

    fn convert_structured(&mut self, dest: &Type, src: &Type) -> Conversion {
        match (dest.kind(), src.kind()) {
            (TypeKind::List(e), TypeKind::List(u) | TypeKind::Set(u)) => {
                self.convert(e, u).within(PathStep::Element)
            }
            (TypeKind::List(e), TypeKind::Tuple(us)) => {
                let mut acc = Conversion::safe();
                for (i, u) in us.iter().enumerate() {
                    acc = worst(acc, self.convert(e, u).within(PathStep::Index(i)));
                }
                acc
            }
            (TypeKind::Set(e), TypeKind::Set(u)) => self.convert(e, u).within(PathStep::Element),
            (TypeKind::Set(e), TypeKind::List(u)) => self
                .convert(e, u)
                .within(PathStep::Element)
                .at_most_unsafe(|| may_fail_reason(dest, src)),
            (TypeKind::Set(e), TypeKind::Tuple(_)) => {
                let as_list = self.convert(&Type::list(e.clone()), src);
                if as_list.exists() {
                    Conversion::may_fail(dest, src)
                } else {
                    as_list
                }
            }
            (TypeKind::Map(e), TypeKind::Map(u)) => self.convert(e, u).within(PathStep::Element),
            (TypeKind::Map(e), TypeKind::Object(o)) => {
                let mut acc = Conversion::safe();
                for (key, u) in &o.properties() {
                    acc = worst(acc, self.convert(e, u).within_property(key));
                }
                acc
            }
            (TypeKind::Tuple(_), TypeKind::Tuple(_)) if self.mode == Mode::Unify => Conversion {
                kind: crate::unify::unify_structural(self, dest, src).1,
                reason: None,
            },
            (TypeKind::Tuple(ts), TypeKind::Tuple(us)) => {
                if ts.len() != us.len() {
                    return Conversion::none(Reason::new(ReasonKind::TupleLengths {
                        dest: dest.clone(),
                        src: src.clone(),
                    }));
                }
                let mut acc = Conversion::safe();
                for (i, (t, u)) in ts.iter().zip(us.iter()).enumerate() {
                    acc = worst(acc, self.convert(t, u).within(PathStep::Index(i)));
                }
                acc
            }
            (TypeKind::Tuple(ts), TypeKind::List(u) | TypeKind::Set(u)) => {
                let mut acc = Conversion::may_fail(dest, src);
                for (i, t) in ts.iter().enumerate() {
                    acc = worst(acc, self.convert(t, u).within(PathStep::Index(i)));
                }
                acc
            }
            (TypeKind::Object(_), TypeKind::Object(_)) if self.mode == Mode::Unify => Conversion {
                kind: crate::unify::unify_structural(self, dest, src).1,
                reason: None,
            },
            (TypeKind::Object(d), TypeKind::Object(s)) => {
                let mut acc = Conversion::safe();
                for (key, t) in &d.properties() {
                    let result = match s.property(key) {
                        Some(u) => self.convert(t, &u).within_property(key),
                        // The common case of schema objects: an optional property left out.
                        None if t.is_dynamic() || t.union_elements().iter().any(Type::is_none) => {
                            continue;
                        }
                        None => {
                            let result = self.convert(t, &Type::none());
                            if result.exists() {
                                result.within_property(key)
                            } else {
                                Conversion::none(Reason::new(ReasonKind::MissingProperty {
                                    name: key.clone(),
                                    dest: t.clone(),
                                }))
                            }
                        }
                    };
                    acc = worst(acc, result);
                    if acc.kind == ConversionKind::None {
                        break;
                    }
                }
                acc
            }
            (TypeKind::Object(d), TypeKind::Map(u)) => {
                let mut acc = Conversion::may_fail(dest, src);
                for (key, t) in &d.properties() {
                    acc = worst(acc, self.convert(t, u).within_property(key));
                }
                acc
            }
            _ => Conversion::cannot(dest, src),
        }
    }
}

fn may_fail_reason(dest: &Type, src: &Type) -> Reason {
    Reason::new(ReasonKind::MayFail {
        dest: dest.clone(),
        src: src.clone(),
    })
}

/// A reason that says no more than "cannot assign X to Y" for its own two types.
fn is_plain_cannot_assign(reason: &Reason) -> bool {
    reason.path_len() == 0 && matches!(reason.kind, ReasonKind::CannotAssign { .. })
}

/// The types of the primitive conversion matrix.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Primitive {
    Bool,
    Int,
    Number,
    String,
    Id,
}

impl Primitive {
    fn of(ty: &Type) -> Option<Primitive> {
        Some(match ty.kind() {
            TypeKind::Bool => Primitive::Bool,
            TypeKind::Int => Primitive::Int,
            TypeKind::Number => Primitive::Number,
            TypeKind::String => Primitive::String,
            TypeKind::Opaque(name) if &**name == "id" => Primitive::Id,
            _ => return None,
        })
    }
}

/// pcl-semantics.md 3.3, the primitive matrix.
fn primitive(d: Primitive, s: Primitive, dest: &Type, src: &Type) -> Conversion {
    match primitive_kind(d, s) {
        ConversionKind::Safe => Conversion::safe(),
        _ => Conversion::may_fail(dest, src),
    }
}

/// The kind of [`primitive`]'s answer.
fn primitive_kind(d: Primitive, s: Primitive) -> ConversionKind {
    use Primitive::*;
    let safe = d == s
        || matches!(
            (d, s),
            (String, Bool | Int | Number | Id) | (Id, _) | (Number, Int)
        );
    if safe {
        ConversionKind::Safe
    } else {
        // Every other pair of primitives converts, with a run-time check.
        ConversionKind::Unsafe
    }
}

impl Type {
    /// `dest.conversion_from(src)`: whether and how safely a value of type `src` converts
    /// to `self`, with a reason for `None` and `Unsafe` results.
    pub fn conversion_from(&self, src: &Type) -> Conversion {
        // A Safe conversion has no reason: the shortcuts' Safe is the whole answer.
        if literal_fits(self, src) || plain_kind(self, src) == Some(ConversionKind::Safe) {
            return Conversion::safe();
        }
        self.conversion_by_rules(src)
    }

    /// The kind of [`Type::conversion_from`], for callers that need no reason: the same
    /// answer, found without a conversion's tables (or the reasons it builds and drops) for
    /// the shapes of most values given to resources' inputs.
    pub fn conversion_kind_from(&self, src: &Type) -> ConversionKind {
        if literal_fits(self, src) {
            return ConversionKind::Safe;
        }
        match plain_kind(self, src) {
            Some(kind) => kind,
            None => self.conversion_by_rules(src).kind,
        }
    }

    /// [`Type::conversion_from`] without its shortcut for literals.
    fn conversion_by_rules(&self, src: &Type) -> Conversion {
        Ctx::with(Mode::Convert, |cx| {
            cx.acyclic = !src.reaches_deferred();
            cx.convert(self, src)
        })
    }
}

/// A literal of a primitive type (`"x"`, `1`, `true`) given to that primitive, alone, as an
/// output's element or as a member of a union: Safe, as the conversion finds it (a union
/// converts Safe when a member does, an output takes what its element takes, a literal converts
/// as its type), without a conversion's tables: most of the values of resources' inputs.
fn literal_fits(dest: &Type, src: &Type) -> bool {
    let TypeKind::Const(c) = src.kind() else {
        return false;
    };
    let Some(p) = Primitive::of(&c.ty) else {
        return false;
    };
    let takes = |t: &Type| match t.kind() {
        TypeKind::Output(e) => Primitive::of(e) == Some(p),
        _ => Primitive::of(t) == Some(p),
    };
    match dest.kind() {
        TypeKind::Union(members) => members.iter().any(takes),
        _ => takes(dest),
    }
}

/// The kind of the conversion from `src` to `dest` when both are made of primitives, their
/// literals, `none`, outputs, unions, lists and maps (and, as sources, tuples and objects):
/// the rules of [`Ctx::convert`] and [`Ctx::convert_uncached`], in their order, on types
/// without cycles (so no memo or assumption can change an answer), and without reasons
/// (which never decide a kind). `None` for anything else, left to the rules. Types equal
/// (`Type::equals`) without being the same handle are objects (deferred, or differing only in
/// strictness) and enums, which are left to the rules: the comparisons here are by identity.
fn plain_kind(dest: &Type, src: &Type) -> Option<ConversionKind> {
    plain_kind_within(dest, src, 0, &mut PLAIN_PAIRS.clone())
}

/// How many pairs of parts [`plain_kind`] looks at before it leaves the question to the rules.
/// It keeps no memo, and types share their parts: a list of 16 lists of 16 lists, 8 deep, is
/// 16^8 paths to its numbers (8.5 s, found by review), which the rules' memo walks once.
const PLAIN_PAIRS: u32 = 256;

fn plain_kind_within(
    dest: &Type,
    src: &Type,
    depth: usize,
    budget: &mut u32,
) -> Option<ConversionKind> {
    use ConversionKind as K;
    if dest == src || dest.is_dynamic() {
        return Some(K::Safe);
    }
    if depth > 8 || *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut kind_of = |dest: &Type, src: &Type| plain_kind_within(dest, src, depth + 1, budget);
    match src.kind() {
        // `convert_union_source`: Safe if every member is, None if none converts.
        TypeKind::Union(members) => {
            let (mut all_safe, mut all_none) = (true, true);
            for member in members.iter() {
                let kind = kind_of(dest, member)?;
                all_safe &= kind == K::Safe;
                all_none &= kind == K::None;
            }
            return Some(if all_safe {
                K::Safe
            } else if all_none {
                K::None
            } else {
                K::Unsafe
            });
        }
        TypeKind::Dynamic | TypeKind::Promise(_) | TypeKind::Set(_) | TypeKind::Enum(_) => {
            return None
        }
        _ => {}
    }
    match dest.kind() {
        // `convert_to_union`: Safe if a member is the source or converts Safe, else the best.
        TypeKind::Union(members) => {
            if members.iter().any(|m| m == src) {
                return Some(K::Safe);
            }
            let mut best = K::None;
            for member in members.iter() {
                match kind_of(member, src)? {
                    K::Safe => return Some(K::Safe),
                    kind => best = best.max(kind),
                }
            }
            return Some(best);
        }
        TypeKind::Output(element) => {
            return match src.kind() {
                TypeKind::Output(u) => kind_of(element, &u.resolve_outputs()),
                _ => kind_of(element, src),
            };
        }
        TypeKind::Promise(_) | TypeKind::Enum(_) | TypeKind::Const(_) => return None,
        _ => {}
    }
    if let TypeKind::Const(c) = src.kind() {
        return kind_of(dest, &c.ty);
    }
    if let (Some(d), Some(s)) = (Primitive::of(dest), Primitive::of(src)) {
        return Some(primitive_kind(d, s));
    }
    // `convert_structured`, for the shapes above; any other pair of them does not convert.
    fn worst(mut parts: impl Iterator<Item = Option<ConversionKind>>) -> Option<ConversionKind> {
        parts.try_fold(ConversionKind::Safe, |acc, kind| Some(acc.min(kind?)))
    }
    match (dest.kind(), src.kind()) {
        (TypeKind::List(e), TypeKind::List(u)) | (TypeKind::Map(e), TypeKind::Map(u)) => {
            kind_of(e, u)
        }
        (TypeKind::List(e), TypeKind::Tuple(us)) => worst(us.iter().map(|u| kind_of(e, u))),
        (TypeKind::Map(e), TypeKind::Object(o)) if !o.is_deferred() => {
            worst(o.properties().iter().map(|(_, u)| kind_of(e, u)))
        }
        (TypeKind::Map(_), TypeKind::Object(_)) => None,
        // `none`, a list or a map, or a primitive, from a structured value; `none`, a list or
        // a map from a primitive.
        (d, s) => {
            let primitive = |k: &TypeKind| {
                matches!(
                    k,
                    TypeKind::Bool | TypeKind::Int | TypeKind::Number | TypeKind::String
                )
            };
            let collection =
                |k: &TypeKind| matches!(k, TypeKind::None | TypeKind::List(_) | TypeKind::Map(_));
            let structured = collection(s)
                || matches!(
                    s,
                    TypeKind::Tuple(_) | TypeKind::Object(_) | TypeKind::Output(_)
                );
            ((collection(d) || primitive(d)) && structured || collection(d) && primitive(s))
                .then_some(K::None)
        }
    }
}

/// The token of the resource whose outputs `ty` holds (a resource variable, or a schema's
/// reference to a resource), if it is one.
fn resource_token(ty: &Type) -> Option<&str> {
    let TypeKind::Object(object) = ty.kind() else {
        return None;
    };
    object.annotations().iter().find_map(|a| match a {
        crate::Annotation::ResourceOutputs(token) => Some(&**token),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ConstValue;

    /// The shortcut for literals answers Safe only where the rules do.
    #[test]
    fn literal_shortcut_agrees_with_the_rules() {
        let literals = [
            Type::string_literal("a"),
            Type::string_literal("1"),
            Type::number_literal("1").unwrap(),
            Type::number_literal("2.5").unwrap(),
            Type::constant(Type::bool(), ConstValue::Bool(true)),
            Type::null_literal(),
        ];
        let primitives = [Type::string(), Type::int(), Type::number(), Type::bool()];
        let mut dests = vec![Type::dynamic(), Type::none(), Type::asset()];
        for p in &primitives {
            dests.push(p.clone());
            dests.push(Type::output(p.clone()));
            dests.push(Type::promise(p.clone()));
            dests.push(Type::optional(p.clone()));
            dests.push(p.input_type());
            dests.push(Type::optional(p.clone()).input_type());
            dests.push(Type::list(p.clone()));
            dests.push(Type::output(Type::optional(p.clone())));
            for q in &primitives {
                dests.push(Type::union([p.clone(), q.clone()]));
                dests.push(Type::union([
                    Type::output(p.clone()),
                    q.clone(),
                    Type::none(),
                ]));
            }
        }
        dests.push(Type::enumeration(
            "pkg:index:Kind",
            Type::string(),
            [ConstValue::String("a".into())],
        ));
        dests.push(Type::string_literal("a"));
        dests.extend(literals.iter().cloned());
        let mut shortcuts = 0;
        for dest in &dests {
            for src in &literals {
                if literal_fits(dest, src) {
                    shortcuts += 1;
                    let by_rules = dest.conversion_by_rules(src);
                    assert_eq!(
                        by_rules,
                        Conversion::safe(),
                        "{} from {}",
                        dest.display_readable(),
                        src.display_readable()
                    );
                }
            }
        }
        assert!(shortcuts > 40, "{shortcuts}");
    }

    /// The kinds found without tables are the rules' kinds, and a Safe one is the rules'
    /// whole answer; over every pair of many types, inside and outside their shapes.
    #[test]
    fn plain_kinds_agree_with_the_rules() {
        let mut bases = vec![
            Type::bool(),
            Type::int(),
            Type::number(),
            Type::string(),
            Type::opaque("id"),
            Type::asset(),
            Type::none(),
            Type::dynamic(),
            Type::string_literal("a"),
            Type::string_literal("1"),
            Type::string_literal("true"),
            Type::number_literal("1").unwrap(),
            Type::number_literal("2.5").unwrap(),
            Type::bool_literal(true),
            Type::null_literal(),
            Type::enumeration(
                "pkg:index:Kind",
                Type::string(),
                [ConstValue::String("a".into())],
            ),
        ];
        bases.push(Type::union([Type::int(), Type::string()]));
        bases.push(Type::union([Type::string_literal("a"), Type::string()]));
        bases.push(Type::union([
            Type::number_literal("1").unwrap(),
            Type::bool(),
        ]));
        let object =
            |t: &Type| Type::object([("a", t.clone()), ("b", Type::optional(Type::int()))]);
        let mut types = Vec::new();
        for b in &bases {
            let shapes = [
                b.clone(),
                Type::optional(b.clone()),
                Type::output(b.clone()),
                Type::output(Type::optional(b.clone())),
                Type::optional(Type::output(b.clone())),
                Type::promise(b.clone()),
                b.input_type(),
                Type::optional(b.clone()).input_type(),
                Type::list(b.clone()),
                Type::map(b.clone()),
                Type::set(b.clone()),
                Type::list(b.clone()).input_type(),
                Type::optional(Type::map(b.clone()).input_type()),
                Type::output(Type::list(b.clone())),
                Type::output(Type::optional(Type::map(b.clone()))),
                Type::tuple([b.clone(), Type::string()]),
                Type::tuple([b.clone()]),
                object(b),
                Type::map(Type::optional(b.clone())),
                Type::list(Type::output(b.clone())),
            ];
            types.extend(shapes);
        }
        types.push(Type::tuple([]));
        types.push(Type::object([("a", Type::string_literal("x"))]));
        types.push(Type::object(Vec::<(&str, Type)>::new()));
        let (mut answered, mut by_kind) = (0, [0; 3]);
        for dest in &types {
            for src in &types {
                let by_rules = dest.conversion_by_rules(src);
                let shown = || {
                    format!(
                        "{} from {}",
                        dest.display_readable(),
                        src.display_readable()
                    )
                };
                assert_eq!(dest.conversion_kind_from(src), by_rules.kind, "{}", shown());
                assert_eq!(dest.conversion_from(src), by_rules, "{}", shown());
                if let Some(kind) = plain_kind(dest, src) {
                    answered += 1;
                    by_kind[kind as usize] += 1;
                }
            }
        }
        assert!(
            answered > 50_000 && by_kind.iter().all(|&n| n > 5_000),
            "{answered} {by_kind:?}"
        );
    }
}
