//! A stable text rendering of what the analysis knows of a workspace, meant for snapshot
//! tests of embedders (expect-test, insta): every diagnostic of every file, with line and
//! column ranges, then the type of every top-level node. Paths are shown relative to a root
//! the caller chooses, so snapshots do not depend on where a checkout lives.

use std::fmt::Write;
use std::path::Path;

use pcl_db::RootDatabase;
use pcl_hir::NodeKind;

use crate::semantics;

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

pub(crate) fn render(db: &RootDatabase, relative_to: &Path) -> String {
    let show = |path: &Path| match path.strip_prefix(relative_to) {
        Ok(rest) if rest.as_os_str().is_empty() => ".".to_string(),
        Ok(rest) => rest.display().to_string(),
        Err(_) => path.display().to_string(),
    };
    let mut out = String::new();
    for program in semantics::programs(db) {
        let _ = writeln!(out, "program {}", show(program.root(db)));
        pcl_sema::infer_nodes(db, &semantics::program_nodes(db, program));
        for &file in program.files(db) {
            let text = file.text(db);
            let pf = pcl_hir::ProgramFile::new(db, program, file);
            for d in pcl_sema::file_diagnostics(db, pf).iter() {
                let (l1, c1) = line_col(text, d.range.start().into());
                let (l2, c2) = line_col(text, d.range.end().into());
                let _ = writeln!(
                    out,
                    "  {}:{l1}:{c1}-{l2}:{c2} {}[{}]: {}",
                    show(file.path(db)),
                    d.severity,
                    d.code.as_str(),
                    d.message
                );
            }
        }
        for node in semantics::program_nodes(db, program) {
            if matches!(
                node.kind(db),
                NodeKind::Hook | NodeKind::Pulumi | NodeKind::Package
            ) {
                continue;
            }
            let _ = writeln!(
                out,
                "  {} {}: {}",
                node.kind(db).keyword(),
                node.name(db),
                pcl_sema::one_line_type(&pcl_sema::node_type(db, node))
            );
        }
    }
    out
}
