//! Heredoc values: `<<EOT` keeps every byte, `<<-EOT` strips the common indentation
//! (hclsyntax's rules, including the spec-suite cases for tabs, blank lines and interpolations).

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
fn whitespace_only_lines_do_not_count() {
    let h = heredoc("a = <<-EOT\n    Foo\n\n  \n    Bar\n  EOT\n");
    assert_eq!(h.flush_indent(), 4);
    assert_eq!(h.literal_value().as_deref(), Some("Foo\n\n\nBar\n"));
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
