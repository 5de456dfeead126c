//! The kinds of PCL types, the [`Type`] handle and its constructors.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use crate::interner::{intern, intern_unique, next_serial};
use crate::value::ConstValue;

/// A PCL type: a `Copy` handle to an interned [`TypeKind`].
///
/// `==` and `Hash` are identity of the interned value: two types built from the same parts
/// are the same handle. Annotations and the identity of deferred objects take part in this
/// identity (so that they survive hash-consing); the PCL notion of type equality, which
/// ignores annotations and compares deferred objects structurally, is [`Type::equals`].
#[derive(Clone, Copy)]
pub struct Type(&'static TypeKind);

impl PartialEq for Type {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl Eq for Type {}
impl Hash for Type {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.0 as *const TypeKind as usize).hash(state)
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display_canonical())
    }
}

/// The shape of a type. Obtain it with [`Type::kind`].
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// `dynamic` (HCL's `any`): accepts and converts to everything.
    Dynamic,
    /// `none`, the type of `null`.
    None,
    Bool,
    /// Integers of arbitrary precision.
    Int,
    Number,
    String,
    /// A named opaque type: `Asset`, `Archive`, `Property`, `id`, or a schema token.
    Opaque(Box<str>),
    List(Type),
    /// A map with string keys.
    Map(Type),
    Set(Type),
    Tuple(Box<[Type]>),
    Object(ObjectType),
    /// Flattened, sorted (by canonical text; a deferred object by its name), deduplicated,
    /// at least two elements.
    Union(Box<[Type]>),
    /// An eventual value; the element contains no outputs or promises.
    Output(Type),
    /// An eventual value; the element contains no promises.
    Promise(Type),
    /// The type of a literal: an underlying type and one value.
    Const(ConstType),
    Enum(EnumType),
}

/// A literal type: `const(string, "a")`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ConstType {
    pub ty: Type,
    pub value: ConstValue,
}

/// An enum from a schema: a token, the element type and the allowed values.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct EnumType {
    pub token: Box<str>,
    pub element: Type,
    pub values: Box<[ConstValue]>,
}

/// What an object type stands for, for code generation and hover. Annotations do not take
/// part in [`Type::equals`] or in any relation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Annotation {
    /// The object is the schema object type with this token.
    SchemaObject(Box<str>),
    /// The object holds the output properties of the resource with this token.
    ResourceOutputs(Box<str>),
    /// The object holds the input properties of the resource with this token.
    ResourceInputs(Box<str>),
    /// Anything else a client wants to attach.
    Other(Box<str>),
}

/// An object type: named properties, a strictness flag and annotations.
///
/// Either structural (interned like every other type) or *deferred*: created first and
/// given its properties later, so that a schema type can contain itself. A deferred object
/// is its own type (nominal identity), but every relation treats it structurally.
/// Object properties, sorted by name.
type Properties = Box<[(Box<str>, Type)]>;

#[derive(Debug)]
pub struct ObjectType {
    repr: ObjectRepr,
}

#[derive(Debug)]
enum ObjectRepr {
    Structural {
        properties: Box<[(Box<str>, Type)]>,
        strict: bool,
        annotations: Box<[Annotation]>,
    },
    Deferred {
        serial: u64,
        name: Box<str>,
        strict: bool,
        annotations: Box<[Annotation]>,
        properties: OnceLock<Properties>,
    },
}

impl PartialEq for ObjectType {
    fn eq(&self, other: &Self) -> bool {
        match (&self.repr, &other.repr) {
            (
                ObjectRepr::Structural {
                    properties: p1,
                    strict: s1,
                    annotations: a1,
                },
                ObjectRepr::Structural {
                    properties: p2,
                    strict: s2,
                    annotations: a2,
                },
            ) => p1 == p2 && s1 == s2 && a1 == a2,
            (ObjectRepr::Deferred { serial: s1, .. }, ObjectRepr::Deferred { serial: s2, .. }) => {
                s1 == s2
            }
            _ => false,
        }
    }
}
impl Eq for ObjectType {}
impl Hash for ObjectType {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match &self.repr {
            ObjectRepr::Structural {
                properties,
                strict,
                annotations,
            } => {
                0u8.hash(state);
                properties.hash(state);
                strict.hash(state);
                annotations.hash(state);
            }
            ObjectRepr::Deferred { serial, .. } => {
                1u8.hash(state);
                serial.hash(state);
            }
        }
    }
}

impl ObjectType {
    /// The properties, sorted by name. A deferred object whose properties were never
    /// defined has none.
    pub fn properties(&self) -> &[(Box<str>, Type)] {
        match &self.repr {
            ObjectRepr::Structural { properties, .. } => properties,
            ObjectRepr::Deferred { properties, .. } => properties.get().map_or(&[], |p| p),
        }
    }

    /// The type of the property `name`, if there is one.
    pub fn property(&self, name: &str) -> Option<Type> {
        let properties = self.properties();
        properties
            .binary_search_by(|(key, _)| (**key).cmp(name))
            .ok()
            .map(|index| properties[index].1)
    }

    /// Whether unknown-property traversals are errors (true) or warnings (false).
    pub fn strict(&self) -> bool {
        match &self.repr {
            ObjectRepr::Structural { strict, .. } | ObjectRepr::Deferred { strict, .. } => *strict,
        }
    }

    pub fn annotations(&self) -> &[Annotation] {
        match &self.repr {
            ObjectRepr::Structural { annotations, .. }
            | ObjectRepr::Deferred { annotations, .. } => annotations,
        }
    }

    /// The name given to a deferred object (used when a printer meets it recursively).
    pub fn deferred_name(&self) -> Option<&str> {
        match &self.repr {
            ObjectRepr::Deferred { name, .. } => Some(name),
            ObjectRepr::Structural { .. } => None,
        }
    }

    pub fn is_deferred(&self) -> bool {
        matches!(self.repr, ObjectRepr::Deferred { .. })
    }

    /// Whether this is a deferred object that has not been given its properties yet.
    pub(crate) fn is_undefined(&self) -> bool {
        matches!(&self.repr, ObjectRepr::Deferred { properties, .. } if properties.get().is_none())
    }

    /// The serial of a deferred object (its creation order in this process).
    pub(crate) fn deferred_serial(&self) -> Option<u64> {
        match &self.repr {
            ObjectRepr::Deferred { serial, .. } => Some(*serial),
            ObjectRepr::Structural { .. } => None,
        }
    }
}

/// See [`Type::union_sort_key`].
#[derive(Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct UnionSortKey {
    text: String,
    serials: Vec<u64>,
}

/// Error from [`Type::define_object`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefineObjectError {
    /// The type is not a deferred object.
    NotDeferred,
    /// The deferred object already has its properties.
    AlreadyDefined,
}

impl fmt::Display for DefineObjectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DefineObjectError::NotDeferred => f.write_str("the type is not a deferred object"),
            DefineObjectError::AlreadyDefined => {
                f.write_str("the deferred object already has its properties")
            }
        }
    }
}

impl std::error::Error for DefineObjectError {}

static DYNAMIC: TypeKind = TypeKind::Dynamic;
static NONE: TypeKind = TypeKind::None;
static BOOL: TypeKind = TypeKind::Bool;
static INT: TypeKind = TypeKind::Int;
static NUMBER: TypeKind = TypeKind::Number;
static STRING: TypeKind = TypeKind::String;

fn sorted_properties<K: Into<Box<str>>>(
    properties: impl IntoIterator<Item = (K, Type)>,
) -> Box<[(Box<str>, Type)]> {
    let mut properties: Vec<(Box<str>, Type)> =
        properties.into_iter().map(|(k, t)| (k.into(), t)).collect();
    // A stable sort keeps the original order of duplicates, so the last one wins below.
    properties.sort_by(|a, b| a.0.cmp(&b.0));
    let mut deduped: Vec<(Box<str>, Type)> = Vec::with_capacity(properties.len());
    for (key, ty) in properties {
        match deduped.last_mut() {
            Some(last) if last.0 == key => last.1 = ty,
            _ => deduped.push((key, ty)),
        }
    }
    deduped.into_boxed_slice()
}

impl Type {
    pub(crate) fn from_static(kind: &'static TypeKind) -> Type {
        Type(kind)
    }

    pub(crate) fn builtin_for(kind: &TypeKind) -> Option<Type> {
        Some(match kind {
            TypeKind::Dynamic => Type(&DYNAMIC),
            TypeKind::None => Type(&NONE),
            TypeKind::Bool => Type(&BOOL),
            TypeKind::Int => Type(&INT),
            TypeKind::Number => Type(&NUMBER),
            TypeKind::String => Type(&STRING),
            _ => return None,
        })
    }

    /// The shape of this type.
    pub fn kind(self) -> &'static TypeKind {
        self.0
    }

    pub fn dynamic() -> Type {
        Type(&DYNAMIC)
    }
    pub fn none() -> Type {
        Type(&NONE)
    }
    pub fn bool() -> Type {
        Type(&BOOL)
    }
    pub fn int() -> Type {
        Type(&INT)
    }
    pub fn number() -> Type {
        Type(&NUMBER)
    }
    pub fn string() -> Type {
        Type(&STRING)
    }

    /// A named opaque type. The names of the builtins (`bool`, `boolean`, `int`, `number`,
    /// `string`, `dynamic`, `any`) give the builtin types.
    pub fn opaque(name: &str) -> Type {
        match name {
            "bool" | "boolean" => Type::bool(),
            "int" => Type::int(),
            "number" => Type::number(),
            "string" => Type::string(),
            "dynamic" | "any" => Type::dynamic(),
            _ => intern(TypeKind::Opaque(name.into())),
        }
    }
    /// The opaque `Asset` type.
    pub fn asset() -> Type {
        Type::opaque("Asset")
    }
    /// The opaque `Archive` type.
    pub fn archive() -> Type {
        Type::opaque("Archive")
    }

    pub fn list(element: Type) -> Type {
        intern(TypeKind::List(element))
    }
    pub fn map(element: Type) -> Type {
        intern(TypeKind::Map(element))
    }
    pub fn set(element: Type) -> Type {
        intern(TypeKind::Set(element))
    }
    pub fn tuple(elements: impl IntoIterator<Item = Type>) -> Type {
        intern(TypeKind::Tuple(elements.into_iter().collect()))
    }

    /// A strict, unannotated object. Duplicate keys: the last one wins.
    pub fn object<K: Into<Box<str>>>(properties: impl IntoIterator<Item = (K, Type)>) -> Type {
        Type::object_with(properties, true, Vec::new())
    }

    /// An object with explicit strictness and annotations.
    pub fn object_with<K: Into<Box<str>>>(
        properties: impl IntoIterator<Item = (K, Type)>,
        strict: bool,
        annotations: Vec<Annotation>,
    ) -> Type {
        intern(TypeKind::Object(ObjectType {
            repr: ObjectRepr::Structural {
                properties: sorted_properties(properties),
                strict,
                annotations: annotations.into_boxed_slice(),
            },
        }))
    }

    /// A new deferred object, to be given its properties once with [`Type::define_object`].
    /// Each call makes a distinct type; this is how recursive schema types are built.
    /// `name` (e.g. the schema token) is what printers show where the type recurs.
    pub fn deferred_object(name: &str, strict: bool, annotations: Vec<Annotation>) -> Type {
        intern_unique(TypeKind::Object(ObjectType {
            repr: ObjectRepr::Deferred {
                serial: next_serial(),
                name: name.into(),
                strict,
                annotations: annotations.into_boxed_slice(),
                properties: OnceLock::new(),
            },
        }))
    }

    /// Gives a deferred object its properties (once).
    pub fn define_object<K: Into<Box<str>>>(
        self,
        properties: impl IntoIterator<Item = (K, Type)>,
    ) -> Result<(), DefineObjectError> {
        match &self.kind() {
            TypeKind::Object(ObjectType {
                repr:
                    ObjectRepr::Deferred {
                        properties: cell, ..
                    },
            }) => cell
                .set(sorted_properties(properties))
                .map_err(|_| DefineObjectError::AlreadyDefined),
            _ => Err(DefineObjectError::NotDeferred),
        }
    }

    /// A union: nested unions are flattened, elements sorted by their sort key (see
    /// [`Type::union_sort_key`]: the canonical text, except that a deferred object stands for
    /// itself by its name) and duplicates (by [`Type::equals`]) removed. One element gives
    /// that element; none gives `none`.
    pub fn union(elements: impl IntoIterator<Item = Type>) -> Type {
        let mut flat = Vec::new();
        for element in elements {
            match element.kind() {
                TypeKind::Union(inner) => flat.extend(inner.iter().copied()),
                _ => flat.push(element),
            }
        }
        if flat.len() > 1 {
            let mut keyed: Vec<(UnionSortKey, Type)> =
                flat.iter().map(|t| (t.union_sort_key(), *t)).collect();
            keyed.sort_by(|a, b| a.0.cmp(&b.0));
            flat = keyed.into_iter().map(|(_, t)| t).collect();
        }
        let mut result: Vec<Type> = Vec::with_capacity(flat.len());
        for ty in flat {
            // Types with equal keys are equal, but equal types need not have equal keys
            // (e.g. two deferred objects with the same structure), so compare against every
            // element kept.
            if !result.iter().rev().any(|kept| kept.equals(ty)) {
                result.push(ty);
            }
        }
        match result.len() {
            0 => Type::none(),
            1 => result[0],
            _ => intern(TypeKind::Union(result.into_boxed_slice())),
        }
    }

    /// The key unions sort their elements by: the canonical text, except that a deferred
    /// object is written `object(#name)` instead of being expanded, plus the serials of
    /// those deferred objects in order, which break ties between different deferred objects
    /// that have the same name. Computing it never looks inside a deferred object, so it is
    /// linear in the size of the type up to its deferred objects, whatever they contain.
    ///
    /// For types without deferred objects this is exactly the canonical order, so it does
    /// not depend on the order in which types were created.
    pub(crate) fn union_sort_key(self) -> UnionSortKey {
        let mut key = UnionSortKey::default();
        crate::print::sort_key(self, &mut key.text, &mut key.serials);
        key
    }

    /// `optional(T)` = `union(T, none)`.
    pub fn optional(element: Type) -> Type {
        Type::union([element, Type::none()])
    }

    /// `output(T)`: outputs and promises inside `T` are resolved away.
    pub fn output(element: Type) -> Type {
        intern(TypeKind::Output(element.resolve_outputs()))
    }

    /// `promise(T)`: promises inside `T` are resolved away.
    pub fn promise(element: Type) -> Type {
        intern(TypeKind::Promise(element.resolve_promises()))
    }

    /// A literal type with the given underlying type and value.
    pub fn constant(ty: Type, value: ConstValue) -> Type {
        intern(TypeKind::Const(ConstType { ty, value }))
    }

    /// The type of a string literal: `const(string, "s")`.
    pub fn string_literal(value: &str) -> Type {
        Type::constant(Type::string(), ConstValue::String(value.into()))
    }

    /// The type of a bool literal.
    pub fn bool_literal(value: bool) -> Type {
        Type::constant(Type::bool(), ConstValue::Bool(value))
    }

    /// The type of `null`: `const(none, null)`.
    pub fn null_literal() -> Type {
        Type::constant(Type::none(), ConstValue::Null)
    }

    /// The type of a numeric literal given as source text (an optional `-`, digits, an
    /// optional fraction and exponent). As in the reference, an integral value within the
    /// int32 range is `const(int, v)`; every other value is `const(number, v)`. Values are
    /// kept exactly.
    pub fn number_literal(text: &str) -> Result<Type, crate::value::LiteralError> {
        Ok(ConstValue::parse_number(text)?.literal_type())
    }

    /// An enum type.
    pub fn enumeration(
        token: &str,
        element: Type,
        values: impl IntoIterator<Item = ConstValue>,
    ) -> Type {
        intern(TypeKind::Enum(EnumType {
            token: token.into(),
            element,
            values: values.into_iter().collect(),
        }))
    }

    // ---- inspection helpers --------------------------------------------------------

    pub fn is_dynamic(self) -> bool {
        matches!(self.kind(), TypeKind::Dynamic)
    }
    pub fn is_none(self) -> bool {
        matches!(self.kind(), TypeKind::None)
    }

    /// The elements of a union, or the type itself.
    pub fn union_elements(&self) -> &[Type] {
        match self.kind() {
            TypeKind::Union(elements) => elements,
            _ => std::slice::from_ref(self),
        }
    }

    /// The underlying type of a const, or the type itself.
    pub fn strip_const(self) -> Type {
        match self.kind() {
            TypeKind::Const(c) => c.ty,
            _ => self,
        }
    }

    /// `IsOptionalType`: not `dynamic`, and assignable from `none`.
    pub fn is_optional(self) -> bool {
        !self.is_dynamic() && self.assignable_from(Type::none())
    }

    /// The type without `none` among its union elements (`T?` → `T`).
    pub fn without_none(self) -> Type {
        match self.kind() {
            TypeKind::Union(elements) => {
                Type::union(elements.iter().copied().filter(|t| !t.is_none()))
            }
            _ => self,
        }
    }

    /// `IsConstType`: a const, or a union of consts.
    pub fn is_const(self) -> bool {
        match self.kind() {
            TypeKind::Const(_) => true,
            TypeKind::Union(elements) => elements.iter().all(|t| t.is_const()),
            _ => false,
        }
    }
}
