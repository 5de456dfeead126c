//! Whole-package validation for `pcl schema check` and the corpus tests: decode every definition,
//! check tokens, references and methods, and map every definition to PCL types.

use std::collections::HashMap;

use crate::diagnostic::{JsonPath, Problems, SchemaDiagnostic, Severity};
use crate::package::Package;
use crate::registry::SchemaRegistry;
use crate::spec::{
    FunctionSpec, PropertySpec, RefSection, ResourceSpec, ReturnSpec, TypeDefSpec, TypeKind,
    TypeRef, TypeSpec,
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
            self.type_spec(&p.ty, &path.key(&p.name));
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
            RefSection::Resources => package.resource_index(&target.token).is_some(),
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
                    "{noun} '{}' not found in package '{}'; it is treated as an opaque type",
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
                    .error(&method_path, format!("unknown function {function_token}"));
                continue;
            };
            if !function_token
                .strip_prefix(spec.token.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
            {
                self.problems.error(
                    &method_path,
                    format!("invalid function token format {function_token}"),
                );
                continue;
            }
            if owner
                .insert(function_token.clone(), spec.token.clone())
                .is_some()
            {
                self.problems.error(
                    &method_path,
                    format!("function {function_token} is already a method"),
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
                    format!("function {function_token} has no __self__ parameter"),
                );
            }
            if spec.outputs.iter().any(|p| &p.name == name) {
                self.problems.error(
                    &method_path,
                    format!("{} already has a property named {name}", spec.token),
                );
            }
        }
    }
}
