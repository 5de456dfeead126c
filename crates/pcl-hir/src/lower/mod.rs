//! Lowering: syntax → nodes with position-free bodies and source maps.
//!
//! One pass per file. Variables are resolved here, by lexical scoping (`for` variables,
//! `range`, hook `args`, `recover`'s `error`), so that later queries never look at syntax.
//! Structural problems that need no types (label counts, unknown blocks, attributes a block
//! does not take, literal-only attributes) are reported here too.
//!
//! This module owns the pass over a file (`lower_file`, with an open file's cache of lowered
//! items) and the [`Lowerer`] that builds one body; the rest is split by what is lowered:
//! `items` (top-level items: labels, names, structural checks, type labels), `body` (node
//! bodies: attributes, nested blocks, the scopes of `range` and `args`), `expr` (expressions,
//! `for` scopes, traversals and splats) and `template` (quoted and heredoc templates).

mod body;
mod expr;
mod items;
mod template;

pub use items::known_attributes;

use std::sync::Arc;

use pcl_diagnostics::Diagnostic;
use pcl_syntax::ast;
use pcl_syntax::ast::AstNode;
use pcl_syntax::{TextRange, TextSize};

use crate::body::*;
use crate::item::{LoweredFile, Node, NodeKind, NodeSourceMap, ProgramFile, Signature};
use crate::name::Name;
use items::{lower_block, lower_local};

pub(crate) fn lower_file<'db>(db: &'db dyn pcl_db::Db, pf: ProgramFile<'db>) -> LoweredFile<'db> {
    // A file open in an editor is parsed through the `parse` query, whose tree the editor's
    // requests share. Other files are parsed here and their trees dropped when done: salsa
    // evicts least-recently-used trees only between revisions, so memoizing the tree of every
    // file would keep them all alive through a large check (about 40% of its memory).
    let file = pf.file(db);
    let owned;
    let parse = if file.open(db) {
        pcl_db::parse(db, file)
    } else {
        owned = pcl_syntax::parse(file.text(db));
        &owned
    };
    let mut nodes = Vec::new();
    // Syntax errors first: the edge reads them from here.
    let mut diagnostics = parse.diagnostics();
    let Some(body) = parse.tree().body() else {
        return LoweredFile { nodes, diagnostics };
    };
    // An open file keeps each top-level item's lowering by its green node: after an edit,
    // reparsing shares the green nodes of the items it did not touch, so only the edited
    // item is lowered again, and the others only move (their positions, if the text before
    // them changed length). Items lower independently of each other, so this is exactly
    // what lowering them again would give.
    let cache = file
        .open(db)
        .then(|| db.file_caches())
        .flatten()
        .map(|caches| (caches, caches.get::<ItemCache>(file)));
    let mut next_cache = cache.as_ref().map(|_| ItemCache::default());
    let mut seen: rustc_hash::FxHashMap<(NodeKind, Name), u32> = Default::default();
    for item in body.items() {
        let syntax = item.syntax();
        let start = syntax.text_range().start();
        let green = syntax.green();
        let key = std::ptr::from_ref(&*green).cast::<()>() as usize;
        let cached = cache
            .as_ref()
            .and_then(|(_, old)| old.as_ref()?.items.get(&key).cloned());
        let from_cache = cached.is_some();
        let mut lowered = match cached {
            Some(old) => old.moved_to(start),
            None => {
                let mut item_diagnostics = Vec::new();
                let node = match &item {
                    ast::BodyItem::Attribute(attr) => lower_local(attr, &mut item_diagnostics),
                    ast::BodyItem::Block(block) => lower_block(block, &mut item_diagnostics),
                };
                CachedItem {
                    green: green.into_owned(),
                    start,
                    node: node.map(|node| {
                        Arc::new(LoweredItem {
                            kind: node.kind,
                            name: node.name,
                            signature: node.signature,
                            body: Arc::new(node.body),
                            source_map: node.source_map,
                        })
                    }),
                    diagnostics: Arc::new(item_diagnostics),
                }
            }
        };
        diagnostics.extend(lowered.diagnostics.iter().cloned());
        if let Some(node) = &lowered.node {
            let occurrence = seen.entry((node.kind, node.name.clone())).or_insert(0);
            let handle = Node::new(
                db,
                pf,
                node.kind,
                node.name.clone(),
                *occurrence,
                node.signature.clone(),
                node.body.clone(),
                node.source_map.moved_to(lowered.start),
            );
            *occurrence += 1;
            // A body (or ranges) equal to the node's keeps the old allocation; the cache
            // keeps that one too, so that the next edit compares pointers, not bodies (every
            // body lowered again when the file opened was compared in full on every keystroke).
            // An item from the cache already holds what salsa kept: its fields are not read
            // back (two reads per node and keystroke).
            if next_cache.is_some() && !from_cache {
                let (kept_body, kept_map) = (handle.body(db), handle.source_map(db));
                if !(Arc::ptr_eq(kept_body, &node.body) && kept_map.shares_ranges(&node.source_map))
                {
                    let mut item = LoweredItem::clone(node);
                    item.body = kept_body.clone();
                    item.source_map = kept_map.clone();
                    lowered.node = Some(Arc::new(item));
                }
            }
            nodes.push(handle);
        }
        if let Some(next) = &mut next_cache {
            next.items.insert(key, lowered);
        }
    }
    if let (Some((caches, _)), Some(next)) = (cache, next_cache) {
        caches.put(file, Arc::new(next));
    }
    LoweredFile { nodes, diagnostics }
}

/// The lowering of each top-level item of an open file, by the address of its green node.
#[derive(Default)]
struct ItemCache {
    items: rustc_hash::FxHashMap<usize, CachedItem>,
}

/// One item's lowering, with positions as of `start`.
#[derive(Clone)]
struct CachedItem {
    /// Keeps the node alive, so that its address names no other node while cached.
    green: pcl_syntax::GreenNode,
    start: TextSize,
    node: Option<Arc<LoweredItem>>,
    diagnostics: Arc<Vec<Diagnostic>>,
}

#[derive(Clone)]
struct LoweredItem {
    kind: NodeKind,
    name: Name,
    signature: Signature,
    body: Arc<Body>,
    /// Its ranges; a node made from it is given the item's current start (`moved_to`).
    source_map: NodeSourceMap,
}

impl CachedItem {
    /// This item's lowering with its positions moved to `start`: the node's ranges are kept
    /// relative to its start, so only its diagnostics (rare) move.
    fn moved_to(self, start: TextSize) -> CachedItem {
        if start == self.start {
            return self;
        }
        let delta = i64::from(u32::from(start)) - i64::from(u32::from(self.start));
        let diagnostics = if self.diagnostics.is_empty() {
            self.diagnostics
        } else {
            Arc::new(self.diagnostics.iter().map(|d| d.moved(delta)).collect())
        };
        CachedItem {
            green: self.green,
            start,
            node: self.node,
            diagnostics,
        }
    }
}

fn range_of(node: &impl AstNode<Language = pcl_syntax::PclLanguage>) -> TextRange {
    node.syntax().text_range()
}

/// Builds one body: the expression arena, bindings in scope, and the source map.
struct Lowerer<'d> {
    body: BodyBuilder,
    map: SourceMapBuilder,
    scopes: Vec<(Name, BindingId)>,
    diagnostics: &'d mut Vec<Diagnostic>,
    /// For type labels: maps ranges of the re-parsed label text back into the file.
    remap: Option<Remap>,
}

#[derive(Clone, Copy)]
struct Remap {
    /// Where offset 0 of the re-parsed text would be in the file.
    shift: i64,
    /// The label's range: every mapped range is clamped into it.
    within: TextRange,
}

impl<'d> Lowerer<'d> {
    fn new(diagnostics: &'d mut Vec<Diagnostic>) -> Self {
        Lowerer {
            body: BodyBuilder::default(),
            map: SourceMapBuilder::default(),
            scopes: Vec::new(),
            diagnostics,
            remap: None,
        }
    }

    fn finish(self) -> (Body, BodyRanges) {
        (self.body.finish(), self.map.finish())
    }

    fn range(&self, range: TextRange) -> TextRange {
        match self.remap {
            None => range,
            Some(remap) => {
                let clamp = |offset: TextSize| {
                    let moved = i64::from(u32::from(offset)) + remap.shift;
                    let lo = i64::from(u32::from(remap.within.start()));
                    let hi = i64::from(u32::from(remap.within.end()));
                    TextSize::from(moved.clamp(lo, hi) as u32)
                };
                TextRange::new(clamp(range.start()), clamp(range.end()))
            }
        }
    }

    fn alloc(&mut self, expr: Expr, range: TextRange) -> ExprId {
        let range = self.range(range);
        self.map.push_expr(range);
        self.body.alloc_expr(expr)
    }

    fn bind(&mut self, name: &str, kind: BindingKind, range: TextRange) -> BindingId {
        let range = self.range(range);
        self.map.push_binding(range);
        self.body.alloc_binding(Binding {
            name: Name::new(name),
            kind,
        })
    }

    fn resolve(&self, name: &str) -> Resolution {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| n.as_str() == name)
            .map_or(Resolution::Root, |(_, b)| Resolution::Local(*b))
    }

    fn lower_opt(&mut self, expr: Option<ast::Expr>, fallback: TextRange) -> ExprId {
        match expr {
            Some(expr) => self.lower_expr(&expr),
            None => self.alloc(Expr::Missing, TextRange::empty(fallback.end())),
        }
    }
}
