//! Checking a whole program: the entry point of `pcl check` and of tests.

use std::path::PathBuf;

use rustc_hash::FxHashMap;

use pcl_db::Program;
use pcl_diagnostics::Diagnostic;
use pcl_hir::{program_scope, Node, NodeKind, ProgramFile};

use crate::{file_diagnostics, infer_node, node_references, node_type};

/// One file's diagnostics.
#[derive(Clone, Debug)]
pub struct CheckedFile {
    pub path: PathBuf,
    pub diagnostics: Vec<Diagnostic>,
}

/// `name: type` of one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeTypeLine {
    pub kind: NodeKind,
    pub name: String,
    pub ty: String,
}

/// The result of checking a program: diagnostics per file (files in path order) and, when
/// asked for ([`NodeTypes::Listed`]), the type of each config, local and output (program
/// order).
#[derive(Clone, Debug)]
pub struct ProgramReport {
    pub files: Vec<CheckedFile>,
    pub types: Vec<NodeTypeLine>,
}

/// Whether [`program_report`] prints the type of each node (`pcl check --emit-types`): a
/// check that does not show them does not spend time printing them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeTypes {
    Listed,
    Omitted,
}

impl ProgramReport {
    pub fn error_count(&self) -> usize {
        self.files
            .iter()
            .flat_map(|f| &f.diagnostics)
            .filter(|d| d.is_error())
            .count()
    }

    pub fn warning_count(&self) -> usize {
        self.files
            .iter()
            .flat_map(|f| &f.diagnostics)
            .filter(|d| !d.is_error())
            .count()
    }
}

/// Checks every node of `program`. Nodes are inferred dependencies first, so no query ever
/// recurses into a long chain of references (a local that uses the previous one, 100,000
/// long, costs no stack).
pub fn check_program(db: &dyn pcl_db::Db, program: Program) -> ProgramReport {
    let scope = program_scope(db, program);
    for node in dependency_order(db, &scope.nodes) {
        infer_node(db, node);
        node_type(db, node);
    }
    program_report(db, program, NodeTypes::Listed)
}

/// The report of a program whose nodes were inferred already (by [`infer_program_parallel`]);
/// on any other program it infers nodes as they are needed, recursing through references.
/// `types` says whether it lists the type of each node.
pub fn program_report(db: &dyn pcl_db::Db, program: Program, types: NodeTypes) -> ProgramReport {
    let files: Vec<CheckedFile> = crate::program_diagnostics(db, program)
        .into_iter()
        .map(|(file, diagnostics)| CheckedFile {
            path: file.path(db).clone(),
            diagnostics: diagnostics.to_vec(),
        })
        .collect();
    if types == NodeTypes::Omitted {
        return ProgramReport {
            files,
            types: Vec::new(),
        };
    }
    // Read only when types are listed: every file's list of nodes (with an open file's, which
    // changes with its text).
    let types = program_scope(db, program)
        .nodes
        .iter()
        .filter(|n| {
            !matches!(
                n.kind(db),
                NodeKind::Hook | NodeKind::Pulumi | NodeKind::Package
            )
        })
        .map(|&n| NodeTypeLine {
            kind: n.kind(db),
            name: n.name(db).to_string(),
            ty: crate::infer::one_line_type(&node_type(db, n)),
        })
        .collect();
    ProgramReport { files, types }
}

/// The number of nodes of a program (for progress reporting).
pub fn node_count(db: &dyn pcl_db::Db, program: Program) -> usize {
    program_scope(db, program).nodes.len()
}

/// Infers every node of `program` on all cores, in waves: a node is inferred after every
/// node it refers to, so no query recurses into a chain of references and no two threads
/// wait on each other for long. `progress` is told how many nodes each wave finished.
/// [`check_program`] afterwards only collects the memoized results.
pub fn infer_program_parallel(
    db: &pcl_db::RootDatabase,
    program: Program,
    progress: &(dyn Fn(usize) + Sync),
) {
    use rayon::prelude::*;
    lower_program_parallel(db, program);
    let nodes = &program_scope(db, program).nodes;
    // The reference graph, on all cores; the ordering below only reads it.
    nodes
        .par_chunks(256)
        .for_each_with(db.clone(), |db, chunk| {
            for &node in chunk {
                node_references(db, node);
            }
        });
    let order = dependency_order(db, nodes);
    let index: FxHashMap<Node<'_>, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    // The wave of a node: one more than the latest wave among the nodes it uses (a node
    // of a cycle may see a neighbour not yet placed; cycles are typed dynamic anyway).
    let mut wave = vec![0usize; nodes.len()];
    for node in &order {
        let w = node_references(db, *node)
            .iter()
            .filter_map(|t| index.get(t))
            .map(|&i| wave[i] + 1)
            .max()
            .unwrap_or(0);
        wave[index[node]] = w;
    }
    let waves = wave.iter().copied().max().map_or(0, |w| w + 1);
    let mut by_wave: Vec<Vec<Node<'_>>> = vec![Vec::new(); waves];
    for node in order {
        by_wave[wave[index[&node]]].push(node);
    }
    for nodes in by_wave {
        // Small waves (long chains) are not worth handing to other threads.
        if nodes.len() < 64 {
            for &node in &nodes {
                infer_node(db, node);
                node_type(db, node);
            }
        } else {
            nodes.par_chunks(16).for_each_with(db.clone(), |db, chunk| {
                for &node in chunk {
                    infer_node(db, node);
                    node_type(db, node);
                }
            });
        }
        progress(nodes.len());
    }
    // The edge of each file.
    let files = program.files(db).clone();
    files.par_iter().for_each_with(db.clone(), |db, &file| {
        file_diagnostics(db, ProgramFile::new(db, program, file));
    });
}

/// Parses and lowers every file of `program` on all cores (what [`program_scope`] reads).
pub fn lower_program_parallel(db: &pcl_db::RootDatabase, program: Program) {
    use rayon::prelude::*;
    let files = program.files(db).clone();
    files.par_iter().for_each_with(db.clone(), |db, &file| {
        pcl_hir::file_nodes(db, ProgramFile::new(db, program, file));
    });
}

/// Nodes in an order where every node comes after the nodes it refers to (cycles broken
/// arbitrarily), by an iterative depth-first search.
fn dependency_order<'db>(db: &'db dyn pcl_db::Db, nodes: &[Node<'db>]) -> Vec<Node<'db>> {
    // 1: on the stack, 2: done.
    let mut state: FxHashMap<Node<'db>, u8> = FxHashMap::default();
    state.reserve(nodes.len());
    let mut order = Vec::with_capacity(nodes.len());
    let mut stack: Vec<(Node<'db>, usize)> = Vec::new();
    for &start in nodes {
        if state.contains_key(&start) {
            continue;
        }
        stack.push((start, 0));
        state.insert(start, 1);
        while let Some((v, next)) = stack.last_mut() {
            let v = *v;
            let refs = node_references(db, v);
            if let Some(&target) = refs.get(*next) {
                *next += 1;
                if let std::collections::hash_map::Entry::Vacant(entry) = state.entry(target) {
                    entry.insert(1);
                    stack.push((target, 0));
                }
                continue;
            }
            stack.pop();
            state.insert(v, 2);
            order.push(v);
        }
    }
    order
}

/// Infers `nodes` and every node they use, transitively, dependencies first, so that no
/// query recurses through a long chain of references: what an editor calls before asking
/// about a few nodes of a large program (the work is that of the nodes' dependencies, not
/// of the program).
pub fn infer_nodes<'db>(db: &'db dyn pcl_db::Db, nodes: &[Node<'db>]) {
    for node in dependency_order(db, nodes) {
        infer_node(db, node);
        node_type(db, node);
    }
}
