//! Conformance with hclsyntax v2.24 on the shared corpora: every file parses losslessly, files
//! hclsyntax accepts give no syntax error, files it rejects give at least one. Known, reviewed
//! disagreements are listed in `test_data/parser/conformance-exceptions.tsv` with the reason.
//! `pcl_syntax::syntax_errors` (no tree) gives exactly `parse`'s errors on every file, and
//! `pcl_syntax::parse_flat` the same tree.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use pcl_test_support::Failures;

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

/// Parses every file listed in `<dir>/EXPECTED.tsv`; returns every disagreement.
fn check_corpus(dir: &Path, prefix: &str) -> Failures {
    let expected = fs::read_to_string(dir.join("EXPECTED.tsv")).expect("EXPECTED.tsv");
    let exceptions = exceptions();
    let mut failures = Failures::new();
    for line in expected.lines().skip(1) {
        let mut fields = line.split('\t');
        let (Some(rel), Some(verdict)) = (fields.next(), fields.next()) else {
            continue;
        };
        let go_error = fields.next().unwrap_or("");
        let key = format!("{prefix}{rel}");
        failures.check(&key, || {
            check_file(&dir.join(rel), &key, verdict, go_error, &exceptions)
                .into_iter()
                .collect()
        });
    }
    failures
}

/// What is wrong with one file of a corpus, if anything.
fn check_file(
    path: &Path,
    key: &str,
    verdict: &str,
    go_error: &str,
    exceptions: &BTreeMap<String, String>,
) -> Option<String> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => return Some(format!("{key}: {e}")),
    };
    // Invalid UTF-8 is an encoding error (reported by the CLI before parsing).
    let (text, encoding_error) = match String::from_utf8(bytes) {
        Ok(t) => (t, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    };
    let parse = pcl_syntax::parse(&text);
    if parse.syntax().to_string() != text {
        return Some(format!("{key}: tree is not lossless"));
    }
    // The tree-free path (`pcl parse` without `--tree`) reports exactly the same errors.
    if pcl_syntax::syntax_errors(&text) != parse.errors() {
        return Some(format!("{key}: syntax_errors differs from parse's errors"));
    }
    // The items of an open file's passes over green nodes are the tree's items.
    let by_green: Vec<_> = parse
        .green_items()
        .map(|(start, green)| pcl_syntax::TextRange::at(start, green.text_len()))
        .collect();
    let by_cursor: Vec<_> = parse
        .tree()
        .body()
        .iter()
        .flat_map(|body| body.items())
        .map(|item| pcl_syntax::ast::AstNode::syntax(&item).text_range())
        .collect();
    if by_green != by_cursor {
        return Some(format!("{key}: green_items differs from the body's items"));
    }
    // The flat tree (lowering of files nobody has open) is the same tree.
    if let Some(difference) = pcl_syntax::flat_tree_difference(&text) {
        return Some(format!("{key}: {difference}"));
    }
    let we_reject = parse.has_errors() || encoding_error;
    let go_rejects = verdict == "err";
    if we_reject == go_rejects || exceptions.contains_key(key) {
        return None;
    }
    let ours = parse
        .errors()
        .first()
        .map(|e| format!("{:?} {}", e.range, e.message))
        .unwrap_or_default();
    Some(format!(
        "{key}: hclsyntax {verdict} ({go_error}), ours: {}",
        if we_reject { ours } else { "ok".to_string() }
    ))
}

fn run(corpus: &str, prefix: &str) {
    let Some(dir) = pcl_test_support::corpus(corpus) else {
        return;
    };
    let failures = check_corpus(&dir, prefix);
    let total = failures.checked();
    eprintln!(
        "{}/{total} files of {corpus} agree with hclsyntax",
        total - failures.failed()
    );
    failures.finish(&format!("files of {corpus}"));
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
    let mut failures = Failures::new();
    for path in &files {
        failures.check(&path.display().to_string(), || {
            let text = match fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) => return vec![format!("{}: {e}", path.display())],
            };
            let parse = pcl_syntax::parse(&text);
            if parse.syntax().to_string() != text {
                return vec![format!("{}: tree is not lossless", path.display())];
            }
            parse
                .errors()
                .first()
                .map(|error| format!("{}: {:?} {}", path.display(), error.range, error.message))
                .into_iter()
                .collect()
        });
    }
    failures.finish("programs");
}
