//! Shared fixtures: one or more types of every kind.

#![allow(dead_code)]

use std::sync::atomic::{AtomicU64, Ordering};

use pcl_types::{ConstValue, DeferredKey, Type};

/// A grid of types covering every kind, with a short label each.
pub fn grid() -> Vec<(&'static str, Type)> {
    vec![
        ("dynamic", Type::dynamic()),
        ("none", Type::none()),
        ("bool", Type::bool()),
        ("int", Type::int()),
        ("number", Type::number()),
        ("string", Type::string()),
        ("Asset", Type::asset()),
        ("list(str)", Type::list(Type::string())),
        ("list(int)", Type::list(Type::int())),
        ("set(str)", Type::set(Type::string())),
        ("map(int)", Type::map(Type::int())),
        ("tuple(i,s)", Type::tuple([Type::int(), Type::string()])),
        ("{a:int}", Type::object([("a", Type::int())])),
        (
            "{a:int,b:s?}",
            Type::object([("a", Type::int()), ("b", Type::optional(Type::string()))]),
        ),
        ("int|string", Type::union([Type::int(), Type::string()])),
        ("string?", Type::optional(Type::string())),
        ("output(str)", Type::output(Type::string())),
        ("promise(int)", Type::promise(Type::int())),
        ("\"a\"", Type::string_literal("a")),
        ("1", Type::number_literal("1").expect("literal")),
        ("null", Type::null_literal()),
        ("enum(A|B)", kind_enum()),
    ]
}

pub fn kind_enum() -> Type {
    Type::enumeration(
        "pkg:index:Kind",
        Type::string(),
        [
            ConstValue::String("A".into()),
            ConstValue::String("B".into()),
        ],
    )
}

/// A namespace no other call returns, for deferred objects that must be new.
pub fn fresh_namespace() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1 << 32);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A recursive schema object: `Node = { children: list(Node)?, value: string }`, in a
/// namespace of its own (so each call gives a different object).
pub fn node() -> Type {
    let node = Type::deferred_object(
        DeferredKey::new(fresh_namespace(), "pkg:index:Node"),
        true,
        vec![],
    );
    node.define_object([
        ("children", Type::optional(Type::list(node.clone()))),
        ("value", Type::string()),
    ])
    .expect("fresh deferred object");
    node
}

/// A matrix with `dest` rows and `src` columns.
pub fn matrix(cell: impl Fn(&Type, &Type) -> String) -> String {
    let grid = grid();
    let width = grid.iter().map(|(l, _)| l.len() + 3).max().unwrap_or(0);
    let mut out = format!("{:width$} |", "dest \\ src");
    for (i, _) in grid.iter().enumerate() {
        out.push_str(&format!(" {:>2}", i));
    }
    out.push('\n');
    for (i, (label, dest)) in grid.iter().enumerate() {
        out.push_str(&format!("{:width$} |", format!("{i:>2} {label}")));
        for (_, src) in &grid {
            out.push_str(&format!(" {:>2}", cell(dest, src)));
        }
        out.push('\n');
    }
    out
}
