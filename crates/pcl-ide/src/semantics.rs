//! The two-way source map: from a byte offset to the innermost item, name or expression it
//! lies in, and from what a name means back to ranges. Built on the lowered nodes and their
//! source maps (`pcl-hir`), so no request parses a file a second time.

use std::path::{Path, PathBuf};

use pcl_db::{Program, RootDatabase, SourceFile};
use pcl_diagnostics::{TextRange, TextSize};
use pcl_hir::{
    AttrId, BindingId, BindingKind, BlockId, Expr, ExprId, Name, Node, NodeKind, ProgramFile,
    Resolution,
};

/// Every file of every program, sorted, without duplicates.
pub(crate) fn all_files(db: &RootDatabase) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = programs(db)
        .into_iter()
        .flat_map(|p| p.files(db).iter().map(|f| f.path(db).clone()))
        .collect();
    files.sort();
    files.dedup();
    files
}

/// Every program of the workspace (each once, though a program may have several names).
pub(crate) fn programs(db: &RootDatabase) -> Vec<Program> {
    let mut programs: Vec<Program> = pcl_db::workspace(db)
        .programs(db)
        .iter()
        .map(|(_, p)| *p)
        .collect();
    programs.sort_by(|a, b| a.root(db).cmp(b.root(db)));
    programs.dedup();
    programs
}

/// The file at `path` in the first program that has it (programs by root).
pub(crate) fn program_file<'db>(db: &'db RootDatabase, path: &Path) -> Option<ProgramFile<'db>> {
    let file = db.files().get(path)?;
    let program = programs(db)
        .into_iter()
        .find(|p| p.files(db).contains(&file))?;
    Some(ProgramFile::new(db, program, file))
}

pub(crate) fn path_of(db: &RootDatabase, file: SourceFile) -> PathBuf {
    file.path(db).clone()
}

/// The node whose block or attribute contains `offset` (end inclusive, so that a cursor just
/// after a name still finds it).
pub(crate) fn node_at<'db>(
    db: &'db RootDatabase,
    file: ProgramFile<'db>,
    offset: TextSize,
) -> Option<Node<'db>> {
    pcl_hir::node_ranges(db, file)
        .into_iter()
        .find(|(_, r)| r.contains_inclusive(offset))
        .map(|(n, _)| n)
}

/// What is at a position, from the innermost construct out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Located<'db> {
    /// The name of a node (its label, or a local's attribute name).
    NodeName(Node<'db>),
    /// The block keyword of a node.
    Keyword(Node<'db>),
    /// Another label of a node (a resource's type token, a component's source).
    Label(Node<'db>, usize),
    /// The name of an attribute of the node's body or of a nested block.
    AttrName(Node<'db>, AttrId),
    /// The type keyword of a nested block (`options`).
    BlockType(Node<'db>, BlockId),
    /// Where a local variable is introduced (`for k, v in ...`).
    Binding(Node<'db>, BindingId),
    /// The innermost expression.
    Expr(Node<'db>, ExprId),
}

impl<'db> Located<'db> {
    pub(crate) fn node(self) -> Node<'db> {
        match self {
            Located::NodeName(n)
            | Located::Keyword(n)
            | Located::Label(n, _)
            | Located::AttrName(n, _)
            | Located::BlockType(n, _)
            | Located::Binding(n, _)
            | Located::Expr(n, _) => n,
        }
    }
}

/// What is at `offset` in `file`.
pub(crate) fn locate<'db>(
    db: &'db RootDatabase,
    file: ProgramFile<'db>,
    offset: TextSize,
) -> Option<Located<'db>> {
    let node = node_at(db, file, offset)?;
    let map = node.source_map(db);
    let body = node.body(db);
    let within = |range: TextRange| range.contains_inclusive(offset);
    if within(map.name()) {
        return Some(Located::NodeName(node));
    }
    if within(map.keyword()) {
        return Some(Located::Keyword(node));
    }
    if let Some(index) = map.labels().position(within) {
        return Some(Located::Label(node, index));
    }
    // The innermost of the body's parts that contains the offset.
    let mut best: Option<(TextRange, Located<'db>)> = None;
    let mut consider = |range: TextRange, located: Located<'db>| {
        if within(range) && best.as_ref().is_none_or(|(r, _)| r.len() >= range.len()) {
            best = Some((range, located));
        }
    };
    for (id, _) in body.exprs() {
        consider(map.body().expr(id), Located::Expr(node, id));
    }
    for (id, _) in body.bindings() {
        consider(map.body().binding(id), Located::Binding(node, id));
    }
    for id in body.attr_ids() {
        consider(map.body().attr_name(id), Located::AttrName(node, id));
    }
    for id in all_blocks(body) {
        consider(map.body().block_type(id), Located::BlockType(node, id));
    }
    best.map(|(_, l)| l)
}

/// Every nested block of a body, parents before children.
pub(crate) fn all_blocks(body: &pcl_hir::Body) -> Vec<BlockId> {
    let mut out = Vec::new();
    let mut pending = vec![None];
    while let Some(parent) = pending.pop() {
        for (id, _) in body.blocks_in(parent) {
            out.push(id);
            pending.push(Some(id));
        }
    }
    out
}

/// What a name means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Definition<'db> {
    /// A top-level node (config, local, resource, component, output, ...).
    Node(Node<'db>),
    /// A local variable of a node's body.
    Binding(Node<'db>, BindingId),
}

/// The definition the thing at a position names, if any.
pub(crate) fn definition<'db>(
    db: &'db RootDatabase,
    file: ProgramFile<'db>,
    located: Located<'db>,
) -> Option<Definition<'db>> {
    match located {
        Located::NodeName(node) => Some(Definition::Node(node)),
        Located::Binding(node, id) => Some(Definition::Binding(node, id)),
        Located::Expr(node, id) => match node.body(db).expr(id) {
            Expr::Variable {
                name,
                resolution: Resolution::Local(binding),
            } => {
                let _ = name;
                Some(Definition::Binding(node, *binding))
            }
            Expr::Variable {
                name,
                resolution: Resolution::Root,
            } => pcl_sema::lookup_node(db, file.program(db), file.file(db), name)
                .map(Definition::Node),
            _ => None,
        },
        _ => None,
    }
}

/// The top-level node an expression names, when it is a variable that names one (the
/// receiver of `receiver.name`).
pub(crate) fn node_named_by<'db>(
    db: &'db RootDatabase,
    file: ProgramFile<'db>,
    node: Node<'db>,
    expr: ExprId,
) -> Option<Node<'db>> {
    match definition(db, file, Located::Expr(node, expr))? {
        Definition::Node(target) => Some(target),
        Definition::Binding(..) => None,
    }
}

/// The nodes of a program in file order.
pub(crate) fn program_nodes<'db>(db: &'db RootDatabase, program: Program) -> Vec<Node<'db>> {
    pcl_hir::program_scope(db, program).nodes.clone()
}

/// Every expression that refers to `definition` (variables, by their ranges), in the
/// definition's program (only in the file `only`, when given), by the rule of the reference
/// graph: the property paths of options such as `ignoreChanges` name properties, not nodes.
pub(crate) fn uses<'db>(
    db: &'db RootDatabase,
    definition: &Definition<'db>,
    only: Option<SourceFile>,
) -> Vec<(Node<'db>, ExprId)> {
    let mut out = Vec::new();
    match definition {
        Definition::Binding(node, binding) => {
            let body = node.body(db);
            out.extend(
                body.exprs()
                    .filter(|(_, e)| {
                        matches!(e, Expr::Variable { resolution: Resolution::Local(b), .. } if b == binding)
                    })
                    .map(|(id, _)| (*node, id)),
            );
        }
        Definition::Node(target) => {
            if target.kind(db) == NodeKind::Output {
                // Outputs live in their own namespace: nothing in the program refers to them
                // by name (a program that includes this one reads them as attributes).
                return out;
            }
            let program = target.file(db).program(db);
            let name = target.name(db);
            for &file in program.files(db) {
                if only.is_some_and(|only| only != file) {
                    continue;
                }
                // Each file's summary lists the names its nodes use: only the nodes that use
                // this name are walked (walking every body was 33 ms at 100,000 resources).
                let pf = ProgramFile::new(db, program, file);
                let summary = pcl_sema::file_summary(db, pf);
                let nodes = pcl_hir::file_nodes(db, pf);
                // What the name means is the same for every reader in one file.
                let mut means_target: Option<bool> = None;
                for (entry, &node) in summary.nodes.iter().zip(nodes) {
                    if !entry.uses.contains(name) {
                        continue;
                    }
                    let means = *means_target.get_or_insert_with(|| {
                        pcl_sema::lookup_node(db, program, file, name) == Some(*target)
                    });
                    if !means {
                        break;
                    }
                    pcl_sema::for_each_root_use(node.kind(db), node.body(db), |id, used| {
                        if used == name {
                            out.push((node, id));
                        }
                    });
                }
            }
        }
    }
    out
}

/// The name range of a node, without the quotes of a quoted label.
pub(crate) fn name_range(db: &RootDatabase, node: Node<'_>) -> TextRange {
    let range = node.source_map(db).name();
    unquoted(db, node.file(db).file(db), range)
}

/// `range` without its surrounding quotes, if the text there is a quoted string.
pub(crate) fn unquoted(db: &RootDatabase, file: SourceFile, range: TextRange) -> TextRange {
    let text = file.text(db);
    let start = usize::from(range.start());
    let end = usize::from(range.end());
    match text.get(start..end) {
        Some(s) if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') => TextRange::new(
            range.start() + TextSize::from(1),
            range.end() - TextSize::from(1),
        ),
        _ => range,
    }
}

pub(crate) fn binding_kind(db: &RootDatabase, node: Node<'_>, id: BindingId) -> BindingKind {
    node.body(db).binding(id).kind.clone()
}

pub(crate) fn binding_name(db: &RootDatabase, node: Node<'_>, id: BindingId) -> Name {
    node.body(db).binding(id).name.clone()
}

/// The `range` option attribute of a node (`options { range = ... }`), if written.
pub(crate) fn range_option(db: &RootDatabase, node: Node<'_>) -> Option<AttrId> {
    node.body(db).range_option().map(|(id, _)| id)
}

/// Whether the node's `options` set `range` (only then is `range` a name in its body).
pub(crate) fn has_range_option(db: &RootDatabase, node: Node<'_>) -> bool {
    range_option_value(db, node).is_some()
}

/// The range of the value the node's `options` give `range`, if they set it.
pub(crate) fn range_option_value(db: &RootDatabase, node: Node<'_>) -> Option<TextRange> {
    let (_, attr) = node.body(db).range_option()?;
    Some(node.source_map(db).body().expr(attr.value))
}
