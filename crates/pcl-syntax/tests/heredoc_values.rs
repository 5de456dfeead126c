//! Heredoc values: `<<EOT` keeps every byte, `<<-EOT` strips the common indentation
//! (hclsyntax's rules, including the spec-suite cases for tabs, blank lines and interpolations),
//! `$${` and `%%{` are decoded, and `~` strip markers apply before the indentation is measured.
//! The same expectations are checked against lowering in `crates/pcl-hir/tests/lower.rs`.

use pcl_syntax::ast::{Expr, HeredocExpr};

fn heredoc(src: &str) -> HeredocExpr {
    let parse = pcl_syntax::parse(src);
    assert!(!parse.has_errors(), "{:?}", parse.errors());
    let body = parse.tree().body().expect("body");
    let attribute = body.attributes().next().expect("attribute");
    match attribute.expr() {
        Some(Expr::Heredoc(h)) => h,
        other => panic!("not a heredoc: {other:?}"),
    }
}

#[test]
fn plain_heredoc_keeps_every_line_verbatim() {
    let h = heredoc("a = <<EOT\n  hello\n    world\nEOT\n");
    assert_eq!(h.flush_indent(), 0);
    assert_eq!(h.literal_value().as_deref(), Some("  hello\n    world\n"));
    assert_eq!(
        heredoc("a = <<EOT\nEOT\n").literal_value().as_deref(),
        Some("")
    );
}

#[test]
fn flush_heredoc_strips_the_least_indentation() {
    let h = heredoc("a = <<-EOT\n    Foo\n      Bar\n    EOT\n");
    assert_eq!(h.flush_indent(), 4);
    assert_eq!(h.literal_value().as_deref(), Some("Foo\n  Bar\n"));
}

#[test]
fn whitespace_only_lines_neither_count_nor_lose_anything() {
    // hclsyntax leaves a blank line as written: only the lines it measured are trimmed.
    let h = heredoc("a = <<-EOT\n    Foo\n\n  \n      \n    Bar\n  EOT\n");
    assert_eq!(h.flush_indent(), 4);
    assert_eq!(
        h.literal_value().as_deref(),
        Some("Foo\n\n  \n      \nBar\n")
    );
}

#[test]
fn tabs_and_unicode_spaces_count_as_one() {
    let h = heredoc("a = <<-EOT\n\t\tFoo\n\u{2003}\tBar\n\tEOT\n");
    assert_eq!(h.flush_indent(), 2);
    assert_eq!(h.literal_value().as_deref(), Some("Foo\nBar\n"));
}

#[test]
fn a_line_starting_with_a_sequence_has_indentation_zero() {
    // hclsyntax: `<<-EOT\n    Foo\n${bar}\n    Baz\n  EOT` strips nothing.
    let h = heredoc("a = <<-EOT\n    Foo\n${bar}\n    Baz\n  EOT\n");
    assert_eq!(h.flush_indent(), 0);
    assert_eq!(h.literal_value(), None);
    // With `  ${bar}` the whitespace before the interpolation is a literal: indentation 2.
    let h = heredoc("a = <<-EOT\n    Foo\n  ${bar}\n    Baz\n  EOT\n");
    assert_eq!(h.flush_indent(), 2);
    // Directive bodies are lines of the same heredoc.
    let h = heredoc("a = <<-EOT\n      x\n%{ if c }\n    y\n%{ endif }\nEOT\n");
    assert_eq!(h.flush_indent(), 0);
    let h = heredoc("a = <<-EOT\n      x\n  %{ if c }\n    y\n  %{ endif }\nEOT\n");
    assert_eq!(h.flush_indent(), 2);
}

/// The value of each literal token of the heredoc, in source order.
fn pieces(src: &str) -> Vec<String> {
    heredoc(src)
        .literals()
        .pieces()
        .iter()
        .map(|p| p.value.clone())
        .collect()
}

#[test]
fn escapes_are_decoded_and_a_lone_sigil_is_text() {
    let h = heredoc("a = <<EOT\na $${b} %%{c} $$ %x $$$${d}\nEOT\n");
    assert_eq!(
        h.literal_value().as_deref(),
        Some("a ${b} %{c} $$ %x $$${d}\n")
    );
    // Backslashes are literal in heredocs.
    let h = heredoc("a = <<EOT\nwww\\.x\\n\nEOT\n");
    assert_eq!(h.literal_value().as_deref(), Some("www\\.x\\n\n"));
    // An escape at a line's start is not indentation.
    let h = heredoc("a = <<-EOT\n  $${x}\n    y\n  EOT\n");
    assert_eq!(h.literal_value().as_deref(), Some("${x}\n  y\n"));
}

#[test]
fn tabs_and_spaces_each_count_one() {
    // Tab then two spaces is three characters; two spaces is two: two are removed.
    let h = heredoc("a = <<-EOT\n\t  Foo\n  Bar\nEOT\n");
    assert_eq!(h.flush_indent(), 2);
    assert_eq!(h.literal_value().as_deref(), Some(" Foo\nBar\n"));
}

#[test]
fn crlf_line_breaks_are_kept_and_blank_crlf_lines_do_not_count() {
    let h = heredoc("a = <<-EOT\r\n    Foo\r\n  \r\n      Bar\r\n    EOT\r\n");
    assert_eq!(h.flush_indent(), 4);
    assert_eq!(h.literal_value().as_deref(), Some("Foo\r\n  \r\n  Bar\r\n"));
    let h = heredoc("a = <<EOT\r\nhello world\r\nEOT\r\n");
    assert_eq!(h.literal_value().as_deref(), Some("hello world\r\n"));
}

#[test]
fn interpolations_leave_their_lines_indentation_to_the_literal_before_them() {
    // `  ${bar}`: the two spaces are the line's indentation; the rest of the line is not
    // line-leading and keeps its spaces.
    assert_eq!(
        pieces("a = <<-EOT\n    Foo\n  ${bar}  x\n    Baz\n  EOT\n"),
        ["  Foo\n", "", "  x\n", "  Baz\n"]
    );
    // At column 0 nothing is stripped.
    assert_eq!(
        pieces("a = <<-EOT\n    Foo\n${bar}\n    Baz\n  EOT\n"),
        ["    Foo\n", "\n", "    Baz\n"]
    );
}

#[test]
fn directive_bodies_are_lines_of_the_heredoc() {
    assert_eq!(
        pieces(
            "a = <<-EOT\n      x\n  %{ if c }\n    y\n  %{ else }\n      z\n  %{ endif }\nEOT\n"
        ),
        ["    x\n", "", "\n", "  y\n", "", "\n", "    z\n", "", "\n"]
    );
    assert_eq!(
        pieces("a = <<-EOT\n    %{ for v in vs }\n    ${v}\n    %{ endfor }\nEOT\n"),
        ["", "\n", "", "\n", "", "\n"]
    );
}

#[test]
fn strip_markers_apply_before_the_indentation_is_measured() {
    // `${~` empties the line-leading `  `: that line then counts 0 and nothing is stripped.
    assert_eq!(
        pieces("a = <<-EOT\n    a\n    ${~x}\nEOT\n"),
        ["    a\n", "", "\n"]
    );
    // `~}` empties the line break after it, so the next line does not start a line for the
    // indentation rule and keeps its spaces (hclsyntax's `flushHeredocTemplateParts`).
    assert_eq!(
        pieces("a = <<-EOT\n  %{ if c ~}\n    y\n  %{ endif ~}\n  z\nEOT\n"),
        ["", "", "    y\n", "", "", "  z\n"]
    );
    // A strip marker trims the adjacent literal token only: one line of a heredoc.
    assert_eq!(
        pieces("a = <<EOT\na\n  \n${~x~}  \n\nb\nEOT\n"),
        ["a\n", "", "", "\n", "b\n"]
    );
}

#[test]
fn quoted_templates_share_the_strip_rules() {
    let parse = pcl_syntax::parse("a = \"%{ if c ~} x\\n %{~ endif } ${~ y ~}\\t z\"\n");
    assert!(!parse.has_errors(), "{:?}", parse.errors());
    let attribute = parse.tree().body().unwrap().attributes().next().unwrap();
    let Some(Expr::Template(t)) = attribute.expr() else {
        panic!("not a template");
    };
    let values: Vec<String> = t
        .literals()
        .pieces()
        .iter()
        .map(|p| p.value.clone())
        .collect();
    assert_eq!(values, ["x", "", "z"]);
    assert_eq!(t.literal_value(), None);
}

/// Quoted strings decode the same escapes among runs of plain text (copied whole, multi-byte
/// characters included), and a string with nothing to decode is its one literal token.
#[test]
fn quoted_strings_decode_escapes_among_plain_runs() {
    let quoted = |src: &str| {
        let parse = pcl_syntax::parse(src);
        assert!(!parse.has_errors(), "{:?}", parse.errors());
        let body = parse.tree().body().expect("body");
        match body.attributes().next().expect("attribute").expr() {
            Some(Expr::Template(t)) => t,
            other => panic!("not a string: {other:?}"),
        }
    };
    let cases = [
        (r#"a = "plain é€ text""#, "plain é€ text", true),
        (
            r#"a = "é\n€\t\"q\" \\ \u00e9 \U0001F600""#,
            "é\n€\t\"q\" \\ é 😀",
            false,
        ),
        (
            r#"a = "$${x} %%{y} $ % $$ %% $x %y a$""#,
            "${x} %{y} $ % $$ %% $x %y a$",
            false,
        ),
        (r#"a = "100%""#, "100%", false),
        (r#"a = """#, "", true),
    ];
    for (src, value, plain) in cases {
        let t = quoted(src);
        assert_eq!(t.literal_value().as_deref(), Some(value), "{src}");
        match t.plain_literal() {
            Some(token) => {
                assert!(plain, "{src}");
                assert_eq!(pcl_syntax::TreeToken::text(&token), value);
            }
            None => assert!(!plain || value.is_empty(), "{src}"),
        }
    }
    // A template with an interpolation is not plain.
    assert!(quoted(r#"a = "x${y}""#).plain_literal().is_none());
}
