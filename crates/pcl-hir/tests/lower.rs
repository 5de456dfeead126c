//! Lowering tested directly: files through `lower_file` in a database of their own.

use std::path::Path;

use pcl_db::RootDatabase;
use pcl_hir::{lower_file, Expr, ProgramFile, TemplatePart};
use pcl_types::ConstValue;

/// Lowers `text` as the only file of a program and gives what `f` makes of the result.
fn with_lowered<T>(text: &str, f: impl FnOnce(&RootDatabase, &pcl_hir::LoweredFile<'_>) -> T) -> T {
    let mut db = RootDatabase::default();
    let file = db.set_file_text(Path::new("/program/main.pp"), text.to_string());
    let program = db.set_program_files(Path::new("/program"), vec![file]);
    let pf = ProgramFile::new(&db, program, file);
    let lowered = lower_file(&db, pf);
    f(&db, lowered)
}

// ---- heredocs: lowering and `literal_value` agree ---------------------------------------------

/// Heredocs of literal text only, with their values (hclsyntax's rules; the same cases as
/// `crates/pcl-syntax/tests/heredoc_values.rs`).
const LITERAL_HEREDOCS: &[(&str, &str)] = &[
    ("<<EOT\n  hello\n    world\nEOT\n", "  hello\n    world\n"),
    ("<<EOT\nEOT\n", ""),
    ("<<-EOT\n    Foo\n      Bar\n    EOT\n", "Foo\n  Bar\n"),
    (
        "<<-EOT\n    Foo\n\n  \n      \n    Bar\n  EOT\n",
        "Foo\n\n  \n      \nBar\n",
    ),
    ("<<-EOT\n\t\tFoo\n\u{2003}\tBar\n\tEOT\n", "Foo\nBar\n"),
    ("<<-EOT\n\t  Foo\n  Bar\nEOT\n", " Foo\nBar\n"),
    (
        "<<EOT\na $${b} %%{c} $$ %x $$$${d}\nEOT\n",
        "a ${b} %{c} $$ %x $$${d}\n",
    ),
    ("<<-EOT\n  $${x}\n    y\n  EOT\n", "${x}\n  y\n"),
    ("<<EOT\nwww\\.x\\n\nEOT\n", "www\\.x\\n\n"),
    (
        "<<-EOT\r\n    Foo\r\n  \r\n      Bar\r\n    EOT\r\n",
        "Foo\r\n  \r\n  Bar\r\n",
    ),
];

/// The value of the local `a` as lowered.
fn lowered_value(text: &str) -> Expr {
    with_lowered(text, |db, lowered| {
        assert!(lowered.diagnostics.is_empty(), "{:?}", lowered.diagnostics);
        let body = lowered.nodes[0].body(db);
        body.expr(body.value.expect("a local has a value")).clone()
    })
}

#[test]
fn literal_heredocs_lower_to_their_literal_value() {
    for (heredoc, expected) in LITERAL_HEREDOCS {
        let text = format!("a = {heredoc}");
        let parse = pcl_syntax::parse(&text);
        let Some(pcl_syntax::ast::Expr::Heredoc(h)) = parse
            .tree()
            .body()
            .and_then(|b| b.attributes().next())
            .and_then(|a| a.expr())
        else {
            panic!("not a heredoc: {heredoc:?}");
        };
        assert_eq!(h.literal_value().as_deref(), Some(*expected), "{heredoc:?}");
        assert_eq!(
            lowered_value(&text),
            Expr::Literal(ConstValue::String((*expected).into())),
            "{heredoc:?}"
        );
    }
}

/// The literal parts of a lowered template, directive bodies in order, with `|` for each
/// interpolation or directive boundary.
fn literal_parts(parts: &[TemplatePart], out: &mut Vec<String>) {
    for part in parts {
        match part {
            TemplatePart::Literal(text) => out.push(text.to_string()),
            TemplatePart::Interpolation(_) => out.push("|".into()),
            TemplatePart::If {
                then_parts,
                else_parts,
                ..
            } => {
                out.push("|if".into());
                literal_parts(then_parts, out);
                out.push("|else".into());
                literal_parts(else_parts, out);
                out.push("|endif".into());
            }
            TemplatePart::For { body, .. } => {
                out.push("|for".into());
                literal_parts(body, out);
                out.push("|endfor".into());
            }
        }
    }
}

fn lowered_parts(text: &str) -> Vec<String> {
    let Expr::Template(parts) = lowered_value(text) else {
        panic!("not a template: {text:?}");
    };
    let mut out = Vec::new();
    literal_parts(&parts, &mut out);
    out
}

#[test]
fn heredoc_templates_strip_indentation_in_directive_bodies_too() {
    // Directive bodies are lines of the heredoc: `y` and `z` lose the common two spaces.
    assert_eq!(
        lowered_parts(
            "a = <<-EOT\n      x\n  %{ if c }\n    y\n  %{ else }\n      z\n  %{ endif }\nEOT\n"
        ),
        [
            "    x\n",
            "|if",
            "\n  y\n",
            "|else",
            "\n    z\n",
            "|endif",
            "\n"
        ]
    );
    // A line starting with an interpolation counts 0: nothing is stripped.
    assert_eq!(
        lowered_parts("a = <<-EOT\n    Foo\n${bar}\n    Baz\n  EOT\n"),
        ["    Foo\n", "|", "\n    Baz\n"]
    );
    assert_eq!(
        lowered_parts("a = <<-EOT\n    %{ for v in vs }\n    ${v}\n    %{ endfor }\nEOT\n"),
        ["|for", "\n", "|", "\n", "|endfor", "\n"]
    );
}

#[test]
fn strip_markers_trim_the_adjacent_literal_token_only() {
    // `${~` trims the blank line before it, not the `a` line before that.
    assert_eq!(
        lowered_parts("a = <<EOT\na\n  \n${~x~}  \n\nb\nEOT\n"),
        ["a\n", "|", "\nb\n"]
    );
    // Directives take strip markers as interpolations do.
    assert_eq!(
        lowered_parts("a = \"%{ if c ~} x %{~ else ~} y %{~ endif }\""),
        ["|if", "x", "|else", "y", "|endif"]
    );
}
