//! Lowering tested directly: files through `lower_file` in a database of their own, dumped by
//! a small printer (expressions as compact text, locals as `name@binding`) and compared with
//! expect-test snapshots (`UPDATE_EXPECT=1` to update): item trees, bodies, scopes, source maps,
//! and heredoc values against pcl-syntax's `literal_value`.

use std::fmt::Write;
use std::path::Path;

use expect_test::{expect, Expect};
use pcl_db::RootDatabase;
use pcl_hir::{
    lower_file, BlockId, Body, BodySourceMap, Expr, ExprId, NestedBlock, ProgramFile, Resolution,
    TemplatePart,
};
use pcl_syntax::TextRange;
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

// ---- the printer -------------------------------------------------------------------------------

/// `text[range]` on one line, with its `line:col` start.
fn at(text: &str, range: TextRange) -> String {
    let start = usize::from(range.start());
    let line = text[..start].matches('\n').count() + 1;
    let col = start - text[..start].rfind('\n').map_or(0, |i| i + 1) + 1;
    let snippet = text[range].replace('\n', "⏎");
    format!("{line}:{col} `{snippet}`")
}

/// Every nested block, parents before their children.
fn all_blocks(body: &Body) -> Vec<(BlockId, &NestedBlock)> {
    fn walk<'b>(
        body: &'b Body,
        parent: Option<BlockId>,
        out: &mut Vec<(BlockId, &'b NestedBlock)>,
    ) {
        for (id, block) in body.blocks_in(parent) {
            out.push((id, block));
            walk(body, Some(id), out);
        }
    }
    let mut out = Vec::new();
    walk(body, None, &mut out);
    out
}

fn expr(body: &Body, id: ExprId) -> String {
    let e = |id: ExprId| expr(body, id);
    let list = |ids: &[ExprId]| ids.iter().map(|&i| e(i)).collect::<Vec<_>>().join(", ");
    let binding = |b: pcl_hir::BindingId| format!("{}@{}", body.binding(b).name, b.index());
    match body.expr(id) {
        Expr::Missing => "<missing>".into(),
        Expr::Literal(ConstValue::String(s)) => format!("{s:?}"),
        Expr::Literal(value) => value.to_string(),
        Expr::Template(parts) => format!("template[{}]", template(body, parts)),
        Expr::Variable {
            name,
            resolution: Resolution::Root,
        } => name.to_string(),
        Expr::Variable {
            resolution: Resolution::Local(b),
            ..
        } => binding(*b),
        Expr::SplatItem => "<item>".into(),
        Expr::Call(call) => format!(
            "{}({}{})",
            call.name,
            list(&call.args),
            if call.expand_final { "..." } else { "" }
        ),
        Expr::Paren(inner) => format!("({})", e(*inner)),
        Expr::Tuple(elements) => format!("[{}]", list(elements)),
        Expr::Object(items) => format!(
            "{{{}}}",
            items
                .iter()
                .map(|i| format!("{} = {}", e(i.key), e(i.value)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Expr::For(for_expr) => {
            let pcl_hir::ForExpr {
                key_var,
                value_var,
                collection,
                key,
                value,
                condition,
                grouping,
                object,
            } = &**for_expr;
            let vars = match key_var {
                Some(k) => format!("{}, {}", binding(*k), binding(*value_var)),
                None => binding(*value_var),
            };
            let result = match key {
                Some(k) => format!("{} => {}", e(*k), e(*value)),
                None => e(*value),
            };
            let condition = condition.map_or(String::new(), |c| format!(" if {}", e(c)));
            let (open, close) = if *object { ("{", "}") } else { ("[", "]") };
            let dots = if *grouping { "..." } else { "" };
            format!(
                "{open}for {vars} in {} : {result}{dots}{condition}{close}",
                e(*collection)
            )
        }
        Expr::Conditional {
            condition,
            then_expr,
            else_expr,
        } => format!(
            "({} ? {} : {})",
            e(*condition),
            e(*then_expr),
            e(*else_expr)
        ),
        Expr::Binary { op, lhs, rhs } => format!("({} {op:?} {})", e(*lhs), e(*rhs)),
        Expr::Unary { op, operand } => format!("({op:?} {})", e(*operand)),
        Expr::GetAttr { receiver, name } => format!("{}.{name}", e(*receiver)),
        Expr::Index { receiver, index } => format!("{}[{}]", e(*receiver), e(*index)),
        Expr::Splat { source, each } => format!("splat({} : {})", e(*source), e(*each)),
    }
}

fn template(body: &Body, parts: &[TemplatePart]) -> String {
    let binding = |b: pcl_hir::BindingId| format!("{}@{}", body.binding(b).name, b.index());
    parts
        .iter()
        .map(|part| match part {
            TemplatePart::Literal(text) => format!("{text:?}"),
            TemplatePart::Interpolation(id) => format!("${{{}}}", expr(body, *id)),
            TemplatePart::If {
                condition,
                then_parts,
                else_parts,
            } => format!(
                "%{{if {}}}{}%{{else}}{}%{{endif}}",
                expr(body, *condition),
                template(body, then_parts),
                template(body, else_parts)
            ),
            TemplatePart::For {
                key,
                value,
                collection,
                body: parts,
            } => {
                let vars = match key {
                    Some(k) => format!("{}, {}", binding(*k), binding(*value)),
                    None => binding(*value),
                };
                format!(
                    "%{{for {vars} in {}}}{}%{{endfor}}",
                    expr(body, *collection),
                    template(body, parts)
                )
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every node of the file (kind, name, occurrence, labels, where its name is), its attributes,
/// nested blocks, value and type label, the bindings its body declares, then the diagnostics.
fn dump(text: &str) -> String {
    with_lowered(text, |db, lowered| {
        let mut out = String::new();
        for node in &lowered.nodes {
            let map = node.source_map(db);
            let body = node.body(db);
            let labels: Vec<String> = node
                .signature(db)
                .labels
                .iter()
                .map(|l| format!("{l:?}"))
                .collect();
            let _ = writeln!(
                out,
                "{:?} {} #{} [{}] name {}",
                node.kind(db),
                node.name(db),
                node.occurrence(db),
                labels.join(", "),
                at(text, map.name())
            );
            for (id, block) in all_blocks(body) {
                let parent = block
                    .parent
                    .map_or(String::new(), |p| format!(" in block{}", p.index()));
                let _ = writeln!(
                    out,
                    "  block{} {} {:?}{parent}",
                    id.index(),
                    block.type_name,
                    block.labels
                );
            }
            for id in body.attr_ids() {
                let attr = body.attr(id);
                let block = attr
                    .block
                    .map_or(String::new(), |b| format!("block{}.", b.index()));
                let _ = writeln!(out, "  {block}{} = {}", attr.name, expr(body, attr.value));
            }
            if let Some(value) = body.value {
                let _ = writeln!(out, "  value = {}", expr(body, value));
            }
            if let Some(ty) = body.type_expr {
                let _ = writeln!(out, "  type = {}", expr(body, ty));
            }
            for (id, b) in body.bindings() {
                let _ = writeln!(
                    out,
                    "  binding {}@{} {:?} at {}",
                    b.name,
                    id.index(),
                    b.kind,
                    at(text, map.body().binding(id))
                );
            }
        }
        for d in &lowered.diagnostics {
            let _ = writeln!(
                out,
                "{} at {}: {}",
                d.code.as_str(),
                at(text, d.range),
                d.message
            );
        }
        out
    })
}

fn check(text: &str, expect: Expect) {
    expect.assert_eq(&dump(text));
}

/// Each expression of each node with the text its source map gives back.
fn dump_source_map(text: &str) -> String {
    with_lowered(text, |db, lowered| {
        let mut out = String::new();
        for node in &lowered.nodes {
            let map = node.source_map(db);
            let body = node.body(db);
            let _ = writeln!(
                out,
                "{} {}: item {}, keyword {}",
                node.kind(db).keyword(),
                node.name(db),
                at(text, map.range()),
                at(text, map.keyword())
            );
            for (i, label) in map.labels().enumerate() {
                let _ = writeln!(out, "  label{i} {}", at(text, label));
            }
            write_body_map(&mut out, text, body, map.body());
        }
        out
    })
}

fn write_body_map(out: &mut String, text: &str, body: &Body, map: BodySourceMap<'_>) {
    for (id, block) in all_blocks(body) {
        let _ = writeln!(
            out,
            "  block{} {}: {}, type {}",
            id.index(),
            block.type_name,
            at(text, map.block(id)),
            at(text, map.block_type(id))
        );
    }
    for id in body.attr_ids() {
        let _ = writeln!(
            out,
            "  attr {}: {}, name {}",
            body.attr(id).name,
            at(text, map.attr(id)),
            at(text, map.attr_name(id))
        );
    }
    for (id, _) in body.exprs() {
        let _ = writeln!(
            out,
            "  e{} {} <- {}",
            id.index(),
            expr(body, id),
            at(text, map.expr(id))
        );
    }
}

// ---- item trees --------------------------------------------------------------------------------

#[test]
fn item_tree_of_each_kind() {
    check(
        r#"config region string {
  default = "us-west-2"
  description = "where"
}
config "tags" "map(string)" {}
localName = "x"
resource bucket "aws:s3:Bucket" {
  bucket = localName
  options {
    protect = true
  }
}
read existing "aws:s3:Bucket" {
  id = "b-1"
}
component vpc "./vpc" {
  cidr = "10.0.0.0/16"
}
output url {
  value = bucket.websiteEndpoint
}
package {
  baseProviderName = "terraform-provider"
  parameterization {
    version = "0.1.0"
  }
}
pulumi {
  requiredVersionRange = ">=3.0.0"
}
hook resource notify {
  command = ["echo", args.name]
}
"#,
        expect![[r#"
            Config region #0 [Some("region"), Some("string")] name 1:8 `region`
              default = "us-west-2"
              description = "where"
              type = string
            Config tags #0 [Some("tags"), Some("map(string)")] name 5:8 `"tags"`
              type = map(string)
            Local localName #0 [] name 6:1 `localName`
              value = "x"
            Resource bucket #0 [Some("bucket"), Some("aws:s3:Bucket")] name 7:10 `bucket`
              block0 options []
              bucket = localName
              block0.protect = true
            Read existing #0 [Some("existing"), Some("aws:s3:Bucket")] name 13:6 `existing`
              id = "b-1"
            Component vpc #0 [Some("vpc"), Some("./vpc")] name 16:11 `vpc`
              cidr = "10.0.0.0/16"
            Output url #0 [Some("url")] name 19:8 `url`
              value = bucket.websiteEndpoint
            Package  #0 [] name 22:1 `package`
              block0 parameterization []
              baseProviderName = "terraform-provider"
              block0.version = "0.1.0"
            Pulumi pulumi #0 [] name 28:1 `pulumi`
              requiredVersionRange = ">=3.0.0"
            Hook notify #0 [Some("resource"), Some("notify")] name 31:15 `notify`
              command = ["echo", args@0.name]
              binding args@0 HookArgs at 32:3 `command`
        "#]],
    );
}

#[test]
fn invalid_and_duplicate_items() {
    check(
        r#"resource onlyName {}
resource "" "aws:s3:Bucket" {}
resouce typo "t:m:R" {}
output o string extra {}
config c int {
  nullable = "yes"
  unknownThing = 1
  nested {}
}
a = 1
a = 2
hook deploy h {}
component lonely {}
resource r "t:m:R" {
  options {
    protect = true
    protected = true
    inner {}
  }
  options {}
  lifecycle {}
}
"#,
        expect![[r#"
            Resource onlyName #0 [Some("onlyName")] name 1:10 `onlyName`
            Resource  #0 [Some(""), Some("aws:s3:Bucket")] name 2:10 `""`
            Output o #0 [Some("o"), Some("string"), Some("extra")] name 4:8 `o`
              type = string
            Config c #0 [Some("c"), Some("int")] name 5:8 `c`
              block0 nested []
              nullable = "yes"
              unknownThing = 1
              type = int
            Local a #0 [] name 10:1 `a`
              value = 1
            Local a #1 [] name 11:1 `a`
              value = 2
            Hook h #0 [Some("deploy"), Some("h")] name 12:13 `h`
            Component lonely #0 [Some("lonely")] name 13:11 `lonely`
            Resource r #0 [Some("r"), Some("t:m:R")] name 14:10 `r`
              block0 options []
              block1 inner [] in block0
              block2 options []
              block3 lifecycle []
              block0.protect = true
              block0.protected = true
            E0025 at 11:1 `a`: attribute redefined: `a` is already set in this body; each argument may be set only once
            E0201 at 1:10 `onlyName`: `resource` blocks must have exactly two labels: a name and a resource type token
            W0202 at 3:1 `resouce`: unknown block type `resouce`: the block is ignored
            E0201 at 4:8 `o string extra`: `output` blocks must have one or two labels: a name and an optional type
            E0207 at 6:14 `"yes"`: attribute `nullable` must be a literal bool
            W0209 at 7:3 `unknownThing`: `config` blocks do not use the attribute `unknownThing`: it is ignored
            W0209 at 8:3 `nested`: `config` blocks do not use nested blocks: `nested` is ignored
            E0204 at 12:6 `deploy`: invalid hook kind `deploy`: expected `resource` or `error`
            E0208 at 12:15 `{`: missing required attribute `command` of a `hook` block
            E0208 at 13:18 `{`: missing required attribute `token` of a `component` block without a source: it sets the component's type token
            E0205 at 17:5 `protected`: unsupported resource option `protected`
            E0206 at 18:5 `inner`: unsupported block type `inner` in `options`: options are attributes
            E0206 at 20:3 `options`: duplicate `options` block: a block takes at most one
            E0206 at 21:3 `lifecycle`: unsupported block type `lifecycle`
        "#]],
    );
}

#[test]
fn config_and_output_type_labels_are_expressions() {
    check(
        r#"config a "list(map(string))" {}
config b int {}
output c "optional(" {
  value = 1
}
"#,
        expect![[r#"
            Config a #0 [Some("a"), Some("list(map(string))")] name 1:8 `a`
              type = list(map(string))
            Config b #0 [Some("b"), Some("int")] name 2:8 `b`
              type = int
            Output c #0 [Some("c"), Some("optional(")] name 3:8 `c`
              value = 1
              type = <missing>
            E0313 at 3:10 `"optional("`: invalid type expression `optional(`: unterminated function call: there is no closing `)` for this `(`
        "#]],
    );
}

// ---- bodies --------------------------------------------------------------------------------------

#[test]
fn expressions_of_each_kind() {
    check(
        r#"literals = [null, true, 1, -2, 1.5e3, "s", "a\tb"]
operators = !a && (b || c) == -d * 2 + e % 3
conditional = a ? b : c
calls = f(x, y...)
objects = { key = 1, "quoted" = 2, (computed) = 3, 4 = four }
traversals = a.b[0].c.1
splats = [a[*].b[0], a.*.b[0], a[*]]
for_tuple = [for i, v in xs : v if i > 0]
for_object = { for k, v in m : upper(k) => v... }
template = "a${b}c %{ if d }e%{ else }f%{ endif }%{ for x in xs }${x}%{ endfor }"
heredoc = <<-EOT
    line ${x}
      indented
    EOT
recovered = recover(a.b, error)
"#,
        expect![[r#"
            Local literals #0 [] name 1:1 `literals`
              value = [null, true, 1, -2, 1500, "s", "a\tb"]
            Local operators #0 [] name 2:1 `operators`
              value = ((Not a) And (((b Or c)) Eq (((Neg d) Mul 2) Add (e Mod 3))))
            Local conditional #0 [] name 3:1 `conditional`
              value = (a ? b : c)
            Local calls #0 [] name 4:1 `calls`
              value = f(x, y...)
            Local objects #0 [] name 5:1 `objects`
              value = {"key" = 1, "quoted" = 2, (computed) = 3, 4 = four}
            Local traversals #0 [] name 6:1 `traversals`
              value = a.b[0].c[1]
            Local splats #0 [] name 7:1 `splats`
              value = [splat(a : <item>.b[0]), splat(a : <item>.b)[0], splat(a : <item>)]
            Local for_tuple #0 [] name 8:1 `for_tuple`
              value = [for i@0, v@1 in xs : v@1 if (i@0 Gt 0)]
              binding i@0 ForKey at 8:18 `i`
              binding v@1 ForValue at 8:21 `v`
            Local for_object #0 [] name 9:1 `for_object`
              value = {for k@0, v@1 in m : upper(k@0) => v@1...}
              binding k@0 ForKey at 9:20 `k`
              binding v@1 ForValue at 9:23 `v`
            Local template #0 [] name 10:1 `template`
              value = template["a" ${b} "c " %{if d}"e"%{else}"f"%{endif} %{for x@0 in xs}${x@0}%{endfor}]
              binding x@0 ForValue at 10:57 `x`
            Local heredoc #0 [] name 11:1 `heredoc`
              value = template["line " ${x} "\n  indented\n"]
            Local recovered #0 [] name 15:1 `recovered`
              value = recover(a.b, error@0)
              binding error@0 RecoverError at 15:26 ``
        "#]],
    );
}

#[test]
fn broken_expressions_lower_to_missing() {
    check(
        "a = 1 +\nb = x[]\nc = f(\n",
        expect![[r#"
            Local a #0 [] name 1:1 `a`
              value = (1 Add <missing>)
            Local b #0 [] name 2:1 `b`
              value = x[<missing>]
            Local c #0 [] name 3:1 `c`
              value = f()
            E0011 at 1:8 `⏎`: missing expression: expected a value here
            E0011 at 2:7 `]`: invalid expression: expected the start of an expression
            E0014 at 3:6 `(`: unterminated function call: there is no closing `)` for this `(`
        "#]],
    );
}

// ---- scopes --------------------------------------------------------------------------------------

#[test]
fn for_variables_are_scoped_to_their_for() {
    check(
        r#"a = [for k, v in m : [k, v, [for v in v : v]]]
b = k
c = "%{ for i, x in xs }${i}${x}%{ endfor }${x}"
d = [for x, x in xs : x]
"#,
        expect![[r#"
            Local a #0 [] name 1:1 `a`
              value = [for k@0, v@1 in m : [k@0, v@1, [for v@2 in v@1 : v@2]]]
              binding k@0 ForKey at 1:10 `k`
              binding v@1 ForValue at 1:13 `v`
              binding v@2 ForValue at 1:34 `v`
            Local b #0 [] name 2:1 `b`
              value = k
            Local c #0 [] name 3:1 `c`
              value = template[%{for i@0, x@1 in xs}${i@0} ${x@1}%{endfor} ${x}]
              binding i@0 ForKey at 3:13 `i`
              binding x@1 ForValue at 3:16 `x`
            Local d #0 [] name 4:1 `d`
              value = [for x@0, x@1 in xs : x@1]
              binding x@0 ForKey at 4:10 `x`
              binding x@1 ForValue at 4:13 `x`
            E0312 at 4:13 `x`: `x` is already declared in this `for` expression
        "#]],
    );
}

#[test]
fn range_is_in_scope_in_a_ranged_resource_but_not_its_options() {
    check(
        r#"resource r "t:m:R" {
  name = range.value
  options {
    range = 3
    dependsOn = [range]
  }
}
component c "./c" {
  name = range.key
  options {
    range = { a = 1 }
    parent = range.value
  }
}
resource plain "t:m:R" {
  name = range
}
hook resource h {
  command = [args.name, range]
}
"#,
        expect![[r#"
            Resource r #0 [Some("r"), Some("t:m:R")] name 1:10 `r`
              block0 options []
              name = range@0.value
              block0.range = 3
              block0.dependsOn = [range]
              binding range@0 Range at 1:21 ``
            Component c #0 [Some("c"), Some("./c")] name 8:11 `c`
              block0 options []
              name = range@0.key
              block0.range = {"a" = 1}
              block0.parent = range@0.value
              binding range@0 Range at 8:20 ``
            Resource plain #0 [Some("plain"), Some("t:m:R")] name 15:10 `plain`
              name = range
            Hook h #0 [Some("resource"), Some("h")] name 18:15 `h`
              command = [args@0.name, range]
              binding args@0 HookArgs at 19:3 `command`
        "#]],
    );
}

// ---- source maps ---------------------------------------------------------------------------------

#[test]
fn source_maps_give_each_part_its_text() {
    expect![[r#"
        resource r: item 1:1 `resource r "t:m:R" {⏎  list = [for x in xs : x.a[0]]⏎  options {⏎    protect = true⏎  }⏎}`, keyword 1:1 `resource`
          label0 1:10 `r`
          label1 1:12 `"t:m:R"`
          block0 options: 3:3 `options {⏎    protect = true⏎  }`, type 3:3 `options`
          attr list: 2:3 `list = [for x in xs : x.a[0]]`, name 2:3 `list`
          attr protect: 4:5 `protect = true`, name 4:5 `protect`
          e0 xs <- 2:20 `xs`
          e1 x@0 <- 2:25 `x`
          e2 x@0.a <- 2:25 `x.a`
          e3 0 <- 2:29 `0`
          e4 x@0.a[0] <- 2:25 `x.a[0]`
          e5 [for x@0 in xs : x@0.a[0]] <- 2:10 `[for x in xs : x.a[0]]`
          e6 true <- 4:15 `true`
        config c: item 7:1 `config c "list(int)" {}`, keyword 7:1 `config`
          label0 7:8 `c`
          label1 7:10 `"list(int)"`
          e0 int <- 7:16 `int`
          e1 list(int) <- 7:11 `list(int)`
        local msg: item 8:1 `msg = "hi ${r.id}"`, keyword 8:1 `msg`
          e0 r <- 8:13 `r`
          e1 r.id <- 8:13 `r.id`
          e2 template["hi " ${r.id}] <- 8:7 `"hi ${r.id}"`
    "#]]
    .assert_eq(&dump_source_map(
        r#"resource r "t:m:R" {
  list = [for x in xs : x.a[0]]
  options {
    protect = true
  }
}
config c "list(int)" {}
msg = "hi ${r.id}"
"#,
    ));
}
