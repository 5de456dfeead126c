//! Diagnostics of one file, as `pcl check` reports them.

use std::path::Path;

use pcl_db::RootDatabase;
use pcl_diagnostics::Diagnostic;

use crate::semantics;

/// `inferred`: as for [`workspace_diagnostics`].
pub(crate) fn file_diagnostics(db: &RootDatabase, path: &Path, inferred: bool) -> Vec<Diagnostic> {
    let Some(file) = semantics::program_file(db, path) else {
        return Vec::new();
    };
    // The file's nodes and what they use, dependencies first, so that no query recurses
    // through a long chain of references (and the nodes of other files that this file does
    // not use are not looked at). Once every program was inferred in that order, the nodes of
    // the files nobody has open are valid as they are: a closed file needs no walk (repeated
    // for every file, it cost more than the program's cold check), an open one walks only the
    // open files' nodes.
    if !inferred {
        pcl_sema::infer_nodes(db, pcl_hir::file_nodes(db, file));
    } else if file.file(db).open(db) {
        let settled = pcl_sema::Settled::ClosedFiles;
        pcl_sema::infer_nodes_with(db, pcl_hir::file_nodes(db, file), settled);
    }
    // An edge that reports a missing package reads the inference of every node of the
    // program: the program's nodes first, dependencies first (only the open files' nodes once
    // the program was checked in order).
    if pcl_sema::edge_reads_every_node(db, file) {
        let program = file.program(db);
        if inferred {
            let open: Vec<pcl_hir::Node<'_>> = program
                .files(db)
                .iter()
                .filter(|f| f.open(db))
                .flat_map(|&f| pcl_hir::file_nodes(db, pcl_hir::ProgramFile::new(db, program, f)))
                .copied()
                .collect();
            pcl_sema::infer_nodes_with(db, &open, pcl_sema::Settled::ClosedFiles);
        } else {
            pcl_sema::infer_nodes(db, &pcl_hir::program_scope(db, program).nodes);
        }
    }
    pcl_sema::file_diagnostics(db, file).to_vec()
}

/// `inferred`: every program was inferred in dependency order since the last change that
/// could invalidate results of files nobody has open, so only open files can have anything
/// left to compute.
pub(crate) fn workspace_diagnostics(
    db: &RootDatabase,
    inferred: bool,
    generations: &crate::host::Generations,
) -> Vec<(std::path::PathBuf, Vec<Diagnostic>)> {
    let mut out = Vec::new();
    let programs = semantics::programs(db);
    let lock = || generations.plans.lock().unwrap_or_else(|e| e.into_inner());
    // The plans of programs no longer loaded go with them.
    lock().retain(|program, _| programs.contains(program));
    for program in programs {
        if !inferred {
            let mut kept = lock().get(&program).cloned();
            let plan = pcl_sema::plan_program(db, program, &mut kept);
            // Kept before inferring: a change that cancels the inference leaves it to the
            // next run.
            match kept {
                Some(kept) => lock().insert(program, kept),
                None => lock().remove(&program),
            };
            pcl_sema::infer_program_in_order(db, program, &plan);
        } else {
            // Only the open files can have anything left to infer: their nodes, dependencies
            // first (the closed files' nodes they use are valid as they are).
            for &file in program.files(db) {
                if file.open(db) {
                    let pf = pcl_hir::ProgramFile::new(db, program, file);
                    let settled = pcl_sema::Settled::ClosedFiles;
                    pcl_sema::infer_nodes_with(db, pcl_hir::file_nodes(db, pf), settled);
                }
            }
        }
        for file in pcl_sema::program_report(db, program, pcl_sema::NodeTypes::Omitted).files {
            out.push((file.path, file.diagnostics));
        }
        // Completion in an open file lists the program's names from sorted runs; after a wide
        // change they are sorted here, in the background check, rather than on the next
        // completion (27 ms at 100,000 resources; a rename later re-sorts two runs).
        if !inferred && program.files(db).iter().any(|f| f.open(db)) {
            pcl_sema::visible_names(db, program);
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}
