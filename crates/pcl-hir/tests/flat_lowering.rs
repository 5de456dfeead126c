//! Lowering a file from the flat tree (as files nobody has open are lowered: `pcl check`, and
//! the closed files of an editor's programs) gives exactly what lowering it from rowan's tree
//! gives (as open files are lowered): the same syntax errors, and for every top-level item the
//! same node, body, source map and diagnostics. Over every file of the shared corpora and the
//! repository's test data; the fuzz targets check it on arbitrary input
//! (`pcl_invariants::syntax::check_syntax`).

use std::path::Path;

use pcl_test_support::Failures;

fn is_source(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("pp" | "tf" | "hcl" | "tfvars" | "nomad")
    )
}

fn check_dir(dir: &Path, failures: &mut Failures) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                stack.push(path);
            } else if is_source(&path) {
                let Ok(bytes) = std::fs::read(&path) else {
                    continue;
                };
                let text = String::from_utf8_lossy(&bytes);
                failures.check(&path.display().to_string(), || {
                    pcl_hir::flat_lowering_difference(&text)
                        .into_iter()
                        .collect()
                });
            }
        }
    }
}

#[test]
fn lowering_from_the_flat_tree_is_lowering_from_rowans_tree() {
    let mut failures = Failures::new();
    check_dir(
        &pcl_test_support::workspace_root().join("test_data"),
        &mut failures,
    );
    for corpus in ["corpus/hcl", "corpus/hcl-tricky", "corpus/pulumi"] {
        if let Some(dir) = pcl_test_support::corpus(corpus) {
            check_dir(&dir, &mut failures);
        }
    }
    assert!(
        failures.checked() > 100,
        "only {} files",
        failures.checked()
    );
    failures.finish("files lowered differently from the flat tree");
}
