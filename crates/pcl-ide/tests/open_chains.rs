//! Long chains of references inside open files, typed into: the walk of the open files
//! after a keystroke follows their reference graphs kept between keystrokes
//! (`open_file_graph`) and must never recurse through a chain, whatever the keystroke does to
//! it (reverse it, close it into a cycle, move its head to another type), with the chain
//! across two open files or through a closed one; and every answer must be a fresh host's.
//! Written by a review of that walk.

use pcl_ide::{AnalysisHost, Change, FilePosition, TextSize};
use std::path::{Path, PathBuf};

const CHAIN: usize = 20_000;

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("pcl-ide-open-chains-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn new_host(dir: &Path, open: &[&Path]) -> AnalysisHost {
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(Vec::new());
    assert!(host.load_program(dir).is_empty());
    let mut change = Change::new();
    for file in open {
        change.set_file_text(file.to_path_buf(), std::fs::read_to_string(file).unwrap());
    }
    host.apply_change(change);
    host.analysis().workspace_diagnostics().unwrap();
    host
}

fn type_into(host: &mut AnalysisHost, file: &Path, text: &str) {
    std::fs::write(file, text).unwrap();
    let mut change = Change::new();
    change.set_file_text(file.to_path_buf(), text.to_string());
    host.apply_change(change);
}

/// Requests on `file` (edited file first, as a server asks), then compared with fresh.
fn ask(host: &AnalysisHost, file: &Path, dir: &Path, check_all: bool) {
    let analysis = host.analysis();
    let each = analysis.diagnostics(file).unwrap();
    for off in [0u32, 3] {
        let at = FilePosition {
            file: file.to_path_buf(),
            offset: TextSize::from(off),
        };
        analysis.hover(&at).unwrap();
        analysis.completions(&at).unwrap();
    }
    analysis.inlay_hints(file, None).unwrap();
    if !check_all {
        return;
    }
    let all = analysis.workspace_diagnostics().unwrap();
    let mut fresh = AnalysisHost::new();
    fresh.set_schema_dirs(Vec::new());
    assert!(fresh.load_program(dir).is_empty());
    assert_eq!(all, fresh.analysis().workspace_diagnostics().unwrap());
    let listed = all.iter().find(|(path, _)| path == file).map(|(_, d)| d);
    assert_eq!(Some(&each), listed);
}

fn forward(prefix: &str, n: usize) -> String {
    let mut t = String::new();
    for i in (1..=n).rev() {
        t.push_str(&format!("{prefix}{i} = {prefix}{}\n", i - 1));
    }
    t.push_str(&format!("{prefix}0 = 1\n"));
    t
}

fn backward(prefix: &str, n: usize) -> String {
    let mut t = String::new();
    for i in 0..n {
        t.push_str(&format!("{prefix}{i} = {prefix}{}\n", i + 1));
    }
    t.push_str(&format!("{prefix}{n} = 1\n"));
    t
}

/// A chain alternating between two open files.
#[test]
fn chain_across_two_open_files() {
    let dir = temp_dir("two");
    let (a, b) = (dir.join("a.pp"), dir.join("b.pp"));
    let (mut ta, mut tb) = (String::new(), String::new());
    for i in (1..=CHAIN).rev() {
        let line = format!("l{i} = l{}\n", i - 1);
        if i % 2 == 0 {
            ta.push_str(&line)
        } else {
            tb.push_str(&line)
        }
    }
    ta.push_str("l0 = 1\nalone = 2\n");
    std::fs::write(&a, &ta).unwrap();
    std::fs::write(&b, &tb).unwrap();
    std::fs::write(dir.join("c.pp"), "r = 3\n").unwrap();
    let mut host = new_host(&dir, &[&a, &b]);
    type_into(&mut host, &a, &ta.replace("alone = 2", "alone = 27"));
    ask(&host, &b, &dir, false);
    type_into(&mut host, &a, &ta.replace("l0 = 1", "l0 = \"s\""));
    ask(&host, &a, &dir, false);
    type_into(&mut host, &a, &ta.replace("alone = 2", "alone = 28"));
    ask(&host, &b, &dir, true);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An open chain reversed by one keystroke (no closed file reads it), then into a cycle
/// and back, a pulumi and package block beside it.
#[test]
fn chain_reversed_and_cycled_in_an_open_file() {
    let dir = temp_dir("rev");
    let a = dir.join("a.pp");
    let extra = "pulumi {\n  requiredVersionRange = \">=3\"\n}\npackage p {\n  baseProviderName = \"x\"\n}\nalone = 2\n";
    let f = format!("{}{extra}", forward("x", CHAIN));
    std::fs::write(&a, &f).unwrap();
    std::fs::write(dir.join("c.pp"), "r = 3\n").unwrap();
    let mut host = new_host(&dir, &[&a]);
    let steps = [
        format!("{}{extra}", backward("x", CHAIN)),
        format!("{}{extra}", forward("x", CHAIN)),
        format!(
            "{}{extra}",
            forward("x", CHAIN).replace("x0 = 1", &format!("x0 = x{CHAIN}"))
        ),
        format!("{}{extra}", forward("x", CHAIN)),
        format!(
            "{}{extra}",
            forward("x", CHAIN).replace("x0 = 1", "x0 = \"s\"")
        ),
    ];
    for (i, s) in steps.iter().enumerate() {
        type_into(&mut host, &a, s);
        ask(&host, &a, &dir, i == steps.len() - 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chain in an open file whose top a closed file reads; keystrokes deep in the chain
/// changing and keeping its type.
#[test]
fn chain_top_read_by_closed_file() {
    let dir = temp_dir("top");
    let a = dir.join("a.pp");
    let f = format!("{}alone = 2\n", forward("x", CHAIN));
    std::fs::write(&a, &f).unwrap();
    std::fs::write(dir.join("c.pp"), format!("r = x{CHAIN}\n")).unwrap();
    let mut host = new_host(&dir, &[&a]);
    type_into(&mut host, &a, &f.replace("alone = 2", "alone = 3"));
    ask(&host, &a, &dir, false);
    type_into(&mut host, &a, &f.replace("x0 = 1", "x0 = 2"));
    ask(&host, &dir.join("c.pp"), &dir, false);
    ask(&host, &a, &dir, false);
    type_into(&mut host, &a, &f.replace("x0 = 1", "x0 = \"s\""));
    ask(&host, &a, &dir, true);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chain in an open file whose program's other open file is the edited one; a closed
/// file reads the chain's top, the chain alternates through a closed file.
#[test]
fn chain_through_closed_file_between_open_files() {
    let dir = temp_dir("through");
    let a = dir.join("a.pp");
    let n = 2000;
    let (mut ta, mut tc) = (String::new(), String::new());
    for i in (1..=n).rev() {
        let line = format!("l{i} = l{}\n", i - 1);
        if i % 2 == 0 {
            ta.push_str(&line)
        } else {
            tc.push_str(&line)
        }
    }
    ta.push_str("l0 = 1\nalone = 2\n");
    std::fs::write(&a, &ta).unwrap();
    std::fs::write(dir.join("c.pp"), &tc).unwrap();
    let mut host = new_host(&dir, &[&a]);
    type_into(&mut host, &a, &ta.replace("alone = 2", "alone = 27"));
    ask(&host, &a, &dir, false);
    type_into(&mut host, &a, &ta.replace("alone = 2", "alone = 28"));
    ask(&host, &a, &dir, true);
    let _ = std::fs::remove_dir_all(&dir);
}
