//! What the IDE reads of package schemas: the definitions behind resource tokens, invoke
//! tokens and properties, for descriptions and completion.

use std::sync::Arc;

use pcl_db::{Program, RootDatabase};
use pcl_hir::{Node, NodeKind};
use pcl_schema::spec::PropertySpec;
use pcl_schema::Package;

/// The package a token belongs to, as the program's `package` blocks pin it.
pub(crate) fn package_of(db: &RootDatabase, program: Program, token: &str) -> Option<Arc<Package>> {
    let name = pcl_schema::token::package_of_token(token)?;
    package_named(db, program, name)
}

pub(crate) fn package_named(
    db: &RootDatabase,
    program: Program,
    name: &str,
) -> Option<Arc<Package>> {
    let request = pcl_sema::packages::package_request(db, program, name);
    pcl_sema::packages::package_schema(db, request)
        .as_ref()
        .ok()
        .map(|p| p.0.clone())
}

/// A resource's definition: description and properties.
pub(crate) struct ResourceDef {
    pub(crate) token: String,
    pub(crate) description: Option<String>,
    pub(crate) inputs: Vec<PropertySpec>,
    pub(crate) outputs: Vec<PropertySpec>,
}

/// The token a `resource` or `read` block names and the package request it makes: the
/// binder's (`pcl_sema::packages::resource_package_request`, which honours a `version` option),
/// so that what an editor describes is what the block is checked against.
fn resource_request<'db>(
    db: &'db RootDatabase,
    node: Node<'db>,
) -> Option<(&'db str, pcl_sema::packages::PackageRequest<'db>)> {
    if !matches!(node.kind(db), NodeKind::Resource | NodeKind::Read) {
        return None;
    }
    let token = node.signature(db).label(1)?;
    let package = pcl_schema::token::package_of_token(token)?;
    let program = node.file(db).program(db);
    let request = pcl_sema::packages::resource_package_request(db, program, node.body(db), package);
    Some((token, request))
}

/// The package of the resource type a block names, and the token.
fn resource_package<'db>(
    db: &'db RootDatabase,
    node: Node<'db>,
) -> Option<(&'db str, Arc<Package>)> {
    let (token, request) = resource_request(db, node)?;
    let package = pcl_sema::packages::package_schema(db, request)
        .as_ref()
        .ok()?;
    Some((token, package.0.clone()))
}

/// The binder's view of a resource block's type: its input and output objects.
pub(crate) fn resource_types<'db>(
    db: &'db RootDatabase,
    node: Node<'db>,
) -> Option<&'db pcl_sema::packages::ResourceSchema> {
    let (token, request) = resource_request(db, node)?;
    let request = pcl_sema::packages::TokenRequest::new(db, request, token.to_string());
    pcl_sema::packages::resource_schema(db, request)
        .as_ref()
        .ok()
}

/// The definition of the resource type a `resource` or `read` block names.
pub(crate) fn resource_of_node(db: &RootDatabase, node: Node<'_>) -> Option<ResourceDef> {
    let (token, package) = resource_package(db, node)?;
    let found = package.lookup_resource(token).ok()?;
    let spec = &package.resource(&found).spec;
    Some(ResourceDef {
        token: found.canonical_token.clone(),
        description: spec.description.clone(),
        inputs: spec.inputs.clone(),
        outputs: spec.outputs.clone(),
    })
}

/// The methods of the resource type a `resource` block names: each name with its function's
/// token.
pub(crate) fn resource_methods(db: &RootDatabase, node: Node<'_>) -> Vec<(String, String)> {
    let Some((token, package)) = resource_package(db, node) else {
        return Vec::new();
    };
    let Ok(found) = package.lookup_resource(token) else {
        return Vec::new();
    };
    package.resource(&found).spec.methods.clone()
}

/// A function's definition, for `invoke("token", ...)`.
pub(crate) struct FunctionDef {
    pub(crate) token: String,
    pub(crate) description: Option<String>,
    pub(crate) inputs: Vec<PropertySpec>,
}

pub(crate) fn function_def(
    db: &RootDatabase,
    program: Program,
    token: &str,
) -> Option<FunctionDef> {
    let package = package_of(db, program, token)?;
    let found = package.lookup_function(token).ok()?;
    let spec = &package.function(&found)?.spec;
    Some(FunctionDef {
        token: found.canonical_token.clone(),
        description: spec.description.clone(),
        inputs: spec.inputs.clone().unwrap_or_default(),
    })
}

/// The arguments object `invoke("token", ...)` takes (its plain shape, as written in a
/// program), from the package the program declares or the one available.
pub(crate) fn invoke_arguments_type(
    db: &RootDatabase,
    program: Program,
    token: &str,
) -> Option<pcl_types::Type> {
    Some(function_signature(db, program, token)?.plain_args.clone())
}

/// What `invoke("token", ...)` returns (without its eventual).
pub(crate) fn invoke_result_type(
    db: &RootDatabase,
    program: Program,
    token: &str,
) -> Option<pcl_types::Type> {
    Some(function_signature(db, program, token)?.result.clone())
}

fn function_signature(
    db: &RootDatabase,
    program: Program,
    token: &str,
) -> Option<Arc<pcl_schema::FunctionSignature>> {
    let package = pcl_schema::token::package_of_token(token)?;
    let request = pcl_sema::packages::package_request(db, program, package);
    let request = pcl_sema::packages::TokenRequest::new(db, request, token.to_string());
    let function = pcl_sema::packages::function_schema(db, request)
        .as_ref()
        .ok()?;
    Some(function.signature.clone())
}

/// Every package whose schema is available to `program` (at the version it pins), by name.
pub(crate) fn available_packages(db: &RootDatabase, program: Program) -> Vec<Arc<Package>> {
    let mut names: Vec<String> = pcl_db::workspace(db)
        .schema_files(db)
        .iter()
        .map(|f| f.package(db).clone())
        .collect();
    names.sort();
    names.dedup();
    names
        .iter()
        .filter_map(|name| package_named(db, program, name))
        .collect()
}

/// Every resource token of every package whose schema is available, as a program writes it.
pub(crate) fn all_resource_tokens(
    db: &RootDatabase,
    program: Program,
) -> Vec<(String, Arc<Package>)> {
    let mut out = Vec::new();
    for package in available_packages(db, program) {
        for token in package.resource_tokens() {
            out.push((token.clone(), package.clone()));
        }
    }
    out
}

/// The first paragraph of a schema description, trimmed: enough for a completion item.
pub(crate) fn summary(description: &str) -> String {
    pcl_schema::description_markdown(description)
        .split("\n\n")
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

/// Where a part of a resource's schema is defined (in its schema file, when that is a file on
/// disk).
pub(crate) enum ResourcePart<'a> {
    /// The resource type itself.
    Type,
    /// An input property.
    Input(&'a str),
    /// An output property.
    Output(&'a str),
}

/// Where the resource type a block names, or one of its properties, is defined.
pub(crate) fn resource_location(
    db: &RootDatabase,
    node: Node<'_>,
    part: ResourcePart<'_>,
) -> Option<crate::NavigationTarget> {
    let (token, package) = resource_package(db, node)?;
    let found = package.lookup_resource(token).ok()?;
    let property = match part {
        ResourcePart::Type => None,
        ResourcePart::Input(name) => Some((&["inputProperties"][..], name)),
        ResourcePart::Output(name) => Some((&["properties"][..], name)),
    };
    definition_location(&package, "resources", &found, property)
}

/// Where the schema types a type is made of are defined: the resources whose outputs it
/// holds, the object types and enums it is or holds (through lists, maps, outputs and
/// unions), each once, in the order met.
pub(crate) fn type_locations(
    db: &RootDatabase,
    program: Program,
    ty: &pcl_types::Type,
) -> Vec<crate::NavigationTarget> {
    let mut named: Vec<(&'static str, String)> = Vec::new();
    named_types(ty, &mut named, 0);
    named
        .into_iter()
        .filter_map(|(section, token)| {
            let package = package_of(db, program, &token)?;
            let found = match section {
                "resources" => package.lookup_resource(&token).ok()?,
                _ => package.lookup_type(&token).ok()?,
            };
            definition_location(&package, section, &found, None)
        })
        .collect()
}

/// The schema tokens a type names, with the schema section defining each. Types share their
/// parts but are finite trees below deferred objects, whose properties are not entered; the
/// depth bound keeps a hostile type cheap.
fn named_types(ty: &pcl_types::Type, out: &mut Vec<(&'static str, String)>, depth: usize) {
    use pcl_types::{Annotation, TypeKind};
    if depth > 16 || out.len() >= 16 {
        return;
    }
    let mut add = |section: &'static str, token: &str| {
        if !out.iter().any(|(s, t)| *s == section && t == token) {
            out.push((section, token.to_string()));
        }
    };
    match ty.kind() {
        TypeKind::Object(object) => {
            for annotation in object.annotations() {
                match annotation {
                    Annotation::ResourceOutputs(token) | Annotation::ResourceInputs(token) => {
                        add("resources", token)
                    }
                    Annotation::SchemaObject(token) => add("types", token),
                    Annotation::Other(_) => {}
                }
            }
        }
        TypeKind::Enum(e) => add("types", &e.token),
        TypeKind::List(e)
        | TypeKind::Map(e)
        | TypeKind::Set(e)
        | TypeKind::Output(e)
        | TypeKind::Promise(e) => named_types(e, out, depth + 1),
        TypeKind::Tuple(es) | TypeKind::Union(es) => {
            for e in es.iter() {
                named_types(e, out, depth + 1);
            }
        }
        TypeKind::Const(c) => named_types(&c.ty, out, depth + 1),
        _ => {}
    }
}

/// Where the function `invoke("token", ...)` calls (or one of its inputs) is defined.
pub(crate) fn function_location(
    db: &RootDatabase,
    program: Program,
    token: &str,
    input: Option<&str>,
) -> Option<crate::NavigationTarget> {
    let package = package_of(db, program, token)?;
    let found = package.lookup_function(token).ok()?;
    definition_location(
        &package,
        "functions",
        &found,
        input.map(|p| (&["inputs", "properties"][..], p)),
    )
}

/// The place of a definition in a schema file on disk: the key of `found` in `section`, or of
/// a property under it, reached through the keys `path` (each searched after the last). The
/// schema's text is searched, not parsed: a key is found where it is written.
fn definition_location(
    package: &Package,
    section_name: &str,
    found: &pcl_schema::Found,
    property: Option<(&[&str], &str)>,
) -> Option<crate::NavigationTarget> {
    let path = std::path::PathBuf::from(package.file().as_ref());
    if !path.is_file() {
        return None;
    }
    let text = package.text();
    let section = text.find(&format!("\"{section_name}\""))?;
    let key = format!("\"{}\"", found.schema_token);
    let at = section + text[section..].find(&key)?;
    let (start, len, name) = match property {
        None => (at, key.len(), found.canonical_token.clone()),
        Some((path, property)) => {
            let mut from = at;
            for step in path {
                from += text[from..].find(&format!("\"{step}\""))?;
            }
            let key = format!("\"{property}\"");
            (
                from + text[from..].find(&key)?,
                key.len(),
                property.to_string(),
            )
        }
    };
    let range = pcl_diagnostics::TextRange::at(
        pcl_diagnostics::TextSize::from(start as u32),
        pcl_diagnostics::TextSize::from(len as u32),
    );
    Some(crate::NavigationTarget {
        file: path,
        full_range: range,
        focus_range: range,
        name,
        kind: match (property, section_name) {
            (Some(_), _) => crate::SymbolKind::Property,
            (None, "functions") => crate::SymbolKind::Function,
            (None, _) => crate::SymbolKind::Resource,
        },
    })
}

/// The description of property `name` of a schema object type (or of the members of a union
/// of them that have it), from the schema's definition of the type.
pub(crate) fn object_property_doc(
    db: &RootDatabase,
    program: Program,
    ty: &pcl_types::Type,
    name: &str,
) -> Option<String> {
    let ty = crate::completion::strip(ty);
    let members: Vec<pcl_types::Type> = match ty.kind() {
        pcl_types::TypeKind::Union(members) => {
            members.iter().map(crate::completion::strip).collect()
        }
        _ => vec![ty.clone()],
    };
    members.iter().find_map(|member| {
        let pcl_types::TypeKind::Object(object) = member.kind() else {
            return None;
        };
        let token = object.annotations().iter().find_map(|a| match a {
            pcl_types::Annotation::SchemaObject(token) => Some(token.to_string()),
            _ => None,
        })?;
        let package = package_of(db, program, &token)?;
        let found = package.lookup_type(&token).ok()?;
        match package.type_def(&found)? {
            pcl_schema::spec::TypeDefSpec::Object(spec) => spec
                .properties
                .iter()
                .find(|p| p.name == name)?
                .description
                .clone(),
            _ => None,
        }
    })
}

/// An enum a type admits: its token and its string values.
pub(crate) struct EnumChoice {
    pub(crate) token: String,
    pub(crate) values: Vec<String>,
}

/// The enums a type admits (through unions, outputs and optionality), by token.
pub(crate) fn enums_of(ty: &pcl_types::Type) -> Vec<EnumChoice> {
    fn walk(ty: &pcl_types::Type, out: &mut Vec<EnumChoice>, depth: usize) {
        use pcl_types::TypeKind;
        if depth > 8 {
            return;
        }
        match ty.kind() {
            TypeKind::Enum(e) if !out.iter().any(|c| *c.token == *e.token) => {
                out.push(EnumChoice {
                    token: e.token.to_string(),
                    values: e
                        .values
                        .iter()
                        .filter_map(|v| match v {
                            pcl_types::ConstValue::String(s) => Some(s.to_string()),
                            _ => None,
                        })
                        .collect(),
                })
            }
            // A constant a union of objects is told apart by (`kind = "http"`).
            TypeKind::Const(c) => {
                if let pcl_types::ConstValue::String(value) = &c.value {
                    let token = format!("\"{value}\"");
                    if !out.iter().any(|c| c.token == token) {
                        out.push(EnumChoice {
                            token,
                            values: vec![value.to_string()],
                        });
                    }
                }
            }
            TypeKind::Union(members) => members.iter().for_each(|m| walk(m, out, depth + 1)),
            TypeKind::Output(inner) | TypeKind::Promise(inner) => walk(inner, out, depth + 1),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(ty, &mut out, 0);
    out.sort_by(|a, b| a.token.cmp(&b.token));
    out
}

/// The name and description the schema gives an enum value.
pub(crate) fn enum_value_doc(
    db: &RootDatabase,
    program: Program,
    enum_token: &str,
    value: &str,
) -> Option<(Option<String>, Option<String>)> {
    let package = package_of(db, program, enum_token)?;
    let found = package.lookup_type(enum_token).ok()?;
    match package.type_def(&found)? {
        pcl_schema::spec::TypeDefSpec::Enum(spec) => spec
            .values
            .iter()
            .find(|v| v.value.as_str() == Some(value))
            .map(|v| (v.name.clone(), v.description.clone())),
        pcl_schema::spec::TypeDefSpec::Object(_) => None,
    }
}
