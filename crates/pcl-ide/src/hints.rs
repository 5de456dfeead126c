//! Inlay hints: the inferred types of locals and `for` variables.

use std::path::Path;

use pcl_db::RootDatabase;
use pcl_diagnostics::{TextRange, TextSize};
use pcl_hir::{Expr, NodeKind};

use crate::semantics;

/// A label an editor shows inline, after `offset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: TextSize,
    /// `: type`.
    pub label: String,
    pub kind: InlayKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InlayKind {
    Type,
}

/// Longer types are cut: a hint is a glance, hover has the whole type.
const MAX_HINT_LEN: usize = 60;

pub(crate) fn inlay_hints(
    db: &RootDatabase,
    path: &Path,
    range: Option<TextRange>,
    settled: pcl_sema::Settled,
) -> Vec<InlayHint> {
    let Some(file) = semantics::program_file(db, path) else {
        return Vec::new();
    };
    let wanted = |r: TextRange| range.is_none_or(|range| range.intersect(r).is_some());
    let nodes: Vec<_> = pcl_hir::node_ranges(db, file)
        .into_iter()
        .filter(|&(_, r)| wanted(r))
        .map(|(n, _)| n)
        .collect();
    pcl_sema::infer_nodes_with(db, &nodes, settled);
    let mut out = Vec::new();
    for node in nodes {
        let map = node.source_map(db);
        let body = node.body(db);
        if node.kind(db) == NodeKind::Local {
            // A literal's type is plain to see.
            let literal = body
                .value
                .is_some_and(|v| matches!(body.expr(v), Expr::Literal(_)));
            if !literal {
                out.push(hint(map.name().end(), &pcl_sema::node_type(db, node)));
            }
        }
        let inference = pcl_sema::infer_node(db, node);
        for (id, _) in body.bindings() {
            let binding_range = map.body().binding(id);
            if !wanted(binding_range) || binding_range.is_empty() {
                continue;
            }
            if let Some(ty) = inference.binding_types.get(id.index()) {
                if semantics::binding_kind(db, node, id) == pcl_hir::BindingKind::Range {
                    continue;
                }
                out.push(hint(binding_range.end(), ty));
            }
        }
    }
    out.sort_by_key(|h| h.offset);
    out
}

fn hint(offset: TextSize, ty: &pcl_types::Type) -> InlayHint {
    let mut text = pcl_sema::one_line_type(ty);
    if text.chars().count() > MAX_HINT_LEN {
        text = text.chars().take(MAX_HINT_LEN - 1).collect::<String>() + "…";
    }
    InlayHint {
        offset,
        label: format!(": {text}"),
        kind: InlayKind::Type,
    }
}
