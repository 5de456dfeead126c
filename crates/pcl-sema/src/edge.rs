//! The edge: position-free problems joined with source maps into ranged diagnostics.
//!
//! This is the only query that reads positions, so it re-runs on every edit of its file; it
//! is a cheap join over memoized results.

use std::sync::Arc;

use pcl_diagnostics::{Code, Diagnostic, TextRange};
use pcl_hir::{
    lower_file, node_of, program_scope, Expr, Node, NodeSourceMap, ProgramFile, Resolution,
};

use crate::{infer_node, InferDiagnostic, Target};

/// Whether the edge of `file` reads the inference of every node of its program: when one of
/// its problems names a package without a usable schema, reported once per program at its
/// first use ([`missing_package_uses`]). A host that asks for the file's diagnostics then
/// infers the program's nodes in dependency order first, as for a check of every file, so
/// that no node is checked recursively through a chain of references.
///
/// A query, so that the nodes' results are read inside one (asked one by one from outside,
/// each fetch paid for attaching the database: 2.5 ms per keystroke at 100,000 resources), and
/// a file nobody has open answers in one step.
#[salsa::tracked(returns(copy))]
pub fn edge_reads_every_node<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> bool {
    let names_package = |node: Node<'db>| {
        infer_node(db, node)
            .diagnostics
            .iter()
            .any(|problem| problem.package.is_some())
    };
    let nodes = pcl_hir::file_nodes(db, file);
    match crate::program::settled_split(db, file) {
        Some((settled, unsettled)) => {
            settled.names_package
                || nodes
                    .iter()
                    .any(|&node| unsettled.contains(&node) && names_package(node))
        }
        None if by_runs(db, file) => {
            (0..run_count(nodes.len())).any(|run| node_run_problems(db, file, run).names_package)
        }
        None => nodes.iter().any(|&node| names_package(node)),
    }
}

/// Nodes per run of a closed file's edge ([`node_run_problems`]).
const EDGE_RUN: usize = 32;

/// Whether the edge of `file` reads its nodes' problems by runs: a file nobody has open, of a
/// program a host keeps facts for (an editor's, where a rename changes the problems of a few
/// nodes of files nobody has open).
fn by_runs(db: &dyn pcl_db::Db, file: ProgramFile<'_>) -> bool {
    !file.file(db).open(db) && crate::facts::keeps_facts_by_name(db, file.program(db))
}

fn run_count(nodes: usize) -> u32 {
    nodes.div_ceil(EDGE_RUN) as u32
}

/// What [`node_run_problems`] finds of a run of nodes.
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
struct NodeRunProblems {
    diagnostics: Vec<Diagnostic>,
    /// Whether one of the nodes' problems names a package without a usable schema.
    names_package: bool,
}

/// The diagnostics of the `run`th run of [`EDGE_RUN`] nodes (in file order) of a file nobody
/// has open. The edge of such a file joins its runs, so that when the problems of a few of its
/// nodes change (the uses of a renamed name), re-checking it reads the nodes of their runs and
/// one result per run, not one per node of the file.
#[salsa::tracked(returns(ref))]
fn node_run_problems<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
    run: u32,
) -> NodeRunProblems {
    let nodes = pcl_hir::file_nodes(db, file);
    let start = (run as usize * EDGE_RUN).min(nodes.len());
    let end = (start + EDGE_RUN).min(nodes.len());
    let mut out = NodeRunProblems::default();
    out.names_package = node_problems(db, file, &nodes[start..end], &mut out.diagnostics);
    out
}

/// Every diagnostic of one file of a program, sorted by position. Shared (`Arc`), so that
/// [`closed_files_diagnostics`] holds them without a copy.
#[salsa::tracked(returns(ref), no_eq)]
pub fn file_diagnostics<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> Arc<[Diagnostic]> {
    let program = file.program(db);
    let lowered = lower_file(db, file);
    // Syntax errors and structural problems.
    let mut out: Vec<Diagnostic> = lowered.diagnostics.clone();
    let split;
    let checked: &[Node<'db>] = match crate::program::settled_split(db, file) {
        // In an open file with item inputs, the nodes the edited items cannot change that
        // have problems come from one `MEDIUM` result, and the others are asked one by one: a
        // keystroke reads a few results, not one per node.
        Some((settled, unsettled)) => {
            split = settled
                .with_problems
                .iter()
                .copied()
                .chain(
                    lowered
                        .nodes
                        .iter()
                        .copied()
                        .filter(|node| unsettled.contains(node)),
                )
                .collect::<Vec<_>>();
            &split
        }
        // A file nobody has open, in a host's program: run by run of nodes (a batch check
        // reads each node once, and the runs would only cost it queries).
        None if by_runs(db, file) => {
            for run in 0..run_count(lowered.nodes.len()) {
                out.extend(node_run_problems(db, file, run).diagnostics.iter().cloned());
            }
            &[]
        }
        None => &lowered.nodes,
    };
    node_problems(db, file, checked, &mut out);
    let this_file = file.file(db);
    for (first_key, duplicate_key) in crate::facts::file_duplicates(db, file) {
        // Two top-level attributes of one file: the syntax layer already reports them.
        if first_key.file == this_file
            && first_key.kind == pcl_hir::NodeKind::Local
            && duplicate_key.kind == pcl_hir::NodeKind::Local
        {
            continue;
        }
        let (Some(first), Some(duplicate)) = (
            node_of(db, program, first_key),
            node_of(db, program, duplicate_key),
        ) else {
            continue;
        };
        let name = duplicate.name(db);
        let mut diagnostic = Diagnostic::new(
            Code::DuplicateName,
            duplicate.source_map(db).name(),
            format!("`{name}` is already declared"),
        );
        let first_range = first.source_map(db).name();
        diagnostic = if first.file(db) == file {
            diagnostic.with_related(first_range, "first declared here")
        } else {
            diagnostic.with_related_in(path_of(db, first), first_range, "first declared here")
        };
        out.push(diagnostic);
    }
    for cycle in &crate::facts::file_cycles(db, file) {
        let nodes: Option<Vec<Node<'db>>> =
            cycle.iter().map(|key| node_of(db, program, key)).collect();
        if let Some(nodes) = nodes {
            out.push(cycle_diagnostic(db, file, &nodes));
        }
    }
    pcl_diagnostics::sort(&mut out);
    // Bytes that were not UTF-8 explain whatever else looks wrong: first, wherever they are.
    if let Some(range) = file.file(db).encoding_error(db) {
        out.insert(
            0,
            pcl_syntax::SyntaxError::invalid_encoding(range).to_diagnostic(),
        );
    }
    out.into()
}

/// The diagnostics of `nodes` of `file` (the problems their inference found), appended to
/// `out` in order; whether one of the problems names a package without a usable schema.
fn node_problems<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
    nodes: &[Node<'db>],
    out: &mut Vec<Diagnostic>,
) -> bool {
    let program = file.program(db);
    let mut names_package = false;
    for &node in nodes {
        let problems = &infer_node(db, node).diagnostics;
        if problems.is_empty() {
            // Most nodes: their source maps are not read (a read per node was a fifth of the
            // edge, and an input every re-check of the file verifies).
            continue;
        }
        let map = node.source_map(db);
        for (index, problem) in problems.iter().enumerate() {
            let mut diagnostic = convert(db, node, &map, problem);
            if let Some(package) = &problem.package {
                names_package = true;
                // Read only by files that use a missing package.
                let uses = missing_package_uses(db, program);
                let Some(first) = uses.first.iter().find(|f| f.package == *package) else {
                    continue;
                };
                if (first.node, first.index) != (node, index) {
                    continue;
                }
                if first.others > 0 {
                    let (uses, verb) = match first.others {
                        1 => ("use of package", "is"),
                        _ => ("uses of package", "are"),
                    };
                    diagnostic = diagnostic.with_help(format!(
                        "{} other {uses} `{package}` {verb} not reported",
                        first.others
                    ));
                }
            }
            out.push(diagnostic);
        }
    }
    names_package
}

/// The diagnostics of every file of `program` that is not open in an editor, in file order:
/// after a keystroke in an open file that changes nothing its program reads of it (see
/// `facts`), this is re-validated in one step, so re-checking every file costs a look at the
/// open files and this, not a look at each file.
#[salsa::tracked(returns(ref), no_eq)]
pub fn closed_files_diagnostics(
    db: &dyn pcl_db::Db,
    program: pcl_db::Program,
) -> Vec<(pcl_db::SourceFile, Arc<[Diagnostic]>)> {
    program
        .files(db)
        .iter()
        .filter(|file| !file.open(db))
        .map(|&file| {
            let diagnostics = file_diagnostics(db, ProgramFile::new(db, program, file));
            (file, diagnostics.clone())
        })
        .collect()
}

/// The diagnostics of every file of `program`, in file order: open files' own, the others
/// through [`closed_files_diagnostics`].
pub fn program_diagnostics(
    db: &dyn pcl_db::Db,
    program: pcl_db::Program,
) -> Vec<(pcl_db::SourceFile, Arc<[Diagnostic]>)> {
    let mut closed = closed_files_diagnostics(db, program).iter().peekable();
    program
        .files(db)
        .iter()
        .map(|&file| match closed.peek() {
            Some((f, diagnostics)) if *f == file => {
                closed.next();
                (file, diagnostics.clone())
            }
            _ => {
                let diagnostics = file_diagnostics(db, ProgramFile::new(db, program, file));
                (file, diagnostics.clone())
            }
        })
        .collect()
}

/// The first use of each package a program cannot load (files in path order, then by
/// position), and how many other uses it has: a missing package is reported once per program,
/// not once per resource, and each file's [`file_diagnostics`] are final.
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub struct MissingPackageUses<'db> {
    pub first: Vec<FirstUse<'db>>,
}

/// Where a missing package is first used: the node and the index of the problem among its
/// [`NodeInference::diagnostics`](crate::NodeInference::diagnostics) (no positions, so this
/// backdates while the uses stay as they are).
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
pub struct FirstUse<'db> {
    pub package: String,
    pub node: Node<'db>,
    pub index: usize,
    /// The number of the program's other uses of the package.
    pub others: usize,
}

#[salsa::tracked(returns(ref))]
pub fn missing_package_uses<'db>(
    db: &'db dyn pcl_db::Db,
    program: pcl_db::Program,
) -> MissingPackageUses<'db> {
    let scope = program_scope(db, program);
    let mut first: Vec<FirstUse<'db>> = Vec::new();
    // Program order: files in path order, nodes in source order, so the first node that uses
    // a package holds its first use.
    for &node in &scope.nodes {
        let diagnostics = &infer_node(db, node).diagnostics;
        let mut in_node: Vec<(&str, usize)> = Vec::new();
        for (index, problem) in diagnostics.iter().enumerate() {
            let Some(package) = problem.package.as_deref() else {
                continue;
            };
            match first.iter_mut().find(|f| f.package == package) {
                Some(seen) if seen.node != node => seen.others += 1,
                Some(seen) => {
                    seen.others += 1;
                    in_node.push((package, index));
                }
                None => {
                    first.push(FirstUse {
                        package: package.to_string(),
                        node,
                        index,
                        others: 0,
                    });
                    in_node.push((package, index));
                }
            }
        }
        // Several uses in one node (rare): the first by position, as the file shows them.
        for entry in first.iter_mut().filter(|f| f.node == node && f.others > 0) {
            let map = node.source_map(db);
            let body = node.body(db);
            let position = |index: usize| {
                let range = target_range(&map, body, &diagnostics[index].target);
                (range.start(), range.end())
            };
            if let Some(&(_, index)) = in_node
                .iter()
                .filter(|(p, _)| *p == entry.package)
                .min_by_key(|(_, index)| position(*index))
            {
                entry.index = index;
            }
        }
    }
    MissingPackageUses { first }
}

fn path_of(db: &dyn pcl_db::Db, node: Node<'_>) -> Arc<str> {
    node.file(db).file(db).path(db).display().to_string().into()
}

const MAX_NAMED: usize = 12;

/// "circular reference: a -> b -> a", at the first node, with each step's reference.
fn cycle_diagnostic<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
    cycle: &[Node<'db>],
) -> Diagnostic {
    let names: Vec<String> = cycle.iter().map(|n| format!("`{}`", n.name(db))).collect();
    let shown = if names.len() > MAX_NAMED {
        let mut shown = names[..MAX_NAMED / 2].to_vec();
        shown.push(format!("... ({} more) ...", names.len() - MAX_NAMED));
        shown.extend(names[names.len() - MAX_NAMED / 2..].iter().cloned());
        shown
    } else {
        names.clone()
    };
    let head = cycle[0];
    let mut diagnostic = Diagnostic::new(
        Code::CircularReference,
        head.source_map(db).name(),
        format!("circular reference: {}", shown.join(" -> ")),
    );
    for pair in cycle.windows(2).take(MAX_NAMED) {
        let (from, to) = (pair[0], pair[1]);
        let Some(range) = reference_range(db, from, to) else {
            continue;
        };
        let message = format!("`{}` refers to `{}` here", from.name(db), to.name(db));
        diagnostic = if from.file(db) == file {
            diagnostic.with_related(range, message)
        } else {
            diagnostic.with_related_in(path_of(db, from), range, message)
        };
    }
    diagnostic.with_help("break the cycle: a node cannot depend on its own value")
}

/// The first expression of `from` that refers to `to`.
fn reference_range<'db>(
    db: &'db dyn pcl_db::Db,
    from: Node<'db>,
    to: Node<'db>,
) -> Option<TextRange> {
    let body = from.body(db);
    let target = to.name(db);
    body.exprs()
        .find(|(_, e)| matches!(e, Expr::Variable { name, resolution: Resolution::Root } if name == target))
        .map(|(id, _)| from.source_map(db).body().expr(id))
}

fn target_range(node_map: &NodeSourceMap, body: &pcl_hir::Body, target: &Target) -> TextRange {
    let map = node_map.body();
    match target {
        Target::Expr(id) => map.expr(*id),
        Target::Accessor { expr, receiver } => {
            let whole = map.expr(*expr);
            let start = map.expr(*receiver).end();
            if whole.contains_inclusive(start) && start < whole.end() {
                TextRange::new(start, whole.end())
            } else {
                whole
            }
        }
        Target::Label(index) => node_map.label(*index).unwrap_or(node_map.name()),
        Target::Name => node_map.name(),
        Target::OpenBrace => node_map.open_brace().unwrap_or(node_map.keyword()),
        Target::AttrName(id) => map.attr_name(*id),
        Target::BlockType(id) => map.block_type(*id),
        Target::CallName(id) => {
            let whole = map.expr(*id);
            match body.expr(*id) {
                Expr::Call(call) => {
                    let len = pcl_diagnostics::TextSize::of(call.name.as_str());
                    TextRange::at(whole.start(), len.min(whole.len()))
                }
                _ => whole,
            }
        }
    }
}

fn convert<'db>(
    db: &'db dyn pcl_db::Db,
    node: Node<'db>,
    map: &NodeSourceMap,
    problem: &InferDiagnostic,
) -> Diagnostic {
    let range = target_range(map, node.body(db), &problem.target);
    let mut diagnostic = Diagnostic::new(problem.code, range, problem.message.clone())
        .with_severity(problem.severity);
    if let Some(help) = &problem.help {
        diagnostic = diagnostic.with_help(help.clone());
    }
    if let Some(name) = &problem.variable_for {
        // As a reader that sees every file as it is (an open file's names included).
        let program = node.file(db).program(db);
        if crate::facts::lookup_root_in(db, program, crate::View::Open, name).is_some() {
            diagnostic = diagnostic.with_help(format!("`{name}` is a variable, not a function"));
        }
    }
    let suggestion = problem
        .suggest_for
        .as_ref()
        .and_then(|name| crate::infer::suggest_variable(db, node, name));
    if let Some(suggestion) = &suggestion {
        diagnostic = diagnostic.with_help(pcl_diagnostics::style::did_you_mean(suggestion));
    }
    let replacements = match (&suggestion, problem.fixes.is_empty()) {
        (Some(suggestion), true) => std::slice::from_ref(suggestion),
        _ => &problem.fixes[..],
    };
    for replacement in replacements {
        diagnostic = diagnostic.with_fix(
            format!("replace with `{replacement}`"),
            range,
            replacement.clone(),
        );
    }
    diagnostic
}
