//! Document and workspace symbols: the top-level nodes of files and programs.

use std::path::Path;

use pcl_db::RootDatabase;
use pcl_diagnostics::TextRange;
use pcl_hir::{file_nodes, NodeKind};

use crate::navigation::node_target;
use crate::semantics;
use crate::NavigationTarget;

/// What kind of thing a symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Config,
    Local,
    Resource,
    Read,
    Component,
    Output,
    Package,
    Hook,
    Pulumi,
    /// An attribute of a node's body, a schema property.
    Property,
    /// A local variable (`for` variables, `range`).
    Variable,
    /// A function of a package schema (what `invoke` calls).
    Function,
}

impl SymbolKind {
    pub(crate) fn of_node(kind: NodeKind) -> SymbolKind {
        match kind {
            NodeKind::Config => SymbolKind::Config,
            NodeKind::Local => SymbolKind::Local,
            NodeKind::Resource => SymbolKind::Resource,
            NodeKind::Read => SymbolKind::Read,
            NodeKind::Component => SymbolKind::Component,
            NodeKind::Output => SymbolKind::Output,
            NodeKind::Package => SymbolKind::Package,
            NodeKind::Hook => SymbolKind::Hook,
            NodeKind::Pulumi => SymbolKind::Pulumi,
        }
    }
}

/// A symbol of a file's outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentSymbol {
    pub name: String,
    /// The resource type token, the config's type, the component's source.
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub full_range: TextRange,
    pub focus_range: TextRange,
    /// The attributes of the node's body.
    pub children: Vec<DocumentSymbol>,
}

pub(crate) fn document_symbols(db: &RootDatabase, path: &Path) -> Vec<DocumentSymbol> {
    let Some(file) = semantics::program_file(db, path) else {
        return Vec::new();
    };
    file_nodes(db, file)
        .iter()
        .map(|&node| {
            let map = node.source_map(db);
            let body = node.body(db);
            let children = body
                .attrs_in(None)
                .map(|(id, attr)| DocumentSymbol {
                    name: attr.name.to_string(),
                    detail: None,
                    kind: SymbolKind::Property,
                    full_range: map.body().attr(id),
                    focus_range: map.body().attr_name(id),
                    children: Vec::new(),
                })
                .collect();
            let detail = match node.kind(db) {
                NodeKind::Local => None,
                _ => node.signature(db).label(1).map(str::to_string),
            };
            DocumentSymbol {
                name: node.name(db).to_string(),
                detail,
                kind: SymbolKind::of_node(node.kind(db)),
                full_range: map.range(),
                focus_range: semantics::name_range(db, node),
                children: if node.kind(db) == NodeKind::Local {
                    Vec::new()
                } else {
                    children
                },
            }
        })
        .collect()
}

/// At most this many symbols answer a workspace query: a client filters further as the user
/// types, and 100,000 resources must not make one response.
const MAX_WORKSPACE_SYMBOLS: usize = 1_000;

pub(crate) fn workspace_symbols(db: &RootDatabase, query: &str) -> Vec<NavigationTarget> {
    let query = query.to_lowercase();
    let mut out = Vec::new();
    for program in semantics::programs(db) {
        for node in semantics::program_nodes(db, program) {
            if matches!(node.kind(db), NodeKind::Pulumi) {
                continue;
            }
            if node.name(db).as_str().to_lowercase().contains(&query) {
                out.push(node_target(db, node));
                if out.len() >= MAX_WORKSPACE_SYMBOLS {
                    return out;
                }
            }
        }
    }
    out
}
