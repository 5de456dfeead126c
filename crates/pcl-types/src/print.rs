//! The two printers: canonical (`output(list(string))`, `union(int, string)`) and readable
//! (`list(string)?`, `int | string`, multi-line for big objects).
//!
//! Both are recursion-safe: a deferred object met again inside itself prints as `...`
//! (canonical) or as its name (readable). The readable printer also names schema objects
//! instead of expanding them below the top level ([`NamedObjects`]); the canonical printer
//! is exact.

use std::fmt::Write;

use crate::kinds::{Annotation, ObjectType, Type, TypeKind};

/// Objects longer than this on one line are printed on several lines by the readable printer.
const MAX_LINE: usize = 100;

impl Type {
    /// The canonical form, e.g. `output(list(string))`, `union(int, string)`,
    /// `object({a = int, b = string})`.
    pub fn display_canonical(&self) -> String {
        let mut out = String::new();
        canonical(self, &mut Canonical::Exact(Vec::new()), &mut out);
        out
    }

    /// The readable form used by hover, e.g. `list(string)?`, `int | string`,
    /// `{ a: int, b: string }`. A named object (see [`NamedObjects`]) is expanded only
    /// where it is not inside another object: `display_readable_with(NamedObjects::TopLevel)`.
    pub fn display_readable(&self) -> String {
        self.display_readable_with(NamedObjects::TopLevel)
    }

    /// The readable form, choosing where named objects are expanded. Diagnostics (the
    /// messages of [`crate::Reason`]) use [`NamedObjects::Never`].
    pub fn display_readable_with(&self, named: NamedObjects) -> String {
        readable(
            self,
            &mut Readable {
                stack: Vec::new(),
                named,
            },
            0,
        )
    }
}

/// Where the readable printer expands a *named* object: one with a schema identity
/// ([`Annotation::SchemaObject`], [`Annotation::ResourceInputs`] or
/// [`Annotation::ResourceOutputs`], shown by its token) or a deferred object (shown by its
/// name). Elsewhere it prints the name alone, so that a schema type, which can be huge,
/// prints in a few words. Unnamed objects are always expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum NamedObjects {
    /// Everywhere (a deferred object met again inside itself still prints as its name).
    Always,
    /// Only where it is not inside another object: the properties of the object shown
    /// are listed, and the objects they refer to are named.
    #[default]
    TopLevel,
    /// Nowhere.
    Never,
}

/// The name a named object prints as; see [`NamedObjects`].
pub(crate) fn object_name(object: &ObjectType) -> Option<&str> {
    object
        .annotations()
        .iter()
        .find_map(|a| match a {
            Annotation::SchemaObject(token)
            | Annotation::ResourceInputs(token)
            | Annotation::ResourceOutputs(token) => Some(&**token),
            Annotation::Other(_) => None,
        })
        .or_else(|| object.deferred_name())
}

struct Readable {
    /// The addresses of the objects being printed, outermost first.
    stack: Vec<usize>,
    named: NamedObjects,
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

fn opaque_name(name: &str) -> String {
    if is_identifier(name) {
        name.to_string()
    } else {
        format!("type({name})")
    }
}

/// What the canonical printer does with objects.
enum Canonical<'a> {
    /// Expands every object; a deferred object met inside itself prints as `...`. The
    /// stack holds the addresses of the objects being printed.
    Exact(Vec<usize>),
    /// The union sort key: a deferred object prints as `object(#name)` and its namespace
    /// and variant are recorded, so nothing inside a deferred object is ever looked at.
    SortKey(&'a mut Vec<(u64, u64)>),
}

/// The sort key of unions; see `Type::union_sort_key`.
pub(crate) fn sort_key(ty: &Type, text: &mut String, keys: &mut Vec<(u64, u64)>) {
    canonical(ty, &mut Canonical::SortKey(keys), text);
}

fn canonical(ty: &Type, stack: &mut Canonical<'_>, out: &mut String) {
    crate::on_enough_stack(|| {
        let list = |name: &str, elements: &[Type], stack: &mut Canonical<'_>, out: &mut String| {
            out.push_str(name);
            out.push('(');
            for (i, e) in elements.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                canonical(e, stack, out);
            }
            out.push(')');
        };
        match ty.kind() {
            TypeKind::Dynamic => out.push_str("dynamic"),
            TypeKind::None => out.push_str("none"),
            TypeKind::Bool => out.push_str("bool"),
            TypeKind::Int => out.push_str("int"),
            TypeKind::Number => out.push_str("number"),
            TypeKind::String => out.push_str("string"),
            TypeKind::Opaque(name) => out.push_str(&opaque_name(name)),
            TypeKind::List(e) => list("list", std::slice::from_ref(e), stack, out),
            TypeKind::Map(e) => list("map", std::slice::from_ref(e), stack, out),
            TypeKind::Set(e) => list("set", std::slice::from_ref(e), stack, out),
            TypeKind::Output(e) => list("output", std::slice::from_ref(e), stack, out),
            TypeKind::Promise(e) => list("promise", std::slice::from_ref(e), stack, out),
            TypeKind::Tuple(es) => list("tuple", es, stack, out),
            TypeKind::Union(es) => list("union", es, stack, out),
            TypeKind::Object(object) => {
                match stack {
                    Canonical::Exact(stack) => {
                        if stack.contains(&ty.addr()) {
                            out.push_str("...");
                            return;
                        }
                        stack.push(ty.addr());
                    }
                    Canonical::SortKey(keys) => {
                        if let Some(key) = object.deferred_key() {
                            keys.push((key.namespace, key.variant));
                            let _ = write!(out, "object(#{})", key.name);
                            return;
                        }
                    }
                }
                out.push_str("object({");
                for (i, (key, t)) in object.properties().iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "{} = ", property_name(key));
                    canonical(t, stack, out);
                }
                out.push_str("})");
                if let Canonical::Exact(stack) = stack {
                    stack.pop();
                }
            }
            TypeKind::Const(c) => {
                out.push_str("const(");
                canonical(&c.ty, stack, out);
                let _ = write!(out, ", {})", c.value);
            }
            TypeKind::Enum(e) => {
                let _ = write!(out, "enum({}(", e.token);
                canonical(&e.element, stack, out);
                out.push_str("): ");
                for (i, v) in e.values.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "{v}");
                }
                out.push(')');
            }
        }
    })
}

fn property_name(key: &str) -> String {
    if is_identifier(key) {
        key.to_string()
    } else {
        format!("{key:?}")
    }
}

fn readable(ty: &Type, stack: &mut Readable, indent: usize) -> String {
    crate::on_enough_stack(|| {
        let wrap = |name: &str, e: &Type, stack: &mut Readable| {
            format!("{name}({})", readable(e, stack, indent))
        };
        match ty.kind() {
            TypeKind::Dynamic => "dynamic".into(),
            TypeKind::None => "none".into(),
            TypeKind::Bool => "bool".into(),
            TypeKind::Int => "int".into(),
            TypeKind::Number => "number".into(),
            TypeKind::String => "string".into(),
            TypeKind::Opaque(name) => opaque_name(name),
            TypeKind::List(e) => wrap("list", e, stack),
            TypeKind::Map(e) => wrap("map", e, stack),
            TypeKind::Set(e) => wrap("set", e, stack),
            TypeKind::Output(e) => wrap("output", e, stack),
            TypeKind::Promise(e) => wrap("promise", e, stack),
            TypeKind::Tuple(es) => {
                let parts: Vec<String> = es.iter().map(|e| readable(e, stack, indent)).collect();
                format!("({})", parts.join(", "))
            }
            TypeKind::Union(es) => {
                let optional = es.iter().any(|e| e.is_none());
                let parts: Vec<String> = es
                    .iter()
                    .filter(|e| !e.is_none())
                    .map(|e| readable(e, stack, indent))
                    .collect();
                let mut text = parts.join(" | ");
                if optional {
                    text.push('?');
                }
                text
            }
            TypeKind::Object(object) => {
                let name = object_name(object);
                if let Some(name) = name {
                    let expand = match stack.named {
                        NamedObjects::Always => true,
                        NamedObjects::TopLevel => stack.stack.is_empty(),
                        NamedObjects::Never => false,
                    };
                    if !expand || stack.stack.contains(&ty.addr()) {
                        return name.to_string();
                    }
                } else if stack.stack.contains(&ty.addr()) {
                    return "...".into();
                }
                let properties = object.properties();
                if properties.is_empty() {
                    return "{}".into();
                }
                stack.stack.push(ty.addr());
                let inner_indent = indent + 2;
                let fields: Vec<String> = properties
                    .iter()
                    .map(|(key, t)| {
                        format!(
                            "{}: {}",
                            property_name(key),
                            readable(t, stack, inner_indent)
                        )
                    })
                    .collect();
                stack.stack.pop();
                let one_line = format!("{{ {} }}", fields.join(", "));
                if indent + one_line.len() <= MAX_LINE && !one_line.contains('\n') {
                    return one_line;
                }
                let pad = " ".repeat(inner_indent);
                let mut text = String::from("{\n");
                for field in fields {
                    let _ = writeln!(text, "{pad}{field},");
                }
                text.push_str(&" ".repeat(indent));
                text.push('}');
                text
            }
            TypeKind::Const(c) => c.value.to_string(),
            TypeKind::Enum(e) => {
                let values: Vec<String> = e.values.iter().map(|v| v.to_string()).collect();
                format!("enum({})", values.join(" | "))
            }
        }
    })
}
