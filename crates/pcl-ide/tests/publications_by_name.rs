//! What closed files read of the open files' publications, by name (`NameSlot`s): scripted
//! edits (keystrokes, opening, closing, changes on disk) that shadow names, make and break
//! cycles through open files, duplicate names across files and namespaces, and a random walk
//! over a few names and files, each compared with a fresh host after every step (written by
//! a review of the slots).

use std::path::{Path, PathBuf};

use pcl_ide::{AnalysisHost, Change};

mod common;
use common::{each_file, workspace};

enum Step<'a> {
    Type(&'a str, &'a str),
    Close(&'a str),
    Disk(&'a str, &'a str),
}

fn fresh(dir: &Path) -> AnalysisHost {
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(Vec::new());
    assert!(host.load_program(dir).is_empty());
    host
}

fn run(name: &str, files: &[(&str, &str)], steps: &[Step<'_>], each_first: bool) {
    let scratch = pcl_test_support::TempDir::new(&format!("review-slots-{name}"));
    let dir: PathBuf = scratch.to_path_buf();
    for (f, t) in files {
        std::fs::write(dir.join(f), t).unwrap();
    }
    let mut host = fresh(&dir);
    workspace(&host);
    for (i, step) in steps.iter().enumerate() {
        let mut change = Change::new();
        let what = match step {
            Step::Type(f, t) => {
                std::fs::write(dir.join(f), t).unwrap();
                change.set_file_text(dir.join(f), t.to_string());
                format!("type {f}: {t:?}")
            }
            Step::Close(f) => {
                change.close_file(dir.join(f));
                format!("close {f}")
            }
            Step::Disk(f, t) => {
                std::fs::write(dir.join(f), t).unwrap();
                change.file_changed_on_disk(dir.join(f));
                format!("disk {f}: {t:?}")
            }
        };
        host.apply_change(change);
        let expected = workspace(&fresh(&dir));
        if each_first {
            assert_eq!(
                each_file(&host),
                expected,
                "{name}: each file first, step {i} ({what})"
            );
        }
        assert_eq!(workspace(&host), expected, "{name}: step {i} ({what})");
        assert_eq!(
            each_file(&host),
            expected,
            "{name}: each file, step {i} ({what})"
        );
    }
}

fn both(name: &str, files: &[(&str, &str)], steps: &[Step<'_>]) {
    run(name, files, steps, false);
    run(&format!("{name}-each"), files, steps, true);
}

#[test]
fn shadowing_breaks_and_makes_closed_cycles() {
    use Step::*;
    both(
        "shadow",
        &[
            ("0.pp", "x = 1\n"),
            ("c.pp", "a = b\nuseA = a\n"),
            ("d.pp", "b = a\nuseB = b\n"),
            ("e.pp", "e = 1\n"),
        ],
        &[
            Type("0.pp", "x = 1\n"),
            Type("0.pp", "b = 1\n"),
            Type("0.pp", "b = 2\n"),
            Type("0.pp", "x = 1\n"),
            Type("0.pp", "b = a\n"),
            Type("0.pp", "b = \"s\"\n"),
            Type("0.pp", "a = 1\nb = a\n"),
            Type("0.pp", "b = a\n"),
            Type("e.pp", "e = b\nb = e\n"),
            Type("e.pp", "e = 1\n"),
            Type("0.pp", "a = 1\n"),
            Type("e.pp", "a = useB\n"),
            Close("0.pp"),
            Type("e.pp", "a = 3\nuseA = a\n"),
            Disk("c.pp", "a = e\nuseA = a\n"),
            Type("e.pp", "e = a\n"),
            Type("e.pp", "e = useA\n"),
            Close("e.pp"),
            Type("0.pp", "b = 1\n"),
            Type("0.pp", "b = useB\n"),
            Type("0.pp", "x = 1\n"),
        ],
    );
}

#[test]
fn duplicates_and_outputs() {
    use Step::*;
    both(
        "dups",
        &[
            ("0.pp", "z = 1\n"),
            ("c.pp", "v = 1\nw = v\n"),
            ("d.pp", "v = 2\noutput v {\n  value = w\n}\n"),
        ],
        &[
            Type("0.pp", "z = 1\n"),
            Type("0.pp", "v = 0\n"),
            Type("0.pp", "output v {\n  value = 1\n}\n"),
            Type("0.pp", "v = \"s\"\noutput v {\n  value = 1\n}\n"),
            Type("0.pp", "z = 1\n"),
            Type("0.pp", "w = 1\n"),
            Type("0.pp", "w = v\nv = w\n"),
            Disk("d.pp", "output v {\n  value = w\n}\n"),
            Type("0.pp", "v = 0\n"),
            Close("0.pp"),
            Type("d.pp", "v = 3\nv = 4\n"),
            Type("d.pp", "w = 3\n"),
        ],
    );
}

/// An open file and a closed one whose nodes use each other in turn, 20 times: a change of the
/// first type takes more than MAX_ROUNDS rounds to settle, so the open file is unpublished.
#[test]
fn a_file_unpublished_after_max_rounds() {
    use Step::*;
    let k = 20;
    let open = |head: &str, extra: &str| {
        let mut t = format!("o0 = {head}\n");
        for i in 1..=k {
            t.push_str(&format!("o{i} = c{}\n", i - 1));
        }
        t.push_str(extra);
        t
    };
    let mut closed = String::new();
    for i in 0..k {
        closed.push_str(&format!("c{i} = o{i}\n"));
    }
    closed.push_str(&format!("last = o{k}\ndup = 1\n"));
    let a = open("1", "");
    let b = open("\"s\"", "");
    let c = open("\"s\"", "dup = 2\n");
    let d = open("true", "dup = 2\n");
    both(
        "unsettled",
        &[("a.pp", &a), ("c.pp", &closed)],
        &[
            Type("a.pp", &a),
            Type("a.pp", &b),
            Type("a.pp", &c),
            Type("a.pp", &d),
            Type("a.pp", &a),
            Close("a.pp"),
            Type("a.pp", &b),
        ],
    );
}

/// Random small programs over few names (so that open files shadow, duplicate and close
/// cycles through closed ones), edited, opened, closed and changed on disk at random.
#[test]
fn random_names_against_a_fresh_host() {
    let seeds: u64 = std::env::var("REVIEW_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let first: u64 = std::env::var("REVIEW_SEED0")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    for seed in first..seeds {
        random_run(seed);
    }
}

fn random_run(seed: u64) {
    let mut rng = pcl_test_support::Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let names = ["a", "b", "c", "d", "e", "f"];
    let files = ["0.pp", "m.pp", "n.pp", "z.pp"];
    let text = |rng: &mut pcl_test_support::Rng| {
        let mut t = String::new();
        let n = rng.below(4) + 1;
        for _ in 0..n {
            let name = names[rng.below(names.len())];
            let value = match rng.below(6) {
                0 => "1".to_string(),
                1 => "\"s\"".to_string(),
                2 => format!("{} + 1", names[rng.below(names.len())]),
                3 => format!("\"${{{}}}\"", names[rng.below(names.len())]),
                4 => format!("[{}]", names[rng.below(names.len())]),
                _ => names[rng.below(names.len())].to_string(),
            };
            let other = names[rng.below(names.len())];
            if rng.below(8) == 0 {
                t.push_str(&format!("resource {name} \"p:index:T\" {{\n  v = {value}\n  options {{\n    range = 2\n    dependsOn = [{other}]\n  }}\n}}\n"));
            } else if rng.below(8) == 0 {
                t.push_str(&format!(
                    "resource {name} \"p:index:T\" {{\n  v = ffff({value})\n}}\n"
                ));
            } else if rng.below(8) == 0 {
                t.push_str(&format!(
                    "config {name} \"int\" {{\n  default = {value}\n}}\n"
                ));
            } else if rng.below(5) == 0 {
                t.push_str(&format!("output {name} {{\n  value = {value}\n}}\n"));
            } else {
                t.push_str(&format!("{name} = {value}\n"));
            }
        }
        t
    };
    let scratch = pcl_test_support::TempDir::new(&format!("review-slots-random-{seed}"));
    let dir: PathBuf = scratch.to_path_buf();
    for f in files {
        let t = text(&mut rng);
        if std::env::var("REVIEW_TRACE").is_ok() {
            eprintln!("INIT {f}: {t:?}");
        }
        std::fs::write(dir.join(f), t).unwrap();
    }
    let mut host = fresh(&dir);
    workspace(&host);
    let mut open: Vec<&str> = Vec::new();
    for step in 0..40 {
        let f = files[rng.below(files.len())];
        let mut change = Change::new();
        let what = match rng.below(8) {
            0 if open.contains(&f) => {
                change.close_file(dir.join(f));
                open.retain(|o| *o != f);
                format!("close {f}")
            }
            1 if !open.contains(&f) => {
                let t = text(&mut rng);
                std::fs::write(dir.join(f), &t).unwrap();
                change.file_changed_on_disk(dir.join(f));
                format!("disk {f}: {t:?}")
            }
            _ => {
                // Keystrokes mostly in files already open.
                let f = if !open.is_empty() && rng.below(4) != 0 {
                    open[rng.below(open.len())]
                } else {
                    f
                };
                let t = text(&mut rng);
                std::fs::write(dir.join(f), &t).unwrap();
                change.set_file_text(dir.join(f), t.clone());
                if !open.contains(&f) {
                    open.push(f);
                }
                format!("type {f}: {t:?}")
            }
        };
        host.apply_change(change);
        let expected = workspace(&fresh(&dir));
        let each_first = rng.below(2) == 0;
        if each_first {
            assert_eq!(
                each_file(&host),
                expected,
                "seed {seed} step {step} ({what}), each first"
            );
        }
        assert_eq!(
            workspace(&host),
            expected,
            "seed {seed} step {step} ({what})"
        );
        assert_eq!(
            each_file(&host),
            expected,
            "seed {seed} step {step} ({what}), each"
        );
    }
}

/// Pre-existing (also at e942453): an unknown function's help looks its name up as a top-level
/// name, but a call's name is not among the names a node uses, so an open file's declaration
/// of it is not published to the closed files.
#[test]
fn unknown_function_help_sees_an_open_files_name() {
    use Step::*;
    both(
        "unknown-fn",
        &[("c.pp", "x = b(1)\n"), ("o.pp", "y = 1\n")],
        &[Type("o.pp", "y = 1\n"), Type("o.pp", "b = 1\n")],
    );
}
