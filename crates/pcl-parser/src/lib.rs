//! Lexer and parser for HCL native syntax, the surface syntax of Pulumi PCL.
//!
//! This crate owns the grammar and nothing else: it turns text into tokens ([`Lexed`]) and tokens
//! into a flat list of tree-building events ([`Output`]). It knows nothing of rowan or salsa; the
//! `pcl-syntax` crate replays the events into a lossless tree. The lexer and parser never fail:
//! every input yields tokens covering every byte and a structurally sound event stream. Every
//! error has a [`SyntaxErrorKind`], which maps to a stable `pcl_diagnostics::Code`.

mod error;
mod event;
mod grammar;
mod lexer;
mod parser;
mod syntax_kind;

pub use error::SyntaxErrorKind;
pub use event::{Event, Output, ParseError, Step};
pub use lexer::{LexError, Lexed};
pub use parser::MAX_DEPTH;
pub use syntax_kind::SyntaxKind;

/// The block types of PCL. The grammar is HCL's, which knows no block types; the parser reads
/// this list only to tell, in a broken line, a block header from an argument missing its `=`.
pub const BLOCK_KEYWORDS: &[&str] = &[
    "resource",
    "read",
    "config",
    "output",
    "component",
    "hook",
    "pulumi",
    "package",
];

/// Parses a whole configuration file (a `.pp` or `.tf` body).
pub fn parse_source_file(lexed: &Lexed<'_>) -> Output {
    let mut p = parser::Parser::new(lexed);
    grammar::source_file(&mut p);
    // Anything the grammar left (it consumes everything, but be safe) goes into the tree too.
    p.finish()
}
