//! Type equality (`Equals`) and strict assignability (`AssignableFrom`).

use rustc_hash::FxHashSet;

use crate::kinds::{Type, TypeKind};

impl Type {
    /// PCL type equality: structural, ignoring object annotations and strictness; enums
    /// are equal when their tokens are; recursive objects compare equal when every
    /// comparison that does not depend on itself does. A deferred object that has not been
    /// given its properties yet is equal only to itself.
    pub fn equals(&self, other: &Type) -> bool {
        equals(self, other, &mut FxHashSet::default())
    }

    /// `dest.assignable_from(src)`: a value of type `src` *is* a value of type `dest`,
    /// without any conversion. Implies that [`Type::conversion_from`] is Safe.
    pub fn assignable_from(&self, src: &Type) -> bool {
        assignable(self, src, &mut FxHashSet::default())
    }
}

/// `seen` holds pairs of addresses of parts of the two types (alive while they are).
fn equals(a: &Type, b: &Type, seen: &mut FxHashSet<(usize, usize)>) -> bool {
    crate::on_enough_stack(|| {
        if a == b {
            return true;
        }
        let all = |xs: &[Type], ys: &[Type], seen: &mut FxHashSet<(usize, usize)>| {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| equals(x, y, seen))
        };
        match (a.kind(), b.kind()) {
            (TypeKind::Opaque(x), TypeKind::Opaque(y)) => x == y,
            (TypeKind::List(x), TypeKind::List(y))
            | (TypeKind::Map(x), TypeKind::Map(y))
            | (TypeKind::Set(x), TypeKind::Set(y))
            | (TypeKind::Output(x), TypeKind::Output(y))
            | (TypeKind::Promise(x), TypeKind::Promise(y)) => equals(x, y, seen),
            (TypeKind::Tuple(xs), TypeKind::Tuple(ys))
            | (TypeKind::Union(xs), TypeKind::Union(ys)) => all(xs, ys, seen),
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
                // A pair already being compared counts as equal (coinduction).
                if !seen.insert((a.addr(), b.addr())) {
                    return true;
                }
                xp.iter()
                    .zip(yp.iter())
                    .all(|((kx, tx), (ky, ty))| kx == ky && equals(tx, ty, seen))
            }
            (TypeKind::Const(x), TypeKind::Const(y)) => {
                x.value == y.value && equals(&x.ty, &y.ty, seen)
            }
            (TypeKind::Enum(x), TypeKind::Enum(y)) => x.token == y.token,
            _ => false,
        }
    })
}

/// `stack` holds the pairs being checked (by address; each is removed before its types
/// can go away).
fn assignable(dest: &Type, src: &Type, stack: &mut FxHashSet<(usize, usize)>) -> bool {
    crate::on_enough_stack(|| {
        if dest.is_dynamic() || dest.equals(src) {
            return true;
        }
        // Deviation: a union source is split; every element must be assignable.
        if let TypeKind::Union(elements) = src.kind() {
            return elements.iter().all(|e| assignable(dest, e, stack));
        }
        // Wrappers of other types look at the source as it is (so `output("a") <= "a"` and
        // `union("a", "b") <= "a"`); everything else sees a literal as its underlying type.
        let wrapper = matches!(
            dest.kind(),
            TypeKind::Union(_) | TypeKind::Output(_) | TypeKind::Promise(_)
        );
        if let (false, TypeKind::Const(c)) = (wrapper, src.kind()) {
            return assignable(dest, &c.ty, stack);
        }
        // A pair already on the stack (a recursive type) is assumed assignable.
        let pair = (dest.addr(), src.addr());
        if !stack.insert(pair) {
            return true;
        }
        let result = assignable_by_kind(dest, src, stack);
        stack.remove(&pair);
        result
    })
}

fn assignable_by_kind(dest: &Type, src: &Type, stack: &mut FxHashSet<(usize, usize)>) -> bool {
    match (dest.kind(), src.kind()) {
        (TypeKind::List(e), TypeKind::List(u)) | (TypeKind::Set(e), TypeKind::Set(u)) => {
            assignable(e, u, stack)
        }
        (TypeKind::List(e), TypeKind::Tuple(us)) => us.iter().all(|u| assignable(e, u, stack)),
        (TypeKind::Map(e), TypeKind::Map(u)) => assignable(e, u, stack),
        (TypeKind::Map(e), TypeKind::Object(o)) => {
            o.properties().iter().all(|(_, u)| assignable(e, u, stack))
        }
        // Deviation: lengths must match (a conversion between tuples of different lengths
        // does not exist, and assignability must imply a safe conversion).
        (TypeKind::Tuple(ts), TypeKind::Tuple(us)) => {
            ts.len() == us.len()
                && ts
                    .iter()
                    .zip(us.iter())
                    .all(|(t, u)| assignable(t, u, stack))
        }
        (TypeKind::Object(d), TypeKind::Object(s)) => d.properties().iter().all(|(key, t)| {
            let u = s.property(key).unwrap_or_else(Type::none);
            assignable(t, &u, stack)
        }),
        (TypeKind::Union(ts), _) => ts.iter().any(|t| assignable(t, src, stack)),
        (TypeKind::Output(e), TypeKind::Output(u) | TypeKind::Promise(u)) => {
            assignable(e, &u.resolve_outputs(), stack)
        }
        (TypeKind::Output(e), _) => assignable(e, src, stack),
        (TypeKind::Promise(e), TypeKind::Promise(u)) => assignable(e, u, stack),
        // An output cannot become a promise, even of `dynamic` (matches conversion).
        (TypeKind::Promise(_), TypeKind::Output(_)) => false,
        (TypeKind::Promise(e), _) => assignable(e, src, stack),
        _ => false,
    }
}
