//! The checking pipeline's promises: parse, lowering, inference and binding never panic, and
//! every diagnostic lies inside the file it names.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_db::{CheckOptions, Program, RootDatabase, SchemaFileSpec};

/// The files of one program and what it is checked against.
#[derive(Clone, Debug, Default)]
pub struct ProgramInput {
    /// `(path, text)`; paths are relative names such as `main.pp`.
    pub files: Vec<(PathBuf, String)>,
    /// `(package name, version, schema text)`.
    pub schemas: Vec<(String, Option<String>, Arc<str>)>,
    pub lenient: bool,
}

/// The program's root directory in the databases built here.
pub const ROOT: &str = "/program";

impl ProgramInput {
    /// A program of one file, `main.pp`, with no schemas.
    pub fn single(text: impl Into<String>) -> ProgramInput {
        ProgramInput {
            files: vec![(PathBuf::from("main.pp"), text.into())],
            ..ProgramInput::default()
        }
    }

    /// A database holding this program.
    pub fn load(&self) -> (RootDatabase, Program) {
        self.load_into(RootDatabase::default())
    }

    /// `db` (a new database) holding this program.
    pub fn load_into(&self, mut db: RootDatabase) -> (RootDatabase, Program) {
        db.set_options(CheckOptions {
            lenient: self.lenient,
        });
        let specs = self
            .schemas
            .iter()
            .map(|(package, version, text)| SchemaFileSpec {
                path: PathBuf::from(format!(
                    "/schemas/{package}-{}.json",
                    version.as_deref().unwrap_or("0.0.0")
                )),
                package: package.clone(),
                version: version.clone(),
                text: Some(text.clone()),
            })
            .collect();
        db.set_schema_files(vec![PathBuf::from("/schemas")], specs);
        let program = pcl_project::load_in_memory(&mut db, Path::new(ROOT), &self.files);
        (db, program)
    }
}

/// Everything a check reports about a program, in a comparable form: every diagnostic (file,
/// range, severity, code, message, related locations) and every node's type. Panics if a
/// diagnostic lies outside its file.
pub fn observe(db: &RootDatabase, program: Program) -> String {
    use std::fmt::Write;
    let report = pcl_sema::check_program(db, program);
    let texts: Vec<(String, std::sync::Arc<str>)> = program
        .files(db)
        .iter()
        .map(|f| (f.path(db).display().to_string(), f.text(db).clone()))
        .collect();
    let lookup = |name: &str| {
        texts
            .iter()
            .find(|(path, _)| path == name)
            .map(|(_, text)| &**text)
    };
    let mut out = String::new();
    for file in &report.files {
        let name = file.path.display().to_string();
        let text = lookup(&name).unwrap_or_else(|| panic!("a report for unknown file {name}"));
        for d in &file.diagnostics {
            crate::assert_diagnostic_inside(text, d, &lookup);
            let _ = writeln!(
                out,
                "{name} {:?} {} {} {}",
                d.range,
                d.severity,
                d.code.as_str(),
                d.message
            );
            for related in &d.related {
                let _ = writeln!(
                    out,
                    "  {} {:?} {}",
                    related.file.as_deref().unwrap_or(&name),
                    related.range,
                    related.message
                );
            }
        }
    }
    for line in &report.types {
        let _ = writeln!(out, "{} {}: {}", line.kind.keyword(), line.name, line.ty);
    }
    out
}

/// Checks the program and panics on a broken promise; returns what [`observe`] saw.
pub fn check_program(input: &ProgramInput) -> String {
    let (db, program) = input.load();
    let seen = observe(&db, program);
    if let Some(difference) = settling_difference(&db, program) {
        panic!("{difference}");
    }
    if let Some(difference) = once_difference(&seen, input) {
        panic!("{difference}");
    }
    seen
}

/// Where a database that checks once (`RootDatabase::checking_once`, as `pcl check` makes
/// it: one table of names per program) reports otherwise than `seen`, what [`observe`] saw
/// of the same program in a database made for edits.
pub fn once_difference(seen: &str, input: &ProgramInput) -> Option<String> {
    let (db, program) = input.load_into(RootDatabase::checking_once());
    let once = observe(&db, program);
    (once != seen)
        .then(|| format!("a database that checks once reports\n{once}\nanother reports\n{seen}"))
}

/// Where a node's inference as a check does it (`infer_node`, which settles literals that fit
/// their property without typing them) differs from its inference with every type
/// (`infer_node_fully`): in diagnostics, node type, binding types, or the type of an
/// expression it typed (one it left `dynamic` may have been settled).
pub fn settling_difference(db: &RootDatabase, program: Program) -> Option<String> {
    for &file in program.files(db) {
        let pf = pcl_hir::ProgramFile::new(db, program, file);
        for &node in pcl_hir::file_nodes(db, pf) {
            let checked = pcl_sema::infer_node(db, node);
            // Salsa's fallback for a query that met itself (components that use each other's
            // outputs): the two queries meet the cycle at different nodes.
            let fallback = checked.node_type.is_dynamic()
                && checked.diagnostics.is_empty()
                && checked.expr_types.iter().all(|t| t.is_dynamic());
            if fallback {
                continue;
            }
            let full = pcl_sema::infer_node_fully(db, node);
            let name = node.name(db);
            if checked.diagnostics != full.diagnostics {
                return Some(format!(
                    "node `{name}`: diagnostics {:#?} as checked, {:#?} with every type",
                    checked.diagnostics, full.diagnostics
                ));
            }
            if checked.node_type != full.node_type || checked.binding_types != full.binding_types {
                return Some(format!(
                    "node `{name}`: type {} and bindings {:?} as checked, {} and {:?} with every type",
                    checked.node_type.display_readable(),
                    checked.binding_types,
                    full.node_type.display_readable(),
                    full.binding_types
                ));
            }
            for (i, (a, b)) in checked.expr_types.iter().zip(&full.expr_types).enumerate() {
                if a != b && !a.is_dynamic() {
                    return Some(format!(
                        "node `{name}`: expression {i} is {} as checked, {} with every type",
                        a.display_readable(),
                        b.display_readable()
                    ));
                }
            }
        }
    }
    None
}

/// As [`check_program`], on all cores and in a database that checks once, as `pcl check`
/// runs: the result must be the same.
pub fn check_program_parallel(input: &ProgramInput) -> String {
    let (db, program) = input.load_into(RootDatabase::checking_once());
    pcl_sema::infer_program_parallel(&db, program, &|_| {});
    observe(&db, program)
}
