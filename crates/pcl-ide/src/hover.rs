//! Hover: the readable type of what is under the cursor, and what the schema says of it.

use std::fmt::Write;

use pcl_db::RootDatabase;
use pcl_diagnostics::TextRange;
use pcl_hir::{Expr, ExprId, Node, NodeKind, ProgramFile};
use pcl_sema::Settled;
use pcl_types::{Type, TypeKind};

use crate::schema;
use crate::semantics::{self, Located};
use crate::FilePosition;

/// What a hover shows, and the range it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverResult {
    pub range: TextRange,
    /// Markdown: a `pcl` code block with the signature, then the documentation.
    pub markdown: String,
}

pub(crate) fn hover(
    db: &RootDatabase,
    position: &FilePosition,
    settled: Settled,
) -> Option<HoverResult> {
    let file = semantics::program_file(db, &position.file)?;
    let located = semantics::locate(db, file, position.offset)?;
    let node = located.node();
    pcl_sema::infer_nodes_with(db, &[node], settled);
    let map = node.source_map(db);
    match located {
        Located::NodeName(node) | Located::Keyword(node) => Some(HoverResult {
            range: if matches!(located, Located::NodeName(_)) {
                map.name()
            } else {
                map.keyword()
            },
            markdown: describe_node(db, node, settled),
        }),
        Located::Label(node, index) => label_hover(db, node, index),
        Located::AttrName(node, attr) => attr_hover(db, node, attr, settled),
        Located::BlockType(..) => None,
        Located::Binding(node, id) => {
            let inference = pcl_sema::infer_node(db, node);
            let ty = inference.binding_types.get(id.index())?;
            let name = semantics::binding_name(db, node, id);
            Some(HoverResult {
                range: map.body().binding(id),
                markdown: code_block(&format!("{name}: {}", pcl_sema::one_line_type(ty))),
            })
        }
        Located::Expr(node, id) => expr_hover(db, file, node, id, position, settled),
    }
}

fn code_block(signature: &str) -> String {
    format!("```pcl\n{signature}\n```")
}

/// `markdown` and a description (a schema's, without its doc shortcodes and the SDK examples
/// they wrap).
fn with_doc(mut markdown: String, doc: Option<&str>) -> String {
    let doc = doc.map(pcl_schema::description_markdown);
    if let Some(doc) = doc.filter(|d| !d.is_empty()) {
        markdown.push_str("\n\n");
        markdown.push_str(&doc);
    }
    markdown
}

/// A node's kind, name and type, and what its schema or declaration says of it.
pub(crate) fn describe_node(db: &RootDatabase, node: Node<'_>, settled: Settled) -> String {
    pcl_sema::infer_nodes_with(db, &[node], settled);
    let kind = node.kind(db);
    let name = node.name(db);
    let ty = pcl_sema::node_type(db, node);
    let ty_text = pcl_sema::one_line_type(&ty);
    match kind {
        NodeKind::Resource | NodeKind::Read => {
            let token = node.signature(db).label(1).unwrap_or("?").to_string();
            let def = schema::resource_of_node(db, node);
            let shown = def.as_ref().map_or(token, |d| d.token.clone());
            with_doc(
                code_block(&format!("{} {name} \"{shown}\"", kind.keyword())),
                def.as_ref().and_then(|d| d.description.as_deref()),
            )
        }
        NodeKind::Config => {
            let body = node.body(db);
            let mut markdown = code_block(&format!("config {name}: {ty_text}"));
            let source = node.file(db).file(db).text(db);
            if let Some((attr, _)) = body.find_attr(None, "default") {
                let range = node.source_map(db).body().expr(body.attr(attr).value);
                if let Some(text) = source.get(usize::from(range.start())..usize::from(range.end()))
                {
                    let _ = write!(markdown, "\n\ndefault: `{}`", one_line(text));
                }
            } else {
                markdown.push_str("\n\nrequired: the stack must set it");
            }
            if let Some(description) = string_attr(db, node, "description") {
                markdown.push_str("\n\n");
                markdown.push_str(&description);
            }
            markdown
        }
        NodeKind::Output => {
            let mut markdown = code_block(&format!("output {name}: {ty_text}"));
            if let Some(description) = string_attr(db, node, "description") {
                markdown.push_str("\n\n");
                markdown.push_str(&description);
            }
            markdown
        }
        NodeKind::Component => {
            let source = node.signature(db).label(1).unwrap_or("").to_string();
            code_block(&format!("component {name} \"{source}\": {ty_text}"))
        }
        NodeKind::Local => code_block(&format!("{name}: {ty_text}")),
        NodeKind::Hook | NodeKind::Pulumi | NodeKind::Package => {
            code_block(&format!("{} {name}", kind.keyword()))
        }
    }
}

/// The value of a plain string attribute of a node's body (a config's `description`).
fn string_attr(db: &RootDatabase, node: Node<'_>, name: &str) -> Option<String> {
    let body = node.body(db);
    let (_, attr) = body.find_attr(None, name)?;
    match body.expr(attr.value) {
        Expr::Literal(pcl_types::ConstValue::String(s)) => Some(s.to_string()),
        _ => None,
    }
}

fn one_line(text: &str) -> String {
    let collapsed: Vec<&str> = text.split_whitespace().collect();
    let joined = collapsed.join(" ");
    if joined.chars().count() > 80 {
        let cut: String = joined.chars().take(77).collect();
        format!("{cut}...")
    } else {
        joined
    }
}

fn label_hover(db: &RootDatabase, node: Node<'_>, index: usize) -> Option<HoverResult> {
    let range = node.source_map(db).label(index)?;
    match (node.kind(db), index) {
        (NodeKind::Resource | NodeKind::Read, 1) => {
            let def = schema::resource_of_node(db, node)?;
            Some(HoverResult {
                range,
                markdown: with_doc(
                    code_block(&format!("resource \"{}\"", def.token)),
                    def.description.as_deref(),
                ),
            })
        }
        (NodeKind::Component, 1) => {
            let source = node.signature(db).label(1)?;
            let dir = pcl_sema::component::component_dir(db, node.file(db).program(db), source);
            Some(HoverResult {
                range,
                markdown: format!("component program in `{}`", dir.display()),
            })
        }
        _ => None,
    }
}

/// The schema property or option an attribute name sets.
fn attr_hover(
    db: &RootDatabase,
    node: Node<'_>,
    attr: pcl_hir::AttrId,
    settled: Settled,
) -> Option<HoverResult> {
    let body = node.body(db);
    let range = node.source_map(db).body().attr_name(attr);
    let attribute = body.attr(attr);
    let name = attribute.name.as_str();
    if let Some(block) = attribute.block {
        if body.block(block).type_name.as_str() == "options" && body.block(block).parent.is_none() {
            let option = pcl_hir::ResourceOption::from_name(name)?;
            return Some(HoverResult {
                range,
                markdown: with_doc(
                    code_block(&match pcl_sema::resource_option_type(option) {
                        Some(ty) => format!("option {name}: {}", pcl_sema::one_line_type(&ty)),
                        None => format!("option {name}"),
                    }),
                    Some(option.doc()),
                ),
            });
        }
        return None;
    }
    match node.kind(db) {
        NodeKind::Resource | NodeKind::Read => {
            let def = schema::resource_of_node(db, node)?;
            let property = def.inputs.iter().find(|p| p.name == name)?;
            let ty = input_property_type(db, node, name)
                .map(|t| pcl_sema::one_line_type(&t.resolve_outputs()))
                .unwrap_or_else(|| "dynamic".to_string());
            let required = if property.required { " (required)" } else { "" };
            Some(HoverResult {
                range,
                markdown: with_doc(
                    code_block(&format!("{name}: {ty}{required}")),
                    property.description.as_deref(),
                ),
            })
        }
        NodeKind::Component => {
            // A component's attribute sets a config of the component's program.
            let target = crate::navigation::component_config(db, node, name)?;
            Some(HoverResult {
                range,
                markdown: describe_node(db, target, settled),
            })
        }
        _ => None,
    }
}

/// A key of an object literal inside a resource's (or an option's) value: the type the
/// schema gives that property there, and its description.
fn object_key_hover(db: &RootDatabase, node: Node<'_>, id: ExprId) -> Option<HoverResult> {
    let body = node.body(db);
    let Expr::Literal(pcl_types::ConstValue::String(key)) = body.expr(id) else {
        return None;
    };
    let is_key = body
        .exprs()
        .any(|(_, e)| matches!(e, Expr::Object(items) if items.iter().any(|i| i.key == id)));
    if !is_key {
        return None;
    }
    let range = node.source_map(db).body().expr(id);
    let text = node.file(db).file(db).text(db);
    let start = usize::from(node.source_map(db).range().start());
    let cx = crate::context::CursorContext::at_end_of(text.get(start..usize::from(range.start()))?);
    let depth = cx.frames.len().checked_sub(1)?;
    let ty = crate::completion::expected_type(db, node, &cx, depth, Some(key))?;
    let object = crate::completion::expected_type(db, node, &cx, depth, None);
    // A map's keys are the user's own: none is required.
    let in_map = object.as_ref().is_some_and(|o| {
        matches!(
            crate::completion::strip(o).kind(),
            pcl_types::TypeKind::Map(_)
        )
    });
    let program = node.file(db).program(db);
    let doc = object
        .and_then(|o| schema::object_property_doc(db, program, &o, key))
        .or_else(|| {
            // An argument of `invoke("token", { key = ... })`: the function's own input.
            let (paren, token) = crate::completion::invoke_arguments(&cx, depth)?;
            if paren + 1 != depth {
                return None;
            }
            schema::function_def(db, program, token)?
                .inputs
                .into_iter()
                .find(|p| p.name == **key)?
                .description
        });
    let required = if ty.is_optional() || in_map {
        ""
    } else {
        " (required)"
    };
    Some(HoverResult {
        range,
        markdown: with_doc(
            code_block(&format!(
                "{key}: {}{required}",
                pcl_sema::one_line_type(&ty.resolve_outputs())
            )),
            doc.as_deref(),
        ),
    })
}

/// The declared type of a resource's input property.
pub(crate) fn input_property_type(db: &RootDatabase, node: Node<'_>, name: &str) -> Option<Type> {
    let schema = schema::resource_types(db, node)?;
    match schema.inputs.kind() {
        TypeKind::Object(object) => object.property(name),
        _ => None,
    }
}

fn expr_hover(
    db: &RootDatabase,
    file: ProgramFile<'_>,
    node: Node<'_>,
    id: ExprId,
    position: &FilePosition,
    settled: Settled,
) -> Option<HoverResult> {
    let body = node.body(db);
    let node_map = node.source_map(db);
    let map = node_map.body();
    let range = map.expr(id);
    if let Some(hover) = object_key_hover(db, node, id) {
        return Some(hover);
    }
    let inference = pcl_sema::infer_node_fully(db, node);
    let ty = inference.expr_types.get(id.index())?.clone();
    match body.expr(id) {
        Expr::Variable {
            resolution: pcl_hir::Resolution::Root,
            ..
        } => {
            if let Some(semantics::Definition::Node(target)) =
                semantics::definition(db, file, Located::Expr(node, id))
            {
                return Some(HoverResult {
                    range,
                    markdown: describe_node(db, target, settled),
                });
            }
        }
        Expr::GetAttr { receiver, name } => {
            let receiver_range = map.expr(*receiver);
            let name_range = TextRange::new(receiver_range.end(), range.end());
            if name_range.contains_inclusive(position.offset) {
                let mut markdown = code_block(&format!("{name}: {}", pcl_sema::one_line_type(&ty)));
                if let Some(doc) = output_property_doc(db, file, node, *receiver, name.as_str()) {
                    markdown = with_doc(markdown, Some(&doc));
                }
                // The name, without the `.` before it.
                let text = node.file(db).file(db).text(db);
                let dot = text
                    .get(usize::from(name_range.start())..)
                    .is_some_and(|t| t.starts_with('.'));
                let range = if dot && name_range.len() > 1.into() {
                    TextRange::new(
                        name_range.start() + pcl_diagnostics::TextSize::from(1),
                        name_range.end(),
                    )
                } else {
                    name_range
                };
                return Some(HoverResult { range, markdown });
            }
        }
        Expr::Call(call) => {
            let name = &call.name;
            let name_end = range.start() + pcl_diagnostics::TextSize::of(name.as_str());
            if position.offset <= name_end {
                let builtin = pcl_sema::Builtin::from_name(name.as_str())?;
                return Some(HoverResult {
                    range: TextRange::new(range.start(), name_end),
                    markdown: with_doc(code_block(builtin.signature()), Some(builtin.doc())),
                });
            }
        }
        Expr::Literal(pcl_types::ConstValue::String(token)) => {
            // A value of an enum property: what the schema says of it.
            if let Some(markdown) = enum_value_hover(db, node, id, token) {
                return Some(HoverResult { range, markdown });
            }
            // The token of `invoke("pkg:mod:fn", ...)`.
            if let Some(def) = invoke_token(db, file, node, id, token) {
                return Some(HoverResult {
                    range,
                    markdown: with_doc(
                        code_block(&format!("invoke \"{}\"", def.token)),
                        def.description.as_deref(),
                    ),
                });
            }
        }
        _ => {}
    }
    Some(HoverResult {
        range,
        markdown: code_block(&pcl_sema::one_line_type(&ty)),
    })
}

/// A string given to a resource property of enum type: the enum value's name and description.
fn enum_value_hover(db: &RootDatabase, node: Node<'_>, id: ExprId, value: &str) -> Option<String> {
    if node.kind(db) != NodeKind::Resource {
        return None;
    }
    let body = node.body(db);
    let (_, attr) = body.attrs_in(None).find(|(_, a)| a.value == id)?;
    let ty = input_property_type(db, node, attr.name.as_str())?;
    let program = node.file(db).program(db);
    schema::enums_of(&ty).iter().find_map(|choice| {
        let token = &choice.token;
        let (name, description) = schema::enum_value_doc(db, program, token, value)?;
        let shown = match name {
            Some(name) => format!("{token}.{name} = \"{value}\""),
            None => format!("{token} \"{value}\""),
        };
        Some(with_doc(code_block(&shown), description.as_deref()))
    })
}

/// The function a string literal names when it is the first argument of `invoke`.
pub(crate) fn invoke_token(
    db: &RootDatabase,
    file: ProgramFile<'_>,
    node: Node<'_>,
    id: ExprId,
    token: &str,
) -> Option<schema::FunctionDef> {
    let body = node.body(db);
    let is_invoke_token = body.exprs().any(|(_, e)| {
        matches!(e, Expr::Call(call) if pcl_sema::Builtin::from_name(call.name.as_str()) == Some(pcl_sema::Builtin::Invoke) && call.args.first() == Some(&id))
    });
    if !is_invoke_token {
        return None;
    }
    schema::function_def(db, file.program(db), token)
}

/// The description of an output property read from a resource (`bucket.arn`).
fn output_property_doc(
    db: &RootDatabase,
    file: ProgramFile<'_>,
    node: Node<'_>,
    receiver: ExprId,
    name: &str,
) -> Option<String> {
    let target = semantics::node_named_by(db, file, node, receiver)?;
    let def = schema::resource_of_node(db, target)?;
    def.outputs
        .iter()
        .find(|p| p.name == name)
        .and_then(|p| p.description.clone())
}
