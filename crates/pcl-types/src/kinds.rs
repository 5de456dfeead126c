//! The kinds of PCL types, the [`Type`] handle and its constructors.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::sync::atomic::{AtomicPtr, AtomicU8, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

use crate::classes::structural_classes;
use crate::interner::{find_deferred, intern, intern_deferred, own_into, TypeData};
use crate::value::ConstValue;

/// A PCL type: a cheap handle (one pointer) to an interned, reference-counted [`TypeKind`].
///
/// `==` and `Hash` are identity of the interned value: two live types built from the same
/// parts are the same handle, and a deferred object is identified by its [`DeferredKey`].
/// Annotations take part in this identity (so that they survive hash-consing); the PCL
/// notion of type equality, which ignores annotations and compares deferred objects
/// structurally, is [`Type::equals`].
///
/// Cloning a handle is an atomic increment; when the last handle of a type is dropped, the
/// type is removed from the interner and freed (see the `interner` module for how cycles
/// through deferred objects are reclaimed). The builtin types (`string`, `int`, `dynamic`,
/// ...) live as long as the process, and their handles are copied and dropped without
/// touching a count: on two cores, the counts of `string` and its peers, which every thread
/// copies all the time, moved between the cores' caches on every copy (a tenth of the
/// parallel check's extra CPU time).
pub struct Type(ManuallyDrop<Arc<TypeData>>);

impl Clone for Type {
    fn clone(&self) -> Type {
        if self.0.is_builtin() || crate::interner::never_freed() {
            // SAFETY: a builtin's node is held by `builtins()` for the life of the process
            // (its count never drops to zero), and no handle of it ever gives its count back
            // (`Drop` below), so a handle that was not counted frees nothing. Once types are
            // never freed, no handle gives its count back either: the count of this node,
            // above zero while `self` lives, stays so.
            return Type(ManuallyDrop::new(unsafe {
                Arc::from_raw(Arc::as_ptr(&self.0))
            }));
        }
        let node = Arc::clone(&self.0);
        for group in node.groups() {
            group.acquire();
        }
        Type(ManuallyDrop::new(node))
    }
}

impl Drop for Type {
    fn drop(&mut self) {
        // A builtin's handles are never counted; once types are never freed (`never_free`),
        // no handle is.
        if self.0.is_builtin() || crate::interner::never_freed() {
            return;
        }
        for group in self.0.groups() {
            group.release();
        }
        // SAFETY: dropped once, here, and never used again.
        unsafe { ManuallyDrop::drop(&mut self.0) }
    }
}

impl PartialEq for Type {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for Type {}
impl Hash for Type {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.addr().hash(state)
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
    /// Flattened, sorted (by canonical text; a deferred object by its key), deduplicated,
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

impl TypeKind {
    /// The types a structural kind is made of: its elements and, for a structural object,
    /// its properties (not the properties of a deferred object).
    pub(crate) fn for_each_structural_child<'a>(&'a self, f: &mut dyn FnMut(&'a Type)) {
        match self {
            TypeKind::List(e)
            | TypeKind::Map(e)
            | TypeKind::Set(e)
            | TypeKind::Output(e)
            | TypeKind::Promise(e) => f(e),
            TypeKind::Tuple(es) | TypeKind::Union(es) => es.iter().for_each(f),
            TypeKind::Const(c) => f(&c.ty),
            TypeKind::Enum(e) => f(&e.element),
            TypeKind::Object(ObjectType {
                repr: ObjectRepr::Structural { properties, .. },
            }) => properties.entries.iter().for_each(|(_, t)| f(t)),
            TypeKind::Object(ObjectType {
                repr: ObjectRepr::Deferred(_),
            })
            | TypeKind::Dynamic
            | TypeKind::None
            | TypeKind::Bool
            | TypeKind::Int
            | TypeKind::Number
            | TypeKind::String
            | TypeKind::Opaque(_) => {}
        }
    }

    /// The handles a node of this kind owns directly (object properties, which own their
    /// handles themselves, excepted): its elements and a deferred object's origin.
    pub(crate) fn for_each_owned<'a>(&'a self, f: &mut dyn FnMut(&'a Type)) {
        match self {
            TypeKind::Object(ObjectType {
                repr: ObjectRepr::Deferred(deferred),
            }) => {
                if let Some(origin) = &deferred.input_origin {
                    f(origin);
                }
            }
            TypeKind::Object(_) => {}
            other => other.for_each_structural_child(f),
        }
    }

    /// Whether a literal type is part of this kind: a literal itself, or a structural kind
    /// with a part that has one. Enums and deferred objects are not looked into (their
    /// element and properties are schema types, which literal widening leaves alone). O(1):
    /// each part's node knows the answer for itself.
    pub(crate) fn has_literal_parts(&self) -> bool {
        match self {
            TypeKind::Const(_) => true,
            TypeKind::Enum(_) => false,
            _ => {
                let mut found = false;
                self.for_each_structural_child(&mut |child| {
                    found |= child.data().literal_parts();
                });
                found
            }
        }
    }

    /// The kind is being moved into a node: its object properties are owned by it from now.
    pub(crate) fn mark_children_owned(&mut self) {
        if let TypeKind::Object(ObjectType {
            repr: ObjectRepr::Structural { properties, .. },
        }) = self
        {
            properties.owned = true;
        }
    }
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
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

/// The identity of a deferred object: while an object with this key is alive, creating one
/// with the same key gives that object.
///
/// The creator chooses the key so that it determines the object's contents: `pcl-schema`
/// uses a hash of the package's identity and text as the namespace and the schema token as
/// the name, so that loading the same schema twice gives the same types and a changed
/// schema gives new ones. The deferred objects of one namespace are reclaimed together, once
/// nothing outside them refers to them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeferredKey {
    /// Chosen by the creator: where the objects come from.
    pub namespace: u64,
    /// Tells apart objects of one namespace with the same name (`pcl-schema`: the plain and
    /// the input shape of a schema type). Part of the identity only.
    pub variant: u64,
    /// What printers show where the object recurs (e.g. the schema token).
    pub name: Box<str>,
}

impl DeferredKey {
    /// A key with variant 0.
    pub fn new(namespace: u64, name: impl Into<Box<str>>) -> DeferredKey {
        DeferredKey {
            namespace,
            variant: 0,
            name: name.into(),
        }
    }

    /// The same key with another variant.
    pub fn with_variant(mut self, variant: u64) -> DeferredKey {
        self.variant = variant;
        self
    }
}

/// Object properties, sorted by name. Inside a node, the handles are owned by it (they do
/// not count as free handles; see the `interner` module) and become free again on drop.
pub(crate) struct Props {
    entries: Box<[(Box<str>, Type)]>,
    /// Each name's [`prefix_key`], side by side: a lookup compares these, one cache line
    /// for a whole object, and reads a name only to settle a tie (comparing the names
    /// themselves, each behind its own pointer, was a cache miss per step of the search).
    keys: Box<[u64]>,
    owned: bool,
}

impl Props {
    fn new(entries: Box<[(Box<str>, Type)]>) -> Props {
        Props::with(entries, false)
    }

    fn with(entries: Box<[(Box<str>, Type)]>, owned: bool) -> Props {
        let keys = entries.iter().map(|(name, _)| prefix_key(name)).collect();
        Props {
            entries,
            keys,
            owned,
        }
    }
}

/// A name's first eight bytes, big-endian and padded with zeros: if one name's key is less
/// than another's, so is the name (when they are equal, the names decide).
fn prefix_key(name: &str) -> u64 {
    let mut bytes = [0u8; 8];
    let n = name.len().min(8);
    bytes[..n].copy_from_slice(&name.as_bytes()[..n]);
    u64::from_be_bytes(bytes)
}

impl Drop for Props {
    fn drop(&mut self) {
        if self.owned {
            for (_, ty) in self.entries.iter() {
                ty.acquire_groups();
            }
        }
    }
}

impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}
impl Eq for Props {}
impl Hash for Props {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.entries.hash(state)
    }
}

/// The properties of an object, from [`ObjectType::properties`]: a slice of
/// `(name, type)`, sorted by name.
pub struct Properties<'a> {
    inner: PropertiesInner<'a>,
}

enum PropertiesInner<'a> {
    /// No properties (a deferred object never defined).
    None,
    Borrowed(&'a Props),
    /// A deferred object's properties, shared with the object.
    Shared(Arc<Props>, PhantomData<&'a ObjectType>),
}

impl Properties<'_> {
    fn props(&self) -> Option<&Props> {
        match &self.inner {
            PropertiesInner::None => None,
            PropertiesInner::Borrowed(props) => Some(props),
            PropertiesInner::Shared(props, _) => Some(props),
        }
    }
}

impl Deref for Properties<'_> {
    type Target = [(Box<str>, Type)];

    fn deref(&self) -> &Self::Target {
        self.props().map_or(&[], |props| &props.entries)
    }
}

impl Properties<'_> {
    /// The type of the property `name`, if there is one (properties are sorted by name).
    pub fn get(&self, name: &str) -> Option<&Type> {
        let props = self.props()?;
        let key = prefix_key(name);
        let (mut low, mut high) = (0, props.entries.len());
        while low < high {
            let mid = low + (high - low) / 2;
            let order = props.keys[mid]
                .cmp(&key)
                .then_with(|| (*props.entries[mid].0).cmp(name));
            match order {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Some(&props.entries[mid].1),
            }
        }
        None
    }
}

impl<'p> IntoIterator for &'p Properties<'_> {
    type Item = &'p (Box<str>, Type);
    type IntoIter = std::slice::Iter<'p, (Box<str>, Type)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for Properties<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// An object type: named properties, a strictness flag and annotations.
///
/// Either structural (interned like every other type) or *deferred*: created first and
/// given its properties later, so that a schema type can contain itself. A deferred object
/// is identified by its [`DeferredKey`] (nominal identity), but every relation treats it
/// structurally.
pub struct ObjectType {
    repr: ObjectRepr,
}

enum ObjectRepr {
    Structural {
        properties: Props,
        strict: bool,
        annotations: Box<[Annotation]>,
    },
    Deferred(Box<DeferredObject>),
}

/// Not defined yet.
const UNDEFINED: u8 = 0;
/// Defined, but built by a transformation that is not finished: other threads do not use it.
const UNPUBLISHED: u8 = 1;
/// Defined and visible to every thread.
const PUBLISHED: u8 = 2;

pub(crate) struct DeferredObject {
    key: DeferredKey,
    strict: bool,
    annotations: Box<[Annotation]>,
    /// For an object made by `input_type`: the object it was made from.
    input_origin: Option<Type>,
    state: AtomicU8,
    /// Set once; taken out only when the object's group is collected (nothing can reach the
    /// object then), which is what breaks reference cycles.
    properties: RwLock<Option<Arc<Props>>>,
    /// The properties of `properties` while they are there, for reading them without the
    /// lock once types are never freed (`interner::never_free`): then no group is collected,
    /// so they are never taken out. The lock and the count of a package's popular objects
    /// were written by both threads for every property read.
    properties_at: AtomicPtr<Props>,
}

impl DeferredObject {
    /// The properties, borrowed, if types are never freed and they are defined.
    fn properties_never_freed(&self) -> Option<&Props> {
        if !crate::interner::never_freed() {
            return None;
        }
        let at = self.properties_at.load(Ordering::Acquire);
        // SAFETY: `at` points into the `Arc` held by `properties`, set with it, and cleared
        // before it is taken out; nothing is taken out once types are never freed, so the
        // properties live as long as the object.
        (!at.is_null()).then(|| unsafe { &*at })
    }

    fn properties(&self) -> Option<Arc<Props>> {
        self.properties
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Takes the properties out (collection of a dead group).
    pub(crate) fn take_properties(&self) -> Option<Arc<Props>> {
        self.properties_at
            .store(std::ptr::null_mut(), Ordering::Release);
        self.properties
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    pub(crate) fn is_published(&self) -> bool {
        self.state.load(Ordering::Acquire) == PUBLISHED
    }
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
            (ObjectRepr::Deferred(d1), ObjectRepr::Deferred(d2)) => d1.key == d2.key,
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
            ObjectRepr::Deferred(deferred) => {
                1u8.hash(state);
                deferred.key.hash(state);
            }
        }
    }
}

impl fmt::Debug for ObjectType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            ObjectRepr::Structural {
                properties,
                strict,
                annotations,
            } => f
                .debug_struct("ObjectType")
                .field("properties", &properties.entries)
                .field("strict", strict)
                .field("annotations", annotations)
                .finish(),
            // The properties may lead back here; the key says which object this is.
            ObjectRepr::Deferred(deferred) => f
                .debug_struct("ObjectType")
                .field("key", &deferred.key)
                .field("strict", &deferred.strict)
                .field("annotations", &deferred.annotations)
                .finish_non_exhaustive(),
        }
    }
}

impl ObjectType {
    /// The properties, sorted by name. A deferred object whose properties were never
    /// defined has none.
    pub fn properties(&self) -> Properties<'_> {
        let inner = match &self.repr {
            ObjectRepr::Structural { properties, .. } => PropertiesInner::Borrowed(properties),
            ObjectRepr::Deferred(deferred) => match deferred.properties_never_freed() {
                Some(props) => PropertiesInner::Borrowed(props),
                None => match deferred.properties() {
                    Some(props) => PropertiesInner::Shared(props, PhantomData),
                    None => PropertiesInner::None,
                },
            },
        };
        Properties { inner }
    }

    /// The type of the property `name`, if there is one. For several lookups in one object,
    /// [`Properties::get`] on one [`ObjectType::properties`]: a deferred object's properties
    /// are shared by every thread, and each call of this one takes them out and puts them
    /// back (two counts written).
    pub fn property(&self, name: &str) -> Option<Type> {
        self.properties().get(name).cloned()
    }

    /// Whether unknown-property traversals are errors (true) or warnings (false).
    pub fn strict(&self) -> bool {
        match &self.repr {
            ObjectRepr::Structural { strict, .. } => *strict,
            ObjectRepr::Deferred(deferred) => deferred.strict,
        }
    }

    pub fn annotations(&self) -> &[Annotation] {
        match &self.repr {
            ObjectRepr::Structural { annotations, .. } => annotations,
            ObjectRepr::Deferred(deferred) => &deferred.annotations,
        }
    }

    /// The name given to a deferred object (used when a printer meets it recursively).
    pub fn deferred_name(&self) -> Option<&str> {
        self.deferred_key().map(|key| &*key.name)
    }

    /// The key of a deferred object.
    pub fn deferred_key(&self) -> Option<&DeferredKey> {
        self.deferred().map(|deferred| &deferred.key)
    }

    pub fn is_deferred(&self) -> bool {
        matches!(self.repr, ObjectRepr::Deferred(_))
    }

    /// Whether the object has its properties: true for a structural object, and for a
    /// deferred object once [`Type::define_object`] has run.
    pub fn is_defined(&self) -> bool {
        match &self.repr {
            ObjectRepr::Structural { .. } => true,
            ObjectRepr::Deferred(deferred) => deferred.state.load(Ordering::Acquire) != UNDEFINED,
        }
    }

    /// Whether this is a deferred object that has not been given its properties yet.
    pub(crate) fn is_undefined(&self) -> bool {
        !self.is_defined()
    }

    pub(crate) fn deferred(&self) -> Option<&DeferredObject> {
        match &self.repr {
            ObjectRepr::Deferred(deferred) => Some(deferred),
            ObjectRepr::Structural { .. } => None,
        }
    }

    /// For an object made by `input_type` from a deferred object: that object.
    pub(crate) fn input_origin(&self) -> Option<&Type> {
        self.deferred()?.input_origin.as_ref()
    }
}

/// See [`Type::union_sort_key`].
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct UnionSortKey {
    /// The canonical text, cut at a fixed length.
    text: String,
    /// Whether the text was cut (a text that was not sorts before the longer texts it starts).
    pub(crate) cut: bool,
    /// The namespace and variant of each deferred object in the text, in order.
    keys: Vec<(u64, u64)>,
}

/// Error from [`Type::define_object`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefineObjectError {
    /// The type is not a deferred object.
    NotDeferred,
    /// The deferred object already has its properties (given by this creator, or by an
    /// earlier creator of an object with the same key that is still alive).
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

/// The builtin singletons, never freed.
fn builtins() -> &'static [Type; 6] {
    static BUILTINS: OnceLock<[Type; 6]> = OnceLock::new();
    BUILTINS.get_or_init(|| {
        [
            TypeKind::Dynamic,
            TypeKind::None,
            TypeKind::Bool,
            TypeKind::Int,
            TypeKind::Number,
            TypeKind::String,
        ]
        .map(|kind| Type(ManuallyDrop::new(Arc::new(TypeData::builtin(kind)))))
    })
}

impl Type {
    /// A handle to `node`, whose groups have already counted it.
    pub(crate) fn from_data(node: Arc<TypeData>) -> Type {
        debug_assert!(!node.is_builtin());
        Type(ManuallyDrop::new(node))
    }

    pub(crate) fn data(&self) -> &TypeData {
        &self.0
    }

    /// Whether a deferred object is part of this type (a type without one is a finite tree).
    pub(crate) fn reaches_deferred(&self) -> bool {
        !self.0.groups().is_empty()
    }

    /// A weak reference to the node: keeps its memory (so its address is not reused), not
    /// the type.
    pub(crate) fn downgrade(&self) -> std::sync::Weak<TypeData> {
        Arc::downgrade(&self.0)
    }

    /// The address of the node: an identity valid while this handle is alive.
    pub(crate) fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }

    /// This handle's node is now also held free (an owned handle is about to be dropped).
    pub(crate) fn acquire_groups(&self) {
        for group in self.0.groups() {
            group.acquire();
        }
    }

    /// This handle has been moved into a node: it is owned, not free, from now on.
    pub(crate) fn release_groups(&self) {
        for group in self.0.groups() {
            group.release();
        }
    }

    pub(crate) fn builtin_for(kind: &TypeKind) -> Option<Type> {
        let index = match kind {
            TypeKind::Dynamic => 0,
            TypeKind::None => 1,
            TypeKind::Bool => 2,
            TypeKind::Int => 3,
            TypeKind::Number => 4,
            TypeKind::String => 5,
            _ => return None,
        };
        Some(builtins()[index].clone())
    }

    /// The shape of this type.
    pub fn kind(&self) -> &TypeKind {
        self.0.kind()
    }

    pub fn dynamic() -> Type {
        builtins()[0].clone()
    }
    pub fn none() -> Type {
        builtins()[1].clone()
    }
    pub fn bool() -> Type {
        builtins()[2].clone()
    }
    pub fn int() -> Type {
        builtins()[3].clone()
    }
    pub fn number() -> Type {
        builtins()[4].clone()
    }
    pub fn string() -> Type {
        builtins()[5].clone()
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
                properties: Props::new(sorted_properties(properties)),
                strict,
                annotations: annotations.into_boxed_slice(),
            },
        }))
    }

    /// The deferred object with this key: the live one if there is one (defined or not;
    /// its strictness and annotations are kept), else a new one, to be given its
    /// properties once with [`Type::define_object`]. This is how recursive schema types are
    /// built. The key's name is what printers show where the type recurs.
    pub fn deferred_object(key: DeferredKey, strict: bool, annotations: Vec<Annotation>) -> Type {
        Type::deferred_object_from(key, strict, annotations, None)
    }

    pub(crate) fn deferred_object_from(
        key: DeferredKey,
        strict: bool,
        annotations: Vec<Annotation>,
        input_origin: Option<Type>,
    ) -> Type {
        intern_deferred(deferred_kind(key, strict, annotations, input_origin))
    }

    /// The live deferred object with this key, if any.
    pub(crate) fn find_deferred(key: DeferredKey) -> Option<Type> {
        find_deferred(&deferred_kind(key, true, Vec::new(), None))
    }

    /// Gives a deferred object its properties (once). Defining an object that already has
    /// its properties (for example one created again by key while the first is alive) is
    /// [`DefineObjectError::AlreadyDefined`] and changes nothing.
    pub fn define_object<K: Into<Box<str>>>(
        &self,
        properties: impl IntoIterator<Item = (K, Type)>,
    ) -> Result<(), DefineObjectError> {
        self.define_deferred(sorted_properties(properties), true)
    }

    /// Defines a deferred object, visible to other threads only once `publish`ed.
    pub(crate) fn define_deferred(
        &self,
        entries: Box<[(Box<str>, Type)]>,
        publish: bool,
    ) -> Result<(), DefineObjectError> {
        let deferred = match self.kind() {
            TypeKind::Object(object) => object.deferred(),
            _ => None,
        };
        let Some(deferred) = deferred else {
            return Err(DefineObjectError::NotDeferred);
        };
        if deferred.state.load(Ordering::Acquire) != UNDEFINED {
            return Err(DefineObjectError::AlreadyDefined);
        }
        // The object (held by the caller) keeps the other groups its properties reach
        // alive, and its properties stop counting as free handles.
        let types: Vec<&Type> = entries.iter().map(|(_, t)| t).collect();
        own_into(&self.data().groups()[0], &types);
        drop(types);
        let props = Arc::new(Props::with(entries, true));
        let rejected = {
            let mut slot = deferred
                .properties
                .write()
                .unwrap_or_else(|p| p.into_inner());
            if slot.is_some() {
                Some(props)
            } else {
                deferred
                    .properties_at
                    .store(Arc::as_ptr(&props).cast_mut(), Ordering::Release);
                *slot = Some(props);
                let state = if publish { PUBLISHED } else { UNPUBLISHED };
                deferred.state.store(state, Ordering::Release);
                None
            }
        };
        match rejected {
            Some(props) => {
                drop(props);
                Err(DefineObjectError::AlreadyDefined)
            }
            None => Ok(()),
        }
    }

    /// Makes a deferred object defined by [`Type::define_deferred`] visible to all threads.
    pub(crate) fn publish(&self) {
        if let TypeKind::Object(object) = self.kind() {
            if let Some(deferred) = object.deferred() {
                let _ = deferred.state.compare_exchange(
                    UNPUBLISHED,
                    PUBLISHED,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                );
            }
        }
    }

    /// A union: nested unions are flattened, elements sorted by their sort key (see
    /// [`Type::union_sort_key`]: the canonical text, except that a deferred object stands for
    /// itself by its name) and duplicates (by [`Type::equals`]) removed. One element gives
    /// that element; none gives `none`.
    pub fn union(elements: impl IntoIterator<Item = Type>) -> Type {
        Type::union_with_budget(elements, UNION_PAIRS)
    }

    /// [`Type::union`], comparing elements pair by pair until `budget` pairs of their parts
    /// have been compared, then by [`structural_classes`] (which gives the same result).
    pub(crate) fn union_with_budget(
        elements: impl IntoIterator<Item = Type>,
        budget: usize,
    ) -> Type {
        // The elements in order, and where each run of them starts: the members of a union
        // element are one run (sorted already, as every union is), any other element is one.
        let mut flat = Vec::new();
        let mut union_runs = Vec::new();
        for element in elements {
            if let TypeKind::Union(inner) = element.kind() {
                union_runs.push(flat.len()..flat.len() + inner.len());
                flat.extend(inner.iter().cloned());
            } else {
                flat.push(element);
            }
        }
        if flat.len() > 1 {
            // The elements' places in sorted order (the keys are the elements' own).
            let places: Vec<usize> = {
                let keyed: Vec<(&UnionSortKey, usize)> = flat
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (t.union_sort_key(), i))
                    .collect();
                let mut memo = rustc_hash::FxHashMap::default();
                let mut order = |a: &(&UnionSortKey, usize), b: &(&UnionSortKey, usize)| {
                    a.0.cmp(b.0).then_with(|| {
                        if a.0.cut {
                            crate::print::structural_order(&flat[a.1], &flat[b.1], &mut memo)
                        } else {
                            std::cmp::Ordering::Equal
                        }
                    })
                };
                sort_stably(keyed, &union_runs, &mut order)
                    .into_iter()
                    .map(|(_, i)| i)
                    .collect()
            };
            let mut slots: Vec<Option<Type>> = flat.into_iter().map(Some).collect();
            flat = places
                .into_iter()
                .map(|i| slots[i].take().expect("each place once"))
                .collect();
        }
        // Types with equal keys are equal, but equal types need not have equal keys (e.g. two
        // deferred objects with the same structure), so each element is compared with every
        // element kept before it: kept if it equals none of them. Pair by pair while that
        // costs little; past `budget` pairs of parts compared, an element is compared only
        // with the kept elements of its structural class, which holds every element it can be
        // equal to: the comparisons that can succeed are the same, so the same elements are
        // kept.
        let mut result: Vec<Type> = Vec::with_capacity(flat.len());
        let mut work = 0usize;
        let mut rest = flat.into_iter();
        while let Some(ty) = rest.next() {
            let mut duplicate = false;
            let mut over_budget = false;
            for kept in result.iter().rev() {
                if work >= budget {
                    over_budget = true;
                    break;
                }
                if crate::assignable::equals_counted(kept, &ty, &mut work) {
                    duplicate = true;
                    break;
                }
            }
            if over_budget {
                let pending: Vec<Type> = std::iter::once(ty).chain(rest).collect();
                keep_distinct_by_class(&mut result, pending);
                break;
            }
            if !duplicate {
                result.push(ty);
            }
        }
        match result.len() {
            0 => Type::none(),
            1 => result.pop().expect("one element"),
            _ => intern(TypeKind::Union(result.into_boxed_slice())),
        }
    }

    /// The key unions sort their elements by: the canonical text, except that a deferred
    /// object is written `object(#name)` instead of being expanded, plus the namespaces and
    /// variants of those deferred objects in order, which break ties between different
    /// deferred objects that have the same name. The text is cut at 256 bytes, so computing
    /// the key costs at most that, whatever the type (its full text can be exponentially
    /// longer than the type, whose parts may be shared); elements whose cut keys agree are
    /// ordered by `print::structural_order`, which looks at each pair of parts once and never
    /// inside a deferred object.
    ///
    /// The order depends only on the types, never on the order in which they were created.
    ///
    /// Made once per type and kept with it: unions are built often from the same few types
    /// (`T | none` by every traversal through an optional type), and printing their keys
    /// again each time was most of the cost of building them.
    pub(crate) fn union_sort_key(&self) -> &UnionSortKey {
        self.0.sort_key().get_or_init(|| {
            let mut key = UnionSortKey::default();
            key.cut = crate::print::sort_key(self, &mut key.text, &mut key.keys);
            Box::new(key)
        })
    }

    /// `optional(T)` = `union(T, none)`.
    pub fn optional(element: Type) -> Type {
        // `T?` made optional again (every traversal through an optional type does it) is
        // `T?` itself when it reaches no deferred object: such a union is in its final form
        // for good (members sorted and pairwise unequal), so the union of its members and one
        // more `none` keeps the same members and interns to the same handle. A union reaching
        // deferred objects may not be (one built while they were undefined can hold members
        // that became equal since), so it is built again.
        if let TypeKind::Union(members) = element.kind() {
            if !element.reaches_deferred() && members.iter().any(Type::is_none) {
                return element;
            }
        }
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

    pub fn is_dynamic(&self) -> bool {
        matches!(self.kind(), TypeKind::Dynamic)
    }
    pub fn is_none(&self) -> bool {
        matches!(self.kind(), TypeKind::None)
    }

    /// The elements of a union, or the type itself.
    pub fn union_elements(&self) -> &[Type] {
        match self.kind() {
            TypeKind::Union(elements) => elements,
            _ => std::slice::from_ref(self),
        }
    }

    /// Whether a literal type (`const(..)`) is part of this type outside enums and deferred
    /// objects: whether replacing literal types by their underlying types can change it.
    /// Known in O(1), so a walk that replaces them can skip the parts without any.
    pub fn has_literal_parts(&self) -> bool {
        self.data().literal_parts()
    }

    /// The underlying type of a const, or the type itself.
    pub fn strip_const(&self) -> Type {
        match self.kind() {
            TypeKind::Const(c) => c.ty.clone(),
            _ => self.clone(),
        }
    }

    /// `IsOptionalType`: not `dynamic`, and assignable from `none`.
    pub fn is_optional(&self) -> bool {
        // A union with `none` among its elements (`T?`, most schema properties) takes `none`
        // without the relation's memo tables.
        if let TypeKind::Union(elements) = self.kind() {
            if elements.iter().any(Type::is_none) {
                return true;
            }
        }
        !self.is_dynamic() && self.assignable_from(&Type::none())
    }

    /// The type without `none` among its union elements (`T?` → `T`).
    pub fn without_none(&self) -> Type {
        match self.kind() {
            TypeKind::Union(elements) => {
                Type::union(elements.iter().filter(|t| !t.is_none()).cloned())
            }
            _ => self.clone(),
        }
    }

    /// `IsConstType`: a const, or a union of consts.
    pub fn is_const(&self) -> bool {
        match self.kind() {
            TypeKind::Const(_) => true,
            TypeKind::Union(elements) => elements.iter().all(|t| t.is_const()),
            _ => false,
        }
    }
}

/// `items` sorted stably by `order` (a total preorder): as `sort_by` sorts them. `union_runs`
/// are runs of items (every other item is a run of one); when there are long runs and each is
/// in order
/// already (a union's members, which it sorted), they are merged, which finds where a short
/// run's items go among a long run's by galloping, with a few comparisons each: the
/// comparisons of one type with many can each cost as much as the type is deep (the members of
/// a union of nested lists agree down to the shallower one, whose cut sort keys are alike), and
/// a merge by `sort_by` compares the new type with every member. A stable sort's result is
/// the one order of the items by `order` that keeps equal items in their order, which a stable
/// merge of sorted runs gives too.
fn sort_stably<T>(
    mut items: Vec<T>,
    union_runs: &[std::ops::Range<usize>],
    order: &mut impl FnMut(&T, &T) -> std::cmp::Ordering,
) -> Vec<T> {
    use std::cmp::Ordering::Greater;
    let in_runs: usize = union_runs.iter().map(|r| r.len()).sum();
    if items.len() < 8 || in_runs < items.len() / 2 {
        items.sort_by(order);
        return items;
    }
    let mut runs = Vec::new();
    let mut next = 0;
    for run in union_runs {
        runs.extend(next..run.start);
        runs.push(run.start);
        next = run.end;
    }
    runs.extend(next..items.len());
    let long_runs = runs.len() < items.len() / 2;
    let sorted_runs = long_runs
        && runs.iter().enumerate().all(|(i, &start)| {
            let end = runs.get(i + 1).copied().unwrap_or(items.len());
            items[start..end]
                .windows(2)
                .all(|w| order(&w[0], &w[1]) != Greater)
        });
    if !sorted_runs {
        items.sort_by(order);
        return items;
    }
    // Merge neighbouring runs, pairwise, until one is left.
    let mut pieces: Vec<Vec<T>> = Vec::with_capacity(runs.len());
    for &start in runs.iter().rev() {
        pieces.push(items.split_off(start));
    }
    pieces.reverse();
    while pieces.len() > 1 {
        let mut merged = Vec::with_capacity(pieces.len().div_ceil(2));
        let mut it = pieces.into_iter();
        while let Some(left) = it.next() {
            match it.next() {
                Some(right) => merged.push(merge_stably(left, right, order)),
                None => merged.push(left),
            }
        }
        pieces = merged;
    }
    pieces.pop().unwrap_or_default()
}

/// Merges two sorted runs, the items of `left` first among equal ones, galloping: each time
/// the run taken from changes, how many items to take is found by doubling steps and then
/// halving.
fn merge_stably<T>(
    left: Vec<T>,
    right: Vec<T>,
    order: &mut impl FnMut(&T, &T) -> std::cmp::Ordering,
) -> Vec<T> {
    use std::cmp::Ordering::{Greater, Less};
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = std::collections::VecDeque::from(left);
    let mut right = std::collections::VecDeque::from(right);
    while let (Some(_), Some(_)) = (left.front(), right.front()) {
        // Every item of `left` up to the first greater than right's first.
        let take = gallop(&left, |x| order(x, &right[0]) != Greater);
        out.extend(left.drain(..take));
        let Some(_) = left.front() else { break };
        // Every item of `right` less than left's first.
        let take = gallop(&right, |y| order(y, &left[0]) == Less);
        out.extend(right.drain(..take));
    }
    out.extend(left);
    out.extend(right);
    out
}

/// How many items from the front satisfy `pred`, which holds for a prefix of `items`: by
/// doubling steps, then halving.
fn gallop<T>(items: &std::collections::VecDeque<T>, mut pred: impl FnMut(&T) -> bool) -> usize {
    // Every index below `low` satisfies `pred`, `high` does not (or is the end).
    let mut low = 0;
    let mut step = 1;
    let mut high = loop {
        let probe = low + step - 1;
        if probe >= items.len() {
            break items.len();
        }
        if !pred(&items[probe]) {
            break probe;
        }
        low = probe + 1;
        step *= 2;
    };
    while low < high {
        let mid = low + (high - low) / 2;
        if pred(&items[mid]) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low
}

/// How many pairs of parts a union compares, element by element, before it sorts its
/// elements into structural classes (most unions have two or three elements, whose
/// comparison stops at their first parts).
const UNION_PAIRS: usize = 1024;

/// Appends to `kept` (elements no two of which are equal) each of `pending` in turn that is
/// equal to no element kept before it, comparing it only with the kept elements of its
/// structural class.
fn keep_distinct_by_class(kept: &mut Vec<Type>, pending: Vec<Type>) {
    let classes = structural_classes(kept.iter().chain(pending.iter()));
    let (kept_classes, pending_classes) = classes.split_at(kept.len());
    let mut by_class: rustc_hash::FxHashMap<u32, Vec<usize>> = rustc_hash::FxHashMap::default();
    for (i, &class) in kept_classes.iter().enumerate() {
        by_class.entry(class).or_default().push(i);
    }
    for (ty, &class) in pending.into_iter().zip(pending_classes) {
        let members = by_class.entry(class).or_default();
        if !members.iter().rev().any(|&i| kept[i].equals(&ty)) {
            members.push(kept.len());
            kept.push(ty);
        }
    }
}

fn deferred_kind(
    key: DeferredKey,
    strict: bool,
    annotations: Vec<Annotation>,
    input_origin: Option<Type>,
) -> TypeKind {
    TypeKind::Object(ObjectType {
        repr: ObjectRepr::Deferred(Box::new(DeferredObject {
            key,
            strict,
            annotations: annotations.into_boxed_slice(),
            input_origin,
            state: AtomicU8::new(UNDEFINED),
            properties: RwLock::new(None),
            properties_at: AtomicPtr::new(std::ptr::null_mut()),
        })),
    })
}
