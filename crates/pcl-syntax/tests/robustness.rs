//! Hostile inputs: deep nesting, huge lines, garbage. The parser must stay lossless, report an
//! error where the input is wrong, and never panic or overflow the stack.

use pcl_syntax::SyntaxErrorKind;

fn check_lossless(text: &str) -> pcl_syntax::Parse {
    let parse = pcl_syntax::parse(text);
    assert_eq!(parse.syntax().to_string(), text, "tree is not lossless");
    parse
}

/// Runs on a thread with a small stack, so that unbounded recursion would fail here too.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic");
}

fn assert_error_kind(parse: &pcl_syntax::Parse, kind: SyntaxErrorKind) {
    assert!(
        parse.errors().iter().any(|e| e.kind == kind),
        "expected an error of kind {kind:?}, got {:#?}",
        parse.errors().iter().take(5).collect::<Vec<_>>()
    );
}

#[test]
fn deeply_nested_parens_brackets_braces_and_templates() {
    for (open, close) in [
        ("(", ")"),
        ("[", "]"),
        ("{a = ", "}"),
        ("\"${", "}\""),
        ("-", ""),
        ("!", ""),
    ] {
        let (open, close) = (open.to_string(), close.to_string());
        on_small_stack(move || {
            let n = 100_000;
            let text = format!("a = {}1{}\nb = 2\n", open.repeat(n), close.repeat(n));
            let parse = check_lossless(&text);
            assert_error_kind(&parse, SyntaxErrorKind::NestingTooDeep);
            // The attribute after the deep one still parses.
            let body = parse.tree().body().expect("body");
            assert!(body
                .attributes()
                .any(|a| a.name().is_some_and(|n| n.text() == "b")));
        });
    }
}

#[test]
fn deeply_nested_unclosed_openers() {
    for open in ["(", "[", "{", "\"${", "%{if x}", "a {\n"] {
        let open = open.to_string();
        on_small_stack(move || {
            let text = format!("a = {}", open.repeat(100_000));
            let parse = check_lossless(&text);
            assert!(parse.has_errors());
        });
    }
}

#[test]
fn moderately_nested_input_is_accepted() {
    // hclsyntax accepts 200 nested parentheses; so do we.
    let text = format!("a = {}1{}\n", "(".repeat(200), ")".repeat(200));
    let parse = check_lossless(&text);
    assert!(!parse.has_errors(), "{:?}", parse.errors());
}

#[test]
fn ten_megabyte_line() {
    let text = format!(
        "a = \"{}\"\nb = [{}1]\n",
        "x".repeat(10 << 20),
        "1, ".repeat(1 << 20)
    );
    let parse = check_lossless(&text);
    assert!(!parse.has_errors());
}

#[test]
fn unterminated_constructs_report_errors() {
    use SyntaxErrorKind::*;
    for (text, kind) in [
        ("a = \"abc", UnterminatedString),
        ("a = <<EOT\nabc\n", UnterminatedHeredoc),
        ("a = <<EOT\nabc\nEOT", UnterminatedHeredoc),
        ("a = /* comment", ExpectedExpression),
        ("block {\n a = 1\n", UnclosedBlock),
        ("a = [1, 2", UnclosedBracket),
        ("a = {b = 1", UnclosedBracket),
        ("a = f(1", UnclosedBracket),
        ("a = (1", UnclosedBracket),
        ("a = \"${b", UnclosedBracket),
        ("a = \"%{ if b }x\"", UnclosedDirective),
    ] {
        let parse = check_lossless(text);
        assert_error_kind(&parse, kind);
    }
}

#[test]
fn garbage_bytes() {
    // A deterministic pseudo-random byte soup, decoded lossily as the CLI does.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut bytes = Vec::with_capacity(200_000);
    for _ in 0..200_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        bytes.push((state >> 24) as u8);
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let parse = check_lossless(&text);
    assert!(parse.has_errors());
}

#[test]
fn every_prefix_of_a_rich_file_is_lossless() {
    let text = r#"
# comment
resource "r" "pkg:index:Res" {
  a = [for k, v in xs : "${k}=${v}" if v != null]
  b = { for x in ys : x.name => x... }
  c = f(1, 2, zs...)
  d = cond ? <<-EOT
    hello ${name} %{ for i in list ~}
    ${i}
    %{~ endfor }
    EOT
  : "other"
  e = x.y[0].*.z[*].w
  options { range = 10 }
}
"#;
    for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
        check_lossless(&text[..end]);
        check_lossless(&text[end..]);
    }
}

#[test]
fn long_lines_of_repeated_constructs_stay_linear() {
    // Each of these once made some lexer or parser look-around rescan the rest of the line.
    for unit in [
        "\"${",
        "\u{201c}",
        "'",
        "block {}",
        "a {",
        "<<a",
        "}",
        "${",
        "x.",
        // A label's quote missing before the next label; separators before a `${`.
        "\"a \"b\" ",
        "\"${a- -",
        "-${",
    ] {
        let unit = unit.to_string();
        on_small_stack(move || {
            let text = format!("a = {}\n", unit.repeat(100_000));
            check_lossless(&text);
        });
    }
}

/// Files of 20,000 single mistakes each (a `}` missing before the next `${`, a label's closing
/// quote missing, a misspelt heredoc marker, `<< EOT`, a block header's `{` missing, a `}`
/// missing in a block written without indentation): one error each, and each decision looks
/// at no more than its line or its block (or, for heredocs, at an index of the file's lines
/// built once).
#[test]
fn many_one_line_mistakes_give_one_error_each() {
    const N: usize = 20_000;
    type Line = fn(usize) -> String;
    let cases: [(Line, SyntaxErrorKind); 10] = [
        (
            |i| format!("a{i} = \"${{a-${{b}}\"\n"),
            SyntaxErrorKind::UnclosedBracket,
        ),
        (
            |i| format!("config \"c{i} \"int\" {{\n}}\n"),
            SyntaxErrorKind::UnterminatedString,
        ),
        (
            |i| format!("x{i} = <<EOT\nhello\nEOF\n"),
            SyntaxErrorKind::UnterminatedHeredoc,
        ),
        (
            |i| format!("x{i} = <<M{i}\nhello\nN{i}\n"),
            SyntaxErrorKind::UnterminatedHeredoc,
        ),
        (
            |i| format!("x{i} = << EOT\nhello\nEOT\n"),
            SyntaxErrorKind::InvalidHeredoc,
        ),
        (
            |i| format!("resource r{i} \"t\"\n  a = {i}\n}}\n"),
            SyntaxErrorKind::InvalidBlock,
        ),
        (
            |i| format!("resource r{i} \"t\" {{\na = {i}\n\n"),
            SyntaxErrorKind::UnclosedBlock,
        ),
        (
            |i| format!("resource r{i} \"t\" {{\n  w\n    a = {i}\n  }}\n  b = 1\n}}\n"),
            SyntaxErrorKind::InvalidBlock,
        ),
        (
            |i| {
                if i % 2 == 0 {
                    format!("a{i} = \"${{upper(${{b}})}}-x\"\n")
                } else {
                    format!("a{i} = \"${{a + ${{c}}}}\"\n")
                }
            },
            SyntaxErrorKind::UnexpectedToken,
        ),
        (
            |i| {
                if i % 2 == 0 {
                    format!("resource r{i} \"t\" {{\n  a = <<EOT\n{i}\n  b = 1\n}}\n")
                } else {
                    format!("resource r{i} \"t\" {{\n  a = << EOT\n{i}\n}}\n")
                }
            },
            SyntaxErrorKind::UnterminatedHeredoc,
        ),
    ];
    for (line, kind) in cases {
        let text: String = (0..N).map(line).collect();
        let parse = check_lossless(&text);
        assert_eq!(parse.errors().len(), N, "{:?}", &text[..40]);
        assert!(parse.errors().iter().all(|e| e.kind == kind), "{kind:?}");
    }
}

#[test]
fn long_operator_and_traversal_chains_keep_the_tree_shallow() {
    // Each link wraps the tree so far; a 100,000-link chain would make a tree too deep to drop
    // (rowan drops recursively). Links count against the nesting budget instead.
    for unit in [" + 1", ".x", "[0]", " || true"] {
        let unit = unit.to_string();
        on_small_stack(move || {
            let text = format!("a = x{}\nb = 2\n", unit.repeat(100_000));
            let parse = check_lossless(&text);
            assert_error_kind(&parse, SyntaxErrorKind::NestingTooDeep);
            let body = parse.tree().body().expect("body");
            assert!(body
                .attributes()
                .any(|a| a.name().is_some_and(|n| n.text() == "b")));
        });
    }
    // Long but reasonable chains are fine.
    let text = format!("a = x{}\n", " + 1".repeat(200));
    assert!(!check_lossless(&text).has_errors());
}

#[test]
fn mutated_test_cases_are_lossless_and_never_panic() {
    // Deterministic mutation fuzzing over the repository's own parser cases: insert, delete or
    // replace characters, favouring the ones that change HCL structure.
    const ALPHABET: &[&str] = &[
        "{", "}", "[", "]", "(", ")", "\"", "${", "%{", "~}", "<<EOT\n", "EOT\n", "\n", "=", ",",
        ".", "*", "#", "/*", "*/", "\\", "'", "for ", " in ", ":", "=>", "...", "?", "x", "1",
        "\u{e9}", "\r", "\t", "\u{feff}",
    ];
    // CI runs 40 mutations per case; set PCL_FUZZ_ITERS for a longer run by hand.
    let iterations: usize = std::env::var("PCL_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let dir = pcl_test_support::workspace_root().join("test_data/parser");
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    for sub in ["ok", "err"] {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(sub))
            .expect("test_data/parser")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "pp"))
            .collect();
        files.sort();
        for path in files {
            let original = std::fs::read_to_string(&path).expect("UTF-8 case");
            for _ in 0..iterations {
                let mut text = original.clone();
                for _ in 0..1 + next(4) {
                    let mut at = if text.is_empty() {
                        0
                    } else {
                        next(text.len() + 1)
                    };
                    while !text.is_char_boundary(at) {
                        at -= 1;
                    }
                    match next(3) {
                        0 => text.insert_str(at, ALPHABET[next(ALPHABET.len())]),
                        1 if at < text.len() => {
                            text.remove(at);
                        }
                        _ => {
                            if at < text.len() {
                                text.remove(at);
                            }
                            text.insert_str(at, ALPHABET[next(ALPHABET.len())]);
                        }
                    }
                }
                check_lossless(&text);
            }
        }
    }
}
