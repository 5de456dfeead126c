//! Traversal: the type of `x.name` and `x[key]` given the type of `x`.

use pcl_diagnostics::suggest::edit_distance;
use pcl_diagnostics::Severity;

use crate::conversion::ConversionKind;
use crate::kinds::{Type, TypeKind};
use crate::reason::{Reason, ReasonKind};
use crate::value::ConstValue;

/// One traversal step.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Traverser {
    /// `.name`
    Attr(Box<str>),
    /// `[key]`, given the type of the key: a const type for a literal key.
    Index(Type),
}

impl Traverser {
    pub fn attr(name: &str) -> Traverser {
        Traverser::Attr(name.into())
    }

    /// The key as a type: `.name` is the literal `"name"`.
    pub fn key_type(&self) -> Type {
        match self {
            Traverser::Attr(name) => Type::string_literal(name),
            Traverser::Index(key) => key.clone(),
        }
    }
}

/// The result of a traversal: the type reached, and possibly a diagnostic. On an error the
/// type is `dynamic` (or an eventual of it), so that checking can go on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Traversal {
    pub ty: Type,
    pub diagnostic: Option<(Severity, Reason)>,
}

impl Traversal {
    fn ok(ty: Type) -> Traversal {
        Traversal {
            ty,
            diagnostic: None,
        }
    }
    fn error(kind: ReasonKind) -> Traversal {
        Traversal {
            ty: Type::dynamic(),
            diagnostic: Some((Severity::Error, Reason::new(kind))),
        }
    }
    fn with(ty: Type, severity: Severity, kind: ReasonKind) -> Traversal {
        Traversal {
            ty,
            diagnostic: Some((severity, Reason::new(kind))),
        }
    }
    /// Whether the traversal failed with an error.
    pub fn is_error(&self) -> bool {
        matches!(self.diagnostic, Some((Severity::Error, _)))
    }
    /// The diagnostic's reason, if any.
    pub fn reason(&self) -> Option<&Reason> {
        self.diagnostic.as_ref().map(|(_, r)| r)
    }
}

impl Type {
    /// The type of `value.name` / `value[key]` where `value: self`.
    pub fn traverse(&self, traverser: &Traverser) -> Traversal {
        if let Traverser::Attr(name) = traverser {
            if let Some(ty) = attr_found(self, name) {
                return Traversal::ok(ty);
            }
        }
        traverse(self, traverser, &traverser.key_type())
    }
}

/// `.name` where every object the receiver can be has that property: the common case, and
/// exactly what [`traverse`] gives for it, without interning the key's literal type and
/// converting it to `string` at every step. `None` leaves the traversal to the general rule
/// (which finds the problem, or the case-insensitive match, and words it).
fn attr_found(receiver: &Type, name: &str) -> Option<Type> {
    match receiver.kind() {
        TypeKind::Dynamic => Some(Type::dynamic()),
        TypeKind::Object(object) => object.property(name),
        TypeKind::Const(c) => attr_found(&c.ty, name),
        TypeKind::Output(e) => attr_found(e, name).map(Type::output),
        TypeKind::Promise(e) => attr_found(e, name).map(Type::promise),
        TypeKind::Union(elements) => {
            // As `traverse_union` when no element reports anything.
            let mut found = Vec::with_capacity(elements.len());
            let mut has_none = false;
            for e in elements {
                if e.is_none() {
                    has_none = true;
                } else {
                    found.push(attr_found(e, name)?);
                }
            }
            if found.is_empty() {
                return None;
            }
            if has_none {
                if let [one] = found.as_slice() {
                    return Some(Type::optional(one.clone()));
                }
                found.push(Type::none());
            }
            Some(Type::union(found))
        }
        _ => None,
    }
}

fn traverse(receiver: &Type, traverser: &Traverser, key: &Type) -> Traversal {
    // The key's own eventuals are the binder's business (it lifts the result); here only
    // the key's value type matters.
    let key_value = key.resolve_outputs();
    let converts = |dest: Type| dest.conversion_kind_from(&key_value) != ConversionKind::None;
    let key = key.clone();
    match receiver.kind() {
        TypeKind::Dynamic => Traversal::ok(Type::dynamic()),
        TypeKind::None => Traversal::with(
            Type::none(),
            Severity::Warning,
            ReasonKind::CannotTraverse {
                receiver: receiver.clone(),
            },
        ),
        TypeKind::Const(c) => traverse(&c.ty, traverser, &key),
        TypeKind::Output(e) | TypeKind::Promise(e) => {
            let inner = traverse(e, traverser, &key);
            let wrap = |t: Type| match receiver.kind() {
                TypeKind::Output(_) => Type::output(t),
                _ => Type::promise(t),
            };
            Traversal {
                ty: wrap(inner.ty),
                diagnostic: inner.diagnostic,
            }
        }
        TypeKind::List(e) => {
            if !converts(Type::number())
                || (is_non_numeric_literal(&key_value) && matches!(traverser, Traverser::Attr(_)))
            {
                // `list.name` (a ranged resource used as one) stays an error: the common
                // mistake, and no valid program writes it.
                Traversal::error(ReasonKind::ListIndexNotNumber { key })
            } else if is_non_numeric_literal(&key_value) {
                // `list["name"]`: Pulumi's binder accepts it (a string converts to a number,
                // unsafely), and programs converted from Terraform carry it (a `for_each`
                // resource ranged over a list, indexed by a key): the element's type, with
                // a warning, since it cannot succeed when the program runs.
                Traversal::with(
                    e.clone(),
                    Severity::Warning,
                    ReasonKind::ListIndexNotNumber { key },
                )
            } else {
                Traversal::ok(e.clone())
            }
        }
        TypeKind::Map(e) => {
            if converts(Type::string()) {
                Traversal::ok(e.clone())
            } else {
                Traversal::error(ReasonKind::MapKeyNotString { key })
            }
        }
        TypeKind::Tuple(elements) => traverse_tuple(elements, key, &key_value),
        TypeKind::Object(object) => {
            let severity = if object.strict() {
                Severity::Error
            } else {
                Severity::Warning
            };
            if !converts(Type::string()) {
                return Traversal::with(
                    Type::dynamic(),
                    severity,
                    ReasonKind::ObjectKeyNotString { key },
                );
            }
            let name = match key_value.kind() {
                TypeKind::Const(c) => match &c.value {
                    ConstValue::String(s) => s.to_string(),
                    ConstValue::Null => {
                        return Traversal::with(
                            Type::dynamic(),
                            severity,
                            ReasonKind::ObjectKeyNotString { key },
                        )
                    }
                    other => other.to_string(),
                },
                // An unknown key can reach any property.
                _ => {
                    return Traversal::ok(Type::union(
                        object.properties().iter().map(|(_, t)| t.clone()),
                    ))
                }
            };
            if let Some(t) = object.property(&name) {
                return Traversal::ok(t);
            }
            let properties = object.properties();
            let folded = properties
                .iter()
                .find(|(k, _)| k.to_lowercase() == name.to_lowercase());
            if let Some((matched, t)) = folded {
                return Traversal::with(
                    t.clone(),
                    Severity::Warning,
                    ReasonKind::CaseInsensitiveMatch {
                        name: name.into(),
                        matched: matched.clone(),
                    },
                );
            }
            let suggestion = suggest(&name, object.properties().iter().map(|(k, _)| &**k));
            Traversal::with(
                Type::dynamic(),
                severity,
                ReasonKind::UnknownProperty {
                    name: name.into(),
                    object: receiver.clone(),
                    suggestion,
                },
            )
        }
        TypeKind::Union(elements) => traverse_union(receiver, elements, traverser, key),
        // A schema's reference to a type whose package is not available (`aws:lb/...` in an
        // `awsx` schema without `aws`'s): its parts are not known, and the missing package
        // is the problem, reported where a schema is asked for, not at every use.
        TypeKind::Opaque(name) if name.contains(':') => Traversal::with(
            Type::dynamic(),
            Severity::Warning,
            ReasonKind::CannotTraverse {
                receiver: receiver.clone(),
            },
        ),
        // Deviation: the reference returns the enum itself for any traversal of an enum.
        TypeKind::Bool
        | TypeKind::Int
        | TypeKind::Number
        | TypeKind::String
        | TypeKind::Opaque(_)
        | TypeKind::Set(_)
        | TypeKind::Enum(_) => Traversal::error(ReasonKind::CannotTraverse {
            receiver: receiver.clone(),
        }),
    }
}

/// A string literal that is not a number (`list.foo`): the reference accepts it because
/// `string` converts to `number` unsafely; we reject it.
fn is_non_numeric_literal(key: &Type) -> bool {
    match key.kind() {
        TypeKind::Const(c) => match &c.value {
            ConstValue::String(s) => ConstValue::parse_number(s.trim()).is_err(),
            ConstValue::Null => true,
            _ => false,
        },
        _ => false,
    }
}

fn traverse_tuple(elements: &[Type], key: Type, key_value: &Type) -> Traversal {
    // The reference requires the key to be *assignable* to number, which rejects `int`;
    // we accept every key that converts to number safely (int, number, integer literals).
    let integral = key_value.is_dynamic()
        || Type::number().conversion_kind_from(key_value) == ConversionKind::Safe;
    if !integral {
        return Traversal::error(ReasonKind::TupleIndexNotInteger { key });
    }
    let TypeKind::Const(c) = key_value.kind() else {
        // An unknown index can reach any element.
        return Traversal::ok(Type::union(elements.iter().cloned()));
    };
    let index = match &c.value {
        ConstValue::Int(i) => (**i).clone(),
        ConstValue::Number(d) => match d.to_integer() {
            Some(i) => i,
            None => return Traversal::error(ReasonKind::TupleIndexNotInteger { key }),
        },
        _ => return Traversal::error(ReasonKind::TupleIndexNotInteger { key }),
    };
    // Deviation: the reference's range check lets index == len through (and panics).
    match usize::try_from(&index).ok().and_then(|i| elements.get(i)) {
        Some(t) => Traversal::ok(t.clone()),
        None => Traversal::error(ReasonKind::TupleIndexOutOfRange {
            index: index.to_string(),
            len: elements.len(),
        }),
    }
}

fn traverse_union(
    receiver: &Type,
    elements: &[Type],
    traverser: &Traverser,
    key: Type,
) -> Traversal {
    let mut successes = Vec::new();
    let mut first_error: Option<Reason> = None;
    let mut warning: Option<Reason> = None;
    let mut has_none = false;
    for e in elements {
        if e.is_none() {
            has_none = true;
            continue;
        }
        let result = traverse(e, traverser, &key);
        match result.diagnostic {
            Some((Severity::Error, reason)) => {
                first_error.get_or_insert(reason);
            }
            Some((Severity::Warning, reason)) => {
                warning.get_or_insert(reason);
                successes.push(result.ty);
            }
            None => successes.push(result.ty),
        }
    }
    if successes.is_empty() {
        let first = first_error.unwrap_or_else(|| {
            Reason::new(ReasonKind::CannotTraverse {
                receiver: receiver.clone(),
            })
        });
        return Traversal::error(ReasonKind::CannotTraverseUnion {
            receiver: receiver.clone(),
            first: Box::new(first),
        });
    }
    // Traversing through `none` gives `none`: `optional(object).x` is optional.
    if has_none {
        successes.push(Type::none());
    }
    Traversal {
        ty: Type::union(successes),
        diagnostic: warning.map(|w| (Severity::Warning, w)),
    }
}

/// The closest property name within a small edit distance, for "did you mean". Property
/// names accept two edits even when short (`nmae` for `name`), more than the shared
/// `suggest::best_match` rule, which would miss such swapped letters.
fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<Box<str>> {
    let limit = (name.chars().count() / 3).max(2);
    candidates
        .map(|c| (edit_distance(name, c), c))
        // A suggestion must share something with the name (`0` is not a typo of `a`).
        .filter(|(d, _)| *d <= limit && *d < name.chars().count())
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut for a property every receiver has gives exactly the general rule's
    /// result, over receivers of every shape it looks through.
    #[test]
    fn found_attributes_are_what_the_rules_give() {
        let leaves = [
            Type::dynamic(),
            Type::none(),
            Type::string(),
            Type::string_literal("a"),
            Type::object([("a", Type::int()), ("b", Type::string())]),
            Type::object([("A", Type::bool())]),
            Type::object([("a", Type::optional(Type::number()))]),
            Type::map(Type::int()),
            Type::list(Type::string()),
        ];
        let mut receivers: Vec<Type> = Vec::new();
        for leaf in &leaves {
            receivers.push(leaf.clone());
            receivers.push(Type::output(leaf.clone()));
            receivers.push(Type::promise(leaf.clone()));
            receivers.push(Type::optional(leaf.clone()));
            receivers.push(Type::output(Type::optional(leaf.clone())));
            for other in &leaves {
                receivers.push(Type::union([leaf.clone(), other.clone()]));
                receivers.push(Type::union([leaf.clone(), other.clone(), Type::none()]));
                receivers.push(Type::output(Type::union([leaf.clone(), other.clone()])));
            }
        }
        let mut found = 0;
        for receiver in &receivers {
            for name in ["a", "b", "A", "c"] {
                let traverser = Traverser::attr(name);
                let general = traverse(receiver, &traverser, &traverser.key_type());
                if let Some(ty) = attr_found(receiver, name) {
                    found += 1;
                    assert_eq!(
                        Traversal::ok(ty),
                        general,
                        "{}.{name}",
                        receiver.display_readable()
                    );
                }
                assert_eq!(receiver.traverse(&traverser), general);
            }
        }
        assert!(found > 100, "{found}");
    }
}
