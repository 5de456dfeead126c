//! What `pcl check` prints is exactly what the library reports per file: the union of
//! `pcl_sema::file_diagnostics` over every file of every program the loader loads, and of
//! `pcl_ide::Analysis::diagnostics` over every file an editor's host loaded (what `pcl lsp`
//! publishes), with nothing added or dropped by the command (which only adds a help line to
//! a missing package's diagnostic, pointing at `--lenient`).

mod common;

/// 1-based line and column (in characters) of a byte offset, as `pcl check` prints them.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

/// A diagnostic as `pcl check --format json` prints it.
fn as_json(file: &str, text: &str, d: &pcl_diagnostics::Diagnostic) -> serde_json::Value {
    let (line, column) = line_col(text, d.range.start().into());
    let (end_line, end_column) = line_col(text, d.range.end().into());
    serde_json::json!({
        "file": file,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "severity": d.severity.to_string(),
        "code": d.code.as_str(),
        "message": d.message,
    })
}

#[test]
fn check_prints_the_union_of_the_per_file_diagnostics() {
    let dir = common::temp_dir(
        "union",
        &[
            (
                "a.pp",
                "resource first \"nope:index:Thing\" {}\n\ncomponent part \"./part\" {\n  size = 3\n}\n",
            ),
            (
                "b.pp",
                "resource second \"nope:index:Other\" {}\nlocal = undefinedThing\n",
            ),
            (
                "part/main.pp",
                "config size int {}\nresource inner \"nope:index:Thing\" {}\noutput out {\n  value = size\n}\n",
            ),
        ],
    );
    // A Latin-1 byte: the file is not UTF-8.
    std::fs::write(dir.join("c.pp"), b"greeting = \"caf\xE9\"\nbad = 1 +\n").expect("write");

    let path = dir.display().to_string();
    let (status, out, err) = common::pcl(&dir, "check", &["--format", "json", &path]);
    assert_eq!((status, err.as_str()), (1, ""), "{out}");
    // The fields the library's diagnostics are compared on (notes, help, fixes and the
    // rendered text are the renderer's, tested in check_cli.rs).
    let compared = [
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "severity",
        "code",
        "message",
    ];
    let printed: Vec<serde_json::Value> = out
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("a JSON line"))
        .filter(|object| object["object"] == "diagnostic")
        .map(|object| {
            compared
                .iter()
                .map(|&k| (k.to_string(), object[k].clone()))
                .collect::<serde_json::Map<_, _>>()
                .into()
        })
        .collect();

    // The library, loading the same path from the same directory (no schema directories:
    // the command runs with `$PCL_SCHEMA_PATH` unset and no `~/.pcl/schemas`).
    let mut db = pcl_db::RootDatabase::default();
    pcl_project::use_schema_dirs(&mut db, Vec::new());
    let loaded = pcl_project::load_paths(&mut db, &[dir.to_path_buf()]);
    assert!(loaded.errors.is_empty() && loaded.warnings.is_empty());
    assert_eq!(loaded.programs.len(), 2, "the program and its component");
    let mut expected = Vec::new();
    let mut helps = Vec::new();
    for &program in &loaded.programs {
        for &file in program.files(&db) {
            let text = file.text(&db);
            let key = pcl_hir::ProgramFile::new(&db, program, file);
            for d in pcl_sema::file_diagnostics(&db, key).iter() {
                expected.push(as_json(&file.path(&db).display().to_string(), text, d));
                helps.extend(d.help.iter().cloned());
            }
        }
    }
    assert_eq!(printed, expected);

    // And what an editor pulls through the analysis API (`pcl_ide`, as `pcl lsp` does),
    // file by file, on a host that loaded the same directory.
    let mut host = pcl_ide::AnalysisHost::new();
    assert!(host.load_program(&dir).is_empty());
    let analysis = host.analysis();
    let mut pulled = Vec::new();
    for file in analysis.files().unwrap() {
        let text = analysis.file_text(&file).unwrap().expect("a loaded file");
        for d in analysis.diagnostics(&file).unwrap() {
            pulled.push(as_json(&file.display().to_string(), &text, &d));
        }
    }
    // The command prints the program's files, then its component's; the API lists files by
    // path: the same diagnostics, in another order.
    let key = |d: &serde_json::Value| d.to_string();
    let mut printed_sorted = printed.clone();
    printed_sorted.sort_by_key(key);
    pulled.sort_by_key(key);
    assert_eq!(printed_sorted, pulled);

    let codes = |file: &str| -> Vec<String> {
        let file = dir.join(file).display().to_string();
        printed
            .iter()
            .filter(|d| d["file"] == file.as_str())
            .map(|d| d["code"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    // The encoding error comes first in its file, before the syntax error after it.
    assert_eq!(codes("c.pp").first().map(String::as_str), Some("E0001"));
    assert!(codes("c.pp").len() > 1);
    // The missing package: once in the program (at its first use, in a.pp), once in the
    // component, each with a help line counting the others.
    assert_eq!(codes("a.pp"), ["E0502"]);
    assert!(!codes("b.pp").contains(&"E0502".to_string()));
    assert_eq!(codes("part/main.pp"), ["E0502"]);
    assert!(helps.contains(&"1 other use of package `nope` is not reported".to_string()));
    let _ = std::fs::remove_dir_all(&dir);
}
