//! Property tests with a fixed budget: for random fragment soup (valid and broken HCL alike) and
//! for corpus-like files with scrambled whitespace, formatting never panics and keeps its
//! promises (tokens, line breaks, damaged items, edits, idempotence).

mod common;

use proptest::prelude::*;

/// Pieces that make the interesting cases likely: brackets, templates, heredocs, comments,
/// operators, line endings, tabs, broken quotes.
const FRAGMENTS: &[&str] = &[
    "a",
    "b_1",
    "in",
    "for",
    "if",
    "x-y",
    "1",
    "2.5",
    "1e3",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "=",
    "==",
    "!=",
    "!",
    "-",
    "+",
    "*",
    "/",
    "%",
    "<",
    ">=",
    "&&",
    "||",
    "?",
    ":",
    "::",
    ",",
    ".",
    "...",
    "=>",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "\"",
    "\"x\"",
    "\"${",
    "${",
    "%{",
    "~}",
    "}\"",
    "<<EOT\n",
    "<<-EOT\n",
    "EOT\n",
    "  EOT",
    "# c\n",
    "// c",
    "/* c */",
    "/*",
    "\u{feff}",
    "é",
    "\u{1f600}",
    "\0",
    "block {\n",
    "attr = ",
    "[for x in y : x]",
    "'q'",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..60).prop_map(|parts| parts.concat())
}

/// A valid file with its spaces and tabs scrambled (outside strings, heredocs and comments).
fn scrambled() -> impl Strategy<Value = String> {
    const BASE: &str = "resource r \"aws:s3:Bucket\" {\n  options {\n    range = 2\n  }\n  tags = { a = 1, \"b\" = [1, 2] } # c\n  name = \"x-${range.value}\"\n  doc = <<-EOT\n    keep  ${upper(\"a\")}\n    EOT\n  n = -1 + x[0] * (2 - 3) # d\n}\noutput o {\n  value = { for k, v in m : k => v... if !v }\n}\n";
    prop::collection::vec(0usize..4, 64).prop_map(|widths| {
        let mut out = String::new();
        let mut i = 0;
        let mut in_string = false;
        let mut in_heredoc = false;
        for line in BASE.split_inclusive('\n') {
            let mut in_comment = false;
            for c in line.chars() {
                if c == '"' {
                    in_string = !in_string;
                }
                in_comment |= c == '#' && !in_string;
                if c == ' ' && !in_string && !in_heredoc && !in_comment {
                    let n = widths[i % widths.len()].max(1);
                    i += 1;
                    out.extend(std::iter::repeat_n(if i % 5 == 0 { '\t' } else { ' ' }, n));
                } else {
                    out.push(c);
                }
            }
            // The closing marker's indentation is part of its token: kept as written.
            if line.contains("<<-EOT") {
                in_heredoc = true;
            } else if line.trim() == "EOT" {
                in_heredoc = false;
            }
        }
        out
    })
}

fn cases() -> u32 {
    pcl_test_support::proptest_cases(400)
}

proptest! {
    // A fixed budget in CI; `PCL_PROPTEST_CASES=100000` for a longer run by hand.
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn soup_keeps_the_promises(text in soup()) {
        let formatted = pcl_fmt::format(&text).expect("small inputs always format");
        if let Some(broken) = common::broken_promise(&text, &formatted) {
            prop_assert!(false, "{broken} for {text:?} -> {:?}", formatted.text);
        }
    }

    #[test]
    fn scrambled_files_format_to_one_layout(text in scrambled()) {
        let formatted = pcl_fmt::format(&text).expect("formats");
        prop_assert!(formatted.damaged.is_empty(), "{text:?}");
        if let Some(broken) = common::broken_promise(&text, &formatted) {
            prop_assert!(false, "{broken} for {text:?}");
        }
        let canonical = pcl_fmt::format(
            "resource r \"aws:s3:Bucket\" {\n  options {\n    range = 2\n  }\n  tags = { a = 1, \"b\" = [1, 2] } # c\n  name = \"x-${range.value}\"\n  doc = <<-EOT\n    keep  ${upper(\"a\")}\n    EOT\n  n = -1 + x[0] * (2 - 3) # d\n}\noutput o {\n  value = { for k, v in m : k => v... if !v }\n}\n",
        )
        .expect("formats")
        .text;
        prop_assert_eq!(formatted.text, canonical);
    }
}
