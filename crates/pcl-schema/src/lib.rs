//! Pulumi package schemas for the PCL frontend.
//!
//! This crate owns everything between a package schema file and the PCL types a program sees:
//!
//! * [`SchemaRegistry`]: finding `NAME-VERSION.json` files, loading each file once, and the
//!   built-in `pulumi` package; [`choose_version`], the one rule for which file provides a
//!   package (used by the registry and by the checker's queries).
//! * [`Package`]: one schema, parsed once into an index from token to raw definition; each
//!   resource, function or type is decoded on first use ([`spec`]) and memoized.
//! * [`token`]: token forms (`pkg:mod:Member`, `pkg::Member`, `pkg:Member`), module formats,
//!   canonical tokens and "did you mean" suggestions.
//! * The package `config` (configuration variables), checked and mapped like resource inputs.
//! * Diagnostics that name the file and the JSON path of each problem ([`SchemaDiagnostic`]).
//!
//! It has no salsa inside: the binder's queries call it.

mod describe;
mod diagnostic;
mod package;
mod registry;
pub mod spec;
pub mod token;
mod types;
mod validate;
mod version;

pub use describe::{describe, description_markdown, readable_type};
pub use diagnostic::{JsonPath, SchemaDiagnostic};
pub use package::{Decoded, DefinitionKind, Found, Package, Parameterization, UnknownToken};
pub use registry::{
    load_schema_file, parse_schema_file_name, pulumi_builtin_package, read_schema_text, LoadError,
    PackageLoader, ReadSchemaError, SchemaOnDisk, SchemaRegistry, MAX_SCHEMA_LEN,
};
pub use types::{FunctionSignature, MethodError, MethodSignature, Shape, TypeMapper};
pub use validate::{check_package, has_errors};
pub use version::{choose_version, VersionNotFound};
