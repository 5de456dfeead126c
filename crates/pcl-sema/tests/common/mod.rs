//! Test helpers: fixtures of one or more files, a database over them, and a readable dump of
//! what inference found (types of nodes and expressions, diagnostics).
#![allow(dead_code)]

use std::fmt::Write;
use std::path::{Path, PathBuf};

use pcl_db::{Program, QueryLog, QueryNames, RootDatabase};
use pcl_diagnostics::{Diagnostic, TextRange};
use pcl_hir::{file_nodes, ProgramFile};

/// Splits a fixture into files: a line `#- name.pp` starts a file; text before any marker is
/// `main.pp` (or, when it is only comments and a marker follows, the fixture's description).
pub fn split_fixture(text: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = Vec::new();
    let mut current = ("main.pp".to_string(), String::new());
    let mut seen_marker = false;
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix("#- ") {
            // Before the first marker, only comments (the fixture's description) may be
            // dropped; anything else is a file of its own.
            let only_comments = current
                .1
                .lines()
                .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
            if seen_marker || !only_comments {
                files.push(std::mem::take(&mut current));
            }
            seen_marker = true;
            current = (name.trim().to_string(), String::new());
        } else {
            current.1.push_str(line);
        }
    }
    files.push(current);
    files
}

/// A fixture's files as the program `/program` (in memory: file paths as the fixture names
/// them).
pub fn load(db: &mut RootDatabase, files: &[(String, String)]) -> Program {
    let files: Vec<(PathBuf, String)> = files
        .iter()
        .map(|(name, text)| (PathBuf::from(name), text.clone()))
        .collect();
    pcl_project::load_in_memory(db, Path::new("/program"), &files)
}

pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

fn span(text: &str, range: TextRange) -> String {
    let (l1, c1) = line_col(text, range.start().into());
    let (l2, c2) = line_col(text, range.end().into());
    format!("{l1}:{c1}-{l2}:{c2}")
}

fn snippet(text: &str, range: TextRange) -> String {
    let start = usize::from(range.start()).min(text.len());
    let end = usize::from(range.end()).clamp(start, text.len());
    let raw = text.get(start..end).unwrap_or("?");
    let collapsed: String = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() > 60 {
        let cut: String = collapsed.chars().take(57).collect();
        format!("{cut}...")
    } else {
        collapsed
    }
}

pub fn render_diagnostic(out: &mut String, file: &str, text: &str, d: &Diagnostic) {
    assert_style(d);
    let _ = writeln!(
        out,
        "{file}:{}: {}[{}]: {}",
        span(text, d.range),
        d.severity,
        d.code.as_str(),
        d.message
    );
    for related in &d.related {
        let where_ = match &related.file {
            Some(f) => format!("{f}:{}", u32::from(related.range.start())),
            None => span(text, related.range),
        };
        let _ = writeln!(out, "    note {where_}: {}", related.message);
    }
    for help in &d.help {
        let _ = writeln!(out, "    help: {help}");
    }
    for fix in &d.fixes {
        for edit in &fix.edits {
            let _ = writeln!(
                out,
                "    fix: {} -> {:?}",
                span(text, edit.range),
                edit.replacement
            );
        }
    }
}

/// Types, expressions and diagnostics of a program, as the inference snapshots print them.
pub fn dump(db: &RootDatabase, program: Program, with_exprs: bool) -> String {
    let report = pcl_sema::check_program(db, program);
    if let Some(difference) = pcl_invariants::program::settling_difference(db, program) {
        panic!("{difference}");
    }
    let mut out = String::new();
    out.push_str("-- types --\n");
    for line in &report.types {
        let _ = writeln!(out, "{} {}: {}", line.kind.keyword(), line.name, line.ty);
    }
    if with_exprs {
        out.push_str("-- expressions --\n");
        for &file in program.files(db) {
            let text = file.text(db);
            let pf = ProgramFile::new(db, program, file);
            for &node in file_nodes(db, pf) {
                let _ = writeln!(out, "{} {}", node.kind(db).keyword(), node.name(db));
                let inference = pcl_sema::infer_node_fully(db, node);
                let node_map = node.source_map(db);
                let map = node_map.body();
                for (id, expr) in node.body(db).exprs() {
                    if matches!(expr, pcl_hir::Expr::SplatItem) {
                        continue;
                    }
                    let _ = writeln!(
                        out,
                        "  {} : {}",
                        snippet(text, map.expr(id)),
                        inference.expr_type(id).display_readable()
                    );
                }
            }
        }
    }
    out.push_str("-- diagnostics --\n");
    for file in &report.files {
        let name = file.path.display().to_string();
        let text = db
            .files()
            .get(&file.path)
            .map(|f| f.text(db).clone())
            .unwrap_or_default();
        for d in &file.diagnostics {
            render_diagnostic(&mut out, &name, &text, d);
        }
    }
    out
}

/// Loads the program in `dir` from disk, and the programs of its components (transitively),
/// as `pcl check` does. The program itself comes first. Panics on a load error.
pub fn load_program_dir(db: &mut RootDatabase, dir: &Path) -> Vec<Program> {
    let loaded = pcl_project::Loader::new().load(db, dir);
    assert!(loaded.errors.is_empty(), "{dir:?}: {:?}", loaded.errors);
    loaded.programs
}

/// Registers every `NAME-VERSION.json` of `dirs` (read on first use).
pub fn schema_dir(db: &mut RootDatabase, dirs: &[&Path]) {
    let dirs: Vec<PathBuf> = dirs.iter().map(|d| d.to_path_buf()).collect();
    pcl_project::use_schema_dirs(db, dirs);
}

/// The queries executed since the log was last read, with salsa ids replaced by what they
/// stand for (programs and files by path, nodes and resolved names by name, packages and
/// tokens), so that a snapshot says *which* file or node re-ran. The one namer of both
/// incrementality tests.
pub fn executed_queries(db: &RootDatabase, log: &QueryLog, programs: &[Program]) -> Vec<String> {
    use pcl_sema::packages::{PackageRequest, TokenRequest};
    let mut names = QueryNames::new();
    for &program in programs {
        names.add(program, program.root(db).display().to_string());
        for &file in program.files(db) {
            let path = file.path(db).display().to_string();
            names.add(file, path.clone());
            let pf = ProgramFile::new(db, program, file);
            names.add(pf, path.clone());
            for &node in file_nodes(db, pf) {
                names.add(node, node.name(db).to_string());
                // The keys of `resolve_root`: every name a body uses.
                for (_, expr) in node.body(db).exprs() {
                    if let pcl_hir::Expr::Variable { name: n, .. } = expr {
                        for view in [pcl_sema::View::Closed, pcl_sema::View::Open] {
                            let key = pcl_sema::RootName::new(db, program, n.clone(), view);
                            names.add(key, n.to_string());
                        }
                    }
                }
                if let Some(token) = node.signature(db).label(1) {
                    if let Some(package) = pcl_schema::token::package_of_token(token) {
                        let request = PackageRequest::new(db, package.to_string(), None);
                        names.add(request, package);
                        let key = TokenRequest::new(db, request, token.to_string());
                        names.add(key, token);
                    }
                }
            }
        }
    }
    for &file in pcl_db::workspace(db).schema_files(db) {
        names.add(file, file.path(db).display().to_string());
    }
    log.take_executed(&names)
}

/// Panics unless the diagnostic's message and help lines keep the mechanical rules of the
/// message style (`docs/diagnostics.md`, "Message style").
#[allow(dead_code)]
pub fn assert_style(d: &Diagnostic) {
    if let Err(broken) = pcl_diagnostics::style::check(&d.message) {
        panic!("{}: {broken}", d.code.as_str());
    }
    for help in &d.help {
        if let Err(broken) = pcl_diagnostics::style::check_help(help) {
            panic!("{} (help): {broken}", d.code.as_str());
        }
    }
}
