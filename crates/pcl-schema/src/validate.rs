//! Whole-package validation for `pcl schema check` and the corpus tests: decode every definition,
//! check tokens, references and methods, and map every definition to PCL types.

use std::collections::HashMap;

use pcl_diagnostics::Severity;

use crate::diagnostic::{JsonPath, Problems, SchemaDiagnostic};
use crate::package::Package;
use crate::registry::SchemaRegistry;
use serde_json::Value;

use crate::spec::{
    FunctionSpec, Primitive, PropertySpec, RefSection, ResourceSpec, ReturnSpec, TypeDefSpec,
    TypeKind, TypeRef, TypeSpec,
};
use crate::token::check_definition_token;

/// Every problem in `package`, sorted by path. External references are followed through
/// `registry`; a package it cannot provide is a warning (the schema itself may be fine).
pub fn check_package(package: &Package, registry: &SchemaRegistry) -> Vec<SchemaDiagnostic> {
    let mut out: Vec<SchemaDiagnostic> = package.load_diagnostics().to_vec();
    let mut problems = Problems::default();
    let mut checker = RefChecker {
        package,
        registry,
        problems: &mut problems,
    };

    let resources_path = JsonPath::root().key("resources");
    let mut method_owner: HashMap<String, String> = HashMap::new();
    for token in package.resource_tokens() {
        let path = resources_path.key(token);
        if let Err(message) = check_definition_token(token) {
            checker.problems.error(&path, message);
        }
        if *token == package.provider_token() {
            // The token names the provider, which `provider` defines (checked below).
            checker.problems.warning(
                &path,
                format!("`{token}` is the package's provider, defined by `provider`: this definition is ignored"),
            );
            continue;
        }
        let Ok(found) = package.lookup_resource(token) else {
            continue;
        };
        let decoded = package.resource(&found);
        out.extend(decoded.diagnostics.iter().cloned());
        checker.resource(&decoded.spec, &path);
        checker.methods(&decoded.spec, &path, &mut method_owner);
    }
    if package.has_provider() {
        let decoded = package.provider();
        out.extend(decoded.diagnostics.iter().cloned());
        checker.resource(&decoded.spec, &JsonPath::root().key("provider"));
    }

    let functions_path = JsonPath::root().key("functions");
    for token in package.function_tokens() {
        let path = functions_path.key(token);
        if let Err(message) = check_definition_token(token) {
            checker.problems.error(&path, message);
        }
        let Ok(found) = package.lookup_function(token) else {
            continue;
        };
        if let Some(decoded) = package.function(&found) {
            out.extend(decoded.diagnostics.iter().cloned());
            checker.function(&decoded.spec, &path);
        }
    }

    let config = package.config();
    out.extend(config.diagnostics.iter().cloned());
    checker.properties(
        &config.spec.variables,
        &JsonPath::root().key("config").key("variables"),
    );

    let types_path = JsonPath::root().key("types");
    for token in package.type_tokens() {
        let path = types_path.key(token);
        if let Err(message) = check_definition_token(token) {
            checker.problems.error(&path, message);
        }
        let Some(index) = package.type_index(token) else {
            continue;
        };
        let decoded = package.type_at(index);
        out.extend(decoded.diagnostics.iter().cloned());
        if let Some(TypeDefSpec::Object(object)) = decoded.spec.as_ref() {
            checker.properties(&object.properties, &path.key("properties"));
        }
    }

    out.extend(problems.into_diagnostics(package.file()));
    out.extend(crate::types::check_types(package, registry));
    out.sort_by(|a, b| (a.path.as_str(), &a.message).cmp(&(b.path.as_str(), &b.message)));
    out.dedup();
    out
}

/// Whether any of `diagnostics` is an error.
pub fn has_errors(diagnostics: &[SchemaDiagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

struct RefChecker<'a> {
    package: &'a Package,
    registry: &'a SchemaRegistry,
    problems: &'a mut Problems,
}

impl RefChecker<'_> {
    fn resource(&mut self, spec: &ResourceSpec, path: &JsonPath) {
        self.properties(&spec.outputs, &path.key("properties"));
        self.properties(&spec.inputs, &path.key("inputProperties"));
        if let Some(state) = &spec.state_inputs {
            self.properties(state, &path.key("stateInputs").key("properties"));
        }
    }

    fn function(&mut self, spec: &FunctionSpec, path: &JsonPath) {
        if let Some(inputs) = &spec.inputs {
            self.properties(inputs, &path.key("inputs").key("properties"));
        }
        match &spec.outputs {
            ReturnSpec::None => {}
            ReturnSpec::Object(props) => {
                self.properties(props, &path.key("outputs").key("properties"))
            }
            ReturnSpec::Type(ty) => self.type_spec(ty, &path.key("outputs")),
        }
    }

    fn properties(&mut self, props: &[PropertySpec], path: &JsonPath) {
        for p in props {
            let p_path = path.key(&p.name);
            self.type_spec(&p.ty, &p_path);
            if let Some(value) = &p.default {
                let d_path = p_path.key("default");
                match self.default_fit(&p.ty, value) {
                    DefaultFit::Fits => {}
                    DefaultFit::Invalid(message) => self.problems.error(&d_path, message),
                    DefaultFit::NotAnEnumValue(message) => self.problems.warning(&d_path, message),
                }
            }
        }
    }

    /// Whether `value` is a valid default for a property of type `ty`, as Pulumi's
    /// `bindDefaultValue` decides: a primitive must match, an enum's element type must match, a
    /// union's `type` (or else any member) must accept it, and no other type may have a default.
    /// Pulumi does not compare an enum default with the enum's values; a value that is not one
    /// of them is a warning here.
    fn default_fit(&self, ty: &TypeSpec, value: &Value) -> DefaultFit {
        match &ty.kind {
            TypeKind::Primitive(p) => primitive_fit(*p, value),
            TypeKind::Union(union) => {
                if let Some(p) = union.default {
                    return primitive_fit(p, value);
                }
                let fits: Vec<DefaultFit> = union
                    .members
                    .iter()
                    .map(|m| self.default_fit(m, value))
                    .collect();
                if fits.iter().any(|f| matches!(f, DefaultFit::Fits)) {
                    DefaultFit::Fits
                } else if let Some(f) = fits
                    .iter()
                    .find(|f| matches!(f, DefaultFit::NotAnEnumValue(_)))
                {
                    f.clone()
                } else {
                    DefaultFit::Invalid(format!(
                        "invalid default value `{value}`: no member of the union accepts it"
                    ))
                }
            }
            TypeKind::Ref(target) if target.section == RefSection::Types => {
                let loaded;
                let package = match &target.external {
                    None => self.package,
                    Some(e) => match self.registry.package(&e.name, e.version.as_deref()) {
                        Ok(p) => {
                            loaded = p;
                            &*loaded
                        }
                        // Reported with the reference.
                        Err(_) => return DefaultFit::Fits,
                    },
                };
                let Some(index) = package.type_index(&target.token) else {
                    // A dangling reference (a warning) is opaque: nothing to check against.
                    return DefaultFit::Fits;
                };
                match package.type_at(index).spec.as_ref() {
                    Some(TypeDefSpec::Enum(e)) => match primitive_fit(e.element, value) {
                        DefaultFit::Fits if !e.values.iter().any(|v| same_value(&v.value, value)) => {
                            DefaultFit::NotAnEnumValue(format!(
                                "default value `{value}` is not one of the values of enum `{}`",
                                target.token
                            ))
                        }
                        fit => fit,
                    },
                    Some(TypeDefSpec::Object(_)) => DefaultFit::Invalid(format!(
                        "object type `{}` cannot have a default value: only booleans, integers, numbers, strings and enums may",
                        target.token
                    )),
                    None => DefaultFit::Fits,
                }
            }
            TypeKind::Invalid => DefaultFit::Fits,
            _ => DefaultFit::Invalid(format!(
                "{} property cannot have a default value: only booleans, integers, numbers, strings and enums may",
                kind_name(&ty.kind)
            )),
        }
    }

    fn type_spec(&mut self, ty: &TypeSpec, path: &JsonPath) {
        match &ty.kind {
            TypeKind::Array(element) => self.type_spec(element, &path.key("items")),
            TypeKind::Map(element) => self.type_spec(element, &path.key("additionalProperties")),
            TypeKind::Union(union) => {
                for (i, member) in union.members.iter().enumerate() {
                    self.type_spec(member, &path.key("oneOf").index(i));
                }
                if let Some(d) = &union.discriminator {
                    for (value, target) in &d.mapping {
                        self.reference(
                            target,
                            &path.key("discriminator").key("mapping").key(value),
                        );
                    }
                }
            }
            TypeKind::Ref(target) => self.reference(target, &path.key("$ref")),
            _ => {}
        }
    }

    fn reference(&mut self, target: &TypeRef, path: &JsonPath) {
        let loaded;
        let package = match &target.external {
            None => self.package,
            Some(external) => match self
                .registry
                .package(&external.name, external.version.as_deref())
            {
                Ok(other) => {
                    loaded = other;
                    &*loaded
                }
                Err(err) => {
                    self.problems
                        .warning(path, format!("cannot check the reference: {err}"));
                    return;
                }
            },
        };
        let exists = match target.section {
            RefSection::Types => package.type_index(&target.token).is_some(),
            // `#/resources/pulumi:providers:<pkg>` is the provider, as `#/provider` is.
            RefSection::Resources => {
                package.resource_index(&target.token).is_some()
                    || target.token == package.provider_token()
            }
            RefSection::Provider => true,
        };
        // Pulumi binds PCL programs with dangling references allowed (they become opaque
        // types), and several real schemas have them, so they are warnings.
        if !exists {
            let noun = match target.section {
                RefSection::Types => "type",
                _ => "resource",
            };
            self.problems.warning(
                path,
                format!(
                    "{noun} `{}` not found in package `{}`: it is treated as an opaque type",
                    target.token,
                    package.name()
                ),
            );
        }
    }

    /// Pulumi's method rules: the function exists, is named `<resource token>/<name>`, is the
    /// method of one resource only, takes `__self__`, and no property has the method's name.
    fn methods(
        &mut self,
        spec: &ResourceSpec,
        path: &JsonPath,
        owner: &mut HashMap<String, String>,
    ) {
        for (name, function_token) in &spec.methods {
            let method_path = path.key("methods").key(name);
            let Some(index) = self.package.function_index(function_token) else {
                self.problems
                    .error(&method_path, format!("unknown function `{function_token}`"));
                continue;
            };
            if !function_token
                .strip_prefix(spec.token.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
            {
                self.problems.error(
                    &method_path,
                    format!("invalid function token format `{function_token}`: a method's function is named `{}/NAME`", spec.token),
                );
                continue;
            }
            if owner
                .insert(function_token.clone(), spec.token.clone())
                .is_some()
            {
                self.problems.error(
                    &method_path,
                    format!("function `{function_token}` is already a method"),
                );
                continue;
            }
            let function = &self.package.function_at(index).spec;
            let has_self = function
                .inputs
                .as_ref()
                .is_some_and(|inputs| inputs.iter().any(|p| p.name == "__self__"));
            if !has_self {
                self.problems.error(
                    &method_path,
                    format!("function `{function_token}` has no `__self__` parameter"),
                );
            }
            if spec.outputs.iter().any(|p| &p.name == name) {
                self.problems.error(
                    &method_path,
                    format!("`{}` already has a property named `{name}`", spec.token),
                );
            }
        }
    }
}

/// Whether a default value suits its property.
#[derive(Clone, Debug)]
enum DefaultFit {
    Fits,
    /// An error, as in Pulumi.
    Invalid(String),
    /// Of the enum's element type but not one of its values: a warning.
    NotAnEnumValue(String),
}

/// Pulumi's `bindPrimitiveValue`: the JSON kind must match, and an integer must be integral
/// and fit in 32 bits.
fn primitive_fit(p: Primitive, value: &Value) -> DefaultFit {
    if p.admits(value) {
        DefaultFit::Fits
    } else {
        DefaultFit::Invalid(format!(
            "invalid default value `{value}` for {} property",
            p.schema_name()
        ))
    }
}

/// JSON equality, with numbers compared by value (`1` and `1.0` are the same enum value).
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn kind_name(kind: &TypeKind) -> &'static str {
    match kind {
        TypeKind::Primitive(_) => "a primitive",
        TypeKind::Any => "a `pulumi.json#/Any`",
        TypeKind::Json => "a `pulumi.json#/Json`",
        TypeKind::Archive => "a `pulumi.json#/Archive`",
        TypeKind::Asset => "a `pulumi.json#/Asset`",
        TypeKind::Array(_) => "an array",
        TypeKind::Map(_) => "a map",
        TypeKind::Ref(_) => "a resource reference",
        TypeKind::Union(_) => "a union",
        TypeKind::Invalid => "an invalid",
    }
}
