//! What an edit costs, counted: how many queries execute and how many memoized results salsa
//! re-validates (through the database's query hook) after each kind of edit of an open file,
//! from the edit to the edited file's diagnostics and then for every file's, on the same
//! edited file inside programs of two sizes. An edit that changes nothing the other files
//! read of the file (a literal; a character typed, which moves every node after it; a local no
//! other file uses, added or deleted) must run the same queries at both sizes and re-validate
//! the same results, but for one per file when it is the first edit of another top-level item
//! (a `MEDIUM` write: see `first edit of another item` below); the snapshot shows what
//! renaming a used local costs at each.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use expect_test::expect;
use pcl_db::QueryLog;
use pcl_ide::{AnalysisHost, Change};

/// The file being edited: a config, a literal, locals the other files use, and a use of a
/// file on disk (`offset`).
const EDITED: &str = r#"config base "int" {
  default = 1
}

greeting = "hello"
single = 7

shared0 = base + 0
shared1 = base + offset
shared2 = base + 2
shared3 = "${greeting}-3"

output total {
  value = shared0 + shared1
}
"#;

/// A program of `files` files besides the edited one, each using the edited file's names.
fn write_program(dir: &Path, files: usize, edited: &str) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("a_edited.pp"), edited).unwrap();
    std::fs::write(
        dir.join("0_base.pp"),
        "origin = 1\noffset = origin + 2\nonce = single + 1\n",
    )
    .unwrap();
    for k in 0..files {
        let mut text = String::new();
        for j in 0..8 {
            writeln!(text, "value{k}_{j} = shared{} + {j}", j % 3).unwrap();
            writeln!(text, "double{k}_{j} = value{k}_{j} * 2").unwrap();
        }
        writeln!(text, "label{k} = \"${{shared3}}-{k}\"").unwrap();
        writeln!(text, "output out{k} {{\n  value = double{k}_0\n}}").unwrap();
        std::fs::write(dir.join(format!("b_{k:03}.pp")), text).unwrap();
    }
}

/// Counts of one step: (executed, re-validated).
type Counts = (usize, usize);

struct Session {
    host: AnalysisHost,
    edited: PathBuf,
    log: QueryLog,
}

impl Session {
    fn new(dir: &Path, files: usize, text: &str) -> Session {
        write_program(dir, files, text);
        let mut host = AnalysisHost::with_query_hooks();
        host.set_schema_dirs(Vec::new());
        let problems = host.load_program(dir);
        assert!(problems.is_empty(), "{problems:?}");
        let edited = dir.join("a_edited.pp");
        let mut change = Change::new();
        change.set_file_text(edited.clone(), text.to_string());
        host.apply_change(change);
        let all = host.analysis().workspace_diagnostics().unwrap();
        assert!(
            all.iter().all(|(_, d)| d.is_empty()),
            "the program is valid: {all:?}"
        );
        let log = QueryLog::install(host.raw_database()).unwrap();
        Session { host, edited, log }
    }

    fn take(&self) -> Counts {
        self.log.take_counts()
    }

    /// Applies `text` to the edited file; the counts up to its diagnostics, then for every
    /// file's diagnostics; and the number of diagnostics of every file.
    fn edit(&mut self, text: &str) -> (Counts, Counts, usize) {
        self.take();
        let mut change = Change::new();
        change.set_file_text(self.edited.clone(), text.to_string());
        self.host.apply_change(change);
        let analysis = self.host.analysis();
        analysis.diagnostics(&self.edited).unwrap();
        let edited = self.take();
        let all = analysis.workspace_diagnostics().unwrap();
        let every = self.take();
        (edited, every, all.iter().map(|(_, d)| d.len()).sum())
    }
}

/// The edits, in order, each from the text the previous one left.
fn edits() -> Vec<(&'static str, String)> {
    let literal = EDITED.replace("\"hello\"", "\"hellp\"");
    // Longer: every node after it moves.
    let typed = EDITED.replace("\"hello\"", "\"helloo\"");
    let added = format!("{EDITED}\nfresh = 42\n");
    let renamed = EDITED.replace("shared2 = ", "shared2x = ");
    vec![
        ("a literal", literal.clone()),
        ("the literal back", EDITED.to_string()),
        ("a literal again", literal),
        ("a character typed", typed),
        ("the character deleted", EDITED.to_string()),
        ("a local added", added),
        ("the local deleted", EDITED.to_string()),
        ("a used local renamed", renamed),
        ("renamed back", EDITED.to_string()),
    ]
}

/// A local that one closed file uses, renamed back and forth (in a session of its own: the
/// walk after a rename covers the readers of every name renamed since the last wide change).
fn renames_of_a_name_used_once() -> Vec<(&'static str, String)> {
    let renamed = EDITED.replace("single = ", "singlex = ");
    vec![
        ("a local used once renamed", renamed.clone()),
        ("renamed back", EDITED.to_string()),
        ("renamed again", renamed),
        ("back again", EDITED.to_string()),
    ]
}

/// The counts of `edits` in a program of `files` files (in a directory of its own, named by
/// `tag`, since tests run side by side).
fn run(
    tag: &str,
    files: usize,
    edits: Vec<(&'static str, String)>,
) -> Vec<(&'static str, Counts, Counts, usize)> {
    run_from(tag, files, EDITED, edits)
}

/// [`run`] with `text` as the edited file's first text.
fn run_from(
    tag: &str,
    files: usize,
    text: &str,
    edits: Vec<(&'static str, String)>,
) -> Vec<(&'static str, Counts, Counts, usize)> {
    let dir = std::env::temp_dir().join(format!(
        "pcl-ide-keystroke-counts-{tag}-{files}-{}",
        std::process::id()
    ));
    let mut session = Session::new(&dir, files, text);
    let out = edits
        .into_iter()
        .map(|(name, text)| {
            let (edited, every, diagnostics) = session.edit(&text);
            (name, edited, every, diagnostics)
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// The counts of each edit at both sizes, a line each: executed/re-validated for the edited
/// file, then for every file, then the number of diagnostics.
fn table(
    small: &[(&'static str, Counts, Counts, usize)],
    large: &[(&'static str, Counts, Counts, usize)],
) -> String {
    let mut table = String::new();
    for (s, l) in small.iter().zip(large) {
        writeln!(
            table,
            "{}: edited file {}/{} vs {}/{}; every file {}/{} vs {}/{}; diagnostics {} vs {}",
            s.0, s.1 .0, s.1 .1, l.1 .0, l.1 .1, s.2 .0, s.2 .1, l.2 .0, l.2 .1, s.3, l.3
        )
        .unwrap();
    }
    table
}

#[test]
fn a_keystroke_costs_the_same_in_a_program_four_times_larger() {
    let small = run("edits", 4, edits());
    let large = run("edits", 16, edits());
    let table = table(&small, &large);
    // Executed/re-validated, 4 files then 16 (the edited file's 9 nodes, 18 more per file).
    expect![[r#"
        a literal: edited file 30/58 vs 30/58; every file 0/1 vs 0/1; diagnostics 0 vs 0
        the literal back: edited file 10/27 vs 10/27; every file 0/1 vs 0/1; diagnostics 0 vs 0
        a literal again: edited file 10/27 vs 10/27; every file 0/1 vs 0/1; diagnostics 0 vs 0
        a character typed: edited file 10/27 vs 10/27; every file 0/1 vs 0/1; diagnostics 0 vs 0
        the character deleted: edited file 10/27 vs 10/27; every file 0/1 vs 0/1; diagnostics 0 vs 0
        a local added: edited file 45/50 vs 45/50; every file 0/1 vs 0/1; diagnostics 0 vs 0
        the local deleted: edited file 29/61 vs 29/61; every file 0/1 vs 0/1; diagnostics 0 vs 0
        a used local renamed: edited file 47/158 vs 47/206; every file 294/442 vs 390/929; diagnostics 8 vs 32
        renamed back: edited file 103/211 vs 295/415; every file 9/69 vs 33/273; diagnostics 0 vs 0
    "#]]
    .assert_eq(&table);
    for (s, l) in small.iter().zip(&large) {
        // A literal changes nothing the closed files read; a local no closed file uses is
        // added or deleted without their knowing. A used local renamed is work in proportion
        // to its uses, and a walk of what reads the program's names (the snapshot).
        if s.0.contains("renamed") {
            continue;
        }
        assert_eq!(
            (s.1 .0, s.2),
            (l.1 .0, l.2),
            "{}: must cost the same at both sizes",
            s.0
        );
        // Even the first edit of another item (the literal after the file opened, the local
        // added, then deleted), which writes the open file's items at `MEDIUM`: no closed
        // result reads a `MEDIUM` input unless a publication wrote it (the directories
        // component blocks include are the program facts', `HIGH`).
        assert_eq!(l.1 .1, s.1 .1, "{}: must cost the same at both sizes", s.0);
    }
}

/// Renaming a local that one file nobody has open uses: the first rename walks every result
/// once (the readers of the name's slot were `HIGH`, and salsa reports the slot's first
/// `MEDIUM` write at `HIGH`); every rename after it executes the same queries at both sizes
/// and re-validates the readers of the name (which the publication walks again, in order)
/// and a few results per file (whether it is published, its edge), not the program.
#[test]
fn a_name_used_once_renamed_again_costs_its_uses() {
    let small = run("once", 4, renames_of_a_name_used_once());
    let large = run("once", 16, renames_of_a_name_used_once());
    let table = table(&small, &large);
    expect![[r#"
        a local used once renamed: edited file 41/165 vs 41/213; every file 266/470 vs 266/1053; diagnostics 1 vs 1
        renamed back: edited file 44/153 vs 44/165; every file 3/9 vs 3/21; diagnostics 0 vs 0
        renamed again: edited file 41/152 vs 41/164; every file 4/12 vs 4/24; diagnostics 1 vs 1
        back again: edited file 42/155 vs 42/167; every file 3/9 vs 3/21; diagnostics 0 vs 0
    "#]]
    .assert_eq(&table);
    for (s, l) in small.iter().zip(&large).skip(1) {
        let name = s.0;
        assert_eq!(
            (s.1 .0, s.2 .0),
            (l.1 .0, l.2 .0),
            "{name}: the same queries run"
        );
        // Per file, its summary (the host gathers the packages and the directories component
        // blocks include from every file's), then its edge; nothing per node (the
        // publication walked the name's readers again).
        assert_eq!(l.1 .1 - s.1 .1, 16 - 4, "{name}: publication");
        assert_eq!(l.2 .1 - s.2 .1, 16 - 4, "{name}: every file");
    }
}

/// The edited file with `extra` more locals that nothing uses.
fn padded(extra: usize) -> String {
    let mut text = EDITED.to_string();
    for i in 0..extra {
        writeln!(text, "pad{i} = {i}").unwrap();
    }
    text
}

/// A literal typed in one item, then in another, then in the first again, in an edited file
/// of 19 nodes and in one of 49.
fn literals_in_two_items(base: &str) -> Vec<(&'static str, String)> {
    let first = base.replace("\"hello\"", "\"hellp\"");
    let second = |v: &str| first.replace("single = 7", &format!("single = {v}"));
    vec![
        ("a literal", first.clone()),
        ("the literal back", base.to_string()),
        ("a literal again", first.clone()),
        ("another item's literal", second("8")),
        ("that literal back", second("7")),
        ("that literal again", second("8")),
        (
            "the first item again",
            second("8").replace("\"hellp\"", "\"hello\""),
        ),
        ("and back", second("8")),
    ]
}

/// What a keystroke costs does not grow with the edited file: what is gathered over the items
/// the user is not editing is valid in one step, and so is what was computed of an item the
/// user left (it runs again at `MEDIUM` when the user moves on, rather than staying `LOW` and
/// making every result gathered over the file's items `LOW` with it). The first keystroke in
/// each item moves items between `LOW` and `MEDIUM` and gathers the others again.
#[test]
fn a_keystroke_costs_the_same_in_a_file_of_more_items() {
    let small = run_from("items", 4, &padded(10), literals_in_two_items(&padded(10)));
    let large = run_from("items", 4, &padded(40), literals_in_two_items(&padded(40)));
    let table = table(&small, &large);
    expect![[r#"
        a literal: edited file 30/117 vs 30/296; every file 0/1 vs 0/1; diagnostics 0 vs 0
        the literal back: edited file 10/27 vs 10/27; every file 0/1 vs 0/1; diagnostics 0 vs 0
        a literal again: edited file 10/27 vs 10/27; every file 0/1 vs 0/1; diagnostics 0 vs 0
        another item's literal: edited file 30/117 vs 30/296; every file 0/1 vs 0/1; diagnostics 0 vs 0
        that literal back: edited file 10/29 vs 10/29; every file 0/1 vs 0/1; diagnostics 0 vs 0
        that literal again: edited file 10/29 vs 10/29; every file 0/1 vs 0/1; diagnostics 0 vs 0
        the first item again: edited file 31/116 vs 31/295; every file 0/1 vs 0/1; diagnostics 0 vs 0
        and back: edited file 10/29 vs 10/29; every file 0/1 vs 0/1; diagnostics 0 vs 0
    "#]]
    .assert_eq(&table);
    for (s, l) in small.iter().zip(&large) {
        let first_in_an_item = [
            "a literal",
            "another item's literal",
            "the first item again",
        ]
        .contains(&s.0);
        if !first_in_an_item {
            assert_eq!((s.1, s.2), (l.1, l.2), "{}: must cost the same", s.0);
        }
    }
}

/// Collecting garbage after the check that follows opening a file (as the language server
/// does when idle) frees what that check replaced and nothing else: asking every file's
/// diagnostics again runs no query, and the edits after it run and re-validate exactly what
/// they do without it.
#[test]
fn collecting_garbage_keeps_every_result() {
    let open = |tag: &str| {
        let dir = std::env::temp_dir().join(format!(
            "pcl-ide-keystroke-counts-{tag}-{}",
            std::process::id()
        ));
        (Session::new(&dir, 4, EDITED), dir)
    };
    let (mut collected, collected_dir) = open("collected");
    let (mut kept, kept_dir) = open("kept");
    collected.host.collect_garbage();
    for session in [&mut collected, &mut kept] {
        session.take();
        let all = session.host.analysis().workspace_diagnostics().unwrap();
        assert!(all.iter().all(|(_, d)| d.is_empty()), "{all:?}");
        assert_eq!(session.take().0, 0, "nothing runs again");
    }
    for (name, text) in edits() {
        assert_eq!(collected.edit(&text), kept.edit(&text), "{name}");
    }
    let _ = std::fs::remove_dir_all(&collected_dir);
    let _ = std::fs::remove_dir_all(&kept_dir);
}
