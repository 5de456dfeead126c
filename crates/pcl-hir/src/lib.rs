//! The semantic model of PCL programs.
//!
//! This crate owns the layer between syntax and types, as salsa queries:
//!
//! * [`lower_file`] / [`file_nodes`]: per file, one [`Node`] per top-level construct,
//!   identified by file, kind and name (never by position), with a position-free [`Body`]
//!   (an expression arena: names interned, literals exact, templates unescaped) and a
//!   separate source map. Structural problems (labels, unknown blocks, attributes a block
//!   does not take) are found here.
//! * Scopes: variables are resolved while lowering (`for` variables, `range`, hook `args`,
//!   `recover`'s `error`); everything else is looked up in the [`program_scope`], the
//!   top-level names of every file of the program.
//!
//! Types live in `pcl-ty`, which reads bodies and never syntax.

mod body;
mod item;
mod lower;
mod name;
mod options;

pub use body::*;
pub use item::{
    file_nodes, lookup_root, lower_file, program_scope, resolve_root, LoweredFile, Node, NodeKind,
    NodeSourceMap, ProgramFile, ProgramScope, RootName, Signature,
};
pub use lower::known_attributes;
pub use name::Name;
pub use options::ResourceOption;
