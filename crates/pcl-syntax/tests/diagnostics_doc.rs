//! The syntax examples of `docs/diagnostics.md` produce the code and the message shown.

use pcl_syntax::SyntaxErrorKind;

/// The rows `| code | name | example | message |` of the syntax table.
fn syntax_rows() -> Vec<[String; 4]> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md");
    let doc = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    doc.lines()
        .filter(|line| line.starts_with("| `E00"))
        .map(|line| {
            let cells: Vec<String> = line
                .trim_start_matches("| ")
                .trim_end_matches(" |")
                .split(" | ")
                .map(str::to_string)
                .collect();
            let cells: [String; 4] = cells
                .try_into()
                .unwrap_or_else(|c| panic!("not four cells: {c:?}"));
            cells
        })
        .collect()
}

#[test]
fn syntax_examples_produce_their_code_and_message() {
    let rows = syntax_rows();
    let codes: Vec<String> = rows
        .iter()
        .map(|r| r[0].trim_matches('`').to_string())
        .collect();
    let kinds: Vec<String> = SyntaxErrorKind::ALL
        .iter()
        .map(|k| k.code().as_str().to_string())
        .collect();
    assert_eq!(codes, kinds, "one row per syntax error kind, in order");
    for ([code, name, example, message], kind) in rows.iter().zip(SyntaxErrorKind::ALL) {
        assert_eq!(name, &format!("`{kind:?}`"));
        let input = match kind {
            // Produced by whoever decodes the file, before parsing.
            SyntaxErrorKind::InvalidEncoding => continue,
            SyntaxErrorKind::NestingTooDeep => {
                format!("a = {}1{}", "(".repeat(300), ")".repeat(300))
            }
            _ => {
                let inner = example
                    .strip_prefix('`')
                    .and_then(|e| e.strip_suffix('`'))
                    .filter(|e| !e.contains('`'))
                    .unwrap_or_else(|| panic!("{code}: the example is not one code span"));
                inner.replace('⏎', "\n")
            }
        };
        let parse = pcl_syntax::parse(&input);
        assert!(
            parse
                .errors()
                .iter()
                .any(|e| e.kind == *kind && &e.message == message),
            "{code}: {input:?} gives {:#?}",
            parse.errors()
        );
    }
}
