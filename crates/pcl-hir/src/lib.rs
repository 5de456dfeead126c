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
//!   `recover`'s `error`); top-level names are resolved by `pcl-sema` from per-file
//!   summaries; [`program_scope`] lists every node of every file of the program.
//!
//! * The open files' items ([`OpenItem`], [`sync_open_items`], [`lower_open_item`]): each
//!   top-level item of a file open in an editor is an input of its own, written by the host
//!   only when its text changed, so that only what derives from the items being edited has
//!   the `LOW` durability of a keystroke.
//!
//! Types live in `pcl-sema`, which reads bodies and never syntax.

mod body;
mod item;
mod lower;
mod name;
mod open_items;
mod options;

pub use body::*;
pub use item::{
    file_lowered, file_node_map, file_nodes, lower_file, node_of, node_ranges, program_scope,
    FileNodeMap, LoweredFile, Node, NodeKey, NodeKind, NodeSourceMap, ProgramFile, ProgramScope,
    Signature,
};
pub use lower::{flat_lowering_difference, known_attributes, release_lowering_buffers};
pub use name::Name;
pub use open_items::{
    editing_items, item_node, items_of, lower_open_item, settled_item_nodes, settled_items,
    sync_open_items, EditingItems, OpenFileItems, OpenItem, OpenItemLowering,
};
pub use options::ResourceOption;
