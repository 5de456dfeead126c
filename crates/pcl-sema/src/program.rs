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
    let plan = plan_waves(db, program);
    run_waves(db, &plan.waves, Asked::InferenceAndType, progress);
    infer_edges(db, program);
}

/// The waves in which [`infer_program_in_order`] infers the nodes of the files of a program that
/// are not open, kept by a host between changes: after a change that left those files as they
/// were (an edit of an open file that other files read, however wide), the reference graph of
/// the program is not searched again (a third of such a re-check at 10,000 resources).
///
/// An order guards against deep recursion (a node checked before what it uses would verify
/// a chain of references recursively), never correctness. A plan is reused only while the
/// edges among those files are the ones it was made from: the same nodes with the same uses
/// (a fingerprint of each file's summary), resolved among the same declarations (no name an
/// open file publishes is declared by one of them too, then or now).
#[derive(Debug)]
pub struct InferencePlan {
    /// The program's files when planned, each with the fingerprint of its summary and the ids
    /// of its nodes (`None`: open, so left out of the plan).
    files: Vec<(pcl_db::SourceFile, Option<PlannedFile>)>,
    /// Each wave's nodes, as (file, position among the file's nodes).
    waves: Vec<Vec<(u32, u32)>>,
    /// The last revision with a change of files on disk (`HIGH`) after which every node of
    /// the plan was inferred in its order: until the next such change, the walk needs to
    /// visit only the nodes whose results may be `MEDIUM` (`crate::facts::medium_closure`).
    walked: std::sync::Mutex<Option<salsa::Revision>>,
}

/// A file of an [`InferencePlan`]: the fingerprint of its summary and the ids of its nodes.
type PlannedFile = (u64, Box<[salsa::Id]>);

/// The plan in which to infer every node of `program` again ([`infer_program_in_order`]):
/// `kept` when it still fits the program, else a new one. Leaves in `kept` the plan to keep
/// (none when one made now could not be reused). A host keeps it before inferring, so that a
/// change that cancels the inference does not cost the next run a new plan (typing while a
/// large program was first checked re-planned on every keystroke and never finished).
pub fn plan_program(
    db: &pcl_db::RootDatabase,
    program: Program,
    kept: &mut Option<std::sync::Arc<InferencePlan>>,
) -> std::sync::Arc<InferencePlan> {
    // A plan is neither reused nor kept while a use in a closed file may mean either of two
    // declarations.
    let shadows = crate::facts::publication_shadows_closed(db, program);
    let plan = match kept.take() {
        Some(plan) if !shadows && plan_fits(db, program, &plan) => plan,
        _ => std::sync::Arc::new(closed_plan(db, program, plan_waves(db, program))),
    };
    if !shadows {
        *kept = Some(plan.clone());
    }
    plan
}

/// Infers every node of `program` as [`infer_program_parallel`] does, the files nobody has
/// open in the order of `plan` (from [`plan_program`]). The open files' nodes are inferred
/// last, dependencies first (their readers in other files read what their host published, not
/// their inference).
pub fn infer_program_in_order(db: &pcl_db::RootDatabase, program: Program, plan: &InferencePlan) {
    let high = db.last_changed(salsa::Durability::HIGH);
    let walked = || *plan.walked.lock().unwrap_or_else(|e| e.into_inner());
    // After keystrokes only (however wide what they published), the nodes whose results are
    // still `HIGH` are valid as they are: walk the others only, in the plan's order. Not when
    // a result of a closed file may read an open file's text (`LOW`).
    let only = (walked() == Some(high)
        && crate::facts::closed_files_read_open_only_through_publications(db, program))
    .then(|| crate::facts::medium_closure(db, program))
    .flatten();
    let waves = plan_nodes(db, program, plan, only.as_ref());
    run_waves(db, &waves, Asked::Inference, &|_| {});
    if only.is_none() {
        if crate::facts::keeps_facts_by_name(db, program) {
            // Built now, in the walk after a wide change, rather than on the next keystroke.
            crate::facts::closed_uses(db, program);
        }
        *plan.walked.lock().unwrap_or_else(|e| e.into_inner()) = Some(high);
    }
    // The waves verified every node of the closed files, in order, just now.
    for &file in program.files(db) {
        if file.open(db) {
            crate::infer_nodes_with(
                db,
                pcl_hir::file_nodes(db, ProgramFile::new(db, program, file)),
                Settled::ClosedFiles,
            );
        }
    }
    infer_edges(db, program);
}

/// Whether `plan` still orders the nodes of `program`'s files that are not open, with the
/// edges it was made from (the caller has checked that no publication shadows them).
fn plan_fits(db: &dyn pcl_db::Db, program: Program, plan: &InferencePlan) -> bool {
    use salsa::plumbing::AsId;
    let files = program.files(db);
    files.len() == plan.files.len()
        && files
            .iter()
            .zip(&plan.files)
            .all(|(&file, (planned, closed))| {
                let pf = ProgramFile::new(db, program, file);
                file == *planned
                    && match closed {
                        None => file.open(db),
                        Some((fingerprint, ids)) => {
                            !file.open(db)
                                && crate::facts::summary_fingerprint(db, pf) == *fingerprint
                                && pcl_hir::file_nodes(db, pf)
                                    .iter()
                                    .map(|n| n.as_id())
                                    .eq(ids.iter().copied())
                        }
                    }
            })
}

/// The waves of a plan as nodes (the plan fits the program), all of them or those `only`
/// names (as positions).
fn plan_nodes<'db>(
    db: &'db dyn pcl_db::Db,
    program: Program,
    plan: &InferencePlan,
    only: Option<&rustc_hash::FxHashSet<(u32, u32)>>,
) -> Vec<Vec<Node<'db>>> {
    let nodes: Vec<&[Node<'db>]> = program
        .files(db)
        .iter()
        .map(|&file| pcl_hir::file_nodes(db, ProgramFile::new(db, program, file)).as_slice())
        .collect();
    plan.waves
        .iter()
        .map(|wave| {
            wave.iter()
                .filter(|place| only.is_none_or(|only| only.contains(place)))
                .map(|&(f, i)| nodes[f as usize][i as usize])
                .collect()
        })
        .filter(|wave: &Vec<Node<'db>>| !wave.is_empty())
        .collect()
}

/// A plan of the waves of the nodes of the files not open.
fn closed_plan(db: &dyn pcl_db::Db, program: Program, waves: Waves<'_>) -> InferencePlan {
    use salsa::plumbing::AsId;
    let mut files = Vec::new();
    let mut place: FxHashMap<Node<'_>, (u32, u32)> = FxHashMap::default();
    for (f, &file) in program.files(db).iter().enumerate() {
        if file.open(db) {
            files.push((file, None));
            continue;
        }
        let pf = ProgramFile::new(db, program, file);
        let nodes = pcl_hir::file_nodes(db, pf);
        for (i, &node) in nodes.iter().enumerate() {
            place.insert(node, (f as u32, i as u32));
        }
        let ids = nodes.iter().map(|n| n.as_id()).collect();
        files.push((file, Some((crate::facts::summary_fingerprint(db, pf), ids))));
    }
    let waves = waves
        .waves
        .iter()
        .map(|wave| wave.iter().filter_map(|n| place.get(n).copied()).collect())
        .filter(|wave: &Vec<(u32, u32)>| !wave.is_empty())
        .collect();
    InferencePlan {
        files,
        waves,
        walked: std::sync::Mutex::new(None),
    }
}

/// Nodes in waves: each node after every node it refers to.
struct Waves<'db> {
    waves: Vec<Vec<Node<'db>>>,
}

/// Lowers every file, then orders the reference graph in waves: the graph of the files'
/// summaries (the names each node uses, as the index resolves them), which the check reads
/// anyway; when it has a cycle, each node's references (on all cores). The waves decide only
/// the order of inference, never its results.
fn plan_waves(db: &pcl_db::RootDatabase, program: Program) -> Waves<'_> {
    use rayon::prelude::*;
    lower_program_parallel(db, program);
    let nodes = &program_scope(db, program).nodes;
    if let Some(waves) = summary_waves(db, program, nodes) {
        return waves;
    }
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
    let count = wave.iter().copied().max().map_or(0, |w| w + 1);
    let mut waves: Vec<Vec<Node<'_>>> = vec![Vec::new(); count];
    for node in order {
        waves[wave[index[&node]]].push(node);
    }
    Waves { waves }
}

/// [`plan_waves`] from the files' own summaries, which list the nodes of `file_nodes` in
/// order; `None` when the graph has a cycle (or the summaries do not match the nodes).
fn summary_waves<'db>(
    db: &'db pcl_db::RootDatabase,
    program: Program,
    nodes: &[Node<'db>],
) -> Option<Waves<'db>> {
    use rayon::prelude::*;
    // On all cores, as lowering was.
    program
        .files(db)
        .par_iter()
        .for_each_with(db.clone(), |db, &file| {
            crate::file_summary(db, ProgramFile::new(db, program, file));
        });
    let mut summaries: Vec<&crate::SummaryNode> = Vec::with_capacity(nodes.len());
    for &file in program.files(db) {
        let pf = ProgramFile::new(db, program, file);
        summaries.extend(&crate::file_summary(db, pf).nodes);
    }
    if summaries.len() != nodes.len() {
        return None;
    }
    let edges = crate::facts::FirstOfName::new(&summaries).edges(&summaries);
    let order = crate::graph::post_order(&edges)?;
    let mut wave = vec![0usize; nodes.len()];
    for &i in &order {
        wave[i] = edges[i].iter().map(|&t| wave[t] + 1).max().unwrap_or(0);
    }
    let count = wave.iter().copied().max().map_or(0, |w| w + 1);
    let mut waves: Vec<Vec<Node<'db>>> = vec![Vec::new(); count];
    for i in order {
        waves[wave[i]].push(nodes[i]);
    }
    Some(Waves { waves })
}

/// What [`run_waves`] asks of each node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// Its inference and its type (a first check: the type is computed while the inference is
    /// at hand).
    InferenceAndType,
    /// Its inference (a re-check: a node's type is re-validated by the inference of a node
    /// that uses it, one wave later and without recursion, and never for a node nobody uses).
    Inference,
}

/// Infers the nodes wave by wave, each wave on all cores.
fn run_waves<'db>(
    db: &'db pcl_db::RootDatabase,
    waves: &[Vec<Node<'db>>],
    asked: Asked,
    progress: &(dyn Fn(usize) + Sync),
) {
    use rayon::prelude::*;
    let run = |db: &pcl_db::RootDatabase, node: Node<'_>| {
        infer_node(db, node);
        if asked == Asked::InferenceAndType {
            node_type(db, node);
        }
    };
    for nodes in waves {
        // Small waves (long chains) are not worth handing to other threads.
        if nodes.len() < 64 {
            for &node in nodes {
                run(db, node);
            }
        } else {
            nodes.par_chunks(16).for_each_with(db.clone(), |db, chunk| {
                for &node in chunk {
                    run(db, node);
                }
            });
        }
        progress(nodes.len());
    }
}

/// The edge of each file, on all cores.
fn infer_edges(db: &pcl_db::RootDatabase, program: Program) {
    use rayon::prelude::*;
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
    // The vectors each thread kept for its next file's tree go, now that no file is left
    // (a few megabytes per thread, through the rest of the check).
    rayon::broadcast(|_| pcl_hir::release_lowering_buffers());
    pcl_hir::release_lowering_buffers();
}

/// What [`infer_nodes_with`] may take as done, and so not walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// Nothing: every node used is walked.
    Nothing,
    /// The nodes of the files nobody has open: every one of them was inferred in dependency
    /// order since the last change to anything they read (what a host knows, after its check
    /// of every file, until a change other than keystrokes in open files that publish nothing),
    /// so their results are valid as they are and no query recurses through them.
    ClosedFiles,
}

/// Nodes in an order where every node comes after the nodes it refers to (cycles broken
/// arbitrarily), by an iterative depth-first search.
fn dependency_order<'db>(db: &'db dyn pcl_db::Db, nodes: &[Node<'db>]) -> Vec<Node<'db>> {
    reached_in_post_order(nodes, |node| node_references(db, node).as_slice())
}

/// The nodes reached from `starts` through `uses`, each after the nodes it uses (cycles
/// broken arbitrarily): an iterative depth-first search, since chains of references can be
/// long, that asks each node for its uses once and only when it reaches it (unlike
/// `graph::post_order`, which orders a whole graph given by index and fails on a cycle).
fn reached_in_post_order<'db>(
    starts: &[Node<'db>],
    mut uses: impl FnMut(Node<'db>) -> &'db [Node<'db>],
) -> Vec<Node<'db>> {
    // 1: on the stack, 2: done.
    let mut state: FxHashMap<Node<'db>, u8> = FxHashMap::default();
    state.reserve(starts.len());
    let mut order = Vec::with_capacity(starts.len());
    let mut stack: Vec<(Node<'db>, &'db [Node<'db>], usize)> = Vec::new();
    for &start in starts {
        if state.contains_key(&start) {
            continue;
        }
        state.insert(start, 1);
        stack.push((start, uses(start), 0));
        while let Some((v, targets, next)) = stack.last_mut() {
            if let Some(&target) = targets.get(*next) {
                *next += 1;
                if let std::collections::hash_map::Entry::Vacant(entry) = state.entry(target) {
                    entry.insert(1);
                    stack.push((target, uses(target), 0));
                }
                continue;
            }
            let v = *v;
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
    infer_nodes_with(db, nodes, Settled::Nothing);
}

/// [`infer_nodes`], walking only what `settled` does not say is done: after a keystroke in
/// an open file, the nodes of that file and of the other open files, not every node of the
/// program they use (the walk of a file late in a generated program of 100,000 resources
/// went through most of the program, 35 ms per keystroke).
///
/// With [`Settled::ClosedFiles`], the walk follows the open files' reference graphs kept
/// between keystrokes ([`open_file_graph`]), and for each open file among `nodes` it is the
/// walk from all of that file's nodes, done once per revision ([`open_file_inferred`]): the
/// edited file's diagnostics, hover, completion and inlay hints share it.
pub fn infer_nodes_with<'db>(db: &'db dyn pcl_db::Db, nodes: &[Node<'db>], settled: Settled) {
    if settled == Settled::ClosedFiles {
        let mut files: FxHashMap<ProgramFile<'db>, bool> = FxHashMap::default();
        let mut open: Vec<ProgramFile<'db>> = Vec::new();
        for &node in nodes {
            let file = node.file(db);
            let is_open = *files
                .entry(file)
                .or_insert_with_key(|file| file.file(db).open(db));
            if is_open && !open.contains(&file) {
                open.push(file);
            }
        }
        for file in open {
            open_file_inferred(db, file);
        }
        return;
    }
    for node in dependency_order(db, nodes) {
        infer_node(db, node);
        node_type(db, node);
    }
}

/// Infers the closed nodes of `program` whose results may read a name's slot written at
/// `MEDIUM` since the last wide change (`facts::medium_closure`), and the nodes of open files
/// they use, dependencies first, taking every other closed node as done: what makes the closed
/// files' results valid again after a publication that wrote `MEDIUM` inputs only, when they
/// were before it (every other closed result is `HIGH`, and no `HIGH` input changed). A
/// depth-first search that stops at the closed nodes outside the closure. `false` (nothing
/// walked) when the program does not keep its facts by name, or a closed result may read an
/// open file's text.
pub(crate) fn infer_medium_closure(db: &pcl_db::RootDatabase, program: Program) -> bool {
    if !crate::facts::closed_files_read_open_only_through_publications(db, program) {
        return false;
    }
    let Some(places) = crate::facts::medium_closure(db, program) else {
        return false;
    };
    let files = program.files(db);
    let mut closure: rustc_hash::FxHashSet<Node<'_>> = rustc_hash::FxHashSet::default();
    for &(file, at) in &places {
        let nodes = pcl_hir::file_nodes(db, ProgramFile::new(db, program, files[file as usize]));
        if let Some(&node) = nodes.get(at as usize) {
            closure.insert(node);
        }
    }
    let mut starts: Vec<Node<'_>> = closure.iter().copied().collect();
    // Any order of the starts gives a dependency order; a fixed one gives the same walk
    // every time.
    starts.sort_by_key(salsa::plumbing::AsId::as_id);
    let mut open: FxHashMap<ProgramFile<'_>, bool> = FxHashMap::default();
    let order = reached_in_post_order(&starts, |node| {
        let in_open_file = *open
            .entry(node.file(db))
            .or_insert_with_key(|file| file.file(db).open(db));
        if in_open_file || closure.contains(&node) {
            node_references(db, node).as_slice()
        } else {
            &[]
        }
    });
    for node in order {
        infer_node(db, node);
        node_type(db, node);
    }
    true
}

/// Infers the nodes of an open file and the open files' nodes they use, dependencies first
/// ([`open_order_from`]), taking the closed files' nodes as done ([`Settled::ClosedFiles`]).
/// A query, so that its edges are re-validated in that order (no recursion through a chain)
/// and the walk is done once per revision however many requests ask for it. It reads each
/// node's type only (which reads its inference, but for nodes typed `dynamic` by kind or
/// cycle, whose inference reads only types the walk verified before): a keystroke that
/// changes a node's inference but not its type re-validates the walk without running it.
#[salsa::tracked]
fn open_file_inferred<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) {
    let nodes = pcl_hir::file_nodes(db, file);
    // Once the open files have item inputs: the settled parts, then the nodes the edited
    // items can change (a few results to re-validate after a keystroke, not one per node).
    if infer_unsettled(db, file.program(db), nodes) {
        return;
    }
    for node in open_order_from(db, nodes) {
        node_type(db, node);
    }
}

/// The nodes of open files reached from `starts` (nodes of open files) through the open
/// files' reference graphs ([`open_file_graph`]), each after the nodes it uses (cycles
/// broken arbitrarily): an iterative depth-first search, since chains can be long. Reads the
/// graphs of the files it reaches only, so typing in a small file beside a large open one
/// costs the small one.
pub(crate) fn open_order_from<'db>(
    db: &'db dyn pcl_db::Db,
    starts: &[Node<'db>],
) -> Vec<Node<'db>> {
    open_order_within(db, starts, |_| true)
}

/// [`open_order_from`], following the uses of the nodes `expand` admits only (the others
/// are in the order, as nodes reached, but not walked through).
fn open_order_within<'db>(
    db: &'db dyn pcl_db::Db,
    starts: &[Node<'db>],
    expand: impl Fn(Node<'db>) -> bool,
) -> Vec<Node<'db>> {
    // Most nodes a walk reaches are in the file of the node before: its graph is tried
    // first, without asking for the node's file and that file's graph again.
    let mut last: Option<&'db OpenFileGraph<'db>> = None;
    let uses = |node: Node<'db>| -> &'db [Node<'db>] {
        if !expand(node) {
            return &[];
        }
        if let Some(uses) = last.and_then(|graph| graph.uses_of(node)) {
            return uses;
        }
        let graph = open_file_graph(db, node.file(db));
        last = Some(graph);
        graph.uses_of(node).unwrap_or(&[])
    };
    reached_in_post_order(starts, uses)
}

/// The nodes of open files that each node of an open file uses, found from the file's
/// summary: backdates on every keystroke that changes no name a node defines or uses, so the
/// walks after it follow it without asking each node for its references. The shape of both
/// [`open_file_graph`] (every node of the file) and [`settled_graph`] (the nodes of the items
/// the user is not editing).
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub(crate) struct OpenFileGraph<'db> {
    /// The nodes, in file order.
    nodes: Vec<Node<'db>>,
    index: FxHashMap<Node<'db>, u32>,
    /// The nodes each node uses: `targets[ends[i - 1]..ends[i]]`.
    targets: Vec<Node<'db>>,
    ends: Vec<u32>,
}

impl<'db> OpenFileGraph<'db> {
    fn new(nodes: Vec<Node<'db>>, targets: Vec<Node<'db>>, ends: Vec<u32>) -> Self {
        debug_assert_eq!(ends.len(), nodes.len());
        OpenFileGraph {
            index: nodes
                .iter()
                .enumerate()
                .map(|(i, &n)| (n, i as u32))
                .collect(),
            nodes,
            targets,
            ends,
        }
    }

    fn uses(&self, i: usize) -> &[Node<'db>] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.targets[start..self.ends[i] as usize]
    }

    fn uses_of(&self, node: Node<'db>) -> Option<&[Node<'db>]> {
        self.index.get(&node).map(|&i| self.uses(i as usize))
    }
}

#[salsa::tracked(returns(ref))]
fn open_file_graph<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> OpenFileGraph<'db> {
    let nodes = pcl_hir::file_nodes(db, file);
    let mut targets: Vec<Node<'db>> = Vec::new();
    let mut ends: Vec<u32> = Vec::with_capacity(nodes.len());
    let mut resolver = OpenTargets::new(db, file.program(db));
    match crate::facts::item_summary_nodes(db, file) {
        // An open file with item inputs: the targets of the items the user is not editing
        // found in one `MEDIUM` query, so that a keystroke verifies this by reading a few
        // results.
        Some(items) => {
            let settled = settled_graph(db, file);
            let mut settled_at = 0;
            for (edited, node) in items {
                if edited {
                    resolver.targets(&node.uses, &mut targets);
                } else {
                    targets.extend_from_slice(settled.uses(settled_at));
                    settled_at += 1;
                }
                ends.push(targets.len() as u32);
            }
        }
        None => {
            for node in &crate::file_summary(db, file).nodes {
                resolver.targets(&node.uses, &mut targets);
                ends.push(targets.len() as u32);
            }
        }
    }
    OpenFileGraph::new(nodes.clone(), targets, ends)
}

/// [`open_file_graph`] of the items of an open file the user is not editing: `MEDIUM`, so a
/// keystroke in the edited items reads it in one step, and what is gathered over those items
/// (their inference: [`settled_inference`]) walks it.
#[salsa::tracked(returns(ref))]
fn settled_graph<'db>(db: &'db dyn pcl_db::Db, file: ProgramFile<'db>) -> OpenFileGraph<'db> {
    let nodes: Vec<Node<'db>> = pcl_hir::settled_item_nodes(db, file).collect();
    let mut resolver = OpenTargets::new(db, file.program(db));
    let mut targets = Vec::new();
    let mut ends = Vec::with_capacity(nodes.len());
    for node in crate::facts::settled_summary_nodes(db, file) {
        resolver.targets(&node.uses, &mut targets);
        ends.push(targets.len() as u32);
    }
    OpenFileGraph::new(nodes, targets, ends)
}

/// The nodes of the open files of `program` that the items changed since their files opened
/// can change: the items' own nodes and every node that uses one, directly or through others,
/// by the open files' settled graphs. `MEDIUM`: it changes when the user moves to other items. `None`
/// when an open file of the program has no item inputs (its first publication, a file of
/// two programs): every open node is then walked as one.
#[salsa::tracked(returns(ref))]
pub(crate) fn unsettled_nodes<'db>(
    db: &'db dyn pcl_db::Db,
    program: Program,
) -> Option<rustc_hash::FxHashSet<Node<'db>>> {
    let mut stack: Vec<Node<'db>> = Vec::new();
    for &file in program.files(db) {
        if !file.open(db) {
            continue;
        }
        let pf = ProgramFile::new(db, program, file);
        pcl_hir::items_of(db, pf)?;
        // The items changed since the file opened, not only those being edited: what uses
        // one of them stays `LOW` once it ran while the item was (see
        // `EditingItems::changed`).
        let editing = pcl_hir::editing_items(db, file);
        stack.extend(
            editing
                .changed()
                .filter(|&item| item.live(db))
                .filter_map(|item| pcl_hir::item_node(db, item)),
        );
    }
    let users = &settled_users(db, program).users;
    let mut unsettled = rustc_hash::FxHashSet::default();
    while let Some(node) = stack.pop() {
        if unsettled.insert(node) {
            stack.extend(users.get(&node).into_iter().flatten().copied());
        }
    }
    Some(unsettled)
}

/// What [`settled_users`] finds: each node's users.
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub(crate) struct SettledUsers<'db> {
    users: FxHashMap<Node<'db>, Vec<Node<'db>>>,
}

/// Who uses each node, by the settled graphs of `program`'s open files with item inputs:
/// what [`unsettled_nodes`] follows from the items changed since their files opened. A query
/// of its own, so that an item added or renamed, which changes those items but no settled
/// graph, costs a walk from them, not the graphs gathered again.
#[salsa::tracked(returns(ref))]
fn settled_users<'db>(db: &'db dyn pcl_db::Db, program: Program) -> SettledUsers<'db> {
    let mut users: FxHashMap<Node<'db>, Vec<Node<'db>>> = FxHashMap::default();
    for &file in program.files(db) {
        if !file.open(db) {
            continue;
        }
        // Not whether the file has item inputs (its item list changes with every item added):
        // the settled graph of a file without them is empty.
        let graph = settled_graph(db, ProgramFile::new(db, program, file));
        for (i, &node) in graph.nodes.iter().enumerate() {
            for &target in graph.uses(i) {
                users.entry(target).or_default().push(node);
            }
        }
    }
    SettledUsers { users }
}

/// Which nodes of `file`'s settled graph are unsettled ([`unsettled_nodes`]), in the graph's
/// order (`None` as `unsettled_nodes` is): what [`settled_inference`] reads of them, so that
/// an item added, or renamed, that no settled node uses leaves it valid.
#[salsa::tracked(returns(ref))]
fn unsettled_in_settled_graph<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
) -> Option<Vec<bool>> {
    let unsettled = unsettled_nodes(db, file.program(db)).as_ref()?;
    Some(
        settled_graph(db, file)
            .nodes
            .iter()
            .map(|node| unsettled.contains(node))
            .collect(),
    )
}

/// What inference found of the nodes of an open file that the items being edited cannot
/// change (not [`unsettled_nodes`]): `MEDIUM`, so that a keystroke in the edited items reads
/// one result for them. It types them, and the open files' nodes they use, dependencies first
/// (their settled graphs: a node they reach cannot be unsettled, or they would be).
#[derive(Debug, Default, PartialEq, Eq, salsa::SalsaValue)]
pub(crate) struct SettledInference<'db> {
    /// Those of the nodes with problems, in file order.
    pub(crate) with_problems: Vec<Node<'db>>,
    /// Whether one of those problems names a package without a usable schema.
    pub(crate) names_package: bool,
    /// The types of the file's settled graph's nodes, in its order (`None` for an unsettled
    /// one).
    types: Vec<Option<SettledType>>,
}

impl<'db> SettledInference<'db> {
    /// The type of `node`, if it is one of the nodes of `file` this typed.
    pub(crate) fn type_of(
        &self,
        db: &'db dyn pcl_db::Db,
        file: ProgramFile<'db>,
        node: Node<'db>,
    ) -> Option<&crate::Type> {
        let at = *settled_graph(db, file).index.get(&node)?;
        Some(&self.types.get(at as usize)?.as_ref()?.0)
    }
}

/// A node's type in [`SettledInference`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SettledType(pub(crate) crate::Type);

// SAFETY: a type is plain data (interned handles, names), no database-lifetime reference.
unsafe impl salsa::SalsaValue for SettledType {}

#[salsa::tracked(returns(ref))]
pub(crate) fn settled_inference<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
) -> SettledInference<'db> {
    let Some(unsettled) = unsettled_in_settled_graph(db, file) else {
        return SettledInference::default();
    };
    let graph = settled_graph(db, file);
    let starts: Vec<Node<'db>> = graph
        .nodes
        .iter()
        .zip(unsettled)
        .filter(|(_, &unsettled)| !unsettled)
        .map(|(&node, _)| node)
        .collect();
    let mut last: Option<(ProgramFile<'db>, &'db OpenFileGraph<'db>)> = Some((file, graph));
    let order = reached_in_post_order(&starts, |node| {
        let file = node.file(db);
        let graph = match last {
            Some((f, g)) if f == file => g,
            _ => {
                let g = settled_graph(db, file);
                last = Some((file, g));
                g
            }
        };
        graph.uses_of(node).unwrap_or(&[])
    });
    for node in order {
        node_type(db, node);
    }
    let mut out = SettledInference {
        types: Vec::with_capacity(graph.nodes.len()),
        ..SettledInference::default()
    };
    for (&node, &unsettled) in graph.nodes.iter().zip(unsettled) {
        if unsettled {
            out.types.push(None);
            continue;
        }
        let problems = &infer_node(db, node).diagnostics;
        if !problems.is_empty() {
            out.with_problems.push(node);
            out.names_package |= problems.iter().any(|p| p.package.is_some());
        }
        out.types.push(Some(SettledType(node_type(db, node))));
    }
    out
}

/// For an open file with item inputs: what inference found of its settled nodes, and the
/// program's unsettled nodes (the others of the file, which a reader asks about one by one).
pub(crate) fn settled_split<'db>(
    db: &'db dyn pcl_db::Db,
    file: ProgramFile<'db>,
) -> Option<(
    &'db SettledInference<'db>,
    &'db rustc_hash::FxHashSet<Node<'db>>,
)> {
    if !file.file(db).open(db) || pcl_hir::items_of(db, file).is_none() {
        return None;
    }
    let unsettled = unsettled_nodes(db, file.program(db)).as_ref()?;
    Some((settled_inference(db, file), unsettled))
}

/// Types the nodes of open files among `starts` that [`unsettled_nodes`] holds, and the
/// unsettled nodes they use, dependencies first, after every open file's settled part
/// ([`settled_inference`]): what a keystroke's walks do instead of walking every node of the
/// open files. `false` (nothing done) when the program's open files have no item inputs.
pub(crate) fn infer_unsettled<'db>(
    db: &'db dyn pcl_db::Db,
    program: Program,
    starts: &[Node<'db>],
) -> bool {
    let Some(unsettled) = unsettled_nodes(db, program) else {
        return false;
    };
    for &file in program.files(db) {
        if file.open(db) {
            settled_inference(db, ProgramFile::new(db, program, file));
        }
    }
    let starts: Vec<Node<'db>> = starts
        .iter()
        .copied()
        .filter(|node| unsettled.contains(node))
        .collect();
    if starts.is_empty() {
        return true;
    }
    for node in open_order_within(db, &starts, |node| unsettled.contains(&node)) {
        if unsettled.contains(&node) {
            node_type(db, node);
        }
    }
    true
}

/// The nodes of open files that names mean to a reader in an open file, each name resolved
/// once: the same resolution as `node_references` of those nodes; the closed files' nodes are
/// left out.
struct OpenTargets<'db> {
    db: &'db dyn pcl_db::Db,
    program: Program,
    known: FxHashMap<pcl_hir::Name, Option<Node<'db>>>,
}

impl<'db> OpenTargets<'db> {
    fn new(db: &'db dyn pcl_db::Db, program: Program) -> OpenTargets<'db> {
        OpenTargets {
            db,
            program,
            known: FxHashMap::default(),
        }
    }

    /// Appends the open nodes `uses` mean, each once, to `out`.
    fn targets(&mut self, uses: &[pcl_hir::Name], out: &mut Vec<Node<'db>>) {
        let start = out.len();
        for name in uses {
            let (db, program) = (self.db, self.program);
            let target = *self.known.entry(name.clone()).or_insert_with(|| {
                let key = crate::facts::RootName::new(db, program, name, crate::facts::View::Open);
                match crate::facts::resolve_root(db, key) {
                    Some(crate::facts::Resolved::Node(target))
                        if target.file(db).file(db).open(db) =>
                    {
                        Some(target)
                    }
                    _ => None,
                }
            });
            if let Some(target) = target {
                if !out[start..].contains(&target) {
                    out.push(target);
                }
            }
        }
    }
}
