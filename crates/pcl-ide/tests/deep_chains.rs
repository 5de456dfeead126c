//! Long chains of references, after a keystroke in an open file: whatever a host answers
//! must not recurse through the chain (a stack overflow kills an editor's server), and must be
//! what a fresh host answers. In files nobody has open: a result of a closed file that reads
//! an open file's text has that text's durability, and so has every result that uses it, so
//! after a keystroke salsa walks the whole chain again: the host must not take the closed
//! files as settled then. Inside open files: the walk after a keystroke follows the open
//! files' reference graphs kept between keystrokes (`open_file_graph`), whatever the
//! keystroke does to the chain (reverse it, close it into a cycle, change its head's type),
//! with the chain across two open files or through a closed one (these tests were written by
//! a review of that walk). The chains are long enough to overflow a test thread's stack if
//! anything recursed through them.

use std::path::Path;

use pcl_ide::{AnalysisHost, Change, FilePosition, TextSize};

const CHAIN: usize = 20_000;

fn temp_dir(name: &str) -> pcl_test_support::TempDir {
    pcl_test_support::TempDir::new(&format!("ide-deep-{name}"))
}

/// `lN = lN-1` down to `l0 = bottom`, written from the top: checked in file order, each local
/// would need the one below it first.
fn chain(bottom: &str) -> String {
    let mut text = String::new();
    for i in (1..=CHAIN).rev() {
        text.push_str(&format!("l{i} = l{}\n", i - 1));
    }
    text.push_str(&format!("l0 = {bottom}\n"));
    text
}

/// Opens `open` with its text on disk, checks every file (in dependency order), then types
/// `typed` into it: a keystroke that changes nothing the closed files read.
fn keystroke_after_a_check(dir: &Path, open: &Path, typed: &str) -> AnalysisHost {
    keystroke_with_files_open(dir, &[open], open, typed)
}

/// [`keystroke_after_a_check`] with the files `open` open, and `typed` typed into `edited`.
fn keystroke_with_files_open(
    dir: &Path,
    open: &[&Path],
    edited: &Path,
    typed: &str,
) -> AnalysisHost {
    let mut host = open_and_check(dir, open);
    let mut change = Change::new();
    change.set_file_text(edited.to_path_buf(), typed.to_string());
    host.apply_change(change);
    host
}

/// A host with the program of `dir` loaded, the files `open` opened with their text on disk,
/// and every file checked (in dependency order).
fn open_and_check(dir: &Path, open: &[&Path]) -> AnalysisHost {
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

/// Types `text` into `file` (and saves it, for the fresh host to compare with).
fn type_into(host: &mut AnalysisHost, file: &Path, text: &str) {
    std::fs::write(file, text).unwrap();
    let mut change = Change::new();
    change.set_file_text(file.to_path_buf(), text.to_string());
    host.apply_change(change);
}

/// Every request that infers what it shows, on `file`, then every file's diagnostics, equal
/// to a fresh host's (whose files are on disk as `on_disk` leaves them).
fn ask_everything(host: &AnalysisHost, file: &Path, dir: &Path) {
    ask(host, file, dir, true);
}

/// The requests of [`ask_everything`]; every file's diagnostics compared with a fresh
/// host's only when `compare`.
fn ask(host: &AnalysisHost, file: &Path, dir: &Path, compare: bool) {
    let analysis = host.analysis();
    let each = analysis.diagnostics(file).unwrap();
    for offset in [0u32, 3] {
        let at = FilePosition {
            file: file.to_path_buf(),
            offset: TextSize::from(offset),
        };
        analysis.hover(&at).unwrap();
        analysis.completions(&at).unwrap();
    }
    analysis.inlay_hints(file, None).unwrap();
    if !compare {
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

#[test]
fn a_chain_above_an_undefined_name() {
    // The did-you-mean of `undefinedNam` compares it with every name, the open file's too:
    // only the edge reads that, not the chain's inference.
    let dir = temp_dir("undefined");
    std::fs::write(dir.join("chain.pp"), chain("undefinedNam")).unwrap();
    let open = dir.join("open.pp");
    std::fs::write(&open, "alone = 2\n").unwrap();
    let host = keystroke_after_a_check(&dir, &open, "alone = 27\n");
    std::fs::write(&open, "alone = 27\n").unwrap();
    ask_everything(&host, &dir.join("chain.pp"), &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chain_above_a_component_whose_file_is_open() {
    // The component block reads its program's interface as the program is, open file
    // included.
    let dir = temp_dir("component");
    std::fs::write(dir.join("main.pp"), "component c \"./comp\" {\n}\n").unwrap();
    std::fs::write(dir.join("chain.pp"), chain("c.result")).unwrap();
    std::fs::create_dir(dir.join("comp")).unwrap();
    let open = dir.join("comp/main.pp");
    std::fs::write(&open, "output result {\n  value = \"a\"\n}\n").unwrap();
    let typed = "output result {\n  value = 1\n}\n";
    let host = keystroke_after_a_check(&dir, &open, typed);
    std::fs::write(&open, typed).unwrap();
    ask_everything(&host, &dir.join("chain.pp"), &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chain_inside_a_component_program_whose_file_is_open() {
    // The including program's check types the component's interface: the output at the end
    // of the chain, dependencies first (found by review: it overflowed, `pcl check` too).
    let dir = temp_dir("in-component");
    std::fs::write(
        dir.join("main.pp"),
        "component c \"./comp\" {\n}\ny = c.result\n",
    )
    .unwrap();
    std::fs::create_dir(dir.join("comp")).unwrap();
    let open = dir.join("comp/main.pp");
    let text = format!(
        "{}output result {{\n  value = l{CHAIN}\n}}\nalone = 2\n",
        chain("1")
    );
    std::fs::write(&open, &text).unwrap();
    let typed = text.replace("l0 = 1", "l0 = \"one\"");
    let host = keystroke_after_a_check(&dir, &open, &typed);
    std::fs::write(&open, &typed).unwrap();
    ask_everything(&host, &dir.join("main.pp"), &dir);
    ask_everything(&host, &open, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_open_file_uses_the_top_of_a_chain_that_a_closed_file_reads_through_it() {
    // The publication of `x` orders what `x` uses before inferring it.
    let dir = temp_dir("publication");
    std::fs::write(dir.join("chain.pp"), chain("undefinedNam")).unwrap();
    std::fs::write(dir.join("reader.pp"), "r = x\n").unwrap();
    let open = dir.join("open.pp");
    std::fs::write(&open, format!("x = l{CHAIN}\nalone = 2\n")).unwrap();
    let typed = format!("x = l{CHAIN}\nalone = 27\n");
    let host = keystroke_after_a_check(&dir, &open, &typed);
    std::fs::write(&open, &typed).unwrap();
    ask_everything(&host, &open, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_package_reported_beside_a_chain_in_an_open_file() {
    // A missing package is reported once, at its first use in the program: the edge of a
    // file that uses one reads the inference of every node, the open files' chains included.
    let dir = temp_dir("package");
    std::fs::write(
        dir.join("pkg.pp"),
        "resource r \"nopkg:index:Thing\" {\n}\n",
    )
    .unwrap();
    let open = dir.join("open.pp");
    let text = format!("{}alone = 2\n", chain("1"));
    std::fs::write(&open, &text).unwrap();
    let typed = text.replace("alone = 2", "alone = 27");
    let host = keystroke_after_a_check(&dir, &open, &typed);
    std::fs::write(&open, &typed).unwrap();
    // Asked first, as a server asks for the edited file's: the closed file.
    ask_everything(&host, &dir.join("pkg.pp"), &dir);

    // The file that uses the package open and edited, the chain open beside it.
    std::fs::write(
        dir.join("pkg.pp"),
        "resource r \"nopkg:index:Thing\" {\n}\n",
    )
    .unwrap();
    let pkg = dir.join("pkg.pp");
    let typed = "resource r \"nopkg:index:Thing\" {\n}\n# typed\n";
    let host = keystroke_with_files_open(&dir, &[&pkg, &open], &pkg, typed);
    std::fs::write(&pkg, typed).unwrap();
    ask_everything(&host, &pkg, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_configurations_where_closed_files_read_open_text_are_recognised() {
    let read_directly =
        |host: &AnalysisHost| pcl_sema::closed_files_read_open_text(host.raw_database());
    let open = |host: &mut AnalysisHost, file: &Path| {
        let mut change = Change::new();
        change.set_file_text(file.to_path_buf(), std::fs::read_to_string(file).unwrap());
        host.apply_change(change);
    };
    let dir = temp_dir("configurations");
    std::fs::write(dir.join("main.pp"), "component c \"./comp\" {\n}\nx = 1\n").unwrap();
    std::fs::create_dir(dir.join("comp")).unwrap();
    std::fs::write(
        dir.join("comp/main.pp"),
        "output result {\n  value = 1\n}\n",
    )
    .unwrap();
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(Vec::new());
    assert!(host.load_program(&dir).is_empty());
    assert!(!read_directly(&host), "nothing open");
    open(&mut host, &dir.join("main.pp"));
    assert!(!read_directly(&host), "the including program's file open");
    open(&mut host, &dir.join("comp/main.pp"));
    assert!(read_directly(&host), "a file of the included program open");

    // A hook declared in an open file.
    let hooks = temp_dir("hooks");
    std::fs::write(
        hooks.join("a.pp"),
        "hook resource notify {\n  command = [\"echo\"]\n}\n",
    )
    .unwrap();
    std::fs::write(hooks.join("b.pp"), "y = 2\n").unwrap();
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(Vec::new());
    assert!(host.load_program(&hooks).is_empty());
    open(&mut host, &hooks.join("b.pp"));
    assert!(!read_directly(&host), "no hook open");
    open(&mut host, &hooks.join("a.pp"));
    assert!(read_directly(&host), "a hook open");

    // A file of two programs: its directory's, and its own.
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(Vec::new());
    assert!(host.load_program(&hooks).is_empty());
    assert!(host.load_program(&hooks.join("b.pp")).is_empty());
    open(&mut host, &hooks.join("b.pp"));
    assert!(read_directly(&host), "an open file of two programs");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&hooks);
}

/// `{prefix}N = {prefix}N-1` down to `{prefix}0 = 1`, written from the top.
fn forward(prefix: &str, n: usize) -> String {
    let mut t = String::new();
    for i in (1..=n).rev() {
        t.push_str(&format!("{prefix}{i} = {prefix}{}\n", i - 1));
    }
    t.push_str(&format!("{prefix}0 = 1\n"));
    t
}

/// `{prefix}0 = {prefix}1` up to `{prefix}N = 1`: the same chain the other way.
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
    let mut host = open_and_check(&dir, &[&a, &b]);
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
    let mut host = open_and_check(&dir, &[&a]);
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
    let mut host = open_and_check(&dir, &[&a]);
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
    let mut host = open_and_check(&dir, &[&a]);
    type_into(&mut host, &a, &ta.replace("alone = 2", "alone = 27"));
    ask(&host, &a, &dir, false);
    type_into(&mut host, &a, &ta.replace("alone = 2", "alone = 28"));
    ask(&host, &a, &dir, true);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chain_above_a_name_an_open_file_publishes_again_and_again() {
    // The chain's head reads the open file's `head` through its name's slot. The first edit
    // that changes the slot walks every result (its readers were `HIGH`); the next ones walk
    // only the readers of the slots changed since, the chain among them, in dependency order:
    // the walk must find all of it, whatever the edit does to the name (its type, its
    // meaning, its existence).
    let dir = temp_dir("published");
    std::fs::write(dir.join("chain.pp"), chain("head")).unwrap();
    let open = dir.join("open.pp");
    std::fs::write(&open, "head = 1\n").unwrap();
    let mut host = open_and_check(&dir, &[&open]);
    for text in [
        "head = \"s\"\n",
        "head = 1\n",
        "headx = 1\n",
        "head = 1\n",
        "head = true\nother = 2\n",
        "head = 1\n",
    ] {
        // Every file's diagnostics first, as a server's check after an edit: the walk, and
        // nothing before it, verifies the chain.
        type_into(&mut host, &open, text);
        host.analysis().workspace_diagnostics().unwrap();
        ask_everything(&host, &dir.join("chain.pp"), &dir);
        // A closed file asked first, as a server asks file by file.
        type_into(&mut host, &open, "head = \"t\"\n");
        ask(&host, &dir.join("chain.pp"), &dir, false);
        host.analysis().workspace_diagnostics().unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chain_read_by_a_file_opened_after_another_closed() {
    // Found by the host's differential test (the same before this session's changes): the
    // open file `a.pp` changes a type the chain reads, a closed file's diagnostics are asked
    // before the check of every file (so that `head`'s node map and inference are computed
    // while `a.pp` is open, `LOW`), `a.pp` closes, `user.pp`, which uses the chain's top,
    // opens. Results made while a file was open kept their `LOW` durability once it closed
    // (their inputs only backdated), and so did the chain above them, verified recursively
    // after the next keystroke. Now a node's inference, its type and its file's node map read
    // whether the file is open, and the file's lowering first.
    let dir = temp_dir("reopened");
    std::fs::write(dir.join("chain.pp"), chain("head")).unwrap();
    let open = dir.join("a.pp");
    std::fs::write(&open, "head = 1\n").unwrap();
    let user = dir.join("user.pp");
    std::fs::write(&user, "top = l20000\nother = head\n").unwrap();
    let mut host = open_and_check(&dir, &[&open]);
    type_into(&mut host, &open, "head = \"one\"\n");
    host.analysis().diagnostics(&dir.join("chain.pp")).unwrap();
    host.analysis().workspace_diagnostics().unwrap();
    let mut change = Change::new();
    change.close_file(open.clone());
    host.apply_change(change);
    host.analysis().workspace_diagnostics().unwrap();
    let mut change = Change::new();
    change.set_file_text(user.clone(), std::fs::read_to_string(&user).unwrap());
    host.apply_change(change);
    host.analysis().workspace_diagnostics().unwrap();
    type_into(&mut host, &user, "top = l20000\notherx = head\n");
    host.analysis().workspace_diagnostics().unwrap();
    ask_everything(&host, &user, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chain_above_an_unknown_function_named_like_a_published_name() {
    // `l0 = foo(1)`: an unknown function's help looked `foo` up as a top-level name, so `l0`
    // read the slot of `foo`, though `foo` is not among the names `l0` uses (a call's name is
    // no variable): the walk after keystrokes left the chain out, and the check of every file
    // verified it recursively (found by review). The edge says whether it is a variable now.
    let dir = temp_dir("unknown-fn");
    std::fs::write(dir.join("chain.pp"), chain("foo(1)")).unwrap();
    std::fs::write(dir.join("uses.pp"), "z = foo\n").unwrap();
    let open = dir.join("open.pp");
    std::fs::write(&open, "foo = 1\n").unwrap();
    let mut host = open_and_check(&dir, &[&open]);
    for text in ["foo = \"s\"\n", "foo = true\n", "foo = 1\n"] {
        type_into(&mut host, &open, text);
        host.analysis().workspace_diagnostics().unwrap();
    }
    ask_everything(&host, &dir.join("chain.pp"), &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_chain_above_a_property_path_in_a_second_options_block() {
    // The summary left out the property paths of every `options` block, but only the first
    // is bound as options: the second's `ignoreChanges = [foo]` is inferred as an expression,
    // which looks `foo` up, so `r` read the slot of `foo` without using it (found by review).
    // Now only the options block binding reads skips them.
    let dir = temp_dir("second-options");
    let mut text = chain("r");
    text.push_str(
        "resource r \"unknown:index:Thing\" {\n  options {\n    range = 2\n  }\n  options {\n    ignoreChanges = [foo]\n  }\n}\n",
    );
    std::fs::write(dir.join("chain.pp"), text).unwrap();
    std::fs::write(dir.join("uses.pp"), "z = foo\n").unwrap();
    let open = dir.join("open.pp");
    std::fs::write(&open, "foo = 1\n").unwrap();
    let mut host = open_and_check(&dir, &[&open]);
    for text in ["foo = \"s\"\n", "foo = true\n", "foo = 1\n"] {
        type_into(&mut host, &open, text);
        host.analysis().workspace_diagnostics().unwrap();
    }
    ask_everything(&host, &dir.join("chain.pp"), &dir);
    let _ = std::fs::remove_dir_all(&dir);
}
