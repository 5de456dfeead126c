//! The decoded schema model: what one resource, function or type definition of a package schema
//! says, before any mapping to PCL types. Decoding is tolerant: a malformed part is reported (with
//! its JSON path) and replaced by [`TypeKind::Invalid`] or left out, so one bad property never hides
//! the rest of a definition.

use serde_json::{Map, Value};

use crate::diagnostic::{JsonPath, Problems};

/// The four primitive schema types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    Bool,
    Int,
    Number,
    String,
}

impl Primitive {
    fn from_name(name: &str) -> Option<Primitive> {
        Some(match name {
            "boolean" => Primitive::Bool,
            "integer" => Primitive::Int,
            "number" => Primitive::Number,
            "string" => Primitive::String,
            _ => return None,
        })
    }

    /// The schema spelling (`boolean`, `integer`, `number`, `string`).
    pub fn schema_name(self) -> &'static str {
        match self {
            Primitive::Bool => "boolean",
            Primitive::Int => "integer",
            Primitive::Number => "number",
            Primitive::String => "string",
        }
    }

    /// Whether a JSON value is a valid value of this type (integers must fit in 32 bits, as in
    /// Pulumi's enum checks).
    pub fn admits(self, value: &Value) -> bool {
        match self {
            Primitive::Bool => value.is_boolean(),
            Primitive::String => value.is_string(),
            Primitive::Number => value.is_number(),
            Primitive::Int => value
                .as_i64()
                .or_else(|| {
                    value
                        .as_f64()
                        .filter(|f| f.fract() == 0.0)
                        .map(|f| f as i64)
                })
                .is_some_and(|i| i32::try_from(i).is_ok()),
        }
    }
}

/// A type as the schema writes it, with its own `plain` flag (plain types are not wrapped in
/// `Input` in input shapes).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeSpec {
    pub kind: TypeKind,
    pub plain: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    Primitive(Primitive),
    /// `pulumi.json#/Any`
    Any,
    /// `pulumi.json#/Json`
    Json,
    /// `pulumi.json#/Archive`
    Archive,
    /// `pulumi.json#/Asset`
    Asset,
    Array(Box<TypeSpec>),
    /// `"type": "object"` with `additionalProperties` (string-keyed map).
    Map(Box<TypeSpec>),
    /// A `$ref` to a type, resource or provider of this or another package.
    Ref(TypeRef),
    Union(UnionSpec),
    /// A type spec that failed to decode; the problem has been reported.
    Invalid,
}

/// Where a `$ref` points.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeRef {
    /// `None` for this package; otherwise the other package's name and version from the URL.
    pub external: Option<ExternalPackage>,
    pub section: RefSection,
    /// The referenced token, percent-decoded (`goalias:mod1/v1:Res`); empty for `#/provider`.
    pub token: String,
    /// The `type` written next to the `$ref`, used if the reference dangles.
    pub underlying: Option<Primitive>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExternalPackage {
    pub name: String,
    pub version: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefSection {
    Types,
    Resources,
    Provider,
}

#[derive(Clone, Debug, PartialEq)]
pub struct UnionSpec {
    pub members: Vec<TypeSpec>,
    /// The `type` written next to `oneOf`, if any.
    pub default: Option<Primitive>,
    pub discriminator: Option<Discriminator>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Discriminator {
    pub property: String,
    /// Discriminator value → the `$ref` of the member it selects.
    pub mapping: Vec<(String, TypeRef)>,
}

/// One property of an object, resource or function.
#[derive(Clone, Debug, PartialEq)]
pub struct PropertySpec {
    pub name: String,
    pub ty: TypeSpec,
    pub required: bool,
    pub description: Option<String>,
    pub deprecation: Option<String>,
    /// `const`: the only value the property may take (bool, number or string).
    pub const_value: Option<Value>,
    pub default: Option<Value>,
    pub secret: bool,
    pub replace_on_changes: bool,
    pub will_replace_on_changes: bool,
}

/// A named object type (`#/types/<tok>` with `"type": "object"`).
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectTypeSpec {
    pub token: String,
    pub description: Option<String>,
    pub properties: Vec<PropertySpec>,
    pub is_overlay: bool,
}

/// A named enum type (`#/types/<tok>` with `enum`).
#[derive(Clone, Debug, PartialEq)]
pub struct EnumSpec {
    pub token: String,
    pub description: Option<String>,
    pub element: Primitive,
    pub values: Vec<EnumValueSpec>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumValueSpec {
    pub name: Option<String>,
    pub value: Value,
    pub description: Option<String>,
    pub deprecation: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeDefSpec {
    Object(ObjectTypeSpec),
    Enum(EnumSpec),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResourceSpec {
    pub token: String,
    pub description: Option<String>,
    pub deprecation: Option<String>,
    /// Output properties (`properties` + `required`).
    pub outputs: Vec<PropertySpec>,
    /// Input properties (`inputProperties` + `requiredInputs`).
    pub inputs: Vec<PropertySpec>,
    /// `stateInputs`: the properties accepted when reading an existing resource.
    pub state_inputs: Option<Vec<PropertySpec>>,
    /// Other tokens this resource was known by (`aliases[].type`).
    pub aliases: Vec<String>,
    pub is_component: bool,
    pub is_provider: bool,
    pub is_overlay: bool,
    /// Method name → the token of the function that implements it.
    pub methods: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionSpec {
    pub token: String,
    pub description: Option<String>,
    pub deprecation: Option<String>,
    pub inputs: Option<Vec<PropertySpec>>,
    /// `multiArgumentInputs`: input names in positional order.
    pub multi_argument_inputs: Option<Vec<String>>,
    pub outputs: ReturnSpec,
    /// Whether the return value is plain (not wrapped in an output by method calls).
    pub return_plain: bool,
    pub is_overlay: bool,
}

/// The package's `config`: the configuration variables a stack sets for the provider
/// (`<pkg>:<name>` config keys), which the provider's default instance reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigSpec {
    /// `config.variables`, each required if listed in `config.defaults` (Pulumi's
    /// `ConfigSpec.Required` is serialized as `defaults`).
    pub variables: Vec<PropertySpec>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ReturnSpec {
    None,
    Object(Vec<PropertySpec>),
    Type(TypeSpec),
}

/// Decodes definitions from JSON values, recording problems instead of failing.
pub(crate) struct Decoder<'a> {
    pub(crate) problems: &'a mut Problems,
}

impl Decoder<'_> {
    fn object<'v>(&mut self, value: &'v Value, path: &JsonPath) -> Option<&'v Map<String, Value>> {
        match value {
            Value::Object(map) => Some(map),
            other => {
                self.problems.error(
                    path,
                    format!("expected an object, found {}", describe(other)),
                );
                None
            }
        }
    }

    fn string(&mut self, map: &Map<String, Value>, key: &str, path: &JsonPath) -> Option<String> {
        match map.get(key)? {
            Value::String(s) => Some(s.clone()),
            other => {
                self.problems.error(
                    &path.key(key),
                    format!("expected a string, found {}", describe(other)),
                );
                None
            }
        }
    }

    fn bool(&mut self, map: &Map<String, Value>, key: &str, path: &JsonPath) -> bool {
        match map.get(key) {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                self.problems.error(
                    &path.key(key),
                    format!("expected a boolean, found {}", describe(other)),
                );
                false
            }
        }
    }

    fn string_list(
        &mut self,
        map: &Map<String, Value>,
        key: &str,
        path: &JsonPath,
    ) -> Option<Vec<String>> {
        let value = map.get(key)?;
        let path = path.key(key);
        let Value::Array(items) = value else {
            self.problems.error(
                &path,
                format!("expected an array of strings, found {}", describe(value)),
            );
            return None;
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) => out.push(s.clone()),
                other => self.problems.error(
                    &path.index(i),
                    format!("expected a string, found {}", describe(other)),
                ),
            }
        }
        Some(out)
    }

    /// A type spec (`type`/`items`/`additionalProperties`/`$ref`/`oneOf`/`plain`).
    pub(crate) fn type_spec(&mut self, value: &Value, path: &JsonPath) -> TypeSpec {
        let Some(map) = self.object(value, path) else {
            return TypeSpec {
                kind: TypeKind::Invalid,
                plain: false,
            };
        };
        let plain = self.bool(map, "plain", path);
        let kind = self.type_kind(map, path);
        TypeSpec { kind, plain }
    }

    fn primitive_field(&mut self, map: &Map<String, Value>, path: &JsonPath) -> Option<Primitive> {
        let name = self.string(map, "type", path)?;
        let primitive = Primitive::from_name(&name);
        if primitive.is_none() {
            self.problems.error(
                &path.key("type"),
                format!("unknown primitive type `{name}`"),
            );
        }
        primitive
    }

    fn type_kind(&mut self, map: &Map<String, Value>, path: &JsonPath) -> TypeKind {
        if let Some(reference) = map.get("$ref") {
            let ref_path = path.key("$ref");
            let Value::String(reference) = reference else {
                self.problems.error(
                    &ref_path,
                    format!("expected a string, found {}", describe(reference)),
                );
                return TypeKind::Invalid;
            };
            return match parse_ref(reference) {
                Ok(ParsedRef::Builtin(kind)) => kind,
                Ok(ParsedRef::Named(mut named)) => {
                    // Schemas often write `"type": "object"` beside a `$ref`; only a primitive
                    // matters (it types a dangling reference).
                    named.underlying = map
                        .get("type")
                        .and_then(Value::as_str)
                        .and_then(Primitive::from_name);
                    TypeKind::Ref(named)
                }
                Err(message) => {
                    self.problems.error(&ref_path, message);
                    TypeKind::Invalid
                }
            };
        }
        if let Some(one_of) = map.get("oneOf") {
            return self.union(map, one_of, path);
        }
        let Some(type_name) = map.get("type") else {
            self.problems
                .error(path, "a type needs `type`, `$ref` or `oneOf`");
            return TypeKind::Invalid;
        };
        let Value::String(type_name) = type_name else {
            self.problems.error(
                &path.key("type"),
                format!("expected a string, found {}", describe(type_name)),
            );
            return TypeKind::Invalid;
        };
        match type_name.as_str() {
            "array" => match map.get("items") {
                Some(items) => TypeKind::Array(Box::new(self.type_spec(items, &path.key("items")))),
                None => {
                    self.problems.error(path, "an array type needs `items`");
                    TypeKind::Invalid
                }
            },
            "object" => match map.get("additionalProperties") {
                Some(element) => TypeKind::Map(Box::new(
                    self.type_spec(element, &path.key("additionalProperties")),
                )),
                None => TypeKind::Map(Box::new(TypeSpec {
                    kind: TypeKind::Primitive(Primitive::String),
                    plain: false,
                })),
            },
            other => match Primitive::from_name(other) {
                Some(p) => TypeKind::Primitive(p),
                None => {
                    self.problems
                        .error(&path.key("type"), format!("unknown type kind `{other}`"));
                    TypeKind::Invalid
                }
            },
        }
    }

    fn union(&mut self, map: &Map<String, Value>, one_of: &Value, path: &JsonPath) -> TypeKind {
        let one_of_path = path.key("oneOf");
        let Value::Array(members) = one_of else {
            self.problems.error(
                &one_of_path,
                format!("expected an array, found {}", describe(one_of)),
            );
            return TypeKind::Invalid;
        };
        if members.len() < 2 {
            self.problems
                .error(&one_of_path, "a union must have at least two members");
        }
        let members: Vec<TypeSpec> = members
            .iter()
            .enumerate()
            .map(|(i, m)| self.type_spec(m, &one_of_path.index(i)))
            .collect();
        let default = if map.contains_key("type") {
            self.primitive_field(map, path)
        } else {
            None
        };
        let discriminator = map
            .get("discriminator")
            .and_then(|d| self.discriminator(d, &path.key("discriminator")));
        TypeKind::Union(UnionSpec {
            members,
            default,
            discriminator,
        })
    }

    fn discriminator(&mut self, value: &Value, path: &JsonPath) -> Option<Discriminator> {
        let map = self.object(value, path)?;
        let Some(property) = self.string(map, "propertyName", path) else {
            self.problems
                .error(path, "a discriminator needs `propertyName`");
            return None;
        };
        let mut mapping = Vec::new();
        if let Some(m) = map.get("mapping") {
            let mapping_path = path.key("mapping");
            if let Some(m) = self.object(m, &mapping_path) {
                for (value, target) in m {
                    let target_path = mapping_path.key(value);
                    match target {
                        Value::String(r) => match parse_ref(r) {
                            Ok(ParsedRef::Named(named)) => mapping.push((value.clone(), named)),
                            Ok(ParsedRef::Builtin(_)) => self
                                .problems
                                .error(&target_path, "a discriminator must map to a named type"),
                            Err(message) => self.problems.error(&target_path, message),
                        },
                        other => self.problems.error(
                            &target_path,
                            format!("expected a string, found {}", describe(other)),
                        ),
                    }
                }
            }
        }
        Some(Discriminator { property, mapping })
    }

    /// `properties` + a required-names list, in declaration order.
    pub(crate) fn properties(
        &mut self,
        map: &Map<String, Value>,
        properties_key: &str,
        required_key: &str,
        path: &JsonPath,
    ) -> Vec<PropertySpec> {
        let required = self
            .string_list(map, required_key, path)
            .unwrap_or_default();
        let mut out = Vec::new();
        if let Some(props) = map.get(properties_key) {
            let props_path = path.key(properties_key);
            if let Some(props) = self.object(props, &props_path) {
                for (name, value) in props {
                    let prop_path = props_path.key(name);
                    if let Some(p) = self.property(name, value, &prop_path) {
                        out.push(PropertySpec {
                            required: required.contains(name),
                            ..p
                        });
                    }
                }
            }
        }
        for (i, name) in required.iter().enumerate() {
            if !out.iter().any(|p| &p.name == name) {
                self.problems.error(
                    &path.key(required_key).index(i),
                    format!("required property `{name}` is not defined in `{properties_key}`"),
                );
            }
        }
        out
    }

    fn property(&mut self, name: &str, value: &Value, path: &JsonPath) -> Option<PropertySpec> {
        let map = self.object(value, path)?;
        let ty = self.type_spec(value, path);
        let const_value = map.get("const").cloned();
        if let Some(c) = &const_value {
            if !(c.is_boolean() || c.is_number() || c.is_string()) {
                self.problems.error(
                    &path.key("const"),
                    format!(
                        "a constant must be a boolean, number or string, found {}",
                        describe(c)
                    ),
                );
            }
        }
        Some(PropertySpec {
            name: name.to_string(),
            ty,
            required: false,
            description: self.string(map, "description", path),
            deprecation: self.string(map, "deprecationMessage", path),
            const_value,
            default: map.get("default").cloned(),
            secret: self.bool(map, "secret", path),
            replace_on_changes: self.bool(map, "replaceOnChanges", path),
            will_replace_on_changes: self.bool(map, "willReplaceOnChanges", path),
        })
    }

    /// A `types` entry: an object type or an enum.
    pub(crate) fn type_def(
        &mut self,
        token: &str,
        value: &Value,
        path: &JsonPath,
    ) -> Option<TypeDefSpec> {
        let map = self.object(value, path)?;
        let description = self.string(map, "description", path);
        let is_overlay = self.bool(map, "isOverlay", path);
        if let Some(values) = map.get("enum") {
            let element = self.primitive_field(map, path).or_else(|| {
                if !map.contains_key("type") {
                    self.problems
                        .error(path, "an enum needs a primitive `type`");
                }
                None
            })?;
            let values_path = path.key("enum");
            let Value::Array(values) = values else {
                self.problems.error(
                    &values_path,
                    format!("expected an array, found {}", describe(values)),
                );
                return None;
            };
            let mut out = Vec::with_capacity(values.len());
            for (i, v) in values.iter().enumerate() {
                let v_path = values_path.index(i);
                let Some(v_map) = self.object(v, &v_path) else {
                    continue;
                };
                let Some(value) = v_map.get("value") else {
                    self.problems.error(&v_path, "an enum value needs `value`");
                    continue;
                };
                if !element.admits(value) {
                    self.problems.error(
                        &v_path.key("value"),
                        format!(
                            "enum value `{value}` is not a valid {} (the enum's type)",
                            element.schema_name()
                        ),
                    );
                    continue;
                }
                out.push(EnumValueSpec {
                    name: self.string(v_map, "name", &v_path),
                    value: value.clone(),
                    description: self.string(v_map, "description", &v_path),
                    deprecation: self.string(v_map, "deprecationMessage", &v_path),
                });
            }
            return Some(TypeDefSpec::Enum(EnumSpec {
                token: token.to_string(),
                description,
                element,
                values: out,
            }));
        }
        match map.get("type") {
            Some(Value::String(t)) if t == "object" => {}
            Some(other) => {
                self.problems.error(
                    &path.key("type"),
                    format!(
                        "a named type must be an object or an enum, found type `{}`",
                        other
                    ),
                );
                return None;
            }
            // Pulumi binds a definition as an object only when it says so; anything else is
            // an error there. It is still decoded as an object here, so the rest stays usable.
            None => self.problems.error(
                path,
                "a named type needs `\"type\": \"object\"` (or `enum` and a primitive `type` for an enum)",
            ),
        }
        Some(TypeDefSpec::Object(ObjectTypeSpec {
            token: token.to_string(),
            description,
            properties: self.properties(map, "properties", "required", path),
            is_overlay,
        }))
    }

    /// A `resources` entry, or the `provider` (then `is_provider`).
    pub(crate) fn resource(
        &mut self,
        token: &str,
        value: &Value,
        path: &JsonPath,
        is_provider: bool,
    ) -> ResourceSpec {
        let empty = Map::new();
        let map = self.object(value, path).unwrap_or(&empty);
        let state_inputs = map.get("stateInputs").and_then(|s| {
            let s_path = path.key("stateInputs");
            let s_map = self.object(s, &s_path)?;
            Some(self.properties(s_map, "properties", "required", &s_path))
        });
        let mut aliases = Vec::new();
        if let Some(list) = map.get("aliases") {
            let a_path = path.key("aliases");
            match list {
                Value::Array(items) => {
                    // An alias is a token (newer schemas) or an object whose `type` is one.
                    for (i, item) in items.iter().enumerate() {
                        match item {
                            Value::String(t) => aliases.push(t.clone()),
                            Value::Object(m) => {
                                if let Some(t) = self.string(m, "type", &a_path.index(i)) {
                                    aliases.push(t);
                                }
                            }
                            other => self.problems.error(
                                &a_path.index(i),
                                format!("expected a token or an object, found {}", describe(other)),
                            ),
                        }
                    }
                }
                other => self.problems.error(
                    &a_path,
                    format!("expected an array, found {}", describe(other)),
                ),
            }
        }
        let mut methods = Vec::new();
        if let Some(m) = map.get("methods") {
            let m_path = path.key("methods");
            if let Some(m) = self.object(m, &m_path) {
                for (name, target) in m {
                    match target {
                        Value::String(t) => methods.push((name.clone(), t.clone())),
                        other => self.problems.error(
                            &m_path.key(name),
                            format!("expected a function token, found {}", describe(other)),
                        ),
                    }
                }
            }
        }
        let outputs = self.properties(map, "properties", "required", path);
        let inputs = self.properties(map, "inputProperties", "requiredInputs", path);
        // Not in Pulumi's resource spec (it marks properties with `replaceOnChanges: true`),
        // but a list of property names here is checked rather than ignored.
        let replace_on_changes = self
            .string_list(map, "replaceOnChanges", path)
            .unwrap_or_default();
        for (i, name) in replace_on_changes.iter().enumerate() {
            if !outputs.iter().chain(&inputs).any(|p| &p.name == name) {
                self.problems.error(
                    &path.key("replaceOnChanges").index(i),
                    format!(
                        "`replaceOnChanges` names `{name}`, which is not a property of the resource"
                    ),
                );
            }
        }
        ResourceSpec {
            token: token.to_string(),
            description: self.string(map, "description", path),
            deprecation: self.string(map, "deprecationMessage", path),
            outputs,
            inputs,
            state_inputs,
            aliases,
            is_component: self.bool(map, "isComponent", path),
            is_provider,
            is_overlay: self.bool(map, "isOverlay", path),
            methods,
        }
    }

    /// The `config` section: `variables` (properties) and `defaults` (the required names).
    pub(crate) fn config(&mut self, value: &Value, path: &JsonPath) -> ConfigSpec {
        if value.is_null() {
            return ConfigSpec::default();
        }
        let Some(map) = self.object(value, path) else {
            return ConfigSpec::default();
        };
        for key in map.keys() {
            match key.as_str() {
                "variables" | "defaults" => {}
                "required" => self.problems.warning(
                    &path.key(key),
                    "unknown key `required` in `config`: it is ignored (Pulumi reads the required variables from `defaults`)",
                ),
                _ => self.problems.warning(
                    &path.key(key),
                    format!("unknown key `{key}` in `config`: it is ignored"),
                ),
            }
        }
        ConfigSpec {
            variables: self.properties(map, "variables", "defaults", path),
        }
    }

    pub(crate) fn function(&mut self, token: &str, value: &Value, path: &JsonPath) -> FunctionSpec {
        let empty = Map::new();
        let map = self.object(value, path).unwrap_or(&empty);
        let inputs = map.get("inputs").and_then(|i| {
            let i_path = path.key("inputs");
            let i_map = self.object(i, &i_path)?;
            Some(self.properties(i_map, "properties", "required", &i_path))
        });
        let multi_argument_inputs = self.string_list(map, "multiArgumentInputs", path);
        if let (Some(names), Some(inputs)) = (&multi_argument_inputs, &inputs) {
            for (i, name) in names.iter().enumerate() {
                if !inputs.iter().any(|p| &p.name == name) {
                    self.problems.error(
                        &path.key("multiArgumentInputs").index(i),
                        format!("multi-argument input `{name}` is not an input of the function"),
                    );
                }
            }
        }
        let mut return_plain = false;
        let outputs = match map.get("outputs") {
            None | Some(Value::Null) => ReturnSpec::None,
            Some(o) => {
                let o_path = path.key("outputs");
                match self.object(o, &o_path) {
                    None => ReturnSpec::None,
                    Some(o_map) => {
                        return_plain = self.bool(o_map, "plain", &o_path);
                        // An object spec (`properties`, or nothing that makes it another type)
                        // or, since simplified function outputs, any type spec.
                        let is_type_spec = o_map.contains_key("$ref")
                            || o_map.contains_key("oneOf")
                            || o_map.contains_key("additionalProperties")
                            || o_map.get("type").is_some_and(|t| t != "object");
                        if o_map.contains_key("properties") || !is_type_spec {
                            ReturnSpec::Object(self.properties(
                                o_map,
                                "properties",
                                "required",
                                &o_path,
                            ))
                        } else {
                            ReturnSpec::Type(self.type_spec(o, &o_path))
                        }
                    }
                }
            }
        };
        FunctionSpec {
            token: token.to_string(),
            description: self.string(map, "description", path),
            deprecation: self.string(map, "deprecationMessage", path),
            inputs,
            multi_argument_inputs,
            outputs,
            return_plain,
            is_overlay: self.bool(map, "isOverlay", path),
        }
    }
}

enum ParsedRef {
    Builtin(TypeKind),
    Named(TypeRef),
}

/// Parses a `$ref`: `pulumi.json#/Any`, `#/types/<tok>`, `#/resources/<tok>`, `#/provider`, or the
/// same fragments after another package's `[...]/<name>/v<version>/schema.json`.
fn parse_ref(reference: &str) -> Result<ParsedRef, InvalidRef> {
    let invalid = |problem| InvalidRef {
        reference: reference.to_owned(),
        problem,
    };
    let Some((document, fragment)) = reference.split_once('#') else {
        return Err(invalid(RefProblem::NoFragment));
    };
    if document == "pulumi.json" {
        return match fragment {
            "/Any" => Ok(ParsedRef::Builtin(TypeKind::Any)),
            "/Json" => Ok(ParsedRef::Builtin(TypeKind::Json)),
            "/Archive" => Ok(ParsedRef::Builtin(TypeKind::Archive)),
            "/Asset" => Ok(ParsedRef::Builtin(TypeKind::Asset)),
            _ => Err(invalid(RefProblem::UnknownBuiltin)),
        };
    }
    let external = if document.is_empty() {
        None
    } else {
        Some(parse_external_document(document).ok_or_else(|| invalid(RefProblem::Document))?)
    };
    let (section, token) = if fragment == "/provider" {
        (RefSection::Provider, String::new())
    } else if let Some(token) = fragment.strip_prefix("/types/") {
        (RefSection::Types, percent_decode(token))
    } else if let Some(token) = fragment.strip_prefix("/resources/") {
        (RefSection::Resources, percent_decode(token))
    } else {
        return Err(invalid(RefProblem::Fragment));
    };
    if section != RefSection::Provider && token.is_empty() {
        return Err(invalid(RefProblem::EmptyToken));
    }
    Ok(ParsedRef::Named(TypeRef {
        external,
        section,
        token,
        underlying: None,
    }))
}

/// A `$ref` that [`parse_ref`] cannot read.
#[derive(Clone, Debug, PartialEq, Eq)]
struct InvalidRef {
    reference: String,
    problem: RefProblem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RefProblem {
    NoFragment,
    UnknownBuiltin,
    /// Another package's document, not `/<package>/v<version>/schema.json`.
    Document,
    /// A fragment that names no section.
    Fragment,
    EmptyToken,
}

impl std::fmt::Display for InvalidRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let reference = &self.reference;
        let why = match self.problem {
            RefProblem::UnknownBuiltin => return write!(f, "unknown builtin type `{reference}`"),
            RefProblem::NoFragment => "expected a `#` fragment",
            RefProblem::Document => "expected `/<package>/v<version>/schema.json#...`",
            RefProblem::Fragment => "expected `#/types/...`, `#/resources/...` or `#/provider`",
            RefProblem::EmptyToken => "the token is empty",
        };
        write!(f, "invalid `$ref` `{reference}`: {why}")
    }
}

impl std::error::Error for InvalidRef {}

/// `/<name>/v<version>/schema.json` (possibly after a URL prefix), or `/<name>/schema.json`.
fn parse_external_document(document: &str) -> Option<ExternalPackage> {
    let rest = document.strip_suffix("/schema.json")?;
    let mut segments = rest.rsplit('/');
    let last = segments.next()?;
    if let Some(version) = last
        .strip_prefix('v')
        .filter(|v| semver::Version::parse(v).is_ok())
    {
        let name = segments.next().filter(|n| !n.is_empty())?;
        Some(ExternalPackage {
            name: name.to_string(),
            version: Some(version.to_string()),
        })
    } else {
        (!last.is_empty()).then(|| ExternalPackage {
            name: last.to_string(),
            version: None,
        })
    }
}

/// Decodes `%XX` escapes (tokens with `/` are written `%2F` in references).
fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A short description of a JSON value's kind, for messages.
pub(crate) fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs() {
        let named = |r: &str| match parse_ref(r) {
            Ok(ParsedRef::Named(n)) => n,
            _ => panic!("{r} is not a named ref"),
        };
        let local = named("#/types/aws:s3/BucketWebsite:BucketWebsite");
        assert_eq!(local.external, None);
        assert_eq!(local.section, RefSection::Types);
        assert_eq!(local.token, "aws:s3/BucketWebsite:BucketWebsite");
        let external = named("/goalias/v1.0.0/schema.json#/resources/goalias:mod1%2Fv1:Res");
        assert_eq!(
            external.external,
            Some(ExternalPackage {
                name: "goalias".into(),
                version: Some("1.0.0".into())
            })
        );
        assert_eq!(external.section, RefSection::Resources);
        assert_eq!(external.token, "goalias:mod1/v1:Res");
        let url = named("https://example.com/kubernetes/v3.0.0/schema.json#/types/k:a:B");
        assert_eq!(url.external.unwrap().name, "kubernetes");
        assert_eq!(named("#/provider").section, RefSection::Provider);
        assert!(matches!(
            parse_ref("pulumi.json#/Asset"),
            Ok(ParsedRef::Builtin(TypeKind::Asset))
        ));
        for bad in [
            "pulumi.json#/Nope",
            "#/things/x",
            "#/types/",
            "no-fragment",
            "/x.json#/types/a:b:c",
        ] {
            assert!(parse_ref(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%2Fb"), "a/b");
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("%zz"), "%zz");
    }
}
