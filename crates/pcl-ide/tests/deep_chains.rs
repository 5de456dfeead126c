//! Long chains of references in files nobody has open, after a keystroke in an open file:
//! whatever a host answers must not recurse through the chain (a stack overflow kills an
//! editor's server), and must be what a fresh host answers. A result of a closed file that
//! reads an open file's text has that text's durability, and so has every result that uses
//! it, so after a keystroke salsa walks the whole chain again: the host must not take the
//! closed files as settled then. The chains are long enough to overflow a test thread's stack
//! if it did.

use std::path::{Path, PathBuf};

use pcl_ide::{AnalysisHost, Change, FilePosition, TextSize};

const CHAIN: usize = 20_000;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pcl-ide-deep-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(Vec::new());
    assert!(host.load_program(dir).is_empty());
    let mut change = Change::new();
    for file in open {
        change.set_file_text(file.to_path_buf(), std::fs::read_to_string(file).unwrap());
    }
    host.apply_change(change);
    host.analysis().workspace_diagnostics().unwrap();
    let mut change = Change::new();
    change.set_file_text(edited.to_path_buf(), typed.to_string());
    host.apply_change(change);
    host
}

/// Every request that infers what it shows, on `file`, then every file's diagnostics, equal
/// to a fresh host's (whose files are on disk as `on_disk` leaves them).
fn ask_everything(host: &AnalysisHost, file: &Path, dir: &Path) {
    let analysis = host.analysis();
    let at = FilePosition {
        file: file.to_path_buf(),
        offset: TextSize::from(0),
    };
    analysis.hover(&at).unwrap();
    analysis.completions(&at).unwrap();
    analysis.inlay_hints(file, None).unwrap();
    let each = analysis.diagnostics(file).unwrap();
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
