//! Go to definition and find references, within a program and across component boundaries
//! (a component block's attributes set its program's configs; its attributes read the
//! program's outputs).

use pcl_db::{Program, RootDatabase, SourceFile};
use pcl_diagnostics::{TextRange, TextSize};
use pcl_hir::{BindingKind, Expr, ExprId, Node, NodeKind, ProgramFile};

use crate::semantics::{self, Definition, Located};
use crate::symbols::SymbolKind;
use crate::{FilePosition, FileRange, NavigationTarget};

pub(crate) fn node_target(db: &RootDatabase, node: Node<'_>) -> NavigationTarget {
    let map = node.source_map(db);
    NavigationTarget {
        file: semantics::path_of(db, node.file(db).file(db)),
        full_range: map.range(),
        focus_range: semantics::name_range(db, node),
        name: node.name(db).to_string(),
        kind: SymbolKind::of_node(node.kind(db)),
    }
}

fn binding_target(db: &RootDatabase, node: Node<'_>, id: pcl_hir::BindingId) -> NavigationTarget {
    let map = node.source_map(db);
    let file = semantics::path_of(db, node.file(db).file(db));
    if semantics::binding_kind(db, node, id) == BindingKind::Range {
        // `range` is defined by the `range` option.
        if let Some(attr) = semantics::range_option(db, node) {
            return NavigationTarget {
                file,
                full_range: map.body().attr(attr),
                focus_range: map.body().attr_name(attr),
                name: "range".to_string(),
                kind: SymbolKind::Variable,
            };
        }
    }
    let range = map.body().binding(id);
    NavigationTarget {
        file,
        full_range: range,
        focus_range: range,
        name: semantics::binding_name(db, node, id).to_string(),
        kind: SymbolKind::Variable,
    }
}

/// The program a component block includes.
pub(crate) fn component_program(db: &RootDatabase, node: Node<'_>) -> Option<Program> {
    if node.kind(db) != NodeKind::Component {
        return None;
    }
    let source = node.signature(db).label(1)?;
    let dir = pcl_sema::component::component_dir(db, node.file(db).program(db), source);
    pcl_sema::component::program_at(db, &dir)
}

/// The config of a component's program that the component's attribute `name` sets.
pub(crate) fn component_config<'db>(
    db: &'db RootDatabase,
    node: Node<'db>,
    name: &str,
) -> Option<Node<'db>> {
    let program = component_program(db, node)?;
    pcl_hir::program_scope(db, program)
        .nodes
        .iter()
        .copied()
        .find(|n| n.kind(db) == NodeKind::Config && n.name(db).as_str() == name)
}

/// The output of a component's program named `name`.
fn component_output<'db>(db: &'db RootDatabase, node: Node<'db>, name: &str) -> Option<Node<'db>> {
    let program = component_program(db, node)?;
    pcl_hir::program_scope(db, program)
        .nodes
        .iter()
        .copied()
        .find(|n| n.kind(db) == NodeKind::Output && n.name(db).as_str() == name)
}

/// Every component block, in every program, that includes `program`.
///
/// Found from each file's summary, which lists the kinds of its nodes, rather than by reading
/// every node.
fn component_users<'db>(
    db: &'db RootDatabase,
    program: Program,
    only: Option<SourceFile>,
) -> Vec<Node<'db>> {
    let mut out = Vec::new();
    for user in semantics::programs(db) {
        for &file in user.files(db) {
            if only.is_some_and(|only| only != file) {
                continue;
            }
            let pf = pcl_hir::ProgramFile::new(db, user, file);
            let summary = pcl_sema::file_summary(db, pf);
            for (entry, &node) in summary.nodes.iter().zip(pcl_hir::file_nodes(db, pf)) {
                if entry.kind == NodeKind::Component && component_program(db, node) == Some(program)
                {
                    out.push(node);
                }
            }
        }
    }
    out
}

/// For `receiver.name` under the cursor: the accessor's name range.
fn accessor_at(
    db: &RootDatabase,
    node: Node<'_>,
    id: ExprId,
    offset: TextSize,
) -> Option<(ExprId, pcl_hir::Name, TextRange)> {
    let Expr::GetAttr { receiver, name } = node.body(db).expr(id) else {
        return None;
    };
    let node_map = node.source_map(db);
    let map = node_map.body();
    let whole = map.expr(id);
    let start = map.expr(*receiver).end();
    if start >= whole.end() {
        return None;
    }
    let range = TextRange::new(start, whole.end());
    range
        .contains_inclusive(offset)
        .then(|| (*receiver, name.clone(), name_part(db, node, range)))
}

/// An `invoke`'s token (`invoke("pkg:mod:fn", ...)`) or a key of its arguments object: the
/// function, or its input, in the function's schema.
fn invoke_part_location(
    db: &RootDatabase,
    file: ProgramFile<'_>,
    node: Node<'_>,
    id: ExprId,
) -> Option<NavigationTarget> {
    let body = node.body(db);
    let Expr::Literal(pcl_types::ConstValue::String(text)) = body.expr(id) else {
        return None;
    };
    let program = file.program(db);
    let invoke = pcl_sema::Builtin::Invoke.name();
    body.exprs().find_map(|(_, e)| {
        let Expr::Call(call) = e else { return None };
        if call.name.as_str() != invoke {
            return None;
        }
        let token = match body.expr(*call.args.first()?) {
            Expr::Literal(pcl_types::ConstValue::String(token)) => token,
            _ => return None,
        };
        if call.args.first() == Some(&id) {
            return crate::schema::function_location(db, program, token, None);
        }
        match body.expr(*call.args.get(1)?) {
            Expr::Object(items) if items.iter().any(|i| i.key == id) => {
                crate::schema::function_location(db, program, token, Some(text))
            }
            _ => None,
        }
    })
}

/// The name in an accessor's range (`.name`, or `["name"]`).
fn name_part(db: &RootDatabase, node: Node<'_>, range: TextRange) -> TextRange {
    let text = node.file(db).file(db).text(db);
    let slice = &text[usize::from(range.start())..usize::from(range.end())];
    let leading = slice.len() - slice.trim_start_matches(['.', '[', '"', ' ']).len();
    let trailing = slice.len() - slice.trim_end_matches([']', '"', ' ']).len();
    if leading + trailing >= slice.len() {
        return range;
    }
    TextRange::new(
        range.start() + TextSize::from(leading as u32),
        range.end() - TextSize::from(trailing as u32),
    )
}

pub(crate) fn goto_definition(db: &RootDatabase, position: &FilePosition) -> Vec<NavigationTarget> {
    let Some(file) = semantics::program_file(db, &position.file) else {
        return Vec::new();
    };
    let Some(located) = semantics::locate(db, file, position.offset) else {
        return Vec::new();
    };
    match located {
        Located::Label(node, 1) if node.kind(db) == NodeKind::Component => {
            component_program(db, node)
                .map(|program| program_entry(db, program))
                .into_iter()
                .collect()
        }
        Located::Label(node, 1) if matches!(node.kind(db), NodeKind::Resource | NodeKind::Read) => {
            crate::schema::resource_location(db, node, crate::schema::ResourcePart::Type)
                .into_iter()
                .collect()
        }
        Located::AttrName(node, attr) => {
            let body = node.body(db);
            let attribute = body.attr(attr);
            if attribute.block.is_some() {
                return Vec::new();
            }
            match node.kind(db) {
                NodeKind::Component => component_config(db, node, attribute.name.as_str())
                    .map(|n| node_target(db, n))
                    .into_iter()
                    .collect(),
                NodeKind::Resource | NodeKind::Read => crate::schema::resource_location(
                    db,
                    node,
                    crate::schema::ResourcePart::Input(attribute.name.as_str()),
                )
                .into_iter()
                .collect(),
                _ => Vec::new(),
            }
        }
        Located::Expr(node, id) => {
            if let Some((receiver, name, _)) = accessor_at(db, node, id, position.offset) {
                if let Some(target) = semantics::node_named_by(db, file, node, receiver) {
                    match target.kind(db) {
                        NodeKind::Component => {
                            return component_output(db, target, name.as_str())
                                .map(|n| node_target(db, n))
                                .into_iter()
                                .collect();
                        }
                        // `bucket.endpoint`: the output in the resource's schema.
                        NodeKind::Resource | NodeKind::Read => {
                            return crate::schema::resource_location(
                                db,
                                target,
                                crate::schema::ResourcePart::Output(name.as_str()),
                            )
                            .into_iter()
                            .collect();
                        }
                        _ => {}
                    }
                }
                return Vec::new();
            }
            if let Some(target) = invoke_part_location(db, file, node, id) {
                return vec![target];
            }
            match semantics::definition(db, file, located) {
                Some(Definition::Node(target)) => vec![node_target(db, target)],
                Some(Definition::Binding(node, binding)) => vec![binding_target(db, node, binding)],
                None => Vec::new(),
            }
        }
        _ => match semantics::definition(db, file, located) {
            Some(Definition::Node(target)) => vec![node_target(db, target)],
            Some(Definition::Binding(node, binding)) => vec![binding_target(db, node, binding)],
            None => Vec::new(),
        },
    }
}

/// The first file of a program (where "go to the component" lands).
fn program_entry(db: &RootDatabase, program: Program) -> NavigationTarget {
    let files = program.files(db);
    let (file, len) = files
        .iter()
        .find(|f| f.path(db).file_name().is_some_and(|n| n == "main.pp"))
        .or_else(|| files.first())
        .map(|f| (f.path(db).clone(), TextSize::of(f.text(db).as_ref())))
        .unwrap_or_else(|| (program.root(db).clone(), TextSize::from(0)));
    let name = program
        .root(db)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    NavigationTarget {
        file,
        full_range: TextRange::new(TextSize::from(0), len),
        focus_range: TextRange::empty(TextSize::from(0)),
        name,
        kind: SymbolKind::Component,
    }
}

/// Where the type of what is at the cursor is defined, when it names schema types: a
/// resource (a resource's name or a variable naming it: its definition in the schema file), a
/// property or expression of an object type or an enum (the type's definition), through the
/// lists, maps, outputs and unions around it.
pub(crate) fn goto_type_definition(
    db: &RootDatabase,
    position: &FilePosition,
    settled: pcl_sema::Settled,
) -> Vec<NavigationTarget> {
    let Some(file) = semantics::program_file(db, &position.file) else {
        return Vec::new();
    };
    let Some(located) = semantics::locate(db, file, position.offset) else {
        return Vec::new();
    };
    let node = located.node();
    pcl_sema::infer_nodes_with(db, &[node], settled);
    let ty = match located {
        Located::NodeName(node) | Located::Keyword(node) => Some(pcl_sema::node_type(db, node)),
        Located::Label(node, 1) if matches!(node.kind(db), NodeKind::Resource | NodeKind::Read) => {
            Some(pcl_sema::node_type(db, node))
        }
        Located::Label(..) | Located::BlockType(..) => None,
        Located::AttrName(node, attr) => {
            let body = node.body(db);
            let attribute = body.attr(attr);
            match node.kind(db) {
                NodeKind::Resource | NodeKind::Read if attribute.block.is_none() => {
                    crate::hover::input_property_type(db, node, attribute.name.as_str())
                }
                _ => None,
            }
        }
        Located::Binding(node, id) => pcl_sema::infer_node(db, node)
            .binding_types
            .get(id.index())
            .cloned(),
        Located::Expr(node, id) => pcl_sema::infer_node_fully(db, node)
            .expr_types
            .get(id.index())
            .cloned(),
    };
    let Some(ty) = ty else {
        return Vec::new();
    };
    crate::schema::type_locations(db, file.program(db), &ty)
}

/// The links of a file: each component block's source (the text inside its quotes) to the
/// file go to definition opens for it, the entry file of the program it includes. A source
/// that names no loaded program has none.
pub(crate) fn document_links(
    db: &RootDatabase,
    path: &std::path::Path,
) -> Vec<crate::DocumentLink> {
    let Some(file) = semantics::program_file(db, path) else {
        return Vec::new();
    };
    let text = file.file(db).text(db);
    let mut out = Vec::new();
    for &node in pcl_hir::file_nodes(db, file) {
        let Some(program) = component_program(db, node) else {
            continue;
        };
        let Some(label) = node.source_map(db).label(1) else {
            continue;
        };
        let quoted = &text[usize::from(label.start())..usize::from(label.end())];
        let range = if quoted.len() >= 2 && quoted.starts_with('"') && quoted.ends_with('"') {
            TextRange::new(
                label.start() + TextSize::from(1),
                label.end() - TextSize::from(1),
            )
        } else {
            label
        };
        out.push(crate::DocumentLink {
            range,
            target: program_entry(db, program).file,
        });
    }
    out
}

/// What references are collected for: a definition inside a program, or a component's
/// config or output reached from a component block.
pub(crate) fn target_at<'db>(
    db: &'db RootDatabase,
    position: &FilePosition,
) -> Option<Definition<'db>> {
    let file = semantics::program_file(db, &position.file)?;
    let located = semantics::locate(db, file, position.offset)?;
    match located {
        Located::AttrName(node, attr) if node.kind(db) == NodeKind::Component => {
            let name = node.body(db).attr(attr).name.clone();
            component_config(db, node, name.as_str()).map(Definition::Node)
        }
        Located::Expr(node, id) => {
            if let Some((receiver, name, _)) = accessor_at(db, node, id, position.offset) {
                let target = semantics::node_named_by(db, file, node, receiver)?;
                return component_output(db, target, name.as_str()).map(Definition::Node);
            }
            semantics::definition(db, file, located)
        }
        _ => semantics::definition(db, file, located),
    }
}

/// Where `definition` is declared, as references and rename count it: a node's name, a
/// local variable's binding (not `range`'s option, which is not renamed with it).
fn declaration_range(db: &RootDatabase, definition: &Definition<'_>) -> Option<FileRange> {
    match definition {
        Definition::Node(target) => Some(FileRange {
            file: semantics::path_of(db, target.file(db).file(db)),
            range: semantics::name_range(db, *target),
        }),
        Definition::Binding(node, binding) => {
            let target = binding_target(db, *node, *binding);
            let is_range_option = target.name == "range"
                && semantics::binding_kind(db, *node, *binding) == BindingKind::Range;
            (!is_range_option).then_some(FileRange {
                file: target.file,
                range: target.focus_range,
            })
        }
    }
}

/// Every range that names `definition`: its declaration (if asked for) and its uses, in the
/// definition's program and, for configs and outputs, in the component blocks that include
/// the program.
///
/// `only`: the ranges in that file alone (what prepareRename needs of the one under the
/// cursor).
pub(crate) fn reference_ranges(
    db: &RootDatabase,
    definition: &Definition<'_>,
    include_declaration: bool,
    only: Option<SourceFile>,
) -> Vec<FileRange> {
    let mut out = Vec::new();
    let path = |node: Node<'_>| semantics::path_of(db, node.file(db).file(db));
    match definition {
        Definition::Node(target) => {
            if include_declaration {
                out.extend(declaration_range(db, definition));
            }
            for (node, id) in semantics::uses(db, definition, only) {
                out.push(FileRange {
                    file: path(node),
                    range: node.source_map(db).body().expr(id),
                });
            }
            let program = target.file(db).program(db);
            match target.kind(db) {
                NodeKind::Config => {
                    for user in component_users(db, program, only) {
                        let body = user.body(db);
                        if let Some((attr, _)) = body.find_attr(None, target.name(db).as_str()) {
                            out.push(FileRange {
                                file: path(user),
                                range: user.source_map(db).body().attr_name(attr),
                            });
                        }
                    }
                }
                NodeKind::Output => {
                    // The reads of `user.output` may be in any file of the user's program.
                    for user in component_users(db, program, None) {
                        out.extend(output_reads(db, user, target.name(db).as_str(), only));
                    }
                }
                _ => {}
            }
        }
        Definition::Binding(..) => {
            if include_declaration {
                out.extend(declaration_range(db, definition));
            }
            for (node, id) in semantics::uses(db, definition, only) {
                out.push(FileRange {
                    file: path(node),
                    range: node.source_map(db).body().expr(id),
                });
            }
        }
    }
    if let Some(only) = only {
        let path = semantics::path_of(db, only);
        out.retain(|r| r.file == path);
    }
    out.sort_by(|a, b| a.key().cmp(&b.key()));
    out.dedup();
    out
}

/// `component.name` reads in the program of `component`: the name parts of the accessors.
fn output_reads(
    db: &RootDatabase,
    component: Node<'_>,
    name: &str,
    only: Option<SourceFile>,
) -> Vec<FileRange> {
    let mut out = Vec::new();
    for (node, variable) in semantics::uses(db, &Definition::Node(component), only) {
        let body = node.body(db);
        for (id, expr) in body.exprs() {
            if let Expr::GetAttr {
                receiver,
                name: read,
            } = expr
            {
                if *receiver == variable && read.as_str() == name {
                    let node_map = node.source_map(db);
                    let map = node_map.body();
                    let whole = map.expr(id);
                    let start = map.expr(*receiver).end();
                    if start < whole.end() {
                        out.push(FileRange {
                            file: semantics::path_of(db, node.file(db).file(db)),
                            range: name_part(db, node, TextRange::new(start, whole.end())),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The ranges in the cursor's file that name what the name at the cursor names: its
/// declaration (if in this file) as written, every use as read. Empty where the cursor is on
/// no name a definition can be found for.
pub(crate) fn document_highlights(
    db: &RootDatabase,
    position: &FilePosition,
) -> Vec<crate::HighlightedRange> {
    let Some(file) = semantics::program_file(db, &position.file) else {
        return Vec::new();
    };
    let Some(definition) = target_at(db, position) else {
        return Vec::new();
    };
    let read = |r: FileRange| crate::HighlightedRange {
        range: r.range,
        access: crate::Access::Read,
    };
    let mut out: Vec<_> = reference_ranges(db, &definition, false, Some(file.file(db)))
        .into_iter()
        .map(read)
        .collect();
    // The declaration, in order among the uses (sorted by range, as `reference_ranges` sorts
    // them), unless it is one of them.
    if let Some(declaration) = declaration_range(db, &definition) {
        if declaration.file == semantics::path_of(db, file.file(db)) {
            let key = |r: TextRange| (r.start(), r.end());
            if let Err(at) = out.binary_search_by_key(&key(declaration.range), |h| key(h.range)) {
                out.insert(
                    at,
                    crate::HighlightedRange {
                        range: declaration.range,
                        access: crate::Access::Write,
                    },
                );
            }
        }
    }
    out
}

pub(crate) fn find_references(
    db: &RootDatabase,
    position: &FilePosition,
    include_declaration: bool,
) -> Vec<FileRange> {
    match target_at(db, position) {
        Some(definition) => reference_ranges(db, &definition, include_declaration, None),
        None => Vec::new(),
    }
}
