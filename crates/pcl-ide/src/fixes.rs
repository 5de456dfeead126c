//! Quick fixes: the replacements diagnostics suggest (an unknown property, name, option or
//! token replaced by the did-you-mean), the missing required attributes of a resource or
//! component added, and values wrapped in `toJSON(...)` or `secret(...)` where the schema
//! asks for a JSON string or a secret.

use std::path::Path;

use pcl_db::RootDatabase;
use pcl_diagnostics::{Code, TextRange, TextSize};
use pcl_hir::{Expr, Node, NodeKind};
use pcl_sema::Builtin;
use pcl_types::{Type, TypeKind};

use crate::{schema, semantics, SourceChange, TextEdit};

/// A change offered to the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assist {
    pub label: String,
    pub kind: AssistKind,
    pub edit: SourceChange,
    /// The range of the diagnostic it fixes, if it fixes one.
    pub diagnostic_range: Option<TextRange>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssistKind {
    QuickFix,
}

pub(crate) fn code_actions(db: &RootDatabase, path: &Path, range: TextRange) -> Vec<Assist> {
    let Some(file) = semantics::program_file(db, path) else {
        return Vec::new();
    };
    let touches =
        |r: TextRange| r.intersect(range).is_some() || r.contains_inclusive(range.start());
    let mut out = Vec::new();
    let diagnostics = crate::diagnostics::file_diagnostics(db, path, false);
    let one_file = |edits: Vec<TextEdit>| SourceChange {
        edits: vec![(path.to_path_buf(), edits)],
    };
    for diagnostic in diagnostics.iter().filter(|d| touches(d.range)) {
        for fix in &diagnostic.fixes {
            out.push(Assist {
                label: fix.title.clone(),
                kind: AssistKind::QuickFix,
                edit: one_file(
                    fix.edits
                        .iter()
                        .map(|e| TextEdit {
                            range: e.range,
                            insert: e.replacement.clone(),
                        })
                        .collect(),
                ),
                diagnostic_range: Some(diagnostic.range),
            });
        }
    }
    let missing: Vec<_> = diagnostics
        .iter()
        .filter(|d| d.code == Code::MissingAttribute && touches(d.range))
        .collect();
    for &node in pcl_hir::file_nodes(db, file) {
        let map = node.source_map(db);
        if let Some(diagnostic) = missing
            .iter()
            .find(|d| map.open_brace().is_some_and(|b| b == d.range))
        {
            if let Some(assist) = add_missing_attributes(db, node, diagnostic.range) {
                out.push(Assist {
                    edit: one_file(assist.1),
                    label: assist.0,
                    kind: AssistKind::QuickFix,
                    diagnostic_range: Some(diagnostic.range),
                });
            }
        }
        if map.range().intersect(range).is_some() {
            out.extend(wrap_values(db, node, range, path));
        }
    }
    out
}

/// The required inputs a resource or component block does not set, with a placeholder
/// value each, inserted before its closing brace.
fn add_missing_attributes(
    db: &RootDatabase,
    node: Node<'_>,
    _diagnostic: TextRange,
) -> Option<(String, Vec<TextEdit>)> {
    let body = node.body(db);
    let set: Vec<&str> = body.attrs_in(None).map(|(_, a)| a.name.as_str()).collect();
    let required: Vec<(String, Type)> = match node.kind(db) {
        NodeKind::Resource | NodeKind::Read => {
            let types = crate::schema::resource_types(db, node)?;
            let inputs = if node.kind(db) == NodeKind::Read {
                &types.read_inputs
            } else {
                &types.inputs
            };
            match inputs.kind() {
                TypeKind::Object(object) => object
                    .properties()
                    .iter()
                    .filter(|(_, ty)| !(ty.is_optional() || ty.is_const() || ty.is_dynamic()))
                    .map(|(n, t)| (n.to_string(), t.clone()))
                    .collect(),
                _ => return None,
            }
        }
        NodeKind::Component => {
            let program = crate::navigation::component_program(db, node)?;
            pcl_sema::component::component_interface(db, program)
                .inputs
                .iter()
                .filter(|(_, _, required)| *required)
                .map(|(n, t, _)| (n.clone(), t.clone()))
                .collect()
        }
        _ => return None,
    };
    let missing: Vec<&(String, Type)> = required
        .iter()
        .filter(|(n, _)| !set.contains(&n.as_str()))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let text = node.file(db).file(db).text(db);
    let range = node.source_map(db).range();
    let end = usize::from(range.end());
    if !text[..end].ends_with('}') {
        return None;
    }
    let close = end - 1;
    let open = usize::from(node.source_map(db).open_brace()?.start());
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indentation = |at: usize| -> &str {
        let from = line_start(at);
        let rest = &text[from..];
        &rest[..rest.len() - rest.trim_start_matches([' ', '\t']).len()]
    };
    // The file's own line ending and indentation: a CRLF file keeps CRLF, a file indented by
    // tabs gets tabs.
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let indent = indentation(usize::from(range.start())).to_string();
    let one_line = !text[open..close].contains('\n');
    let inner = match body
        .attrs_in(None)
        .next()
        .map(|(id, _)| usize::from(node.source_map(db).body().attr(id).start()))
    {
        // The indentation of the block's first attribute, when it begins its own line.
        Some(first) if !one_line && text[line_start(first)..first].trim().is_empty() => {
            indentation(first).to_string()
        }
        _ if text.lines().any(|l| l.starts_with('\t')) => format!("{indent}\t"),
        _ => format!("{indent}  "),
    };
    let width = missing.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut lines = String::new();
    for (name, ty) in &missing {
        lines.push_str(&format!(
            "{inner}{name:width$} = {}{newline}",
            placeholder(ty, 0)
        ));
    }
    let mut edits = Vec::new();
    if one_line {
        // `{ acl = "private" }` holds one attribute: its body is opened onto lines, the
        // attribute already there on the first.
        let after_open = open + 1;
        let content = after_open
            + (text[after_open..close].len() - text[after_open..close].trim_start().len());
        let content_end =
            close - (text[after_open..close].len() - text[after_open..close].trim_end().len());
        let mut insert = String::new();
        if content_end > content {
            edits.push(TextEdit {
                range: TextRange::new(
                    TextSize::from(after_open as u32),
                    TextSize::from(content as u32),
                ),
                insert: format!("{newline}{inner}"),
            });
            insert.push_str(newline);
        } else {
            insert.push_str(newline);
        }
        insert.push_str(&lines);
        insert.push_str(&indent);
        edits.push(TextEdit {
            range: TextRange::new(
                TextSize::from(content_end.max(after_open) as u32),
                TextSize::from(close as u32),
            ),
            insert,
        });
    } else {
        // Inserted at the start of the closing brace's line when it is on its own line.
        let close_line_start = line_start(close);
        let brace_alone = text[close_line_start..close].trim().is_empty();
        let mut insert = String::new();
        if !brace_alone {
            insert.push_str(newline);
        }
        insert.push_str(&lines);
        let at = if brace_alone { close_line_start } else { close };
        if !brace_alone {
            insert.push_str(&indent);
        }
        edits.push(TextEdit {
            range: TextRange::empty(TextSize::from(at as u32)),
            insert,
        });
    }
    let names: Vec<&str> = missing.iter().map(|(n, _)| n.as_str()).collect();
    let label = if names.len() == 1 {
        format!("add the required attribute `{}`", names[0])
    } else {
        format!(
            "add the required attributes {}",
            pcl_diagnostics::style::quoted_list(&names, "and")
        )
    };
    Some((label, edits))
}

/// A value of the right shape to start from: an object's own required properties are given
/// too (on one line, a few levels deep), so that the value fits its type as written.
fn placeholder(ty: &Type, depth: usize) -> String {
    let mut ty = ty.clone();
    loop {
        let next = match ty.kind() {
            TypeKind::Output(inner) | TypeKind::Promise(inner) => inner.clone(),
            TypeKind::Union(members) => members
                .iter()
                .find(|m| {
                    !matches!(m.kind(), TypeKind::Output(_) | TypeKind::Promise(_)) && !m.is_none()
                })
                .cloned()
                .unwrap_or_else(Type::dynamic),
            _ => break,
        };
        ty = next;
    }
    match ty.kind() {
        // A discriminator (`kind = "http"`) has its one value.
        TypeKind::Const(constant) => constant.value.to_string(),
        TypeKind::String | TypeKind::Enum(_) => "\"\"".to_string(),
        TypeKind::Int | TypeKind::Number => "0".to_string(),
        TypeKind::Bool => "false".to_string(),
        TypeKind::List(_) | TypeKind::Set(_) | TypeKind::Tuple(_) => "[]".to_string(),
        TypeKind::Object(object) if depth < 4 => {
            let required: Vec<String> = object
                .properties()
                .iter()
                .filter(|(_, t)| !(t.is_optional() || t.is_dynamic()))
                .map(|(name, t)| format!("{name} = {}", placeholder(t, depth + 1)))
                .collect();
            if required.is_empty() {
                "{}".to_string()
            } else {
                format!("{{ {} }}", required.join(", "))
            }
        }
        TypeKind::Map(_) | TypeKind::Object(_) => "{}".to_string(),
        _ => "null".to_string(),
    }
}

/// Values given to resource properties that want something else: an object or a list given
/// to a string property (a JSON document, as policies are) is wrapped in `toJSON(...)`; a
/// plain value given to a property the schema marks secret is wrapped in `secret(...)`.
fn wrap_values(db: &RootDatabase, node: Node<'_>, range: TextRange, path: &Path) -> Vec<Assist> {
    if node.kind(db) != NodeKind::Resource {
        return Vec::new();
    }
    let Some(def) = schema::resource_of_node(db, node) else {
        return Vec::new();
    };
    let body = node.body(db);
    let node_map = node.source_map(db);
    let map = node_map.body();
    let mut out = Vec::new();
    for (id, attr) in body.attrs_in(None) {
        let attr_range = map.attr(id);
        if attr_range.intersect(range).is_none() && !attr_range.contains_inclusive(range.start()) {
            continue;
        }
        let Some(property) = def.inputs.iter().find(|p| p.name == attr.name.as_str()) else {
            continue;
        };
        let value = attr.value;
        let value_range = map.expr(value);
        let wrapped_in = |f: Builtin| matches!(body.expr(value), Expr::Call(call) if call.name.as_str() == f.name());
        let wrap = |f: Builtin| SourceChange {
            edits: vec![(
                path.to_path_buf(),
                vec![
                    TextEdit {
                        range: TextRange::empty(value_range.start()),
                        insert: format!("{}(", f.name()),
                    },
                    TextEdit {
                        range: TextRange::empty(value_range.end()),
                        insert: ")".to_string(),
                    },
                ],
            )],
        };
        let wants_string = crate::hover::input_property_type(db, node, attr.name.as_str())
            .is_some_and(|t| takes_string(&t));
        let is_collection = matches!(body.expr(value), Expr::Object(_) | Expr::Tuple(_));
        if wants_string && is_collection && !wrapped_in(Builtin::ToJson) {
            out.push(Assist {
                label: format!(
                    "wrap the value of `{}` in `{}(...)`",
                    attr.name,
                    Builtin::ToJson.name()
                ),
                kind: AssistKind::QuickFix,
                edit: wrap(Builtin::ToJson),
                diagnostic_range: None,
            });
        }
        if property.secret && !wrapped_in(Builtin::Secret) {
            out.push(Assist {
                label: format!(
                    "wrap the value of `{}` in `{}(...)`",
                    attr.name,
                    Builtin::Secret.name()
                ),
                kind: AssistKind::QuickFix,
                edit: wrap(Builtin::Secret),
                diagnostic_range: None,
            });
        }
    }
    out
}

/// Whether a property's type is a string (possibly as an input: `string | output(string)`).
fn takes_string(ty: &Type) -> bool {
    match ty.kind() {
        TypeKind::String => true,
        TypeKind::Output(inner) | TypeKind::Promise(inner) => takes_string(inner),
        TypeKind::Union(members) => members.iter().filter(|m| !m.is_none()).all(takes_string),
        _ => false,
    }
}
