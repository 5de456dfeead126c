//! The PCL type system.
//!
//! This crate owns the *types* of PCL (Pulumi's HCL2-based program language): their
//! representation, construction and interning, and the relations the binder needs
//! between them:
//!
//! * [`Type`]: a cheap `Clone` handle to an interned (hash-consed), reference-counted type.
//!   Two structurally identical live types built anywhere in the process are the same
//!   handle, and a deferred (recursive) object is identified by its [`DeferredKey`], so `==`
//!   and `Hash` are O(1) and salsa queries can return types and compare them directly. Types
//!   nothing refers to any more are freed, cycles included ([`interner_stats`] counts them).
//! * [`Type::assignable_from`]: strict, structural assignability.
//! * [`Type::conversion_from`]: Safe / Unsafe / None conversions with a structured [`Reason`].
//! * [`Type::unify`] and [`unify_all`]: the common type of two or more types.
//! * [`Type::traverse`]: the type of `x.attr` and `x[key]`.
//! * [`Type::display_canonical`] and [`Type::display_readable`]: the two printers (the
//!   readable one names schema objects below the top level, see [`NamedObjects`]; its other
//!   styles, [`ReadableStyle`], are chosen with [`Type::display_readable_with`]).
//!
//! It follows `pcl-semantics.md` section 3 (Pulumi's `pkg/codegen/hcl2/model`), with the
//! deliberate deviations listed in `docs/type-system.md`. It knows nothing about syntax,
//! positions, schemas or salsa.

// `Type` contains a lock (deferred objects), but it hashes and compares by pointer,
// so using it as a hash key is sound.
#![allow(clippy::mutable_key_type)]

mod assignable;
mod classes;
mod conversion;
mod eventuals;
mod facts;
mod interner;
mod kinds;
mod print;
mod reason;
mod traverse;
mod unify;
mod value;

pub use conversion::{Conversion, ConversionKind};

/// Runs `f` with at least 128 KiB of stack left, on a new stack segment on the heap when less
/// is left. Every relation and printer recurses through the structure of types, and a schema
/// may chain thousands of distinct object types (each visited once per relation, so the depth
/// is bounded by the number of types, but not by a thread's stack). Schema mapping uses it too.
pub fn on_enough_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(128 * 1024, 4 * 1024 * 1024, f)
}
pub use eventuals::Eventual;
pub use interner::{interner_stats, never_free, InternerStats};
pub use kinds::{
    Annotation, ConstType, DeferredKey, DefineObjectError, EnumType, ObjectType, Properties, Type,
    TypeKind,
};
pub use print::{
    NamedObjects, ReadableStyle, Tokens, MAX_CANONICAL_LEN, MAX_READABLE_DEPTH, MAX_READABLE_LEN,
};
pub use reason::{PathStep, Reason, ReasonKind};
pub use traverse::{Traversal, Traverser};
pub use unify::{unify_all, UnifyAll};
pub use value::{ConstValue, Decimal, LiteralError};
