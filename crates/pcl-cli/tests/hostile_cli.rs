//! Hostile inputs through `pcl check` (and `pcl fmt`, `pcl parse` where they read files): each
//! ends with a clear diagnostic or message and a normal exit, never a crash. The same inputs go
//! through the library in `crates/pcl-invariants/tests/hostile.rs`; their timings are in
//! `docs/benchmarks.md` (`cargo run --release -p pcl-invariants --example hostile`).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{pcl, temp_dir};
use pcl_invariants::hostile::{self, Nesting};

use pcl_invariants::targets::DEMO_SCHEMA as DEMO;

/// `pcl check --format json` output: the messages of each file, by file name.
fn messages_by_file(stdout: &str) -> BTreeMap<String, Vec<String>> {
    let mut by_file: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in stdout.lines() {
        let value: serde_json::Value =
            serde_json::from_str(line).expect("one JSON object per line");
        if value["object"] != "diagnostic" {
            continue;
        }
        let file = value["file"].as_str().expect("file").to_string();
        let name = Path::new(&file)
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        by_file.entry(name).or_default().push(format!(
            "{} {}",
            value["code"].as_str().unwrap_or("?"),
            value["message"].as_str().unwrap_or("?")
        ));
    }
    by_file
}

/// The inputs at a tenth of their size: every path of the full size, in seconds.
#[test]
fn hostile_programs_are_checked_with_clear_diagnostics() {
    hostile_programs(10_000);
}

/// The inputs of 100,000 parts and a 10 MB line (half a minute in a debug build).
#[test]
#[ignore = "long: run by `cargo test --workspace --locked -- --ignored`"]
fn hostile_programs_of_100_000_parts_are_checked_with_clear_diagnostics() {
    hostile_programs(100_000);
}

fn hostile_programs(n: usize) {
    let mut files: Vec<(String, Vec<u8>)> = Nesting::ALL
        .iter()
        .map(|&kind| {
            (
                format!("nested-{}.pp", kind.name()),
                hostile::nested(kind, n).into_bytes(),
            )
        })
        .collect();
    files.extend([
        (
            "long-line.pp".to_string(),
            hostile::long_line(n * 100).into_bytes(),
        ),
        (
            "huge-integer.pp".to_string(),
            hostile::huge_integer(n).into_bytes(),
        ),
        (
            "many-attributes.pp".to_string(),
            hostile::many_attributes(n).into_bytes(),
        ),
        ("chain.pp".to_string(), hostile::local_chain(n).into_bytes()),
        ("cycle.pp".to_string(), hostile::local_cycle(n).into_bytes()),
        ("fan-in.pp".to_string(), hostile::fan_in(n).into_bytes()),
        ("ranges.pp".to_string(), hostile::huge_ranges().into_bytes()),
        (
            "list-unions.pp".to_string(),
            hostile::nested_list_unions(n / 100).into_bytes(),
        ),
        (
            "encoding.pp".to_string(),
            b"a = \"x\xff\"\nb = 1\0\n".to_vec(),
        ),
    ]);
    let dir = temp_dir("hostile", &[("schemas/demo-1.0.0.json", DEMO)]);
    for (name, bytes) in &files {
        std::fs::write(dir.join(name), bytes).expect("write");
    }
    let mut args = vec!["--format", "json", "--schemas", "schemas"];
    args.extend(files.iter().map(|(name, _)| name.as_str()));
    let (code, stdout, stderr) = pcl(&dir, "check", &args);
    assert_eq!(code, 1, "errors reported, no crash: {stderr}");
    let found = messages_by_file(&stdout);
    for kind in Nesting::ALL {
        let messages = &found[&format!("nested-{}.pp", kind.name())];
        assert!(
            messages.iter().any(|m| m.contains("nesting too deep")),
            "{}: {messages:#?}",
            kind.name()
        );
        assert!(messages.len() <= 3, "{}: {messages:#?}", kind.name());
    }
    assert!(
        !found.contains_key("long-line.pp"),
        "{:?}",
        found.get("long-line.pp")
    );
    assert!(!found.contains_key("huge-integer.pp"));
    assert_eq!(found["many-attributes.pp"].len(), n);
    assert!(!found.contains_key("chain.pp"));
    assert_eq!(found["cycle.pp"].len(), 1);
    assert!(
        found["cycle.pp"][0].contains("circular reference: `c0` -> `c1`"),
        "{:?}",
        found["cycle.pp"]
    );
    assert!(!found.contains_key("fan-in.pp"));
    assert!(
        !found.contains_key("ranges.pp"),
        "{:?}",
        found.get("ranges.pp")
    );
    assert!(
        !found.contains_key("list-unions.pp"),
        "{:?}",
        found.get("list-unions.pp")
    );
    let encoding = &found["encoding.pp"];
    assert!(encoding[0].contains("not valid UTF-8"), "{encoding:#?}");
    assert!(
        encoding
            .iter()
            .any(|m| m.contains("NUL") || m.contains("invalid character")),
        "{encoding:#?}"
    );
    // Large files: not left behind in the temporary directory.
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sparse file: `len` bytes on paper, nothing on disk.
fn sparse(path: &Path, len: u64) {
    let file = std::fs::File::create(path).expect("create");
    file.set_len(len).expect("set_len");
}

#[test]
fn files_over_the_size_limits_are_refused_before_reading() {
    let dir = temp_dir("too-large", &[("ok.pp", "a = 1\n")]);
    sparse(&dir.join("huge.pp"), 1 << 30);
    for subcommand in ["check", "parse", "fmt"] {
        let (code, _, stderr) = pcl(&dir, subcommand, &["huge.pp"]);
        assert_eq!(code, 2, "{subcommand}: {stderr}");
        assert_eq!(
            stderr,
            "error: cannot read `huge.pp`: it is 1024.0 MiB, over the limit of 64 MiB for a source file (split the program into several files)\n",
            "{subcommand}"
        );
    }
    // A schema over its limit: the resource's package cannot be loaded, and the user is told why.
    std::fs::create_dir_all(dir.join("schemas")).expect("schemas");
    sparse(&dir.join("schemas/big-1.0.0.json"), 600 << 20);
    std::fs::write(dir.join("uses.pp"), "resource r \"big:index:R\" {\n}\n").expect("write");
    let (code, _, stderr) = pcl(&dir, "check", &["--schemas", "schemas", "uses.pp"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("it is 600 MiB, over the limit of 512 MiB for a schema file"),
        "{stderr}"
    );
    // Large files: not left behind in the temporary directory.
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hostile_schemas_are_loaded_or_refused_with_a_reason() {
    let dir = temp_dir(
        "hostile-schemas",
        &[
            ("schemas/cyc-1.0.0.json", &hostile::cyclic_schema(1_000)),
            ("schemas/deep-1.0.0.json", &hostile::deep_schema(100_000)),
            ("schemas/big-1.0.0.json", &hostile::big_schema(100 << 20)),
            ("schemas/wide-1.0.0.json", &hostile::one_of_schema(10_000)),
            (
                "main.pp",
                &format!(
                    "{}{}{}resource d \"deep:index:R\" {{\n  p = \"x\"\n}}\n",
                    hostile::BIG_SCHEMA_USER,
                    hostile::CYCLIC_SCHEMA_USER,
                    hostile::ONE_OF_SCHEMA_USER
                ),
            ),
        ],
    );
    let (code, _, stderr) = pcl(
        &dir,
        "check",
        &["--schemas", "schemas", "--emit-types", "main.pp"],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("nested too deeply: JSON values may nest at most 128 levels"),
        "{stderr}"
    );
    assert!(stderr.ends_with("1 error\n"), "{stderr}");
    let (code, stdout, stderr) = pcl(&dir, "schema", &["check", "schemas/deep-1.0.0.json"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        format!("{stdout}{stderr}").contains("/resources/deep:index:R"),
        "the JSON pointer is named: {stdout}{stderr}"
    );
    // Large files: not left behind in the temporary directory.
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn components_that_include_themselves_or_each_other() {
    let dir = temp_dir(
        "components",
        &[
            ("main.pp", "component me \".\" {\n}\ncomponent a \"./a\" {\n}\noutput o {\n  value = a.fromB\n}\n"),
            ("a/main.pp", "component b \"../b\" {\n}\noutput fromB {\n  value = b.fromA\n}\n"),
            ("b/main.pp", "component a \"../a\" {\n}\noutput fromA {\n  value = 1\n}\n"),
        ],
    );
    let (code, _, stderr) = pcl(&dir, "check", &["."]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("cannot use the program's own directory `.` as a component"),
        "{stderr}"
    );
    // Mutual inclusion is a cycle: an error at the block that closes it.
    assert!(
        stderr.contains("b/main.pp:1:13: error[E0510]: cannot use `../a` as a component: it includes this program again, a cycle of components (`a` → `b` → `a`)"),
        "{stderr}"
    );
    assert!(stderr.ends_with("2 errors\n"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn symbolic_link_loops_in_a_program_directory() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir(
        "symlinks",
        &[
            (
                "main.pp",
                "component me \"./loop\" {\n}\ncomponent sub \"./sub\" {\n}\n",
            ),
            (
                "sub/main.pp",
                "component parent \"./up\" {\n}\noutput x {\n  value = 1\n}\n",
            ),
        ],
    );
    symlink(".", dir.join("loop")).expect("loop");
    symlink("..", dir.join("sub/up")).expect("up");
    symlink("self.pp", dir.join("self.pp")).expect("self");
    let (code, _, stderr) = pcl(&dir, "check", &["."]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("skipped `./self.pp`: "), "{stderr}");
    assert!(
        stderr.contains(
            "cannot use `./loop` as a component: it is the program itself (through a symbolic link)"
        ),
        "{stderr}"
    );
    // `sub` includes the program through `sub/up`: a cycle.
    assert!(
        stderr.contains("cannot use `./up` as a component: it includes this program again, a cycle of components (`.` → `sub` → `.`)"),
        "{stderr}"
    );
    assert!(stderr.ends_with("2 errors\n"), "{stderr}");
    // `pcl parse` and `pcl fmt` walk each directory once (`loop` and `sub/up` lead back),
    // skip the link that leads nowhere with a warning, as `pcl check` does, and read the others.
    let (code, _, stderr) = pcl(&dir, "parse", &["."]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "warning: skipped `./self.pp`: too many levels of symbolic links\n"
    );
    let (code, _, stderr) = pcl(&dir, "fmt", &["--check", "."]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "warning: skipped `./self.pp`: too many levels of symbolic links\n"
    );
}

#[test]
fn a_program_directory_of_10_000_files() {
    let dir = temp_dir("many-files", &[]);
    hostile::write_many_files(&dir.join("program"), 10_000).expect("write");
    let (code, stdout, stderr) = pcl(&dir, "check", &["--emit-types", "program"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 30_000, "three nodes per file");
    assert!(stdout.contains("w9999: int"), "{}", &stdout[..200]);
    let (code, _, stderr) = pcl(&dir, "fmt", &["--check", "program"]);
    assert_eq!(code, 0, "{stderr}");
    // Large files: not left behind in the temporary directory.
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn types_shared_by_reference_print_bounded_messages() {
    // `x63 = { l = x62, r = x62 }` and so on: one error about such a value printed 79 MB at
    // 20 levels, and 64 levels never finished.
    let dir = temp_dir(
        "shared-types",
        &[
            ("schemas/demo-1.0.0.json", DEMO),
            ("schemas/cyc-1.0.0.json", &hostile::cyclic_schema(1)),
            ("main.pp", &hostile::shared_types(64)),
            ("chain.pp", &hostile::deep_value_for_cyclic_schema(16_000)),
        ],
    );
    let (code, stdout, stderr) = pcl(
        &dir,
        "check",
        &["--schemas", "schemas", "--emit-types", "main.pp"],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.ends_with("7 errors\n"), "{stderr}");
    // Seven errors, each with a source excerpt, and each type in them bounded.
    assert!(stderr.len() < 7 * 4096, "{} bytes", stderr.len());
    assert_eq!(stdout.lines().count(), 5 * 64 + 11, "{stdout}");
    for line in stdout.lines() {
        assert!(line.len() < 4096, "{} bytes: {line}", line.len());
    }
    let (code, stdout, _) = pcl(
        &dir,
        "check",
        &["--schemas", "schemas", "--format", "json", "main.pp"],
    );
    assert_eq!(code, 1);
    let messages = messages_by_file(&stdout);
    assert_eq!(messages["main.pp"].len(), 7, "{messages:#?}");
    for message in &messages["main.pp"] {
        assert!(message.len() < 4096, "{} bytes: {message}", message.len());
    }
    // A value 16,000 levels deep converted to a recursive schema type: one error, whose path
    // shows its ends.
    let (code, _, stderr) = pcl(&dir, "check", &["--schemas", "schemas", "chain.pp"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(
            "error[E0304]: the attribute `head` of resource type `cyc::Node`: at `.next.next"
        ),
        "{stderr}"
    );
    assert!(stderr.len() < 4096, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
