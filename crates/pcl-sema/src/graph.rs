//! The dependency graph between nodes: which nodes each node's expressions refer to, and
//! strongly connected components (the cycles are found from the files' summaries, in
//! `facts`).

use rustc_hash::{FxHashMap, FxHashSet};

use pcl_hir::{Body, Expr, ExprId, Name, Node, NodeKind, Resolution, ResourceOption};

/// The nodes whose values `node` uses, in the order first used. Names bound locally (`for`
/// variables, `range`, ...) are not references, unlike in the reference implementation,
/// whose syntactic walk also counts them. Backdates while the set is unchanged, so editing a
/// literal does not re-run the cycle search.
#[salsa::tracked(returns(ref))]
pub fn node_references<'db>(db: &'db dyn pcl_db::Db, node: Node<'db>) -> Vec<Node<'db>> {
    let program = node.file(db).program(db);
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    for_each_root_name(node.kind(db), node.body(db), |name| {
        if let Some(target) = crate::facts::lookup_node(db, program, node.file(db).file(db), name) {
            if seen.insert(target) {
                out.push(target);
            }
        }
    });
    out
}

/// Calls `f` on each top-level name a body uses where it counts as a reference, in order
/// (with repeats): the one walk behind [`node_references`] and the files' summaries
/// ([`crate::file_summary`]).
pub(crate) fn for_each_root_name<'b>(kind: NodeKind, body: &'b Body, mut f: impl FnMut(&'b Name)) {
    for_each_root_use(kind, body, |_, name| f(name));
}

/// Calls `f` on each variable of a body that names a top-level node where it counts as a
/// reference (not in the property paths of `ignoreChanges` and the like), with its name: what
/// an editor's references and rename find, by the rule the reference graph follows.
pub fn for_each_root_use<'b>(kind: NodeKind, body: &'b Body, mut f: impl FnMut(ExprId, &'b Name)) {
    // Each root and every expression below it, depth first, without recursion (bodies can
    // be deep), on one stack for the whole body.
    let mut stack = Vec::new();
    for root in reference_roots(kind, body) {
        stack.push(root);
        while let Some(id) = stack.pop() {
            if let Expr::Variable {
                name,
                resolution: Resolution::Root,
            } = body.expr(id)
            {
                f(id, name);
            }
            body.for_each_child(id, |child| stack.push(child));
        }
    }
}

/// The expressions whose references count: every attribute (except property-path options
/// of resources, in the block their binding reads as the options: the expressions of any
/// other block are inferred, so their names are uses) and the value; not the type label,
/// which is in the type scope.
fn reference_roots(kind: NodeKind, body: &Body) -> Vec<ExprId> {
    let mut roots = Vec::new();
    let options = matches!(kind, NodeKind::Resource | NodeKind::Read)
        .then(|| crate::infer::options_block(body))
        .flatten();
    for attr in &body.attrs {
        if let Some(block) = attr.block {
            if Some(block) == options
                && ResourceOption::from_name(&attr.name)
                    .is_some_and(ResourceOption::takes_property_paths)
            {
                continue;
            }
        }
        roots.push(attr.value);
    }
    roots.extend(body.value);
    roots
}

/// The nodes of a graph, each after the nodes its edges lead to (depth-first post-order,
/// iterative); `None` if it has a cycle.
pub(crate) fn post_order(edges: &[Vec<usize>]) -> Option<Vec<usize>> {
    const NEW: u8 = 0;
    const ON_STACK: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; edges.len()];
    let mut order = Vec::with_capacity(edges.len());
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for start in 0..edges.len() {
        if state[start] != NEW {
            continue;
        }
        state[start] = ON_STACK;
        stack.push((start, 0));
        while let Some((v, next)) = stack.last_mut() {
            let v = *v;
            if let Some(&t) = edges[v].get(*next) {
                *next += 1;
                match state[t] {
                    NEW => {
                        state[t] = ON_STACK;
                        stack.push((t, 0));
                    }
                    ON_STACK => return None,
                    _ => {}
                }
                continue;
            }
            stack.pop();
            state[v] = DONE;
            order.push(v);
        }
    }
    Some(order)
}

/// Tarjan's algorithm, iterative: the strongly connected components of a graph.
pub(crate) fn strongly_connected(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNVISITED: usize = usize::MAX;
    let n = edges.len();
    let mut order = vec![UNVISITED; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut counter = 0;
    // (node, index of the next edge to visit)
    let mut work: Vec<(usize, usize)> = Vec::new();
    for start in 0..n {
        if order[start] != UNVISITED {
            continue;
        }
        work.push((start, 0));
        while let Some(&mut (v, ref mut next)) = work.last_mut() {
            if *next == 0 && order[v] == UNVISITED {
                order[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*next) {
                *next += 1;
                if order[w] == UNVISITED {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                components.push(component);
            }
        }
    }
    components
}

/// A shortest path from `start` back to itself inside its component.
pub(crate) fn cycle_through(start: usize, component: &[usize], edges: &[Vec<usize>]) -> Vec<usize> {
    let inside: FxHashSet<usize> = component.iter().copied().collect();
    let mut previous: FxHashMap<usize, usize> = FxHashMap::default();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in &edges[v] {
            if !inside.contains(&w) {
                continue;
            }
            if w == start {
                // Walk back from v to start, then read the path forwards.
                let mut path = vec![start];
                let mut at = v;
                while at != start {
                    path.push(at);
                    at = previous[&at];
                }
                path.push(start);
                path.reverse();
                return path;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = previous.entry(w) {
                e.insert(v);
                queue.push_back(w);
            }
        }
    }
    vec![start, start]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_and_cycle_paths() {
        // 0 -> 1 -> 2 -> 0, 3 -> 3, 4 -> 0
        let edges = vec![vec![1], vec![2], vec![0], vec![3], vec![0]];
        let mut components: Vec<Vec<usize>> = strongly_connected(&edges)
            .into_iter()
            .map(|mut c| {
                c.sort();
                c
            })
            .collect();
        components.sort();
        assert_eq!(components, vec![vec![0, 1, 2], vec![3], vec![4]]);
        assert_eq!(cycle_through(0, &[0, 1, 2], &edges), vec![0, 1, 2, 0]);
        assert_eq!(cycle_through(3, &[3], &edges), vec![3, 3]);
    }

    #[test]
    fn long_chains_do_not_recurse() {
        let n = 200_000;
        let edges: Vec<Vec<usize>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![0] })
            .collect();
        let components = strongly_connected(&edges);
        assert_eq!(components.len(), 1);
        assert_eq!(cycle_through(0, &components[0], &edges).len(), n + 1);
    }
}
