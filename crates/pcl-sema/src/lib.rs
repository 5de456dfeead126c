//! Type inference for PCL programs.
//!
//! This crate owns the types of nodes and expressions, as salsa queries over `pcl-hir`:
//!
//! * [`infer_node`]: one query per node. It types every expression of the node's body and
//!   records problems against expression ids (never positions), so moving a node re-runs no
//!   inference.
//! * [`node_type`]: the small fact other nodes read (a local's value type with literal types
//!   widened, a config's declared type). It backdates when an edit does not change it, so
//!   the users of a node re-infer only when its type really changed.
//! * [`program_index`], [`resolve_root`] and [`program_cycles`]: what the files of a program
//!   know of each other, read through one summary per file ([`file_summary`]), and for open
//!   files through the facts their host publishes ([`publish_open_files`]): the firewall
//!   between a keystroke and the rest of the program.
//! * [`node_references`]: the dependency graph, for checking nodes dependencies first.
//! * [`file_diagnostics`]: the edge, joining problems with source maps into
//!   `pcl_diagnostics::Diagnostic`s for one file.
//! * [`check_program`]: the whole-program entry point the CLI and tests use.

pub mod component;
mod edge;
mod facts;
mod graph;
mod infer;
pub mod packages;
mod program;

use pcl_diagnostics::{Code, Severity};
use pcl_hir::{ExprId, Node};
use pcl_types::Type;

pub use edge::{
    closed_files_diagnostics, edge_reads_every_node, file_diagnostics, missing_package_uses,
    program_diagnostics, FirstUse, MissingPackageUses,
};
pub use facts::{
    closed_files_read_open_text, declared_packages, file_summary, lookup_node, lookup_root,
    open_cycles, program_cycles, program_index, publish_open_files, resolve_root, resolved_node,
    summary_of, visible_names, FileSummary, OpenNode, ProgramCycles, ProgramIndex, Publication,
    Resolved, RootName, SummaryNode, View, VisibleNames,
};
pub use graph::{for_each_root_use, node_references};
pub use infer::{one_line_type, resource_option_type, widen_literals, Builtin};
pub use program::{
    check_program, infer_nodes, infer_nodes_with, infer_program_in_order, infer_program_parallel,
    lower_program_parallel, node_count, plan_program, program_report, CheckedFile, InferencePlan,
    NodeTypeLine, NodeTypes, ProgramReport, Settled,
};

/// Where a problem is, by position-free ids.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Expr(ExprId),
    /// The part of a traversal after its receiver: `.name` or `[key]`.
    Accessor {
        expr: ExprId,
        receiver: ExprId,
    },
    /// The name of a called function.
    CallName(ExprId),
    /// A label of the node (`1`: a resource's token).
    Label(usize),
    /// The node's name.
    Name,
    /// The body's `{`: where a missing attribute is reported.
    OpenBrace,
    /// The name of an attribute.
    AttrName(pcl_hir::AttrId),
    /// The type keyword of a nested block.
    BlockType(pcl_hir::BlockId),
}

/// A problem found by inference, free of positions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InferDiagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub target: Target,
    pub help: Option<String>,
    /// Replacements for the target's text (a did-you-mean), the likeliest first.
    pub fixes: Vec<String>,
    /// The package whose schema is missing or unusable, when that is the problem: such
    /// problems are reported once per program, at the package's first use
    /// ([`missing_package_uses`]).
    pub package: Option<String>,
    /// An undefined name whose did-you-mean the edge adds ([`file_diagnostics`]): it compares
    /// the name with every name of the program, the open files' included, so inference does
    /// not, and a node in a file nobody has open reads nothing of an open file's text (a
    /// result of `LOW` durability there would be walked after every keystroke, recursively
    /// through every node that uses it).
    pub suggest_for: Option<pcl_hir::Name>,
    /// An unknown function's name, which the edge says is a variable when it names one
    /// (`` `f` is a variable, not a function ``): for the same reason as `suggest_for`,
    /// inference does not look the name up (a name looked up that the node does not use as a
    /// variable is no edge of the reference graph, so nothing would order its readers).
    pub variable_for: Option<pcl_hir::Name>,
}

/// Everything inference knows about one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeInference {
    /// The type of each expression, by id (slices: a memo of every node holds them).
    pub expr_types: Box<[Type]>,
    /// The type of each local variable, by id.
    pub binding_types: Box<[Type]>,
    pub diagnostics: Vec<InferDiagnostic>,
    /// The node's own type, before literal types are widened.
    pub node_type: Type,
}

impl NodeInference {
    pub fn expr_type(&self, id: ExprId) -> Type {
        self.expr_types[id.index()].clone()
    }
}

/// Types one node: every expression of its body, and its own type.
#[salsa::tracked(returns(ref), cycle_result = infer_node_cycle)]
pub fn infer_node<'db>(db: &'db dyn pcl_db::Db, node: Node<'db>) -> NodeInference {
    infer::infer(db, node, false)
}

/// [`infer_node`] with a type for every expression: also the object and tuple literals given
/// to a property whose type they fit as written, which `infer_node` checks part by part
/// without building their types (their types are `dynamic` there). The same diagnostics, node
/// type and binding types (`pcl_invariants::program` checks it). For hover, on the node at
/// the cursor.
#[salsa::tracked(returns(ref), cycle_result = infer_node_cycle)]
pub fn infer_node_fully<'db>(db: &'db dyn pcl_db::Db, node: Node<'db>) -> NodeInference {
    infer::infer(db, node, true)
}

/// A safety net: cycles between nodes are found by [`program_cycles`] and never entered, so
/// this fallback (everything `dynamic`) is not expected to be used.
fn infer_node_cycle<'db>(
    db: &'db dyn pcl_db::Db,
    _id: salsa::Id,
    node: Node<'db>,
) -> NodeInference {
    let body = node.body(db);
    NodeInference {
        expr_types: vec![Type::dynamic(); body.expr_count()].into(),
        binding_types: vec![Type::dynamic(); body.bindings().count()].into(),
        diagnostics: Vec::new(),
        node_type: Type::dynamic(),
    }
}

/// The type other nodes see when they refer to `node`. A node in a reference cycle is
/// `dynamic` (the cycle is reported once by the edge).
#[salsa::tracked(returns(clone), cycle_result = node_type_cycle)]
pub fn node_type<'db>(db: &'db dyn pcl_db::Db, node: Node<'db>) -> Type {
    use pcl_hir::NodeKind;
    if node.item(db).is_some() {
        // An open file's item: runs again when the item goes back to `MEDIUM` (its epoch), so
        // that a type computed while the user edited it does not stay `LOW`.
        lowered_first(db, node, false);
    }
    match node.kind(db) {
        // Resources and components are typed from their schema or component program (and
        // `range`); an edit of one of their inputs re-runs this query, which backdates, so
        // their users are not re-inferred.
        NodeKind::Local
        | NodeKind::Config
        | NodeKind::Output
        | NodeKind::Resource
        | NodeKind::Read
        | NodeKind::Component => {}
        NodeKind::Hook | NodeKind::Pulumi | NodeKind::Package => return Type::dynamic(),
    }
    let program = node.file(db).program(db);
    if facts::in_cycle(db, program, node) {
        return Type::dynamic();
    }
    if matches!(node.kind(db), NodeKind::Resource | NodeKind::Read)
        && facts::keeps_facts_by_name(db, program)
    {
        // Its lowering brought up to date first, as `infer_node` does.
        lowered_first(db, node, true);
        // In a program whose files publish (an editor's), typed without its body unless it has
        // a `range`, so that what changes how its inputs check does not reach its users. A
        // batch check reads the type its inference found with the schema (looking the schema
        // up again was 1.5% of a check).
        if let Some(ty) = infer::unranged_resource_type(db, node) {
            return ty;
        }
    }
    if node.kind(db) == NodeKind::Component {
        // Typed without its body when its body cannot change its type (components may use
        // each other's outputs).
        if let Some(ty) = infer::component_interface_type(db, node) {
            return ty;
        }
    }
    let ty = infer_node(db, node).node_type.clone();
    match node.kind(db) {
        // Literal types come only from the values of locals, configs and outputs; the
        // types of resources and components are built from schemas and node types.
        NodeKind::Local | NodeKind::Config | NodeKind::Output => widen_literals(ty),
        _ => ty,
    }
}

/// Brings the lowering that made `node` up to date before its fields are read: its item's,
/// for a node of an open file's item (whose value changes when the item goes back to
/// `MEDIUM`, so that the node's results computed while it was `LOW` run again rather than
/// keep that durability: `pcl_hir::OpenItem::epoch`); else, in a program whose files publish
/// (`by_name`, the caller may know it), its file's (see `pcl_hir::file_lowered`: a node's
/// fields carry the durability of the lowering that made them, and a reader that read them
/// before that lowering ran again would keep an old durability).
pub(crate) fn lowered_first(db: &dyn pcl_db::Db, node: Node<'_>, by_name: bool) {
    match node.item(db) {
        Some(item) => {
            pcl_hir::lower_open_item(db, item);
        }
        None if by_name => {
            pcl_hir::file_lowered(db, node.file(db));
        }
        None => {}
    }
}

fn node_type_cycle<'db>(_db: &'db dyn pcl_db::Db, _id: salsa::Id, _node: Node<'db>) -> Type {
    Type::dynamic()
}
