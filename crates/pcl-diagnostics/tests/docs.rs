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

/// Every message the tables of `docs/diagnostics.md` show, and every message and help line its
/// `text` examples show after a severity, keeps the mechanical rules of its "Message style".
#[test]
fn every_documented_message_keeps_the_style() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md");
    let doc = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut messages: Vec<String> = Vec::new();
    let mut help: Vec<String> = Vec::new();
    let mut in_text_block = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_text_block = line == "```text";
            continue;
        }
        // Table rows of codes: `| code | name | example | message |`.
        if line.starts_with("| `E0") || line.starts_with("| `W0") {
            let cells: Vec<&str> = line
                .trim_start_matches("| ")
                .trim_end_matches(" |")
                .split(" | ")
                .collect();
            let [_, _, _, message] = cells.as_slice() else {
                panic!("not four cells: {line}");
            };
            messages.push(message.to_string());
        }
        // Rendered diagnostics and the before/after examples.
        if in_text_block && !line.starts_with("before:") {
            if let Some((_, message)) = line.split_once("]: ") {
                messages.push(message.to_string());
            } else if let Some((_, message)) = line.split_once("after:  ") {
                messages.push(message.to_string());
            } else if let Some((_, line)) = line.split_once("help: ") {
                help.push(line.to_string());
            }
        }
    }
    assert!(
        messages.len() >= 60,
        "only {} messages found",
        messages.len()
    );
    assert!(!help.is_empty(), "no help lines found");
    let broken: Vec<String> = messages
        .iter()
        .filter_map(|m| pcl_diagnostics::style::check(m).err())
        .chain(
            help.iter()
                .filter_map(|h| pcl_diagnostics::style::check_help(h).err()),
        )
        .map(|broken| broken.to_string())
        .collect();
    assert!(
        broken.is_empty(),
        "messages of docs/diagnostics.md break its style:\n{}",
        broken.join("\n")
    );
}
