//! The host as an editor drives it, against a fresh one, on real programs: each corpus
//! program is copied to a directory (with its components), loaded, one of its files opened,
//! and edited at random
//! (the edits of the `edit_script` fuzz target: deletions, snippets that break or complete
//! syntax, pieces copied; some undone), files opened and closed and others changed on disk
//! along the way. After every change, every file's diagnostics, and the open files' asked one
//! by one, must be what a host that loads the same files from disk reports. This drives what
//! the semantic layer's differential test does not: the host's publication rounds, what it
//! takes as settled after a keystroke, the walk of the open files and the reparse of each
//! keystroke from the last tree.
//!
//! `PCL_HOST_DIFF_EDITS` sets the number of changes per program (default 6), and
//! `PCL_HOST_DIFF_SEED` the random seed; `docs/testing.md` records long runs.

use std::path::{Path, PathBuf};

use pcl_ide::{AnalysisHost, Change};
use pcl_test_support::{Failures, Rng};

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn host(dir: &Path, schemas: &Path) -> AnalysisHost {
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(vec![schemas.to_path_buf()]);
    host.load_program(dir);
    host
}

/// Every file's diagnostics, rendered; and the open files' asked one by one must be the same.
fn observe(host: &AnalysisHost, open: &[PathBuf]) -> String {
    let analysis = host.analysis();
    let all = analysis.workspace_diagnostics().unwrap();
    for file in open {
        let each = analysis.diagnostics(file).unwrap();
        let listed = all.iter().find(|(path, _)| path == file).map(|(_, d)| d);
        assert_eq!(Some(&each), listed, "{} asked on its own", file.display());
    }
    format!("{all:#?}")
}

fn run(name: &str, source: &Path, schemas: &Path, changes: usize, seed: u64) {
    let scratch = pcl_test_support::TempDir::new(&format!(
        "host-diff-{}",
        source.file_name().unwrap().to_string_lossy()
    ));
    let dir = scratch.to_path_buf();
    // The program's files, then those of the directories below it (its components): edited,
    // opened and closed like the others.
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    copy_pp_files(source, &dir, &mut files);
    if files.is_empty() || files[0].0.parent() != Some(dir.as_path()) {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let mut rng = Rng(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut host = host(&dir, schemas);
    let mut open = vec![false; files.len()];
    open[0] = true;
    let mut change = Change::new();
    change.set_file_text(files[0].0.clone(), files[0].1.clone());
    host.apply_change(change);
    // The directories of the programs the host has loaded (the program, its components, and
    // those of component blocks typed since): a host keeps a program it loaded whatever the
    // edits do to the component blocks that named it, so the fresh host loads them all too.
    let fresh_host = |host: &AnalysisHost| {
        let mut roots: Vec<PathBuf> = host
            .analysis()
            .files()
            .unwrap()
            .iter()
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .filter(|root| *root != dir)
            .collect();
        roots.sort();
        roots.dedup();
        let mut fresh = self::host(&dir, schemas);
        for root in &roots {
            fresh.load_program(root);
        }
        fresh
    };
    let mut undo: Option<(usize, String)> = None;
    for step in 0..changes {
        let mut change = Change::new();
        let what;
        if rng.below(8) == 0 {
            // Open or close a file (an open file closes with its text saved).
            let i = rng.below(files.len());
            open[i] = !open[i];
            if open[i] {
                change.set_file_text(files[i].0.clone(), files[i].1.clone());
            } else {
                change.close_file(files[i].0.clone());
            }
            what = format!("{} {}", if open[i] { "open" } else { "close" }, i);
        } else {
            let edit = match undo.take() {
                Some(previous) if rng.below(4) == 0 => Err(previous),
                _ => {
                    let bytes: Vec<u8> = (0..4).map(|_| rng.next_u64() as u8).collect();
                    let decoded = pcl_invariants::edits::decode_script(&bytes);
                    Ok(decoded.into_iter().next())
                }
            };
            let changed = match edit {
                Err((i, previous)) => {
                    files[i].1 = previous;
                    Some(i)
                }
                Ok(Some(edit)) => {
                    let changed = pcl_invariants::edits::apply(&mut files, &edit);
                    undo = changed.clone();
                    changed.map(|(i, _)| i)
                }
                Ok(None) => None,
            };
            let Some(i) = changed else { continue };
            std::fs::write(&files[i].0, &files[i].1).unwrap();
            if open[i] {
                change.set_file_text(files[i].0.clone(), files[i].1.clone());
            } else {
                change.file_changed_on_disk(files[i].0.clone());
            }
            what = format!(
                "edit of file {i} ({})",
                if open[i] { "open" } else { "closed" }
            );
        }
        host.apply_change(change);
        let open_files: Vec<PathBuf> = files
            .iter()
            .zip(&open)
            .filter(|(_, o)| **o)
            .map(|((p, _), _)| p.clone())
            .collect();
        let incremental = observe(&host, &open_files);
        let fresh = observe(&fresh_host(&host), &[]);
        assert!(
            incremental == fresh,
            "{name}: step {step} (seed {seed}): {what}: the host differs from a fresh one\n{}",
            files
                .iter()
                .map(|(p, t)| format!("--- {} ---\n{t}", p.display()))
                .collect::<String>()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Copies the `.pp` files of `from` into `to`, then those of each directory below, in path
/// order, adding each copy and its text to `files`.
fn copy_pp_files(from: &Path, to: &Path, files: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(from)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
    {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let copy = to.join(path.file_name().unwrap());
        std::fs::write(&copy, &text).unwrap();
        files.push((copy, text));
    }
    for path in entries.iter().filter(|p| p.is_dir()) {
        let below = to.join(path.file_name().unwrap());
        std::fs::create_dir_all(&below).unwrap();
        copy_pp_files(path, &below, files);
    }
}

#[test]
fn corpus_programs_edited_as_in_an_editor_report_what_a_fresh_host_reports() {
    let Some(root) = pcl_test_support::corpus("corpus/pulumi/programs") else {
        return;
    };
    let changes = setting("PCL_HOST_DIFF_EDITS", 6) as usize;
    let seed = setting("PCL_HOST_DIFF_SEED", 1);
    let schemas = root.join("../schemas/codegen-old");
    let dirs = pcl_test_support::edited_corpus_programs(&root);
    let mut failures = Failures::new();
    for (i, dir) in dirs.iter().enumerate() {
        let name = dir.display().to_string();
        failures.check(&name, || {
            run(&name, dir, &schemas, changes, seed + 1000 + i as u64);
            Vec::new()
        });
    }
    failures.finish("corpus programs");
}
