//! The host: changes, programs loaded from disk, buffers that win over disk, and the
//! cancellation of snapshots by a change.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use pcl_db::{QueryEventKind, QueryLog};
use pcl_ide::{AnalysisHost, Cancelled, Change};

mod common;
use common::{each_file, workspace};

fn temp_dir(name: &str) -> pcl_test_support::TempDir {
    pcl_test_support::TempDir::new(&format!("ide-{name}"))
}

fn codes(host: &AnalysisHost, file: &Path) -> Vec<String> {
    host.analysis()
        .diagnostics(file)
        .unwrap()
        .iter()
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect()
}

/// A component program: a config `size`, an output `result`.
const COMPONENT: &str = "config size int {\n}\noutput result {\n  value = size * 2\n}\n";

/// The hover text at `offset` of `file`.
fn hover_at(host: &AnalysisHost, file: &Path, offset: usize) -> String {
    host.analysis()
        .hover(&pcl_ide::FilePosition {
            file: file.to_path_buf(),
            offset: (offset as u32).into(),
        })
        .unwrap()
        .unwrap()
        .markdown
}

/// Every file of every loaded program, relative to `dir`.
fn loaded_files(host: &AnalysisHost, dir: &Path) -> Vec<String> {
    host.analysis()
        .files()
        .unwrap()
        .iter()
        .map(|f| f.strip_prefix(dir).unwrap().display().to_string())
        .collect()
}

/// A buffer's text, as an editor sends it.
fn set_text(host: &mut AnalysisHost, path: &Path, text: String) {
    let mut change = Change::new();
    change.set_file_text(path.to_path_buf(), text);
    host.apply_change(change);
}

#[test]
fn programs_load_from_disk_with_their_components() {
    let dir = temp_dir("load");
    std::fs::write(
        dir.join("main.pp"),
        "component c \"./comp\" {\n  size = 2\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("other.pp"), "x = c.result\n").unwrap();
    std::fs::create_dir(dir.join("comp")).unwrap();
    std::fs::write(dir.join("comp/main.pp"), COMPONENT).unwrap();
    let mut host = AnalysisHost::new();
    assert!(host.load_program(&dir).is_empty());
    let files = host.analysis().files().unwrap();
    assert_eq!(
        files,
        vec![
            dir.join("comp/main.pp"),
            dir.join("main.pp"),
            dir.join("other.pp")
        ]
    );
    assert!(codes(&host, &dir.join("main.pp")).is_empty());
    let hover = hover_at(&host, &dir.join("other.pp"), 0);
    assert!(hover.contains("x: output(int)"), "{hover}");

    // A buffer's text wins over the disk; closing it goes back to the disk.
    let mut change = Change::new();
    change.set_file_text(dir.join("other.pp"), "x = c.missing\n".to_string());
    host.apply_change(change);
    assert_eq!(codes(&host, &dir.join("other.pp")).len(), 1);
    let mut change = Change::new();
    change.close_file(dir.join("other.pp"));
    host.apply_change(change);
    assert!(codes(&host, &dir.join("other.pp")).is_empty());

    // A file created on disk joins its program; a deleted one leaves it.
    std::fs::write(dir.join("third.pp"), "y = undefined\n").unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(dir.join("third.pp"));
    host.apply_change(change);
    assert_eq!(codes(&host, &dir.join("third.pp")).len(), 1);
    std::fs::remove_file(dir.join("third.pp")).unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(dir.join("third.pp"));
    host.apply_change(change);
    assert!(!host
        .analysis()
        .files()
        .unwrap()
        .contains(&dir.join("third.pp")));

    // A component's file changed on disk re-checks its users.
    std::fs::write(
        dir.join("comp/main.pp"),
        "config size int {\n}\noutput total {\n  value = size * 2\n}\n",
    )
    .unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(dir.join("comp/main.pp"));
    host.apply_change(change);
    assert_eq!(codes(&host, &dir.join("other.pp")).len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A component's directory deleted: its users see that no program is there, as `pcl check`
/// does (the host kept the program it had loaded, with hover and definitions into files that
/// were gone).
#[test]
fn a_component_directory_deleted_leaves_no_program() {
    let dir = temp_dir("component-deleted");
    let main = dir.join("main.pp");
    std::fs::write(
        &main,
        "component c \"./comp\" {\n  size = 2\n}\nx = c.result\n",
    )
    .unwrap();
    std::fs::create_dir(dir.join("comp")).unwrap();
    std::fs::write(dir.join("comp/main.pp"), COMPONENT).unwrap();
    let mut host = AnalysisHost::new();
    assert!(host.load_program(&dir).is_empty());
    // As a language server walking its folder loads it: a program of its own too.
    assert!(host.load_program(&dir.join("comp")).is_empty());
    set_text(&mut host, &main, std::fs::read_to_string(&main).unwrap());
    assert!(codes(&host, &main).is_empty());
    std::fs::remove_dir_all(dir.join("comp")).unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(dir.join("comp/main.pp"));
    host.apply_change(change);
    let found = codes(&host, &main);
    assert!(found.iter().any(|c| c.starts_with("E0510")), "{found:?}");
    assert!(!loaded_files(&host, &dir).contains(&"comp/main.pp".to_string()));
    // The directory back: the program is found again.
    std::fs::create_dir(dir.join("comp")).unwrap();
    std::fs::write(dir.join("comp/main.pp"), COMPONENT).unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(dir.join("comp/main.pp"));
    host.apply_change(change);
    assert!(codes(&host, &main).is_empty(), "{:?}", codes(&host, &main));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Unloading a program: its files leave the analysis with the components only it named; a
/// program with an open buffer stays, and one a kept program's block names stays as that
/// block's component.
#[test]
fn programs_unload() {
    let dir = temp_dir("unload");
    let (a, b) = (dir.join("a"), dir.join("b"));
    for d in [&a, &b, &a.join("comp"), &b.join("comp")] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(
        a.join("main.pp"),
        "component c \"./comp\" {\n  size = 1\n}\n",
    )
    .unwrap();
    std::fs::write(a.join("comp/main.pp"), COMPONENT).unwrap();
    std::fs::write(
        b.join("main.pp"),
        "component c \"./comp\" {\n  size = 1\n}\nbad = nope\n",
    )
    .unwrap();
    std::fs::write(b.join("comp/main.pp"), COMPONENT).unwrap();
    let mut host = AnalysisHost::new();
    for d in [&a, &a.join("comp"), &b] {
        assert!(host.load_program(d).is_empty());
    }
    assert_eq!(
        loaded_files(&host, &dir),
        ["a/comp/main.pp", "a/main.pp", "b/comp/main.pp", "b/main.pp"]
    );
    // `b` goes, with the component only it named.
    host.unload_program(&b);
    assert_eq!(loaded_files(&host, &dir), ["a/comp/main.pp", "a/main.pp"]);
    // `a/comp` was loaded for itself too; `a`'s block still names it.
    host.unload_program(&a.join("comp"));
    assert_eq!(loaded_files(&host, &dir), ["a/comp/main.pp", "a/main.pp"]);
    assert!(codes(&host, &a.join("main.pp")).is_empty());
    // A program with an open buffer stays.
    set_text(&mut host, &a.join("main.pp"), "x = 1\n".to_string());
    host.unload_program(&a);
    assert_eq!(loaded_files(&host, &dir), ["a/main.pp"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Open buffers keep being checked where there is no directory on disk: one typed in a
/// directory that does not exist yet (which the editor then asks to load), and one whose
/// directory was deleted (found by a review: both left the analysis until the next keystroke).
#[test]
fn buffers_outlive_their_directories() {
    let dir = temp_dir("no-directory");
    let missing = dir.join("missing");
    let lone = missing.join("x.pp");
    let mut host = AnalysisHost::new();
    set_text(&mut host, &lone, "a = zz\n".to_string());
    let _ = host.load_program(&missing);
    assert_eq!(codes(&host, &lone).len(), 1, "{:?}", codes(&host, &lone));

    let gone = dir.join("gone");
    std::fs::create_dir_all(&gone).unwrap();
    let main = gone.join("main.pp");
    std::fs::write(&main, "x = nope\n").unwrap();
    assert!(host.load_program(&gone).is_empty());
    set_text(&mut host, &main, "x = nope\n".to_string());
    std::fs::remove_dir_all(&gone).unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(main.clone());
    host.apply_change(change);
    assert_eq!(codes(&host, &main).len(), 1, "{:?}", codes(&host, &main));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory whose `Pulumi.yaml` names its program elsewhere (`main:`) unloads that program.
#[test]
fn unloading_a_directory_unloads_the_program_its_project_names() {
    let dir = temp_dir("unload-main");
    std::fs::create_dir_all(dir.join("infra")).unwrap();
    std::fs::write(
        dir.join("Pulumi.yaml"),
        "name: p\nruntime: pcl\nmain: infra/\n",
    )
    .unwrap();
    std::fs::write(dir.join("infra/main.pp"), "y = bad1\n").unwrap();
    let mut host = AnalysisHost::new();
    let _ = host.load_program(&dir);
    assert_eq!(loaded_files(&host, &dir), ["infra/main.pp"]);
    host.unload_program(&dir);
    assert!(loaded_files(&host, &dir).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A component block typed in an editor finds its program on disk, as `pcl check` finds it:
/// loading a program loads the components its blocks name, but a block typed later named a
/// directory nobody had loaded (a false "no component program" until the file was saved).
#[test]
fn a_component_block_typed_in_a_buffer_loads_its_program() {
    let dir = temp_dir("typed-component");
    std::fs::write(dir.join("main.pp"), "x = 1\n").unwrap();
    std::fs::create_dir(dir.join("comp")).unwrap();
    std::fs::write(dir.join("comp/main.pp"), COMPONENT).unwrap();
    let mut host = AnalysisHost::new();
    assert!(host.load_program(&dir).is_empty());
    assert_eq!(host.analysis().files().unwrap(), vec![dir.join("main.pp")]);

    let main = dir.join("main.pp");
    let typed = "x = 1\ncomponent c \"./comp\" {\n  size = 2\n}\ny = c.result\n";
    set_text(&mut host, &main, typed.to_string());
    assert_eq!(codes(&host, &main), Vec::<String>::new());
    assert_eq!(
        host.analysis().files().unwrap(),
        vec![dir.join("comp/main.pp"), main.clone()]
    );
    let hover = hover_at(&host, &main, typed.find("y =").unwrap());
    assert!(hover.contains("y: output(int)"), "{hover}");

    // A directory that does not exist yet: the block is an error until a program appears
    // there (the file watcher reports its first file).
    set_text(&mut host, &main, typed.replace("./comp", "./later"));
    assert_eq!(
        codes(&host, &main),
        vec![format!(
            "E0510 no component program at `./later` (`{}`): the directory must exist and hold \
             `.pp` files",
            dir.join("later").display()
        )]
    );
    std::fs::create_dir(dir.join("later")).unwrap();
    std::fs::write(
        dir.join("later/main.pp"),
        "output result {\n  value = \"done\"\n}\n",
    )
    .unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(dir.join("later/main.pp"));
    host.apply_change(change);
    let codes_now = codes(&host, &main);
    assert_eq!(codes_now.len(), 1, "{codes_now:?}");
    assert!(codes_now[0].contains("size"), "{codes_now:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The programs loaded for component blocks are those the blocks name as the text is, loaded
/// as `pcl check` loads components: typing a path does not leave the directories it passed
/// through loaded, a component directory's `Pulumi.yaml` is not followed, a symbolic link to a
/// program loaded already is another name for it, and a program whose block went stays only
/// while a buffer of it is open.
#[test]
fn programs_loaded_for_component_blocks_follow_the_blocks() {
    let dir = temp_dir("component-sync");
    for sub in ["app", "comps/a/src"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::write(dir.join("main.pp"), "broken = = 1\n").unwrap();
    std::fs::write(dir.join("app/main.pp"), "x = 1\n").unwrap();
    std::fs::write(dir.join("comps/main.pp"), "other = 1\n").unwrap();
    std::fs::write(dir.join("comps/a/main.pp"), COMPONENT).unwrap();
    // `pcl check` does not read a component's Pulumi.yaml.
    std::fs::write(dir.join("comps/a/Pulumi.yaml"), "name: a\nmain: src/\n").unwrap();
    std::fs::write(dir.join("comps/a/src/main.pp"), "unrelated = 1\n").unwrap();
    std::os::unix::fs::symlink(dir.join("comps/a"), dir.join("link")).unwrap();
    let mut host = AnalysisHost::new();
    assert!(host.load_program(&dir.join("app")).is_empty());
    let main = dir.join("app/main.pp");

    // Typed a character at a time: `..` and `../comps` were named on the way.
    let block = "component c \"../comps/a\" {\n  size = 2\n}\n";
    let open = block.find('"').unwrap() + 1;
    let close = open + "../comps/a".len();
    for end in open..=close {
        let text = format!("x = 1\n{}{}", &block[..end], &block[close..]);
        let mut change = Change::new();
        change.set_file_text(main.clone(), text);
        host.apply_change(change);
    }
    assert_eq!(
        loaded_files(&host, &dir),
        ["app/main.pp", "comps/a/main.pp"]
    );
    assert_eq!(codes(&host, &main), Vec::<String>::new());

    // Two blocks, one through a link: one program.
    let both = format!(
        "x = 1\n{block}{}",
        block.replace("c \"../comps/a\"", "d \"../link\"")
    );
    set_text(&mut host, &main, both);
    assert_eq!(
        loaded_files(&host, &dir),
        ["app/main.pp", "comps/a/main.pp"]
    );
    assert_eq!(codes(&host, &main), Vec::<String>::new());

    // The blocks go: so does the program.
    set_text(&mut host, &main, "x = 1\n".to_string());
    assert_eq!(loaded_files(&host, &dir), ["app/main.pp"]);

    // Unless a buffer of it is open.
    set_text(&mut host, &main, format!("x = 1\n{block}"));
    let component = dir.join("comps/a/main.pp");
    let text = std::fs::read_to_string(&component).unwrap();
    set_text(&mut host, &component, text);
    set_text(&mut host, &main, "x = 1\n".to_string());
    assert_eq!(
        loaded_files(&host, &dir),
        ["app/main.pp", "comps/a/main.pp"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a review found in the first version: programs reached through links are reloaded,
/// a third name of one is no error, a cycle of components keeps nothing loaded by itself, and
/// a buffer or a `Pulumi.yaml` in a component's directory does not make it a program of its
/// `main:` directory.
#[test]
fn component_programs_through_links_cycles_and_project_files() {
    let dir = temp_dir("component-review");
    for sub in ["app", "comps/a/src", "a", "b"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let output =
        |name: &str| format!("config size int {{\n}}\noutput {name} {{\n  value = size * 2\n}}\n");
    std::fs::write(dir.join("app/main.pp"), "x = 1\n").unwrap();
    std::fs::write(dir.join("comps/a/main.pp"), output("result")).unwrap();
    std::fs::write(dir.join("comps/a/Pulumi.yaml"), "name: a\nmain: src/\n").unwrap();
    std::fs::write(dir.join("comps/a/src/main.pp"), "unrelated = nope\n").unwrap();
    for link in ["link", "alink", "blink"] {
        std::os::unix::fs::symlink(dir.join("comps/a"), dir.join(link)).unwrap();
    }
    std::fs::write(dir.join("a/main.pp"), "component b \"../b\" {\n}\n").unwrap();
    std::fs::write(dir.join("b/main.pp"), "component a \"../a\" {\n}\n").unwrap();
    let mut host = AnalysisHost::new();
    assert!(host.load_program(&dir.join("app")).is_empty());
    let main = dir.join("app/main.pp");
    let block =
        |name: &str, path: &str| format!("component {name} \"{path}\" {{\n  size = 2\n}}\n");

    // One program under three names; reloaded when its file changes on disk.
    let mut text = format!("{}y = c.result\n", block("c", "../comps/a"));
    set_text(&mut host, &main, text.clone());
    for (name, link) in [("d", "../alink"), ("e", "../blink")] {
        text.push_str(&block(name, link));
        set_text(&mut host, &main, text.clone());
    }
    assert_eq!(codes(&host, &main), Vec::<String>::new());
    assert_eq!(
        loaded_files(&host, &dir),
        ["app/main.pp", "comps/a/main.pp"]
    );
    std::fs::write(dir.join("comps/a/main.pp"), output("total")).unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(dir.join("comps/a/main.pp"));
    host.apply_change(change);
    let now = codes(&host, &main);
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(now[0].contains("result"), "{now:?}");

    // A project file in the component's directory does not count, as for `pcl check`.
    std::fs::write(dir.join("comps/a/Pulumi.yaml"), "name: a\nmain: src/\n\n").unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(dir.join("comps/a/Pulumi.yaml"));
    host.apply_change(change);
    assert_eq!(
        loaded_files(&host, &dir),
        ["app/main.pp", "comps/a/main.pp"]
    );
    // Nor does a new buffer there: it joins the component.
    let extra = dir.join("comps/a/extra.pp");
    set_text(
        &mut host,
        &extra,
        "output result {\n  value = 1\n}\n".to_string(),
    );
    assert_eq!(codes(&host, &main), Vec::<String>::new());
    assert_eq!(
        loaded_files(&host, &dir),
        ["app/main.pp", "comps/a/extra.pp", "comps/a/main.pp"]
    );
    let mut change = Change::new();
    change.close_file(extra.clone());
    host.apply_change(change);

    // A cycle of components stays loaded only while a block outside it names it.
    set_text(&mut host, &main, block("c", "../a"));
    assert_eq!(
        loaded_files(&host, &dir),
        ["a/main.pp", "app/main.pp", "b/main.pp"]
    );
    set_text(&mut host, &main, "x = 1\n".to_string());
    assert_eq!(loaded_files(&host, &dir), ["app/main.pp"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Buffers and programs given in memory in component directories (found by review): a file
/// opened through a link to a component is checked with it, a program given in memory stays
/// whatever blocks name, and a buffer in a directory only a block names goes with the block.
#[test]
fn buffers_and_memory_programs_in_component_directories() {
    let dir = temp_dir("component-buffers");
    for sub in ["app", "comps/a", "b", "c"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::write(dir.join("app/main.pp"), "x = 1\n").unwrap();
    std::fs::write(dir.join("comps/a/main.pp"), "config size int {\n}\n").unwrap();
    std::fs::write(
        dir.join("comps/a/out.pp"),
        "output result {\n  value = size * 2\n}\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(dir.join("comps/a"), dir.join("link")).unwrap();
    std::fs::write(dir.join("b/b.pp"), "y = 1\n").unwrap();
    let mut host = AnalysisHost::new();
    assert!(host.load_program(&dir.join("app")).is_empty());
    let main = dir.join("app/main.pp");
    let block =
        |name: &str, path: &str| format!("component {name} \"{path}\" {{\n  size = 2\n}}\n");

    // A file opened through the link (the blocks typed one after the other).
    set_text(&mut host, &main, block("c", "../comps/a"));
    let text = format!(
        "{}{}z = d.result\n",
        block("c", "../comps/a"),
        block("d", "../link")
    );
    set_text(&mut host, &main, text);
    assert_eq!(codes(&host, &main), Vec::<String>::new());
    let through_link = dir.join("link/main.pp");
    set_text(
        &mut host,
        &through_link,
        "config size int {\n}\n".to_string(),
    );
    assert_eq!(codes(&host, &main), Vec::<String>::new());
    let mut change = Change::new();
    change.close_file(through_link);
    host.apply_change(change);

    // A program given in memory in a directory a block named.
    set_text(&mut host, &main, block("b", "../b"));
    let mut change = Change::new();
    change.set_file_text(dir.join("b/b.pp"), "y = 2\n".to_string());
    change.set_program(dir.join("b"), vec![dir.join("b/b.pp")]);
    host.apply_change(change);
    let mut change = Change::new();
    change.close_file(dir.join("b/b.pp"));
    host.apply_change(change);
    set_text(&mut host, &main, "x = 1\n".to_string());
    assert!(
        loaded_files(&host, &dir).contains(&"b/b.pp".to_string()),
        "{:?}",
        loaded_files(&host, &dir)
    );

    // A new file in a directory only a block names, saved, closed, then the block removed.
    set_text(&mut host, &main, block("c", "../c"));
    let new_file = dir.join("c/main.pp");
    set_text(&mut host, &new_file, "bad = nope\n".to_string());
    std::fs::write(&new_file, "bad = nope\n").unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(new_file.clone());
    host.apply_change(change);
    let mut change = Change::new();
    change.close_file(new_file);
    host.apply_change(change);
    set_text(&mut host, &main, "x = 1\n".to_string());
    assert!(
        !loaded_files(&host, &dir).contains(&"c/main.pp".to_string()),
        "{:?}",
        loaded_files(&host, &dir)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_buffer_outside_any_loaded_program_is_checked() {
    let dir = temp_dir("adopt");
    let mut host = AnalysisHost::new();
    let mut change = Change::new();
    change.set_file_text(dir.join("new.pp"), "x = nope\n".to_string());
    host.apply_change(change);
    assert_eq!(codes(&host, &dir.join("new.pp")).len(), 1);
    // A buffer in a directory that does not exist on disk (an embedder's, an unsaved file).
    let mut change = Change::new();
    change.set_file_text(
        PathBuf::from("/no/such/dir/a.pp"),
        "a = 1\nb = a\n".to_string(),
    );
    change.set_file_text(
        PathBuf::from("/no/such/dir/b.pp"),
        "c = b + a\n".to_string(),
    );
    host.apply_change(change);
    assert!(codes(&host, Path::new("/no/such/dir/b.pp")).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program big enough that checking it takes a while in a debug build.
fn large_program(nodes: usize) -> String {
    let mut text = String::from("x0 = 0\n");
    for i in 1..nodes {
        text.push_str(&format!("x{i} = [for v in range(3) : x{} + v][0]\n", i - 1));
    }
    text
}

/// A request in flight when the host applies a change returns `Err(Cancelled)` (and the
/// change goes through once the snapshot is dropped), on the sequential path and on the
/// parallel one.
#[test]
fn a_change_cancels_requests_in_flight() {
    for parallel in [false, true] {
        let mut host = AnalysisHost::new();
        let path = PathBuf::from("/big/main.pp");
        let mut change = Change::new();
        change.set_file_text(path.clone(), large_program(20_000));
        change.set_program(PathBuf::from("/big"), vec![path.clone()]);
        host.apply_change(change);
        let analysis = host.analysis();
        let (started, wait) = mpsc::channel();
        let worker_path = path.clone();
        let worker = std::thread::spawn(move || {
            started.send(()).unwrap();
            let result: Result<usize, Cancelled> = if parallel {
                analysis
                    .workspace_diagnostics()
                    .map(|all| all.iter().map(|(_, d)| d.len()).sum())
            } else {
                analysis.diagnostics(&worker_path).map(|d| d.len())
            };
            drop(analysis);
            result
        });
        wait.recv().unwrap();
        std::thread::sleep(Duration::from_millis(50));
        let mut change = Change::new();
        change.set_file_text(path.clone(), "x0 = 1\n".to_string());
        // Blocks until the worker has dropped its snapshot.
        host.apply_change(change);
        let result = worker.join().expect("the worker must not panic");
        assert!(
            result.is_err(),
            "parallel={parallel}: expected Cancelled, got {result:?}"
        );
        // The host goes on answering.
        assert!(codes(&host, &path).is_empty());
    }
}

/// An open file is parsed once per edit: lowering and the editor's requests share the tree of
/// the `parse` query. A file nobody has open is parsed by lowering alone (its tree is not kept).
#[test]
fn an_open_file_is_parsed_once_per_edit() {
    let mut host = AnalysisHost::with_query_hooks();
    let open = PathBuf::from("/p/open.pp");
    let closed = PathBuf::from("/p/closed.pp");
    let mut change = Change::new();
    change.set_program(PathBuf::from("/p"), vec![open.clone(), closed.clone()]);
    change.set_file_text(open.clone(), "a = 1\n".to_string());
    change.set_file_text(closed.clone(), "b = a\n".to_string());
    host.apply_change(change);
    let mut change = Change::new();
    change.close_file(closed.clone());
    host.apply_change(change);
    let analysis = host.analysis();
    analysis.diagnostics(&open).unwrap();
    analysis.diagnostics(&closed).unwrap();
    drop(analysis);

    let log = QueryLog::install(host.raw_database()).unwrap();
    let mut change = Change::new();
    change.set_file_text(open.clone(), "a = 2 # edited\n".to_string());
    host.apply_change(change);
    let parses = || {
        log.take()
            .iter()
            .filter(|e| e.kind == QueryEventKind::Executed && e.query_name() == "parse")
            .count()
    };
    let analysis = host.analysis();
    // Lowering parses the edited file through the query...
    analysis.diagnostics(&open).unwrap();
    assert_eq!(parses(), 1);
    // ... and the editor's requests reuse that tree.
    analysis.semantic_tokens(&open).unwrap();
    analysis.folding_ranges(&open).unwrap();
    assert_eq!(parses(), 0);
    // The files nobody has open never go through it (the snapshots of
    // crates/pcl-sema/tests/incremental.rs list no `parse`).
}

/// A resource's type token and its properties go to their definitions in the schema file
/// on disk.
#[test]
fn definitions_go_into_schema_files_on_disk() {
    let dir = temp_dir("schema-def");
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/schemas");
    let text = "resource b \"aws:s3/bucket:Bucket\" {\n  acl = \"private\"\n}\n";
    std::fs::write(dir.join("main.pp"), text).unwrap();
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(vec![schemas.clone()]);
    assert!(host.load_program(&dir).is_empty());
    let schema_text = std::fs::read_to_string(schemas.join("aws-6.0.0.json")).unwrap();
    let goto = |needle: &str| {
        let offset = text.find(needle).unwrap() + 1;
        let targets = host
            .analysis()
            .goto_definition(&pcl_ide::FilePosition {
                file: dir.join("main.pp"),
                offset: (offset as u32).into(),
            })
            .unwrap();
        assert_eq!(targets.len(), 1, "{targets:?}");
        let target = &targets[0];
        assert!(target.file.ends_with("aws-6.0.0.json"), "{target:?}");
        let range = target.focus_range;
        schema_text[usize::from(range.start())..usize::from(range.end())].to_string()
    };
    assert_eq!(goto("aws:s3"), "\"aws:s3/bucket:Bucket\"");
    assert_eq!(goto("acl"), "\"acl\"");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Type definitions lead to the schema types of what is at the cursor: the resource a
/// variable names, the object type of a property (through a list), an enum.
#[test]
fn type_definitions_go_into_schema_files_on_disk() {
    let dir = temp_dir("schema-type-def");
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/schemas");
    let text = "resource b \"aws:s3/bucket:Bucket\" {\n  acl = \"private\"\n  corsRules = []\n}\nsite = b.website\ncopy = b\nn = 1\n";
    std::fs::write(dir.join("main.pp"), text).unwrap();
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(vec![schemas.clone()]);
    assert!(host.load_program(&dir).is_empty());
    let schema_text = std::fs::read_to_string(schemas.join("aws-6.0.0.json")).unwrap();
    let goto = |needle: &str, delta: usize| -> Vec<String> {
        let offset = text.find(needle).unwrap() + delta;
        host.analysis()
            .goto_type_definition(&pcl_ide::FilePosition {
                file: dir.join("main.pp"),
                offset: (offset as u32).into(),
            })
            .unwrap()
            .iter()
            .map(|target| {
                assert!(target.file.ends_with("aws-6.0.0.json"), "{target:?}");
                let range = target.focus_range;
                schema_text[usize::from(range.start())..usize::from(range.end())].to_string()
            })
            .collect()
    };
    // The resource's name, and a variable naming it.
    assert_eq!(goto("resource b", 9), ["\"aws:s3/bucket:Bucket\""]);
    assert_eq!(goto("= b\n", 2), ["\"aws:s3/bucket:Bucket\""]);
    // An input of an enum type; a list of objects; an output of an object type.
    assert_eq!(goto("acl", 1), ["\"aws:s3/cannedAcl:CannedAcl\""]);
    assert_eq!(
        goto("corsRules", 1),
        ["\"aws:s3/BucketCorsRule:BucketCorsRule\""]
    );
    assert_eq!(
        goto("website", 1),
        ["\"aws:s3/BucketWebsite:BucketWebsite\""]
    );
    // A number names no schema type.
    assert!(goto("n = 1", 0).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The re-check of every file after edits of an open file that other files read (wide
/// changes, which reuse the order of the last inference of the files nobody has open) and
/// after a change on disk (which plans it again) reports exactly what a fresh host does, and
/// so does asking for each file's diagnostics in turn after it.
#[test]
fn every_file_after_wide_edits_is_what_a_fresh_host_reports() {
    let dir = temp_dir("wide");
    let open = dir.join("a.pp");
    let original = "shared = \"s\"\nnum = 1\nfirst = later\nalone = 2\n";
    std::fs::write(&open, original).unwrap();
    std::fs::write(
        dir.join("b.pp"),
        "later = 3\nuses = \"${shared}-x\"\nchain = uses\nlength = num + 1\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("c.pp"),
        "deeper = chain\ncycle = around\nmissing = \"${renamed}\"\n",
    )
    .unwrap();
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(Vec::new());
    assert!(host.load_program(&dir).is_empty());
    let mut change = Change::new();
    change.set_file_text(open.clone(), original.to_string());
    host.apply_change(change);
    workspace(&host);

    let edits = [
        // A used node renamed, its uses breaking; then back.
        original.replace("shared = ", "sharedx = "),
        original.to_string(),
        // A used node deleted; a node other files need defined; a cycle through the open file.
        original.replace("shared = \"s\"\n", ""),
        format!("{original}renamed = 4\n"),
        format!("{original}around = cycle\n"),
        // The type of a used node changes; a name a closed file defines declared again.
        original.replace("num = 1", "num = \"one\""),
        format!("{original}later = 5\n"),
        format!("later = 0\n{original}"),
        original.to_string(),
    ];
    let mut with_problems = 0;
    let mut check = |host: &AnalysisHost, text: &str, step: &str| {
        std::fs::write(&open, text).unwrap();
        let mut fresh = AnalysisHost::new();
        fresh.set_schema_dirs(Vec::new());
        assert!(fresh.load_program(&dir).is_empty());
        let incremental = workspace(host);
        assert_eq!(incremental, workspace(&fresh), "after {step}");
        assert_eq!(each_file(host), incremental, "each file after {step}");
        with_problems += usize::from(incremental.contains("code:"));
    };
    for (i, text) in edits.iter().enumerate() {
        let mut change = Change::new();
        change.set_file_text(open.clone(), text.clone());
        host.apply_change(change);
        check(&host, text, &format!("edit {i}"));
        // Then a keystroke no other file reads (no new order): each file answers as it is.
        let typed = text.replace("alone = 2", "alone = 27");
        let mut change = Change::new();
        change.set_file_text(open.clone(), typed.clone());
        host.apply_change(change);
        check(&host, &typed, &format!("a keystroke after edit {i}"));
    }
    // A file nobody has open changes on disk (its nodes change: the order is planned again),
    // then the open file is edited again.
    std::fs::write(dir.join("b.pp"), "later = 3\nchain = num\nextra = first\n").unwrap();
    let mut change = Change::new();
    change.file_changed_on_disk(dir.join("b.pp"));
    host.apply_change(change);
    check(&host, original, "a change on disk");
    for (i, text) in edits.iter().enumerate() {
        let mut change = Change::new();
        change.set_file_text(open.clone(), text.clone());
        host.apply_change(change);
        check(&host, text, &format!("edit {i} after the change on disk"));
    }
    // The edits break the program in most steps (undefined names, cycles, duplicates).
    assert!(with_problems >= 12, "{with_problems} steps with problems");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chain of locals in a file nobody has open, rewritten on disk to run the other way with
/// the same names (the same nodes, other references): the re-check after it plans its order
/// again, rather than checking each local before the ones it now uses, which would verify the
/// whole chain recursively and overflow the stack.
#[test]
fn a_chain_reversed_on_disk_is_rechecked_in_its_new_order() {
    let dir = temp_dir("reversed");
    let n = 5_000;
    let forward: String = std::iter::once("x0 = 0\n".to_string())
        .chain((1..n).map(|i| format!("x{i} = x{} + 1\n", i - 1)))
        .collect();
    let backward: String = (0..n - 1)
        .map(|i| format!("x{i} = x{} + 1\n", i + 1))
        .chain(std::iter::once(format!("x{} = 0\n", n - 1)))
        .collect();
    std::fs::write(dir.join("chain.pp"), &forward).unwrap();
    let open = dir.join("open.pp");
    std::fs::write(&open, "y = x0\n").unwrap();
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(Vec::new());
    assert!(host.load_program(&dir).is_empty());
    let mut change = Change::new();
    change.set_file_text(open.clone(), "y = x0\n".to_string());
    host.apply_change(change);
    let clean = |host: &AnalysisHost| {
        let all = host.analysis().workspace_diagnostics().unwrap();
        assert!(all.iter().all(|(_, d)| d.is_empty()), "{all:?}");
    };
    clean(&host);
    for text in [&backward, &forward, &backward] {
        std::fs::write(dir.join("chain.pp"), text).unwrap();
        let mut change = Change::new();
        change.file_changed_on_disk(dir.join("chain.pp"));
        host.apply_change(change);
        clean(&host);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
