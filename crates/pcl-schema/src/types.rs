//! Mapping schema definitions to PCL types, as Pulumi's binder does (`schemaTypeToType`):
//! memoized per package and token, built on first use, and safe for recursive types (named
//! objects are deferred objects, registered before their properties are mapped).

use std::sync::{Arc, Mutex, MutexGuard};

use pcl_types::{Annotation, ConstValue, DeferredKey, Type};
use rustc_hash::FxHashMap;
use serde_json::Value;

use crate::package::{DefinitionKind, Found, Package};
use crate::registry::PackageLoader;
use crate::spec::{
    FunctionSpec, Primitive, PropertySpec, RefSection, ResourceSpec, ReturnSpec, TypeDefSpec,
    TypeKind, TypeRef, TypeSpec,
};

/// Which of the two shapes of a schema type: the plain shape (outputs, plain arguments) or the
/// input shape, in which every type not marked `plain` also accepts an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Plain,
    Input,
}

/// What the memo table holds a type for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum CacheKey {
    /// A named object or enum type, by schema token.
    Named(Box<str>, Shape),
    /// A resource used as a type (`$ref: #/resources/...`): its plain output properties.
    ResourceRef(Box<str>),
    ResourceInputs(Box<str>),
    ResourceOutputs(Box<str>),
    ResourceStateInputs(Box<str>),
    /// The package's configuration variables.
    Config(Shape),
}

/// The variants of the deferred objects of one package (see [`DeferredKey`]): the two shapes
/// of a named object type, and a resource used as a type.
const PLAIN_OBJECT: u64 = 0;
const INPUT_OBJECT: u64 = 1;
const RESOURCE_OBJECT: u64 = 2;

/// Memoized PCL types of one package.
#[derive(Default)]
pub(crate) struct TypeCache {
    types: Mutex<FxHashMap<CacheKey, Type>>,
    functions: Mutex<FxHashMap<Box<str>, Arc<FunctionSignature>>>,
}

impl TypeCache {
    fn types(&self) -> MutexGuard<'_, FxHashMap<CacheKey, Type>> {
        self.types.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Serializes type building across packages: a named object is registered (deferred) before its
/// properties are mapped, and no other thread may build it in between. Building is a one-time
/// cost per token, so one lock is simpler than per-package locks that could deadlock on
/// mutually referencing packages.
fn build_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

/// The PCL view of a function (an `invoke` target), in both of Pulumi's forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionSignature {
    /// The arguments object of the promise form (plain shape); `optional(object({}))` if the
    /// function takes no inputs.
    pub plain_args: Type,
    /// The arguments object of the output form (input shape).
    pub input_args: Type,
    /// Whether the function has inputs at all (without inputs, only the promise form applies).
    pub has_inputs: bool,
    /// The return type without its eventual; `object({})` if the function returns nothing.
    pub result: Type,
    /// Whether the function declares a return type (the output form needs one).
    pub has_result: bool,
    /// `multiArgumentInputs`: the positional parameters in order (plain shape; optional ones
    /// accept `none`).
    pub positional: Option<Vec<(String, Type)>>,
    /// Methods: the result is returned as is rather than as an output.
    pub result_plain: bool,
}

impl FunctionSignature {
    /// `promise(R)`: the promise form's result.
    pub fn promise_result(&self) -> Type {
        Type::promise(self.result.clone())
    }

    /// `output(R)`: the output form's result.
    pub fn output_result(&self) -> Type {
        Type::output(self.result.clone())
    }
}

/// A method of a resource, called with `call(self, "name", {args})`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodSignature {
    /// The token of the function that implements it.
    pub function_token: String,
    /// The arguments without `__self__`; `optional(object({}))` if nothing is left.
    pub args: Type,
    /// `output(R)`, or `R` for a method whose return type is plain.
    pub result: Type,
}

/// Why a method could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MethodError {
    /// The resource has no method of that name; the closest method names.
    NoSuchMethod {
        resource: String,
        method: String,
        available: Vec<String>,
    },
    /// The method names a function the package does not define.
    UnknownFunction { method: String, function: String },
    /// The method's function has no `__self__` input.
    NoSelf { function: String },
}

impl std::fmt::Display for MethodError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MethodError::NoSuchMethod {
                resource,
                method,
                available,
            } => {
                write!(f, "resource type `{resource}` has no method `{method}`")?;
                if !available.is_empty() {
                    write!(
                        f,
                        " (methods: {})",
                        pcl_diagnostics::style::quoted_list(available, "and")
                    )?;
                }
                Ok(())
            }
            MethodError::UnknownFunction { method, function } => {
                write!(f, "method `{method}` names unknown function `{function}`")
            }
            MethodError::NoSelf { function } => {
                write!(f, "method `{function}` has no `__self__` input")
            }
        }
    }
}

impl std::error::Error for MethodError {}

/// Maps schema types of packages of one registry to PCL types. Cheap to create; all memoization
/// lives in the packages.
#[derive(Clone, Copy)]
pub struct TypeMapper<'r> {
    registry: &'r dyn PackageLoader,
}

impl<'r> TypeMapper<'r> {
    /// `registry` provides the packages that external references (`/pkg/vX/schema.json#...`)
    /// name; a package it cannot provide makes such references opaque types.
    pub fn new(registry: &'r dyn PackageLoader) -> Self {
        TypeMapper { registry }
    }

    /// The type a resource block's attributes are checked against: its inputs, input shape,
    /// optional unless required.
    pub fn resource_input_type(&self, package: &Package, found: &Found) -> Type {
        let spec = package.resource(found).spec.clone();
        let key = CacheKey::ResourceInputs(found.schema_token.as_str().into());
        self.memo(package, key, || {
            let props = self.properties(package, &spec.inputs, Shape::Input);
            Type::object_with(
                props,
                true,
                vec![Annotation::ResourceInputs(
                    found.canonical_token.as_str().into(),
                )],
            )
        })
    }

    /// The type of a resource variable: `id` and `urn` and every output property, each an
    /// `output(T)` (optional properties `output(T?)`).
    pub fn resource_output_type(&self, package: &Package, found: &Found) -> Type {
        let spec = package.resource(found).spec.clone();
        let key = CacheKey::ResourceOutputs(found.schema_token.as_str().into());
        self.memo(package, key, || {
            let mut props = vec![
                ("id".to_string(), Type::output(Type::string())),
                ("urn".to_string(), Type::output(Type::string())),
            ];
            for (name, ty) in self.properties(package, &spec.outputs, Shape::Plain) {
                props.push((name, Type::output(ty)));
            }
            Type::object_with(
                props,
                true,
                vec![Annotation::ResourceOutputs(
                    found.canonical_token.as_str().into(),
                )],
            )
        })
    }

    /// The input type of a `read` of an existing resource: `id` plus the state inputs.
    pub fn resource_read_input_type(&self, package: &Package, found: &Found) -> Type {
        let spec = package.resource(found).spec.clone();
        let key = CacheKey::ResourceStateInputs(found.schema_token.as_str().into());
        self.memo(package, key, || {
            let mut props = vec![("id".to_string(), Type::string())];
            if let Some(state) = &spec.state_inputs {
                props.extend(self.properties(package, state, Shape::Input));
            }
            Type::object_with(
                props,
                true,
                vec![Annotation::ResourceInputs(
                    found.canonical_token.as_str().into(),
                )],
            )
        })
    }

    /// The package's configuration variables (`config.variables`) as an object, each optional
    /// unless listed in `config.defaults`: what a stack's `<pkg>:<name>` settings, or an explicit
    /// `pulumi:providers:<pkg>` configuration, may set. `Shape::Input` accepts outputs.
    pub fn config_type(&self, package: &Package, shape: Shape) -> Type {
        let spec = package.config().spec.clone();
        self.memo(package, CacheKey::Config(shape), || {
            Type::object(self.properties(package, &spec.variables, shape))
        })
    }

    /// The PCL view of a function.
    pub fn function_signature(
        &self,
        package: &Package,
        found: &Found,
    ) -> Option<Arc<FunctionSignature>> {
        let spec = package.function(found)?.spec.clone();
        let cache = &package.type_cache.functions;
        if let Some(sig) = cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(found.schema_token.as_str())
        {
            return Some(sig.clone());
        }
        let sig = Arc::new(self.build_function_signature(package, &spec));
        Some(
            cache
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(found.schema_token.as_str().into())
                .or_insert(sig)
                .clone(),
        )
    }

    fn build_function_signature(
        &self,
        package: &Package,
        spec: &FunctionSpec,
    ) -> FunctionSignature {
        let _guard = build_lock();
        let inputs = spec.inputs.as_deref().unwrap_or_default();
        let has_inputs = !inputs.is_empty();
        let args = |shape| {
            if has_inputs {
                Type::object(self.properties_unlocked(package, inputs, shape))
            } else {
                Type::optional(Type::object(Vec::<(String, Type)>::new()))
            }
        };
        let (result, has_result) = match &spec.outputs {
            ReturnSpec::None => (Type::object(Vec::<(String, Type)>::new()), false),
            ReturnSpec::Object(props) => (
                Type::object(self.properties_unlocked(package, props, Shape::Plain)),
                true,
            ),
            ReturnSpec::Type(ty) => (self.type_spec(package, ty, Shape::Plain), true),
        };
        let positional = spec.multi_argument_inputs.as_ref().map(|names| {
            names
                .iter()
                .filter_map(|name| {
                    let p = inputs.iter().find(|p| &p.name == name)?;
                    Some((name.clone(), self.property(package, p, Shape::Plain)))
                })
                .collect()
        });
        FunctionSignature {
            plain_args: args(Shape::Plain),
            input_args: args(Shape::Input),
            has_inputs,
            result,
            has_result,
            positional,
            result_plain: spec.return_plain,
        }
    }

    /// A method of a resource, by name.
    pub fn method_signature(
        &self,
        package: &Package,
        resource: &Found,
        method: &str,
    ) -> Result<MethodSignature, MethodError> {
        let spec: Arc<ResourceSpec> = package.resource(resource).spec.clone();
        let Some((_, function_token)) = spec.methods.iter().find(|(name, _)| name == method) else {
            return Err(MethodError::NoSuchMethod {
                resource: resource.canonical_token.clone(),
                method: method.to_string(),
                available: spec.methods.iter().map(|(n, _)| n.clone()).collect(),
            });
        };
        let Some(index) = package.function_index(function_token) else {
            return Err(MethodError::UnknownFunction {
                method: method.to_string(),
                function: function_token.clone(),
            });
        };
        let function = package.function_at(index).spec.clone();
        let inputs = function.inputs.as_deref().unwrap_or_default();
        if !inputs.iter().any(|p| p.name == "__self__") {
            return Err(MethodError::NoSelf {
                function: function_token.clone(),
            });
        }
        let found = Found {
            kind: DefinitionKind::Function,
            schema_token: function_token.clone(),
            canonical_token: package.canonicalize(function_token),
            index: Some(index),
        };
        let sig = self.function_signature(package, &found).ok_or_else(|| {
            MethodError::UnknownFunction {
                method: method.to_string(),
                function: function_token.clone(),
            }
        })?;
        let args = {
            let _guard = build_lock();
            let rest: Vec<PropertySpec> = inputs
                .iter()
                .filter(|p| p.name != "__self__")
                .cloned()
                .collect();
            if rest.is_empty() {
                Type::optional(Type::object(Vec::<(String, Type)>::new()))
            } else {
                Type::object(self.properties_unlocked(package, &rest, Shape::Plain))
            }
        };
        let result = if sig.result_plain {
            sig.result.clone()
        } else {
            sig.output_result()
        };
        Ok(MethodSignature {
            function_token: function_token.clone(),
            args,
            result,
        })
    }

    /// A named type (object or enum) in the given shape; `None` if `found` is not a type.
    pub fn named_type(&self, package: &Package, found: &Found, shape: Shape) -> Option<Type> {
        package.type_def(found)?;
        let _guard = build_lock();
        let reference = TypeRef {
            external: None,
            section: RefSection::Types,
            token: found.schema_token.clone(),
            underlying: None,
        };
        Some(self.reference(package, &reference, shape))
    }

    /// Any type spec of `package` (for callers holding decoded specs, such as hover).
    pub fn type_of_spec(&self, package: &Package, spec: &TypeSpec, shape: Shape) -> Type {
        let _guard = build_lock();
        self.type_spec(package, spec, shape)
    }

    /// The type of one property as it appears in an object of the given shape (optional unless
    /// required; a `const` property is the constant).
    pub fn property_type(&self, package: &Package, property: &PropertySpec, shape: Shape) -> Type {
        let _guard = build_lock();
        self.property(package, property, shape)
    }

    fn memo(&self, package: &Package, key: CacheKey, build: impl FnOnce() -> Type) -> Type {
        if let Some(t) = package.type_cache.types().get(&key) {
            return t.clone();
        }
        let _guard = build_lock();
        if let Some(t) = package.type_cache.types().get(&key) {
            return t.clone();
        }
        let t = build();
        package.type_cache.types().entry(key).or_insert(t).clone()
    }

    fn properties(
        &self,
        package: &Package,
        props: &[PropertySpec],
        shape: Shape,
    ) -> Vec<(String, Type)> {
        // Callers of `memo` already hold the build lock.
        self.properties_unlocked(package, props, shape)
    }

    fn properties_unlocked(
        &self,
        package: &Package,
        props: &[PropertySpec],
        shape: Shape,
    ) -> Vec<(String, Type)> {
        props
            .iter()
            .map(|p| (p.name.clone(), self.property(package, p, shape)))
            .collect()
    }

    fn property(&self, package: &Package, p: &PropertySpec, shape: Shape) -> Type {
        let mut ty = self.type_spec(package, &p.ty, shape);
        if !p.required {
            ty = Type::optional(ty);
        }
        match p.const_value.as_ref().and_then(const_value) {
            Some(value) => Type::constant(ty, value),
            None => ty,
        }
    }

    /// `schemaTypeToType` of a type spec in a shape. In the input shape a non-plain spec `T`
    /// becomes `T' | output(T'')` where `T''` is the plain shape (Pulumi's `ResolvedType`).
    fn type_spec(&self, package: &Package, spec: &TypeSpec, shape: Shape) -> Type {
        match shape {
            Shape::Input if !spec.plain => {
                let input = self.kind(package, &spec.kind, Shape::Input);
                let resolved = self.kind(package, &spec.kind, Shape::Plain);
                Type::union([input, Type::output(resolved)])
            }
            _ => self.kind(package, &spec.kind, shape),
        }
    }

    fn kind(&self, package: &Package, kind: &TypeKind, shape: Shape) -> Type {
        match kind {
            TypeKind::Primitive(p) => primitive(*p),
            TypeKind::Any | TypeKind::Json => Type::dynamic(),
            TypeKind::Archive => Type::archive(),
            // As in Pulumi (matching the generated SDKs): an asset parameter accepts archives.
            TypeKind::Asset => Type::union([Type::archive(), Type::asset()]),
            TypeKind::Array(element) => Type::list(self.type_spec(package, element, shape)),
            TypeKind::Map(element) => Type::map(self.type_spec(package, element, shape)),
            TypeKind::Union(union) => Type::union(
                union
                    .members
                    .iter()
                    .map(|m| self.type_spec(package, m, shape)),
            ),
            // Mapping follows references depth first, through chains of any length.
            TypeKind::Ref(reference) => {
                pcl_types::on_enough_stack(|| self.reference(package, reference, shape))
            }
            // Reported when decoded; `dynamic` keeps a program that uses it checkable.
            TypeKind::Invalid => Type::dynamic(),
        }
    }

    fn reference(&self, package: &Package, reference: &TypeRef, shape: Shape) -> Type {
        let external;
        let target: &Package = match &reference.external {
            None => package,
            Some(e) => match self.registry.package(&e.name, e.version.as_deref()) {
                Ok(p) => {
                    external = p;
                    &external
                }
                Err(_) => return dangling(reference),
            },
        };
        match reference.section {
            RefSection::Types => {
                let key = CacheKey::Named(reference.token.as_str().into(), shape);
                if let Some(t) = target.type_cache.types().get(&key) {
                    return t.clone();
                }
                let Some(index) = target.type_index(&reference.token) else {
                    return dangling(reference);
                };
                let decoded = target.type_at(index).spec.clone();
                match decoded.as_ref() {
                    None => dangling(reference),
                    Some(TypeDefSpec::Enum(e)) => {
                        let values = e
                            .values
                            .iter()
                            .filter_map(|v| enum_value(e.element, &v.value));
                        let t = Type::enumeration(
                            &target.canonicalize(&e.token),
                            primitive(e.element),
                            values,
                        );
                        target.type_cache.types().entry(key).or_insert(t).clone()
                    }
                    Some(TypeDefSpec::Object(object)) => {
                        let annotations = vec![Annotation::SchemaObject(
                            target.canonicalize(&object.token).into(),
                        )];
                        let variant = match shape {
                            Shape::Plain => PLAIN_OBJECT,
                            Shape::Input => INPUT_OBJECT,
                        };
                        let object_key =
                            DeferredKey::new(target.namespace(), object.token.as_str())
                                .with_variant(variant);
                        let t = Type::deferred_object(object_key, true, annotations);
                        // Registered before the properties are mapped, so a property that refers
                        // back to this type finds it.
                        target.type_cache.types().insert(key, t.clone());
                        define(&t, || {
                            self.properties_unlocked(target, &object.properties, shape)
                        });
                        t
                    }
                }
            }
            RefSection::Resources | RefSection::Provider => {
                // `#/resources/pulumi:providers:<pkg>` (the `__self__` of a provider method) is
                // the provider, as `#/provider` is.
                let spec: Arc<ResourceSpec> = if reference.section == RefSection::Provider
                    || reference.token == target.provider_token()
                {
                    target.provider().spec.clone()
                } else {
                    match target.resource_index(&reference.token) {
                        Some(index) => target.resource_at(index).spec.clone(),
                        None => return dangling(reference),
                    }
                };
                let key = CacheKey::ResourceRef(spec.token.as_str().into());
                if let Some(t) = target.type_cache.types().get(&key) {
                    return t.clone();
                }
                let annotations = vec![Annotation::ResourceOutputs(
                    target.canonicalize(&spec.token).into(),
                )];
                let object_key = DeferredKey::new(target.namespace(), spec.token.as_str())
                    .with_variant(RESOURCE_OBJECT);
                let t = Type::deferred_object(object_key, true, annotations);
                target.type_cache.types().insert(key, t.clone());
                define(&t, || {
                    self.properties_unlocked(target, &spec.outputs, Shape::Plain)
                });
                t
            }
        }
    }
}

/// Gives a deferred object of a package its properties, unless it has them already: the
/// key of the object identifies the package's content, so an object found alive by key (built
/// by another `Package` loaded from the same schema, or earlier by a query that ran again)
/// already has these very properties.
fn define(object: &Type, properties: impl FnOnce() -> Vec<(String, Type)>) {
    let defined = match object.kind() {
        pcl_types::TypeKind::Object(o) => o.is_defined(),
        _ => true,
    };
    if !defined {
        // `AlreadyDefined` here means another thread defined it meanwhile: the same
        // properties again.
        let _ = object.define_object(properties());
    }
}

/// A reference to something that does not exist (or whose package is unavailable): an opaque
/// type named by the token, or that or the primitive written beside the `$ref`.
fn dangling(reference: &TypeRef) -> Type {
    let opaque = Type::opaque(&reference.token);
    match reference.underlying {
        Some(p) => Type::union([opaque, primitive(p)]),
        None => opaque,
    }
}

fn primitive(p: Primitive) -> Type {
    match p {
        Primitive::Bool => Type::bool(),
        Primitive::Int => Type::int(),
        Primitive::Number => Type::number(),
        Primitive::String => Type::string(),
    }
}

/// A JSON scalar as a PCL constant (`None` for arrays, objects and null).
fn const_value(value: &Value) -> Option<ConstValue> {
    match value {
        Value::Bool(b) => Some(ConstValue::Bool(*b)),
        Value::String(s) => Some(ConstValue::String(s.as_str().into())),
        Value::Number(n) => ConstValue::parse_number(&n.to_string()).ok(),
        _ => None,
    }
}

/// An enum value as a constant of the enum's element type (integers stay integers even when
/// written `1.0`).
fn enum_value(element: Primitive, value: &Value) -> Option<ConstValue> {
    match (element, value) {
        (Primitive::Int, Value::Number(n)) => {
            let i = n.as_i64().or_else(|| n.as_f64().map(|f| f as i64))?;
            ConstValue::parse_number(&i.to_string()).ok()
        }
        _ => const_value(value),
    }
}

/// Maps every definition of `package` to PCL types, so that `check` exercises the same code a
/// program does. Problems were all reported while decoding and checking references; mapping
/// adds none.
pub(crate) fn check_types(
    package: &Package,
    registry: &dyn PackageLoader,
) -> Vec<crate::SchemaDiagnostic> {
    let mapper = TypeMapper::new(registry);
    for token in package.resource_tokens() {
        if let Ok(found) = package.lookup_resource(token) {
            mapper.resource_input_type(package, &found);
            mapper.resource_output_type(package, &found);
            mapper.resource_read_input_type(package, &found);
        }
    }
    for token in package.function_tokens() {
        if let Ok(found) = package.lookup_function(token) {
            mapper.function_signature(package, &found);
        }
    }
    for token in package.type_tokens() {
        if let Ok(found) = package.lookup_type(token) {
            mapper.named_type(package, &found, Shape::Plain);
            mapper.named_type(package, &found, Shape::Input);
        }
    }
    mapper.config_type(package, Shape::Plain);
    mapper.config_type(package, Shape::Input);
    Vec::new()
}
