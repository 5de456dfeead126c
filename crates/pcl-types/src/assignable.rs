//! Type equality (`Equals`) and strict assignability (`AssignableFrom`).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::facts::Facts;
use crate::kinds::{Type, TypeKind};

impl Type {
    /// PCL type equality: structural, ignoring object annotations and strictness; enums
    /// are equal when their tokens are; recursive objects compare equal when every
    /// comparison that does not depend on itself does. A deferred object that has not been
    /// given its properties yet is equal only to itself.
    pub fn equals(&self, other: &Type) -> bool {
        equals(self, other, &mut FxHashSet::default(), &mut None)
    }

    /// Whether `equals` of `self` and `other` compares their parts and may remember the
    /// answer: both of one composite kind.
    pub(crate) fn composite_pair(&self, other: &Type) -> bool {
        composite(self, other)
    }

    /// `dest.assignable_from(src)`: a value of type `src` *is* a value of type `dest`,
    /// without any conversion. Implies that [`Type::conversion_from`] is Safe.
    pub fn assignable_from(&self, src: &Type) -> bool {
        Assignable::default().check(self, src)
    }
}

/// [`Type::equals`], adding to `work` the number of pairs of parts it compared (at least 1).
pub(crate) fn equals_counted(a: &Type, b: &Type, work: &mut usize) -> bool {
    let mut seen = FxHashSet::default();
    let equal = equals(a, b, &mut seen, &mut None);
    *work += 1 + seen.len();
    equal
}

/// Pairs of composite parts (by address) known equal or not, kept across the comparisons of
/// one relation query (see [`equals_remembered`]).
pub(crate) type EqualsMemo = FxHashMap<(usize, usize), bool>;

/// What `equals` may look up and record about pairs of composite parts: only facts.
pub(crate) trait PairMemo {
    /// Whether `a` and `b` are known equal or unequal.
    fn known(&mut self, a: &Type, b: &Type) -> Option<bool>;
    /// `a` and `b` were found unequal.
    fn unequal(&mut self, a: &Type, b: &Type);
}

impl PairMemo for EqualsMemo {
    fn known(&mut self, a: &Type, b: &Type) -> Option<bool> {
        if self.is_empty() {
            return None;
        }
        self.get(&(a.addr(), b.addr())).copied()
    }
    fn unequal(&mut self, a: &Type, b: &Type) {
        self.insert((a.addr(), b.addr()), false);
    }
}

impl PairMemo for Facts<bool> {
    fn known(&mut self, a: &Type, b: &Type) -> Option<bool> {
        self.get(a, b)
    }
    fn unequal(&mut self, a: &Type, b: &Type) {
        self.insert(a, b, false);
    }
}

/// [`Type::equals`] of two types that reach no deferred object, answered from and added to
/// the thread's facts about such types (`facts.rs`): the answer, and every pair of parts found
/// unequal on the way.
pub(crate) fn equals_closed(a: &Type, b: &Type, facts: &mut Facts<bool>) -> bool {
    if let Some(known) = facts.get(a, b) {
        return known;
    }
    let mut seen = FxHashSet::default();
    let equal = equals(a, b, &mut seen, &mut Some(&mut *facts));
    facts.insert(a, b, equal);
    equal
}

/// [`Type::equals`], answered from `memo` where it knows a pair, and adding to it what this
/// comparison found: every pair whose comparison came out unequal (an unequal part makes its
/// whole unequal, whatever was assumed of the pairs being compared, so these are final). Only
/// facts are kept, so the answer is that of `equals`; a relation that
/// compares the parts of the same two types again and again (the parts of a nested list at
/// each level of its conversion) compares each pair once. The caller keeps `a` and `b` alive
/// while `memo` is used: the pairs are parts of them.
pub(crate) fn equals_remembered(a: &Type, b: &Type, memo: &mut EqualsMemo) -> bool {
    // The pair itself is not recorded (the caller remembers its own answers): its parts are.
    if a == b {
        return true;
    }
    if composite(a, b) {
        if let Some(known) = memo.known(a, b) {
            return known;
        }
    }
    crate::on_enough_stack(|| by_kind(a, b, &mut FxHashSet::default(), &mut Some(memo)))
}

/// `seen` holds the pairs of composite parts of the two types met so far (by address; alive
/// while the types are). A pair met again counts as equal: either it is being compared (a
/// recursive type: coinduction) or it was compared already and found equal, since a pair
/// found unequal makes the whole comparison false at once. So each pair is compared once.
/// Both of one composite kind: the pairs `equals` keeps in `seen` (and in a memo).
fn composite(a: &Type, b: &Type) -> bool {
    matches!(
        (a.kind(), b.kind()),
        (TypeKind::List(_), TypeKind::List(_))
            | (TypeKind::Map(_), TypeKind::Map(_))
            | (TypeKind::Set(_), TypeKind::Set(_))
            | (TypeKind::Output(_), TypeKind::Output(_))
            | (TypeKind::Promise(_), TypeKind::Promise(_))
            | (TypeKind::Tuple(_), TypeKind::Tuple(_))
            | (TypeKind::Union(_), TypeKind::Union(_))
            | (TypeKind::Object(_), TypeKind::Object(_))
    )
}

fn equals(
    a: &Type,
    b: &Type,
    seen: &mut FxHashSet<(usize, usize)>,
    memo: &mut Option<&mut dyn PairMemo>,
) -> bool {
    crate::on_enough_stack(|| {
        if a == b {
            return true;
        }
        let composite = composite(a, b);
        if composite && seen.contains(&(a.addr(), b.addr())) {
            return true;
        }
        if let (true, Some(memo)) = (composite, memo.as_deref_mut()) {
            if let Some(known) = memo.known(a, b) {
                return known;
            }
        }
        let equal = by_kind(a, b, seen, memo);
        if let (false, true, Some(memo)) = (equal, composite, memo.as_deref_mut()) {
            memo.unequal(a, b);
        }
        equal
    })
}

fn by_kind(
    a: &Type,
    b: &Type,
    seen: &mut FxHashSet<(usize, usize)>,
    memo: &mut Option<&mut dyn PairMemo>,
) -> bool {
    match (a.kind(), b.kind()) {
        (TypeKind::Opaque(x), TypeKind::Opaque(y)) => x == y,
        (TypeKind::List(x), TypeKind::List(y))
        | (TypeKind::Map(x), TypeKind::Map(y))
        | (TypeKind::Set(x), TypeKind::Set(y))
        | (TypeKind::Output(x), TypeKind::Output(y))
        | (TypeKind::Promise(x), TypeKind::Promise(y)) => {
            seen.insert((a.addr(), b.addr()));
            equals(x, y, seen, memo)
        }
        (TypeKind::Tuple(xs), TypeKind::Tuple(ys)) | (TypeKind::Union(xs), TypeKind::Union(ys)) => {
            seen.insert((a.addr(), b.addr()));
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| equals(x, y, seen, memo))
        }
        (TypeKind::Object(x), TypeKind::Object(y)) => {
            // A deferred object not defined yet (one being built by a transformation) is
            // equal only to itself: its properties are not known.
            if x.is_undefined() || y.is_undefined() {
                return false;
            }
            let (xp, yp) = (x.properties(), y.properties());
            if xp.len() != yp.len() {
                return false;
            }
            seen.insert((a.addr(), b.addr()));
            xp.iter()
                .zip(yp.iter())
                .all(|((kx, tx), (ky, ty))| kx == ky && equals(tx, ty, seen, memo))
        }
        (TypeKind::Const(x), TypeKind::Const(y)) => {
            x.value == y.value && equals(&x.ty, &y.ty, seen, memo)
        }
        (TypeKind::Enum(x), TypeKind::Enum(y)) => x.token == y.token,
        _ => false,
    }
}

/// One assignability query: each `(dest, src)` pair is decided once.
#[derive(Default)]
struct Assignable {
    /// The pairs being checked, by address, with their depth on the stack.
    active: FxHashMap<(usize, usize), usize>,
    /// Pairs decided. `false` is always final (assuming pairs on the stack assignable can only
    /// make more pairs assignable); `true` is kept when it assumed nothing about a pair below
    /// it on the stack.
    memo: FxHashMap<(usize, usize), bool>,
    /// The shallowest stack depth whose pair was assumed assignable while deciding the pairs
    /// above it.
    lowest_assumption: usize,
    /// The types whose addresses key `memo` (some are made during the query, such as the
    /// resolved element of an output), kept alive so that no address is reused.
    pins: Vec<Type>,
}

impl Assignable {
    fn check(&mut self, dest: &Type, src: &Type) -> bool {
        self.lowest_assumption = usize::MAX;
        self.assignable(dest, src)
    }

    fn assignable(&mut self, dest: &Type, src: &Type) -> bool {
        crate::on_enough_stack(|| {
            if dest.is_dynamic() || dest.equals(src) {
                return true;
            }
            // Deviation: a union source is split; every element must be assignable.
            if let TypeKind::Union(elements) = src.kind() {
                return elements.iter().all(|e| self.assignable(dest, e));
            }
            // Wrappers of other types look at the source as it is (so `output("a") <= "a"` and
            // `union("a", "b") <= "a"`); everything else sees a literal as its underlying type.
            let wrapper = matches!(
                dest.kind(),
                TypeKind::Union(_) | TypeKind::Output(_) | TypeKind::Promise(_)
            );
            if let (false, TypeKind::Const(c)) = (wrapper, src.kind()) {
                return self.assignable(dest, &c.ty);
            }
            let pair = (dest.addr(), src.addr());
            if let Some(&known) = self.memo.get(&pair) {
                return known;
            }
            // A pair already on the stack (a recursive type) is assumed assignable.
            if let Some(&depth) = self.active.get(&pair) {
                self.lowest_assumption = self.lowest_assumption.min(depth);
                return true;
            }
            let depth = self.active.len();
            self.active.insert(pair, depth);
            let outer = std::mem::replace(&mut self.lowest_assumption, usize::MAX);
            let result = self.by_kind(dest, src);
            self.active.remove(&pair);
            let inner = self.lowest_assumption;
            if !result || inner >= depth {
                self.pins.push(dest.clone());
                self.pins.push(src.clone());
                self.memo.insert(pair, result);
                self.lowest_assumption = outer;
            } else {
                self.lowest_assumption = outer.min(inner);
            }
            result
        })
    }

    fn by_kind(&mut self, dest: &Type, src: &Type) -> bool {
        match (dest.kind(), src.kind()) {
            (TypeKind::List(e), TypeKind::List(u)) | (TypeKind::Set(e), TypeKind::Set(u)) => {
                self.assignable(e, u)
            }
            (TypeKind::List(e), TypeKind::Tuple(us)) => us.iter().all(|u| self.assignable(e, u)),
            (TypeKind::Map(e), TypeKind::Map(u)) => self.assignable(e, u),
            (TypeKind::Map(e), TypeKind::Object(o)) => {
                o.properties().iter().all(|(_, u)| self.assignable(e, u))
            }
            // Deviation: lengths must match (a conversion between tuples of different lengths
            // does not exist, and assignability must imply a safe conversion).
            (TypeKind::Tuple(ts), TypeKind::Tuple(us)) => {
                ts.len() == us.len() && ts.iter().zip(us.iter()).all(|(t, u)| self.assignable(t, u))
            }
            (TypeKind::Object(d), TypeKind::Object(s)) => d.properties().iter().all(|(key, t)| {
                let u = s.property(key).unwrap_or_else(Type::none);
                self.assignable(t, &u)
            }),
            (TypeKind::Union(ts), _) => ts.iter().any(|t| self.assignable(t, src)),
            (TypeKind::Output(e), TypeKind::Output(u) | TypeKind::Promise(u)) => {
                self.assignable(e, &u.resolve_outputs())
            }
            (TypeKind::Output(e), _) => self.assignable(e, src),
            (TypeKind::Promise(e), TypeKind::Promise(u)) => self.assignable(e, u),
            // An output cannot become a promise, even of `dynamic` (matches conversion).
            (TypeKind::Promise(_), TypeKind::Output(_)) => false,
            (TypeKind::Promise(e), _) => self.assignable(e, src),
            _ => false,
        }
    }
}
