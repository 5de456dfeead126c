//! Conformance with hclsyntax v2.24 on the shared corpora: every file parses losslessly, files
//! hclsyntax accepts give no syntax error, files it rejects give at least one. Known, reviewed
//! disagreements are listed in `test_data/parser/conformance-exceptions.tsv` with the reason.
//! `pcl_syntax::syntax_errors` (no tree) gives exactly `parse`'s errors on every file.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

fn exceptions() -> BTreeMap<String, String> {
    let path =
        pcl_test_support::workspace_root().join("test_data/parser/conformance-exceptions.tsv");
    let text = fs::read_to_string(&path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (path, reason) = l.split_once('\t')?;
            Some((path.to_string(), reason.to_string()))
        })
        .collect()
}

/// Parses every file listed in `<dir>/EXPECTED.tsv`; returns the disagreements.
fn check_corpus(dir: &Path, prefix: &str) -> (usize, Vec<String>) {
    let expected = fs::read_to_string(dir.join("EXPECTED.tsv")).expect("EXPECTED.tsv");
    let exceptions = exceptions();
    let mut total = 0;
    let mut disagreements = Vec::new();
    for line in expected.lines().skip(1) {
        let mut fields = line.split('\t');
        let (Some(rel), Some(verdict)) = (fields.next(), fields.next()) else {
            continue;
        };
        let go_error = fields.next().unwrap_or("");
        let bytes = fs::read(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        total += 1;
        // Invalid UTF-8 is an encoding error (reported by the CLI before parsing).
        let (text, encoding_error) = match String::from_utf8(bytes) {
            Ok(t) => (t, false),
            Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
        };
        let parse = pcl_syntax::parse(&text);
        let key = format!("{prefix}{rel}");
        if parse.syntax().to_string() != text {
            disagreements.push(format!("{key}: tree is not lossless"));
            continue;
        }
        // The tree-free path (`pcl parse` without `--tree`) reports exactly the same errors.
        if pcl_syntax::syntax_errors(&text) != parse.errors() {
            disagreements.push(format!("{key}: syntax_errors differs from parse's errors"));
            continue;
        }
        let we_reject = parse.has_errors() || encoding_error;
        let go_rejects = verdict == "err";
        if we_reject != go_rejects && !exceptions.contains_key(&key) {
            let ours = parse
                .errors()
                .first()
                .map(|e| format!("{:?} {}", e.range, e.message))
                .unwrap_or_default();
            disagreements.push(format!(
                "{key}: hclsyntax {verdict} ({go_error}), ours: {}",
                if we_reject { ours } else { "ok".to_string() }
            ));
        }
    }
    (total, disagreements)
}

fn run(corpus: &str, prefix: &str) {
    let Some(dir) = pcl_test_support::corpus(corpus) else {
        return;
    };
    let (total, disagreements) = check_corpus(&dir, prefix);
    assert!(
        disagreements.is_empty(),
        "{}/{total} agree with hclsyntax; disagreements:\n{}",
        total - disagreements.len(),
        disagreements.join("\n")
    );
    eprintln!("{total}/{total} files of {corpus} agree with hclsyntax");
}

#[test]
fn hcl_corpus_agrees_with_hclsyntax() {
    run("corpus/hcl", "hcl/");
}

#[test]
fn hcl_tricky_agrees_with_hclsyntax() {
    run("corpus/hcl-tricky", "hcl-tricky/");
}

/// Every `.pp` file of Pulumi's own PCL test programs (the binder accepts them all) parses
/// without a syntax error, losslessly.
#[test]
fn pulumi_programs_parse_cleanly() {
    let Some(dir) = pcl_test_support::corpus("corpus/pulumi/programs") else {
        return;
    };
    let mut stack = vec![dir];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("program directory") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pp") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 80, "only {} programs found", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = fs::read_to_string(path).expect("UTF-8 program");
        let parse = pcl_syntax::parse(&text);
        assert_eq!(parse.syntax().to_string(), text, "{}", path.display());
        if let Some(error) = parse.errors().first() {
            failures.push(format!(
                "{}: {:?} {}",
                path.display(),
                error.range,
                error.message
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}/{} programs parse cleanly; failures:\n{}",
        files.len() - failures.len(),
        files.len(),
        failures.join("\n")
    );
}
