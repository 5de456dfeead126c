//! A readable printer for schema-derived PCL types: like the readable printer of `pcl-types`,
//! but named schema objects and resources print as their token instead of their (often huge)
//! structure, which is what a program author reading `pcl schema show` wants.

use pcl_types::{Annotation, Type, TypeKind};

/// `string | output(string)`, `list(kubernetes:core/v1:Container)?`, `enum(aws:s3:CannedAcl)`.
pub fn readable_type(ty: impl std::borrow::Borrow<Type>) -> String {
    let mut out = String::new();
    write_type(ty.borrow(), &mut out);
    out
}

/// The token a named schema object or resource prints as.
fn object_name(annotations: &[Annotation]) -> Option<&str> {
    annotations.iter().find_map(|a| match a {
        Annotation::SchemaObject(token)
        | Annotation::ResourceOutputs(token)
        | Annotation::ResourceInputs(token) => Some(&**token),
        Annotation::Other(_) => None,
    })
}

fn write_type(ty: &Type, out: &mut String) {
    match ty.kind() {
        TypeKind::Dynamic => out.push_str("dynamic"),
        TypeKind::None => out.push_str("none"),
        TypeKind::Bool => out.push_str("bool"),
        TypeKind::Int => out.push_str("int"),
        TypeKind::Number => out.push_str("number"),
        TypeKind::String => out.push_str("string"),
        TypeKind::Opaque(name) => out.push_str(name),
        TypeKind::List(e) => wrap("list", e, out),
        TypeKind::Map(e) => wrap("map", e, out),
        TypeKind::Set(e) => wrap("set", e, out),
        TypeKind::Output(e) => wrap("output", e, out),
        TypeKind::Promise(e) => wrap("promise", e, out),
        TypeKind::Tuple(elements) => {
            out.push('(');
            for (i, e) in elements.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_type(e, out);
            }
            out.push(')');
        }
        TypeKind::Object(object) => match object_name(object.annotations()) {
            Some(name) => out.push_str(name),
            None => {
                let properties = object.properties();
                if properties.is_empty() {
                    out.push_str("{}");
                    return;
                }
                out.push_str("{ ");
                for (i, (name, t)) in properties.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(name);
                    out.push_str(": ");
                    write_type(t, out);
                }
                out.push_str(" }");
            }
        },
        TypeKind::Union(elements) => {
            let mut optional = false;
            let mut first = true;
            for e in elements.iter() {
                if e.is_none() {
                    optional = true;
                    continue;
                }
                if !first {
                    out.push_str(" | ");
                }
                first = false;
                write_type(e, out);
            }
            if optional {
                out.push('?');
            }
        }
        TypeKind::Const(_) => out.push_str(&ty.display_readable()),
        TypeKind::Enum(e) => {
            out.push_str("enum(");
            out.push_str(&e.token);
            out.push(')');
        }
    }
}

fn wrap(name: &str, element: &Type, out: &mut String) {
    out.push_str(name);
    out.push('(');
    write_type(element, out);
    out.push(')');
}
