//! Differential test: random edits (insertions and deletions anywhere, edits that break the
//! syntax and edits that repair it) applied to one long-lived database must give the same
//! diagnostics and node types as a fresh database built from the same text.
//!
//! Seeds: the inference fixtures (`test_data/infer`), the binding cases (`test_data/programs`,
//! bound against `test_data/schemas/binding`) and, when present, the corpus programs (bound
//! against the corpus schemas).
//! Each program runs twice: as `pcl check` sees it (every file on disk), and as an editor does,
//! with some files open (their texts `LOW` durability, what the rest of the program reads of
//! them published by `pcl_sema::publish_open_files` after every change, files opened and closed
//! along the way), against a fresh database with no file open.
//! `PCL_DIFF_EDITS` sets the number of edits per program (default 12); `PCL_DIFF_SEED` the
//! random seed. `docs/testing.md` records long runs. Each test runs every program (or round)
//! and reports every one that differs, not only the first.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use pcl_db::{Program, RootDatabase};
use pcl_test_support::{Failures, Rng};

/// Snippets that break or complete syntax, or change what names mean.
use pcl_invariants::edits::SNIPPETS;

/// The state of a program as the check reports it: every diagnostic (with its related
/// locations) and every node type; panics if a diagnostic lies outside its file.
use pcl_invariants::program::observe;

/// A database holding `files` as one program, with the schemas of `schema_dirs`.
fn load(files: &[(PathBuf, String)], schema_dirs: &[PathBuf]) -> (RootDatabase, Program) {
    let mut db = RootDatabase::default();
    let dirs: Vec<&Path> = schema_dirs.iter().map(PathBuf::as_path).collect();
    common::schema_dir(&mut db, &dirs);
    let program = pcl_project::load_in_memory(&mut db, Path::new("/program"), files);
    (db, program)
}

fn fresh(files: &[(PathBuf, String)], schema_dirs: &[PathBuf]) -> String {
    let (db, program) = load(files, schema_dirs);
    observe(&db, program)
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One random edit of `text`.
fn edit(rng: &mut Rng, text: &str) -> String {
    let at = floor_boundary(text, rng.below(text.len() + 1));
    match rng.below(3) {
        0 => {
            let end = floor_boundary(text, (at + 1 + rng.below(12)).min(text.len()));
            format!("{}{}", &text[..at], &text[end.max(at)..])
        }
        1 => {
            let snippet = SNIPPETS[rng.below(SNIPPETS.len())];
            format!("{}{snippet}{}", &text[..at], &text[at..])
        }
        _ => {
            // Copy a piece of the file elsewhere: realistic, and often repairs what broke.
            let from = floor_boundary(text, rng.below(text.len() + 1));
            let to = floor_boundary(text, (from + rng.below(40)).min(text.len()));
            let piece = text[from..to.max(from)].to_string();
            format!("{}{piece}{}", &text[..at], &text[at..])
        }
    }
}

/// Whether files are open in an editor during a run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    AllOnDisk,
    SomeOpen,
}

fn run(
    name: &str,
    files: Vec<(PathBuf, String)>,
    schema_dirs: &[PathBuf],
    edits: usize,
    seed: u64,
) {
    let cases = (name, schema_dirs, edits, seed);
    run_in(cases, files.clone(), Mode::AllOnDisk, edit);
    run_in(cases, files, Mode::SomeOpen, edit);
}

/// A program's name, schema directories, number of edits and seed.
type Case<'a> = (&'a str, &'a [PathBuf], usize, u64);

fn run_in(
    (name, schema_dirs, edits, seed): Case<'_>,
    mut files: Vec<(PathBuf, String)>,
    mode: Mode,
    edit: fn(&mut Rng, &str) -> String,
) {
    let (mut db, program) = load(&files, schema_dirs);
    let mut rng = Rng(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut open = vec![false; files.len()];
    if mode == Mode::SomeOpen {
        // The program is checked before any file is opened, as an editor's host does.
        pcl_sema::check_program(&db, program);
        for (i, (path, _)) in files.iter().enumerate() {
            if rng.below(2) == 0 {
                open[i] = true;
                db.set_file_open(path, true);
            }
        }
        pcl_sema::publish_open_files(&mut db, pcl_sema::Settled::Nothing);
    }
    let name = format!("{name} ({mode:?}, open: {open:?})");
    assert_eq!(
        observe(&db, program),
        fresh(&files, schema_dirs),
        "{name}: initial state"
    );
    let mut undo: Option<(usize, String)> = None;
    for step in 0..edits {
        let mut toggled = false;
        if mode == Mode::SomeOpen && rng.below(5) == 0 {
            // Open or close a file.
            let index = rng.below(files.len());
            open[index] = !open[index];
            db.set_file_open(&files[index].0, open[index]);
            toggled = true;
        }
        let (index, text) = match undo.take() {
            // Repair: go back to the text before a breaking edit.
            Some((index, previous)) if rng.below(3) == 0 => (index, previous),
            _ => {
                let index = rng.below(files.len());
                let previous = files[index].1.clone();
                let text = edit(&mut rng, &previous);
                undo = Some((index, previous));
                (index, text)
            }
        };
        files[index].1 = text.clone();
        db.set_file_text(&files[index].0, text);
        if mode == Mode::SomeOpen {
            // As a host knows it: the last observation checked every file in dependency
            // order, so after an edit of an open file alone the closed files are settled.
            let settled = if !toggled && open[index] {
                pcl_sema::Settled::ClosedFiles
            } else {
                pcl_sema::Settled::Nothing
            };
            pcl_sema::publish_open_files(&mut db, settled);
        }
        let incremental = observe(&db, program);
        let expected = fresh(&files, schema_dirs);
        assert_eq!(
            incremental, expected,
            "{name}: step {step} (seed {seed}, open {open:?}): the incremental result differs from a fresh one (edited: {})\n{}",
            files[index].0.display(),
            files
                .iter()
                .map(|(path, text)| format!("--- file {} ---\n{text}", path.display()))
                .collect::<String>()
        );
    }
}

fn settings() -> (usize, u64) {
    let edits = std::env::var("PCL_DIFF_EDITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let seed = std::env::var("PCL_DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    (edits, seed)
}

#[test]
fn fixtures_incremental_equals_fresh() {
    let (edits, seed) = settings();
    let dir = pcl_test_support::workspace_root().join("test_data/infer");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .expect("test_data/infer")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
        .collect();
    cases.sort();
    // Every case that fails, not only the first.
    let mut failures = Failures::new();
    for (i, case) in cases.iter().enumerate() {
        let text = fs::read_to_string(case).expect("UTF-8");
        let files: Vec<(PathBuf, String)> = common::split_fixture(&text)
            .into_iter()
            .map(|(n, t)| (PathBuf::from(n), t))
            .collect();
        let name = case.display().to_string();
        failures.check(&name, || {
            run(&name, files, &[], edits * 2, seed + i as u64);
            Vec::new()
        });
    }
    failures.finish("fixtures");
}

/// The files of the program in `dir` as the loader finds them, with their texts, by path
/// (none when the directory holds no program).
fn pp_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut db = RootDatabase::default();
    let loaded = pcl_project::Loader::new().load(&mut db, dir);
    let Some(&program) = loaded.programs.first() else {
        return Vec::new();
    };
    program
        .files(&db)
        .iter()
        .map(|f| (f.path(&db).clone(), f.text(&db).to_string()))
        .collect()
}

#[test]
fn binding_cases_incremental_equals_fresh() {
    let (edits, seed) = settings();
    let root = pcl_test_support::workspace_root();
    let schemas = [root.join("test_data/schemas/binding")];
    let mut cases: Vec<_> = fs::read_dir(root.join("test_data/programs"))
        .expect("test_data/programs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let mut failures = Failures::new();
    for (i, case) in cases.iter().enumerate() {
        let name = case.display().to_string();
        failures.check(&name, || {
            run(
                &name,
                pp_files(case),
                &schemas,
                edits * 2,
                seed + 500 + i as u64,
            );
            Vec::new()
        });
    }
    failures.finish("binding cases");
}

#[test]
fn corpus_incremental_equals_fresh() {
    let Some(root) = pcl_test_support::corpus("corpus/pulumi/programs") else {
        return;
    };
    let (edits, seed) = settings();
    let schemas = [root.join("../schemas/codegen-old")];
    let dirs = pcl_test_support::edited_corpus_programs(&root);
    // Every program that fails, not only the first.
    let mut failures = Failures::new();
    for (i, dir) in dirs.iter().enumerate() {
        let files = pp_files(dir);
        if files.is_empty() {
            continue;
        }
        let name = dir.display().to_string();
        failures.check(&name, || {
            run(&name, files, &schemas, edits, seed + 1000 + i as u64);
            Vec::new()
        });
    }
    failures.finish("corpus programs");
}

/// Names shared by the files of [`cross_file_names_incremental_equals_fresh`]: few, so that
/// edits keep making and breaking references across files, duplicates and cycles.
const POOL: &[&str] = &["a", "b", "c", "d", "e", "shared", "out"];

/// One edit of a file made of top-level locals and outputs over [`POOL`]: a definition
/// added (`a = b + c`, an output), a line deleted, or one name replaced by another.
fn name_edit(rng: &mut Rng, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let pick = |rng: &mut Rng| POOL[rng.below(POOL.len())];
    match rng.below(4) {
        0 | 1 => {
            let (name, a, b) = (pick(rng), pick(rng), pick(rng));
            let line = match rng.below(4) {
                0 => format!("output {name} {{\n  value = {a}\n}}"),
                1 => format!("{name} = \"${{{a}}}\""),
                2 => format!("{name} = 1"),
                _ => format!("{name} = [{a}, {b}]"),
            };
            format!("{text}{line}\n")
        }
        2 if !lines.is_empty() => {
            let drop = rng.below(lines.len());
            let mut out: String = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != drop)
                .map(|(_, l)| format!("{l}\n"))
                .collect();
            if out.is_empty() {
                out.push('\n');
            }
            out
        }
        _ => {
            let (from, to) = (pick(rng), pick(rng));
            text.replacen(from, to, 1)
        }
    }
}

/// Files that define and use each other's names, edited so that references across files,
/// duplicates and cycles come and go while some files are open: what a file nobody has open
/// sees of the open ones (published facts that leave out what it does not read) must give
/// exactly what a fresh database gives.
#[test]
fn cross_file_names_incremental_equals_fresh() {
    let files = [
        ("a.pp", "a = b\nshared = \"s\"\n"),
        ("b.pp", "b = 1\nc = \"${shared}\"\n"),
        ("c.pp", "d = [a, c]\noutput out {\n  value = d\n}\n"),
        ("d.pp", "e = 2\n"),
    ];
    edit_rounds("cross-file names", &files, 7000, name_edit);
}

/// Six rounds of edits (`edit`) of `files`, some open, each from its own seed (`seed_base`
/// apart from other tests' rounds), every state compared with a fresh database.
fn edit_rounds(
    name: &'static str,
    files: &[(&str, &str)],
    seed_base: u64,
    edit: fn(&mut Rng, &str) -> String,
) {
    let (edits, seed) = settings();
    let files: Vec<(PathBuf, String)> = files
        .iter()
        .map(|(n, t)| (PathBuf::from(n), t.to_string()))
        .collect();
    let mut failures = Failures::new();
    for round in 0..6u64 {
        let case = (name, &[][..], edits * 4, seed + seed_base + round);
        failures.check(&format!("round {round}"), || {
            run_in(case, files.clone(), Mode::SomeOpen, edit);
            Vec::new()
        });
    }
    failures.finish("rounds");
}

/// The names of [`cross_file_cycles_incremental_equals_fresh`]: each file defines names of
/// its own letter, so a name is seldom declared twice and the closed view's cycles are
/// mostly shown from ranks rather than searched.
fn any_name(rng: &mut Rng) -> String {
    format!("{}{}", ["a", "b", "c", "d"][rng.below(4)], rng.below(6))
}

/// One edit of a file whose names start with its letter: a definition of one of its names
/// that uses two names of any file, a line deleted, or a use replaced by another name.
fn own_name_edit(rng: &mut Rng, text: &str) -> String {
    let letter = text
        .chars()
        .next()
        .filter(char::is_ascii_lowercase)
        .unwrap_or('a');
    let lines: Vec<&str> = text.lines().collect();
    match rng.below(4) {
        0 | 1 => {
            let name = format!("{letter}{}", rng.below(6));
            let (x, y) = (any_name(rng), any_name(rng));
            format!("{text}{name} = [{x}, {y}]\n")
        }
        2 if lines.len() > 1 => {
            // The first line keeps the file's letter.
            let drop = 1 + rng.below(lines.len() - 1);
            lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != drop)
                .map(|(_, l)| format!("{l}\n"))
                .collect()
        }
        _ => {
            let from = any_name(rng);
            let to = any_name(rng);
            text.replacen(&format!("{from}]"), &format!("{to}]"), 1)
        }
    }
}

/// Files that use each other's names without declaring the same ones (mostly), edited so
/// that cycles through open and closed files come and go: the cycles a closed file sees,
/// shown acyclic from the ranks of the closed files' graph or searched, are exactly a fresh
/// database's.
#[test]
fn cross_file_cycles_incremental_equals_fresh() {
    let files = [
        ("a.pp", "a0 = [b0, c1]\na1 = 1\n"),
        ("b.pp", "b0 = [c0, d0]\nb1 = [a1, a1]\n"),
        ("c.pp", "c0 = 2\nc1 = [d1, b1]\n"),
        ("d.pp", "d0 = 3\nd1 = [c0, c0]\n"),
    ];
    edit_rounds("cross-file cycles", &files, 9000, own_name_edit);
}
