//! `docs/diagnostics.md` lists every code of the registry, with its name.

use pcl_diagnostics::Code;

#[test]
fn every_code_is_documented() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md");
    let doc = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let missing: Vec<String> = Code::ALL
        .iter()
        .map(|code| format!("| `{}` | `{code:?}` |", code.as_str()))
        .filter(|row| !doc.lines().any(|line| line.starts_with(row.as_str())))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/diagnostics.md has no row for:\n{}",
        missing.join("\n")
    );
}
