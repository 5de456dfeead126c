//! Structured explanations of why a conversion or traversal failed (or is unsafe).
//!
//! A [`Reason`] holds types, not text, so building one is cheap; it is rendered only when
//! a diagnostic is shown. The path says *where* inside the value the problem is.

use std::fmt;
use std::sync::Arc;

use crate::kinds::Type;
use crate::print::NamedObjects;
use crate::value::ConstValue;

/// One step from a value to a part of it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathStep {
    /// An object property.
    Property(Box<str>),
    /// A tuple element.
    Index(usize),
    /// Any element of a list, set or map.
    Element,
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ReasonKind {
    /// No conversion from `src` to `dest`.
    CannotAssign { dest: Type, src: Type },
    /// A required property of the destination object is missing from the source.
    MissingProperty { name: Box<str>, dest: Type },
    /// Tuples of different lengths.
    TupleLengths { dest: Type, src: Type },
    /// An output can be awaited only through `apply`, never turned into a promise.
    OutputToPromise { dest: Type, src: Type },
    /// A literal that is not one of an enum's values.
    NotEnumMember { value: ConstValue, enum_type: Type },
    /// A literal that differs from the literal type expected.
    WrongLiteral { dest: Type, src: Type },
    /// Unsafe: the conversion exists but can fail at run time (e.g. `string` → `int`).
    MayFail { dest: Type, src: Type },
    /// Unsafe: the value is `dynamic`, so it is checked only at run time.
    DynamicSource { dest: Type },
    /// Unsafe: some members of a union source convert and others do not.
    SomeUnionMembers { dest: Type, failing: Type },
    /// Traversal into a type that has no parts (a primitive, a set, none, ...).
    CannotTraverse { receiver: Type },
    /// `.name` on an object without that property.
    UnknownProperty {
        name: Box<str>,
        object: Type,
        suggestion: Option<Box<str>>,
    },
    /// `.name` matched a property only ignoring case.
    CaseInsensitiveMatch { name: Box<str>, matched: Box<str> },
    /// The key of an index into a list is not a number.
    ListIndexNotNumber { key: Type },
    /// The key of an index into a map is not a string.
    MapKeyNotString { key: Type },
    /// The key of an index into an object is not a string.
    ObjectKeyNotString { key: Type },
    /// The key of an index into a tuple is not an integer.
    TupleIndexNotInteger { key: Type },
    /// A literal tuple index outside `0..len`.
    TupleIndexOutOfRange { index: String, len: usize },
    /// Every member of a union failed to traverse.
    CannotTraverseUnion { receiver: Type, first: Box<Reason> },
}

/// Why a conversion is None or Unsafe, or why a traversal failed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reason {
    /// From the outer value to the offending part, outermost first.
    path: Path,
    pub kind: ReasonKind,
}

/// Paths longer than this many steps print their first and last halves only.
const MAX_PATH_STEPS: usize = 32;
/// The most bytes of a printed path (then `…`).
const MAX_PATH_LEN: usize = 1_000;

impl Reason {
    pub fn new(kind: ReasonKind) -> Reason {
        Reason {
            path: Path::default(),
            kind,
        }
    }

    /// The same reason seen from one level further out. O(1): the reasons of a conversion and
    /// of its parts share their paths (a conversion memoizes the result of every pair of parts,
    /// so copying paths would cost the square of a deep type's depth).
    pub fn within(mut self, step: PathStep) -> Reason {
        self.path = self.path.within(step);
        self
    }

    /// The steps from the outer value to the offending part, outermost first.
    pub fn path(&self) -> impl Iterator<Item = &PathStep> {
        self.path.steps()
    }

    /// The number of steps of [`Reason::path`].
    pub fn path_len(&self) -> usize {
        self.path.len()
    }

    /// The path as text: `.tags["a"]`-like, e.g. `.rules[*].ports[0]`. Empty for the root. A
    /// path of more than 32 steps shows its first and last 16 with `…` between, and the text
    /// is cut at 1,000 bytes.
    pub fn path_text(&self) -> String {
        let len = self.path.len();
        let mut out = String::new();
        for (i, step) in self.path.steps().enumerate() {
            if len > MAX_PATH_STEPS && i >= MAX_PATH_STEPS / 2 && i < len - MAX_PATH_STEPS / 2 {
                if i == MAX_PATH_STEPS / 2 {
                    out.push('…');
                }
                continue;
            }
            match step {
                // A key that is no identifier (`"key...ellipse"`, `"app.kubernetes.io/name"`)
                // is written as an index, as a program would write it.
                PathStep::Property(name) if is_identifier(name) => {
                    out.push('.');
                    out.push_str(name);
                }
                PathStep::Property(name) => out.push_str(&format!("[{name:?}]")),
                PathStep::Index(i) => out.push_str(&format!("[{i}]")),
                PathStep::Element => out.push_str("[*]"),
            }
            if out.len() > MAX_PATH_LEN {
                let mut cut = MAX_PATH_LEN;
                while !out.is_char_boundary(cut) {
                    cut -= 1;
                }
                out.truncate(cut);
                out.push('…');
                break;
            }
        }
        out
    }

    /// The message without the path.
    pub fn message(&self) -> String {
        // Named (schema) objects print as their token: a message names the types, it does
        // not list their contents.
        let r = |t: &Type| t.display_readable_with(NamedObjects::Never);
        match &self.kind {
            ReasonKind::CannotAssign { dest, src } => {
                format!(
                    "cannot assign a value of type {} to type {}",
                    r(src),
                    r(dest)
                )
            }
            ReasonKind::MissingProperty { name, dest } => {
                format!("missing required property `{name}` of type {}", r(dest))
            }
            ReasonKind::TupleLengths { dest, src } => {
                format!("tuples {} and {} have different lengths", r(dest), r(src))
            }
            ReasonKind::OutputToPromise { dest, src } => format!(
                "cannot assign a value of type {} to type {}: an output cannot become a promise",
                r(src),
                r(dest)
            ),
            ReasonKind::NotEnumMember { value, enum_type } => {
                let allowed = match enum_type.kind() {
                    crate::TypeKind::Enum(e) => {
                        let values: Vec<String> =
                            e.values.iter().map(|v| format!("`{v}`")).collect();
                        format!(
                            " of the enum {}: valid values are {}",
                            e.token,
                            values.join(", ")
                        )
                    }
                    _ => String::new(),
                };
                format!("`{value}` is not a valid value{allowed}")
            }
            ReasonKind::WrongLiteral { dest, src } => {
                format!("expected the value {}, got {}", r(dest), r(src))
            }
            ReasonKind::MayFail { dest, src } => {
                format!("a value of type {} converts to type {} only if it has the right form at run time", r(src), r(dest))
            }
            ReasonKind::DynamicSource { dest } => {
                format!("a value of type dynamic converts to type {} only if it has the right form at run time", r(dest))
            }
            ReasonKind::SomeUnionMembers { dest, failing } => format!(
                "a value of type {} cannot be assigned to type {}",
                r(failing),
                r(dest)
            ),
            ReasonKind::CannotTraverse { receiver } => match receiver.kind() {
                crate::TypeKind::Opaque(name) if name.contains(':') => format!(
                    "cannot traverse a value of type {}: the schema that defines `{name}` is not available",
                    r(receiver)
                ),
                _ => format!("cannot traverse a value of type {}", r(receiver)),
            },
            ReasonKind::UnknownProperty {
                name,
                object,
                suggestion,
            } => {
                // The suggestion is a help line (`Reason::help`), never part of the message.
                let _ = suggestion;
                format!("unknown property `{name}` of {}", describe_object(object))
            }
            ReasonKind::CaseInsensitiveMatch { name, matched } => {
                format!("property `{name}` matches `{matched}` only when case is ignored")
            }
            ReasonKind::ListIndexNotNumber { key } => {
                format!("list indices must be numbers, not {}", r(key))
            }
            ReasonKind::MapKeyNotString { key } => {
                format!("map keys must be strings, not {}", r(key))
            }
            ReasonKind::ObjectKeyNotString { key } => {
                format!("object properties must be strings, not {}", r(key))
            }
            ReasonKind::TupleIndexNotInteger { key } => {
                format!("tuple indices must be integers, not {}", r(key))
            }
            ReasonKind::TupleIndexOutOfRange { index, len } => {
                format!(
                    "tuple index {index} must be between 0 and {}",
                    len.saturating_sub(1)
                )
            }
            ReasonKind::CannotTraverseUnion { receiver, first } => {
                format!("cannot traverse a value of type {}: {first}", r(receiver))
            }
        }
    }
}

impl Reason {
    /// A help line to show after the message: the suggestion of an unknown property ("did you
    /// mean `name`?"), which is never part of the message.
    pub fn help(&self) -> Option<String> {
        match &self.kind {
            ReasonKind::UnknownProperty {
                suggestion: Some(s),
                ..
            } => Some(pcl_diagnostics::style::did_you_mean(s)),
            _ => None,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.len() == 0 {
            f.write_str(&self.message())
        } else {
            write!(f, "at `{}`: {}", self.path_text(), self.message())
        }
    }
}

/// An object for a message: its readable form (named objects inside it by name) if short,
/// else its name and property names, so that messages stay readable for big schema types.
fn describe_object(object: &Type) -> String {
    let readable = object.display_readable();
    if readable.len() <= 80 && !readable.contains('\n') {
        return format!("object {readable}");
    }
    let properties = match object.kind() {
        crate::TypeKind::Object(o) => Some(o.properties()),
        _ => None,
    };
    let names: Vec<&str> = properties
        .iter()
        .flat_map(|p| p.iter().map(|(k, _)| &**k))
        .collect();
    let shown: Vec<String> = names.iter().take(10).map(|n| format!("`{n}`")).collect();
    let more = if names.len() > shown.len() {
        ", ..."
    } else {
        ""
    };
    let name = match object.kind() {
        crate::TypeKind::Object(o) => crate::print::object_name(o),
        _ => None,
    };
    match name {
        Some(name) => format!(
            "{name}, an object with properties {}{more}",
            shown.join(", ")
        ),
        None => format!("an object with properties {}{more}", shown.join(", ")),
    }
}

/// A persistent list of steps, outermost first: a step in front of a path shares the path.
#[derive(Clone, Default)]
struct Path(Option<Arc<PathNode>>);

struct PathNode {
    step: PathStep,
    rest: Path,
    len: usize,
}

impl Path {
    fn within(self, step: PathStep) -> Path {
        let len = self.len() + 1;
        Path(Some(Arc::new(PathNode {
            step,
            rest: self,
            len,
        })))
    }

    fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |node| node.len)
    }

    fn steps(&self) -> impl Iterator<Item = &PathStep> {
        let mut next = self.0.as_deref();
        std::iter::from_fn(move || {
            let node = next?;
            next = node.rest.0.as_deref();
            Some(&node.step)
        })
    }
}

impl Drop for Path {
    fn drop(&mut self) {
        // Iteratively: a path as long as a deep type must not recurse as deep.
        let mut next = self.0.take();
        while let Some(node) = next {
            next = match Arc::try_unwrap(node) {
                Ok(mut node) => node.rest.0.take(),
                Err(_) => None,
            };
        }
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Path) -> bool {
        self.len() == other.len() && self.steps().eq(other.steps())
    }
}
impl Eq for Path {}

impl std::hash::Hash for Path {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.len().hash(state);
        for step in self.steps() {
            step.hash(state);
        }
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.steps()).finish()
    }
}

/// Whether `name` can follow a `.` in a traversal: an HCL identifier (letters, digits, `_` and
/// `-`, not starting with a digit or `-`).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}
