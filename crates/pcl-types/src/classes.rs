//! Classes of types by structure, so that duplicates among many types are looked for only
//! among types of the same class instead of among all pairs.
//!
//! [`Type::equals`] is bisimilarity: two types are equal when their parts match as far as
//! one can follow them (a recursive type is followed forever). [`structural_classes`]
//! computes it over the graph of parts that the given types reach, the way a finite automaton
//! is minimised: each part gets a label that says what `equals` compares at that part alone
//! (its kind; an object's property names; a literal's value; an enum's token; a tuple's or
//! union's length; an object not defined yet, which is equal only to itself, its address),
//! and two parts are in one class when their labels are the same and their parts, in order,
//! are in the same classes. So two types that are `equals` are always in one class, whatever
//! the types: defined deferred objects are followed like any other object, and the classes
//! are computed anew by each call (an object undefined now may be defined later).
//!
//! Labels are hashes, so two types of one class may still differ (a collision): the caller
//! compares the members of a class with `equals`, and the classes only spare it the pairs of
//! different classes.
//!
//! The cost: the parts that reach no cycle (every part of a type without recursive objects)
//! get their class bottom-up, each part once. The parts that reach a cycle are refined in
//! rounds, each round looking at each of their parts once, until a round splits no class;
//! that takes as many rounds as the deepest part at which two of them first differ (a few, in
//! practice; at worst as many as there are such parts).

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

use crate::kinds::{Type, TypeKind};

/// For each of `types`, in order, a class: two of them that are [`Type::equals`] have the
/// same class (two of the same class are usually, but not always, equal).
pub(crate) fn structural_classes<'a>(types: impl IntoIterator<Item = &'a Type>) -> Vec<u32> {
    let mut graph = Graph::default();
    let roots: Vec<u32> = types.into_iter().map(|t| graph.node(t)).collect();
    graph.expand();
    let classes = graph.classes();
    roots.iter().map(|&r| classes[r as usize]).collect()
}

/// The parts reached from the types asked about: one node per distinct part (by identity),
/// with its label and its parts in order (children in `children[starts[i]..starts[i + 1]]`).
#[derive(Default)]
struct Graph {
    index: FxHashMap<usize, u32>,
    nodes: Vec<Type>,
    labels: Vec<u64>,
    starts: Vec<u32>,
    children: Vec<u32>,
}

impl Graph {
    fn node(&mut self, ty: &Type) -> u32 {
        let next = self.nodes.len() as u32;
        *self.index.entry(ty.addr()).or_insert_with(|| {
            self.nodes.push(ty.clone());
            next
        })
    }

    /// Labels every node and adds its parts, breadth first (without recursion).
    fn expand(&mut self) {
        let mut i = 0;
        let mut parts: Vec<Type> = Vec::new();
        while i < self.nodes.len() {
            let ty = self.nodes[i].clone();
            let label = label(&ty, &mut |part| parts.push(part.clone()));
            self.labels.push(label);
            self.starts.push(self.children.len() as u32);
            for part in parts.drain(..) {
                let child = self.node(&part);
                self.children.push(child);
            }
            i += 1;
        }
        self.starts.push(self.children.len() as u32);
    }

    fn parts(&self, node: usize) -> &[u32] {
        &self.children[self.starts[node] as usize..self.starts[node + 1] as usize]
    }

    /// A class per node, such that nodes whose types are `equals` share it.
    fn classes(&self) -> Vec<u32> {
        let n = self.nodes.len();
        // Bottom-up over the nodes that reach no cycle: a node is settled once all of its
        // parts are (each edge counted once, so a part given twice counts twice).
        let mut waiting: Vec<u32> = (0..n).map(|v| self.parts(v).len() as u32).collect();
        let mut parents_start = vec![0u32; n + 1];
        for &child in &self.children {
            parents_start[child as usize + 1] += 1;
        }
        for v in 0..n {
            parents_start[v + 1] += parents_start[v];
        }
        let mut fill = parents_start.clone();
        let mut parents = vec![0u32; self.children.len()];
        for v in 0..n {
            for &child in self.parts(v) {
                parents[fill[child as usize] as usize] = v as u32;
                fill[child as usize] += 1;
            }
        }
        const UNSET: u32 = u32::MAX;
        let mut class = vec![UNSET; n];
        let mut ids: FxHashMap<Box<[u64]>, u32> = FxHashMap::default();
        let mut key: Vec<u64> = Vec::new();
        let mut ready: Vec<u32> = (0..n as u32)
            .filter(|&v| waiting[v as usize] == 0)
            .collect();
        while let Some(v) = ready.pop() {
            let v = v as usize;
            key.clear();
            key.push(self.labels[v]);
            key.extend(self.parts(v).iter().map(|&c| u64::from(class[c as usize])));
            class[v] = intern(&mut ids, &key);
            for &p in &parents[parents_start[v] as usize..parents_start[v + 1] as usize] {
                waiting[p as usize] -= 1;
                if waiting[p as usize] == 0 {
                    ready.push(p);
                }
            }
        }
        // The rest reach a cycle (so none of them is equal to a node above, whose structure
        // is finite): refined in rounds, from one class for all, until a round splits none.
        let cyclic: Vec<usize> = (0..n).filter(|&v| class[v] == UNSET).collect();
        if cyclic.is_empty() {
            return class;
        }
        let offset = ids.len() as u32;
        let mut round = vec![0u32; n];
        let mut count = 1;
        loop {
            let mut ids: FxHashMap<Box<[u64]>, u32> = FxHashMap::default();
            let mut next = vec![0u32; n];
            for &v in &cyclic {
                key.clear();
                key.push(u64::from(round[v]));
                key.push(self.labels[v]);
                key.extend(self.parts(v).iter().map(|&c| {
                    let c = c as usize;
                    if class[c] == UNSET {
                        (1 << 32) | u64::from(round[c])
                    } else {
                        u64::from(class[c])
                    }
                }));
                next[v] = intern(&mut ids, &key);
            }
            round = next;
            // Each round's classes split the previous round's (the key starts with the
            // previous class): as many classes means the same ones.
            let stable = ids.len() == count;
            count = ids.len();
            if stable {
                break;
            }
        }
        for v in cyclic {
            class[v] = offset + round[v];
        }
        class
    }
}

fn intern(ids: &mut FxHashMap<Box<[u64]>, u32>, key: &[u64]) -> u32 {
    if let Some(&id) = ids.get(key) {
        return id;
    }
    let id = ids.len() as u32;
    ids.insert(key.into(), id);
    id
}

/// What [`Type::equals`] compares at this part alone, as a hash; `part` is called with the
/// parts it then compares, in order. Kept in step with `equals` (`assignable.rs`): types that
/// `equals` may find equal must get the same label and parts that it compares pairwise.
fn label(ty: &Type, part: &mut dyn FnMut(&Type)) -> u64 {
    let mut h = FxHasher::default();
    match ty.kind() {
        TypeKind::Dynamic => 0u8.hash(&mut h),
        TypeKind::None => 1u8.hash(&mut h),
        TypeKind::Bool => 2u8.hash(&mut h),
        TypeKind::Int => 3u8.hash(&mut h),
        TypeKind::Number => 4u8.hash(&mut h),
        TypeKind::String => 5u8.hash(&mut h),
        TypeKind::Opaque(name) => {
            6u8.hash(&mut h);
            name.hash(&mut h);
        }
        TypeKind::List(e) => {
            7u8.hash(&mut h);
            part(e);
        }
        TypeKind::Map(e) => {
            8u8.hash(&mut h);
            part(e);
        }
        TypeKind::Set(e) => {
            9u8.hash(&mut h);
            part(e);
        }
        TypeKind::Output(e) => {
            10u8.hash(&mut h);
            part(e);
        }
        TypeKind::Promise(e) => {
            11u8.hash(&mut h);
            part(e);
        }
        TypeKind::Tuple(es) => {
            12u8.hash(&mut h);
            es.len().hash(&mut h);
            es.iter().for_each(part);
        }
        TypeKind::Union(es) => {
            13u8.hash(&mut h);
            es.len().hash(&mut h);
            es.iter().for_each(part);
        }
        // A deferred object not defined yet is equal only to itself.
        TypeKind::Object(o) if o.is_undefined() => {
            14u8.hash(&mut h);
            ty.addr().hash(&mut h);
        }
        // Structural and deferred objects alike: strictness and annotations do not count.
        TypeKind::Object(o) => {
            15u8.hash(&mut h);
            let properties = o.properties();
            properties.len().hash(&mut h);
            for (name, t) in properties.iter() {
                name.hash(&mut h);
                part(t);
            }
        }
        TypeKind::Const(c) => {
            16u8.hash(&mut h);
            c.value.hash(&mut h);
            part(&c.ty);
        }
        // Enums are equal when their tokens are.
        TypeKind::Enum(e) => {
            17u8.hash(&mut h);
            e.token.hash(&mut h);
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use proptest::prelude::*;

    use super::structural_classes;
    use crate::kinds::{DeferredKey, Type, TypeKind};

    /// A type over a few deferred objects, by index.
    #[derive(Debug, Clone)]
    enum Spec {
        Leaf(u8),
        Deferred(usize),
        List(Box<Spec>),
        Optional(Box<Spec>),
        Union(Vec<Spec>),
        Tuple(Vec<Spec>),
        Object(bool, Option<Box<Spec>>, Option<Box<Spec>>),
    }

    fn spec() -> impl Strategy<Value = Spec> {
        let leaf = prop_oneof![
            (0u8..6).prop_map(Spec::Leaf),
            (0usize..4).prop_map(Spec::Deferred)
        ];
        leaf.prop_recursive(3, 16, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|s| Spec::List(Box::new(s))),
                inner.clone().prop_map(|s| Spec::Optional(Box::new(s))),
                prop::collection::vec(inner.clone(), 1..4).prop_map(Spec::Union),
                prop::collection::vec(inner.clone(), 0..3).prop_map(Spec::Tuple),
                (
                    any::<bool>(),
                    prop::option::of(inner.clone()),
                    prop::option::of(inner)
                )
                    .prop_map(|(strict, a, b)| Spec::Object(
                        strict,
                        a.map(Box::new),
                        b.map(Box::new)
                    )),
            ]
        })
    }

    /// The properties `p` and `q` of a deferred object: often from a few shapes, so that
    /// distinct objects are often equal (directly, or through each other).
    fn definition() -> impl Strategy<Value = (Spec, Spec)> {
        let p = prop_oneof![
            Just(Spec::Leaf(0)),
            (0usize..4).prop_map(Spec::Deferred),
            (0usize..4).prop_map(|i| Spec::Optional(Box::new(Spec::Deferred(i)))),
            prop::collection::vec((0usize..4).prop_map(Spec::Deferred), 2..4).prop_map(Spec::Union),
        ];
        let q = prop_oneof![Just(Spec::Leaf(1)), Just(Spec::Leaf(3))];
        prop_oneof![(p, q), (spec(), spec())]
    }

    fn build(spec: &Spec, objects: &[Type]) -> Type {
        match spec {
            Spec::Leaf(0) => Type::int(),
            Spec::Leaf(1) => Type::string(),
            Spec::Leaf(2) => Type::none(),
            Spec::Leaf(3) => Type::string_literal("a"),
            Spec::Leaf(4) => Type::dynamic(),
            Spec::Leaf(_) => Type::object([("a", Type::int())]),
            Spec::Deferred(i) => objects[*i].clone(),
            Spec::List(s) => Type::list(build(s, objects)),
            Spec::Optional(s) => Type::optional(build(s, objects)),
            Spec::Union(ss) => Type::union(ss.iter().map(|s| build(s, objects))),
            Spec::Tuple(ss) => Type::tuple(ss.iter().map(|s| build(s, objects))),
            Spec::Object(strict, a, b) => {
                let properties = [("a", a), ("b", b)]
                    .into_iter()
                    .filter_map(|(k, s)| Some((k, build(s.as_ref()?, objects))));
                Type::object_with(properties, *strict, vec![])
            }
        }
    }

    /// The union as `Type::union` defines it: sorted by `sort_by`, each element compared with
    /// every element kept.
    fn reference_union(elements: &[Type]) -> Type {
        let mut flat = Vec::new();
        for element in elements {
            flat.extend(element.union_elements().iter().cloned());
        }
        let mut keyed: Vec<_> = flat
            .into_iter()
            .map(|t| (t.union_sort_key().clone(), t))
            .collect();
        let mut memo = rustc_hash::FxHashMap::default();
        keyed.sort_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| {
                if a.0.cut {
                    crate::print::structural_order(&a.1, &b.1, &mut memo)
                } else {
                    std::cmp::Ordering::Equal
                }
            })
        });
        let mut result: Vec<Type> = Vec::new();
        for (_, ty) in keyed {
            if !result.iter().rev().any(|kept| kept.equals(&ty)) {
                result.push(ty);
            }
        }
        match result.len() {
            0 => Type::none(),
            1 => result.pop().expect("one"),
            _ => crate::interner::intern(TypeKind::Union(result.into_boxed_slice())),
        }
    }

    fn fresh_namespace() -> u64 {
        static NEXT: AtomicU64 = AtomicU64::new(3 << 40);
        NEXT.fetch_add(1, Ordering::Relaxed)
    }

    /// Four deferred objects; `before` built while they are undefined; then each defined (or
    /// left undefined) as `definitions` say; then `after` built.
    fn scenario(
        before: &[Spec],
        definitions: &[Option<(Spec, Spec)>],
        after: &[Spec],
    ) -> (Vec<Type>, Vec<Type>) {
        let namespace = fresh_namespace();
        let objects: Vec<Type> = (0..4)
            .map(|i| {
                Type::deferred_object(DeferredKey::new(namespace, format!("T{i}")), true, vec![])
            })
            .collect();
        let mut elements: Vec<Type> = before.iter().map(|s| build(s, &objects)).collect();
        for (object, definition) in objects.iter().zip(definitions) {
            if let Some((p, q)) = definition {
                let properties = [("p", build(p, &objects)), ("q", build(q, &objects))];
                object.define_object(properties).expect("new object");
            }
        }
        elements.extend(after.iter().map(|s| build(s, &objects)));
        (objects, elements)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn equal_types_share_a_class_and_unions_keep_the_same_members(
            before in prop::collection::vec(spec(), 0..6),
            definitions in prop::collection::vec(prop::option::weighted(0.8, definition()), 4),
            after in prop::collection::vec(spec(), 0..6),
        ) {
            let (objects, elements) = scenario(&before, &definitions, &after);
            let mut all: Vec<Type> = objects.clone();
            all.extend(elements.iter().cloned());
            // Their members too: unions hold members built before their objects were defined.
            for element in &elements {
                all.extend(element.union_elements().iter().cloned());
            }
            let classes = structural_classes(&all);
            for (i, a) in all.iter().enumerate() {
                for (j, b) in all.iter().enumerate() {
                    if a.equals(b) {
                        prop_assert_eq!(classes[i], classes[j], "{:?} and {:?}", a, b);
                    }
                }
            }
            let expected = reference_union(&elements);
            prop_assert_eq!(Type::union(elements.iter().cloned()), expected.clone());
            prop_assert_eq!(Type::union_with_budget(elements.iter().cloned(), 0), expected.clone());
            // Each element again with `none`: the shape of `T?` after its objects are defined.
            for element in &elements {
                let pair = [element.clone(), Type::none()];
                prop_assert_eq!(Type::union_with_budget(pair.clone(), 0), reference_union(&pair));
            }
            // Unions of unions: runs merged.
            let nested: Vec<Type> = elements
                .chunks(2)
                .map(|c| Type::union(c.iter().cloned()))
                .collect();
            prop_assert_eq!(Type::union(nested.iter().cloned()), reference_union(&nested));
        }
    }

    #[test]
    fn unions_of_unions_keep_the_first_of_equal_members() {
        // A strict and a loose `{a: int}` are equal and sort alike: the one of the union given
        // first is kept, as a stable sort keeps it first (the members are merged as runs).
        let strict = Type::object_with([("a", Type::int())], true, vec![]);
        let loose = Type::object_with([("a", Type::int())], false, vec![]);
        assert_ne!(strict, loose);
        let first = Type::union([strict.clone(), Type::int(), Type::string()]);
        let second = Type::union([loose.clone(), Type::bool(), Type::number()]);
        for (elements, kept) in [([&first, &second], &strict), ([&second, &first], &loose)] {
            let elements = elements.map(Type::clone);
            let union = Type::union(elements.clone());
            assert_eq!(union, reference_union(&elements));
            assert!(union.union_elements().contains(kept), "{union:?}");
        }
    }

    #[test]
    fn objects_equal_only_through_a_cycle_share_a_class() {
        // `A = {p: A?}` and `B = {p: C?}`, `C = {p: B?}`: all equal, through cycles of different
        // lengths; `D = {p: D?, q: int}` is not.
        let namespace = fresh_namespace();
        let object =
            |name: &str| Type::deferred_object(DeferredKey::new(namespace, name), true, vec![]);
        let (a, b, c, d) = (object("A"), object("B"), object("C"), object("D"));
        a.define_object([("p", Type::optional(a.clone()))])
            .expect("new");
        b.define_object([("p", Type::optional(c.clone()))])
            .expect("new");
        c.define_object([("p", Type::optional(b.clone()))])
            .expect("new");
        d.define_object([("p", Type::optional(d.clone())), ("q", Type::int())])
            .expect("new");
        let plain = Type::object([("p", Type::optional(a.clone()))]);
        let all = [a.clone(), b.clone(), c.clone(), d.clone(), plain];
        let classes = structural_classes(&all);
        assert_eq!(classes[0], classes[1]);
        assert_eq!(classes[0], classes[2]);
        assert_eq!(classes[0], classes[4]);
        assert_ne!(classes[0], classes[3]);
        assert!(a.equals(&b) && all[4].equals(&c) && !a.equals(&d));
    }
}
