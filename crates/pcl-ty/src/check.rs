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

/// The result of checking a program: diagnostics per file (files in path order) and the
/// type of each config, local and output (program order).
#[derive(Clone, Debug)]
pub struct ProgramReport {
    pub files: Vec<CheckedFile>,
    pub types: Vec<NodeTypeLine>,
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
    let files = program
        .files(db)
        .iter()
        .map(|&file| CheckedFile {
            path: file.path(db).clone(),
            diagnostics: file_diagnostics(db, ProgramFile::new(db, program, file)).clone(),
        })
        .collect();
    let types = scope
        .nodes
        .iter()
        .filter(|n| {
            matches!(
                n.kind(db),
                NodeKind::Config | NodeKind::Local | NodeKind::Output
            )
        })
        .map(|&n| NodeTypeLine {
            kind: n.kind(db),
            name: n.name(db).to_string(),
            ty: node_type(db, n).display_readable(),
        })
        .collect();
    ProgramReport { files, types }
}

/// Nodes in an order where every node comes after the nodes it refers to (cycles broken
/// arbitrarily), by an iterative depth-first search.
fn dependency_order<'db>(db: &'db dyn pcl_db::Db, nodes: &[Node<'db>]) -> Vec<Node<'db>> {
    let index: FxHashMap<Node<'db>, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut state = vec![0u8; nodes.len()]; // 0 new, 1 open, 2 done
    let mut order = Vec::with_capacity(nodes.len());
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for start in 0..nodes.len() {
        if state[start] != 0 {
            continue;
        }
        stack.push((start, 0));
        state[start] = 1;
        while let Some((v, next)) = stack.last_mut() {
            let v = *v;
            let refs = node_references(db, nodes[v]);
            if let Some(target) = refs.get(*next) {
                *next += 1;
                if let Some(&w) = index.get(target) {
                    if state[w] == 0 {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                }
                continue;
            }
            stack.pop();
            state[v] = 2;
            order.push(nodes[v]);
        }
    }
    order
}
