//! The typed AST's accessors on trees recovered from broken input: each part is found relative
//! to its operator or keyword token, so a missing part is `-` and never shifts another part into
//! its role. Every node with accessors is printed with what each returns (`-` for `None`),
//! then the input's errors.

use expect_test::{expect, Expect};
use pcl_syntax::ast::{self, AstNode, Expr};
use pcl_syntax::{SyntaxNode, SyntaxToken};

fn node(n: Option<&SyntaxNode>) -> String {
    match n {
        Some(n) => {
            let range = n.text_range();
            format!(
                "{:?}@{}..{} {:?}",
                n.kind(),
                u32::from(range.start()),
                u32::from(range.end()),
                n.to_string()
            )
        }
        None => "-".to_string(),
    }
}

fn expr(e: Option<Expr>) -> String {
    node(e.as_ref().map(|e| e.syntax()))
}

fn token(t: Option<SyntaxToken>) -> String {
    t.map_or("-".to_string(), |t| format!("{:?}", t.text()))
}

fn variables((key, value): (Option<SyntaxToken>, Option<SyntaxToken>)) -> String {
    format!("key={} value={}", token(key), token(value))
}

/// One line per node that has accessors: its kind and what each accessor returns.
fn describe(n: &SyntaxNode) -> Option<String> {
    let fields: Vec<(&str, String)> = if let Some(a) = ast::Attribute::cast(n.clone()) {
        vec![("name", token(a.name())), ("expr", expr(a.expr()))]
    } else if let Some(b) = ast::Block::cast(n.clone()) {
        let labels: Vec<String> = b.labels().map(|l| node(Some(l.syntax()))).collect();
        vec![
            ("type", token(b.type_name())),
            ("labels", format!("[{}]", labels.join(", "))),
            ("body", node(b.body().as_ref().map(|b| b.syntax()))),
        ]
    } else if let Some(e) = Expr::cast(n.clone()) {
        match e {
            Expr::Conditional(c) => vec![
                ("condition", expr(c.condition())),
                ("then", expr(c.then_expr())),
                ("else", expr(c.else_expr())),
            ],
            Expr::Binary(b) => vec![
                ("lhs", expr(b.lhs())),
                ("op", token(b.op_token())),
                ("rhs", expr(b.rhs())),
            ],
            Expr::Unary(u) => vec![("operand", expr(u.operand()))],
            Expr::Index(i) => vec![("receiver", expr(i.receiver())), ("index", expr(i.index()))],
            Expr::GetAttr(g) => vec![("receiver", expr(g.receiver())), ("name", token(g.name()))],
            Expr::LegacyIndex(l) => vec![
                ("receiver", expr(l.receiver())),
                ("index", token(l.index())),
            ],
            Expr::Splat(s) => vec![
                ("receiver", expr(s.receiver())),
                ("full", s.is_full().to_string()),
            ],
            Expr::Paren(p) => vec![("expr", expr(p.expr()))],
            Expr::FunctionCall(f) => {
                let slots: Vec<String> = f
                    .arg_list()
                    .map(|l| l.slots())
                    .unwrap_or_default()
                    .into_iter()
                    .map(expr)
                    .collect();
                vec![
                    ("name", format!("{:?}", f.name())),
                    ("slots", format!("[{}]", slots.join(", "))),
                ]
            }
            Expr::For(f) => vec![
                ("key", expr(f.key_expr())),
                ("value", expr(f.value_expr())),
                ("cond", expr(f.condition())),
                ("grouping", f.is_grouping().to_string()),
            ],
            _ => return None,
        }
    } else if let Some(i) = ast::ForIntro::cast(n.clone()) {
        vec![
            ("vars", variables(i.variables())),
            ("collection", expr(i.collection())),
        ]
    } else if let Some(i) = ast::ObjectItem::cast(n.clone()) {
        vec![
            ("key", expr(i.key().and_then(|k| k.expr()))),
            ("value", expr(i.value())),
        ]
    } else if let Some(t) = ast::TemplateInterpolation::cast(n.clone()) {
        vec![("expr", expr(t.expr()))]
    } else if let Some(t) = ast::TemplateIf::cast(n.clone()) {
        let body = |b: Option<ast::TemplateBody>| node(b.as_ref().map(|b| b.syntax()));
        vec![
            ("condition", expr(t.condition())),
            ("then", body(t.then_body())),
            ("else", body(t.else_body())),
            ("endif", t.endif_directive().is_some().to_string()),
        ]
    } else if let Some(t) = ast::TemplateFor::cast(n.clone()) {
        vec![
            ("vars", variables(t.variables())),
            ("collection", expr(t.collection())),
            ("body", node(t.body().as_ref().map(|b| b.syntax()))),
            ("endfor", t.endfor_directive().is_some().to_string()),
        ]
    } else {
        return None;
    };
    let fields: Vec<String> = fields
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let range = n.text_range();
    Some(format!(
        "{:?}@{}..{}: {}",
        n.kind(),
        u32::from(range.start()),
        u32::from(range.end()),
        fields.join(" ")
    ))
}

fn check(inputs: &[&str], expect: Expect) {
    let mut out = String::new();
    for input in inputs {
        out.push_str(&format!("{input:?}\n"));
        let parse = pcl_syntax::parse(input);
        for n in parse.syntax().descendants() {
            if let Some(line) = describe(&n) {
                out.push_str(&format!("  {line}\n"));
            }
        }
        for e in parse.errors() {
            out.push_str(&format!(
                "  error[{}] {:?}: {}\n",
                e.code().as_str(),
                e.range,
                e.message
            ));
        }
    }
    expect.assert_eq(&out);
}

#[test]
fn conditionals() {
    check(
        &["a = c ? x : y", "a = c ? : b", "a = c ? x :", "a = c ?"],
        expect![[r#"
            "a = c ? x : y"
              ATTRIBUTE@0..13: name="a" expr=CONDITIONAL_EXPR@4..13 "c ? x : y"
              CONDITIONAL_EXPR@4..13: condition=VARIABLE_EXPR@4..5 "c" then=VARIABLE_EXPR@8..9 "x" else=VARIABLE_EXPR@12..13 "y"
            "a = c ? : b"
              ATTRIBUTE@0..11: name="a" expr=CONDITIONAL_EXPR@4..11 "c ? : b"
              CONDITIONAL_EXPR@4..11: condition=VARIABLE_EXPR@4..5 "c" then=- else=VARIABLE_EXPR@10..11 "b"
              error[E0011] 8..9: missing true expression in conditional: expected a value before `:`
            "a = c ? x :"
              ATTRIBUTE@0..11: name="a" expr=CONDITIONAL_EXPR@4..11 "c ? x :"
              CONDITIONAL_EXPR@4..11: condition=VARIABLE_EXPR@4..5 "c" then=VARIABLE_EXPR@8..9 "x" else=-
              error[E0011] 11..11: missing expression: expected a value here
            "a = c ?"
              ATTRIBUTE@0..7: name="a" expr=CONDITIONAL_EXPR@4..7 "c ?"
              CONDITIONAL_EXPR@4..7: condition=VARIABLE_EXPR@4..5 "c" then=- else=-
              error[E0011] 7..7: missing expression: expected a value here
        "#]],
    );
}

#[test]
fn binary_and_unary() {
    check(
        &[
            "a = 1 + 2",
            "a = 1 +",
            "a = + 2",
            "a = 1 + + 2",
            "a = -",
            "a = !x",
        ],
        expect![[r#"
            "a = 1 + 2"
              ATTRIBUTE@0..9: name="a" expr=BINARY_EXPR@4..9 "1 + 2"
              BINARY_EXPR@4..9: lhs=LITERAL_EXPR@4..5 "1" op="+" rhs=LITERAL_EXPR@8..9 "2"
            "a = 1 +"
              ATTRIBUTE@0..7: name="a" expr=BINARY_EXPR@4..7 "1 +"
              BINARY_EXPR@4..7: lhs=LITERAL_EXPR@4..5 "1" op="+" rhs=-
              error[E0011] 7..7: missing expression: expected a value here
            "a = + 2"
              ATTRIBUTE@0..5: name="a" expr=-
              error[E0011] 4..5: invalid expression: expected the start of an expression
            "a = 1 + + 2"
              ATTRIBUTE@0..9: name="a" expr=BINARY_EXPR@4..9 "1 + +"
              BINARY_EXPR@4..9: lhs=LITERAL_EXPR@4..5 "1" op="+" rhs=-
              error[E0011] 8..9: invalid expression: expected the start of an expression
            "a = -"
              ATTRIBUTE@0..5: name="a" expr=UNARY_EXPR@4..5 "-"
              UNARY_EXPR@4..5: operand=-
              error[E0011] 5..5: missing expression: expected a value here
            "a = !x"
              ATTRIBUTE@0..6: name="a" expr=UNARY_EXPR@4..6 "!x"
              UNARY_EXPR@4..6: operand=VARIABLE_EXPR@5..6 "x"
        "#]],
    );
}

#[test]
fn traversals() {
    check(
        &[
            "a = x[0]",
            "a = x[]",
            "a = x[",
            "a = x.",
            "a = x.0",
            "a = x.*.y",
            "a = x[*]",
            "a = (x",
        ],
        expect![[r#"
            "a = x[0]"
              ATTRIBUTE@0..8: name="a" expr=INDEX_EXPR@4..8 "x[0]"
              INDEX_EXPR@4..8: receiver=VARIABLE_EXPR@4..5 "x" index=LITERAL_EXPR@6..7 "0"
            "a = x[]"
              ATTRIBUTE@0..7: name="a" expr=INDEX_EXPR@4..7 "x[]"
              INDEX_EXPR@4..7: receiver=VARIABLE_EXPR@4..5 "x" index=-
              error[E0011] 6..7: invalid expression: expected the start of an expression
            "a = x["
              ATTRIBUTE@0..6: name="a" expr=INDEX_EXPR@4..6 "x["
              INDEX_EXPR@4..6: receiver=VARIABLE_EXPR@4..5 "x" index=-
              error[E0014] 5..6: missing close bracket on index: expected `]` after the index expression
              error[E0011] 6..6: missing expression: expected a value here
            "a = x."
              ATTRIBUTE@0..6: name="a" expr=GET_ATTR_EXPR@4..6 "x."
              GET_ATTR_EXPR@4..6: receiver=VARIABLE_EXPR@4..5 "x" name=-
              error[E0019] 6..6: invalid attribute name: expected an attribute name after `.`
            "a = x.0"
              ATTRIBUTE@0..7: name="a" expr=LEGACY_INDEX_EXPR@4..7 "x.0"
              LEGACY_INDEX_EXPR@4..7: receiver=VARIABLE_EXPR@4..5 "x" index="0"
            "a = x.*.y"
              ATTRIBUTE@0..9: name="a" expr=GET_ATTR_EXPR@4..9 "x.*.y"
              GET_ATTR_EXPR@4..9: receiver=SPLAT_EXPR@4..7 "x.*" name="y"
              SPLAT_EXPR@4..7: receiver=VARIABLE_EXPR@4..5 "x" full=false
            "a = x[*]"
              ATTRIBUTE@0..8: name="a" expr=SPLAT_EXPR@4..8 "x[*]"
              SPLAT_EXPR@4..8: receiver=VARIABLE_EXPR@4..5 "x" full=true
            "a = (x"
              ATTRIBUTE@0..6: name="a" expr=PAREN_EXPR@4..6 "(x"
              PAREN_EXPR@4..6: expr=VARIABLE_EXPR@5..6 "x"
              error[E0014] 4..5: unbalanced parentheses: there is no closing `)` for this `(`
        "#]],
    );
}

#[test]
fn for_expressions() {
    check(
        &[
            "a = [for k, v in xs : v if k]",
            "a = [for in xs : x]",
            "a = {for k, in m : k => }",
            "a = {for k, v in m : => v}",
            "a = {for k, v in m : k => v...}",
            "a = [for x in xs : ]",
            "a = [for x in : x]",
        ],
        expect![[r#"
            "a = [for k, v in xs : v if k]"
              ATTRIBUTE@0..29: name="a" expr=FOR_EXPR@4..29 "[for k, v in xs : v if k]"
              FOR_EXPR@4..29: key=- value=VARIABLE_EXPR@22..23 "v" cond=VARIABLE_EXPR@27..28 "k" grouping=false
              FOR_INTRO@5..21: vars=key="k" value="v" collection=VARIABLE_EXPR@17..19 "xs"
            "a = [for in xs : x]"
              ATTRIBUTE@0..19: name="a" expr=FOR_EXPR@4..19 "[for in xs : x]"
              FOR_EXPR@4..19: key=- value=- cond=- grouping=false
              FOR_INTRO@5..16: vars=key=- value=- collection=VARIABLE_EXPR@12..14 "xs"
              error[E0020] 9..11: invalid `for` expression: expected a variable name after `for`
            "a = {for k, in m : k => }"
              ATTRIBUTE@0..25: name="a" expr=FOR_EXPR@4..25 "{for k, in m : k => }"
              FOR_EXPR@4..25: key=- value=- cond=- grouping=false
              FOR_INTRO@5..18: vars=key="k" value=- collection=VARIABLE_EXPR@15..16 "m"
              error[E0020] 12..14: invalid `for` expression: expected a value variable name after `,`
            "a = {for k, v in m : => v}"
              ATTRIBUTE@0..26: name="a" expr=FOR_EXPR@4..26 "{for k, v in m : => v}"
              FOR_EXPR@4..26: key=- value=VARIABLE_EXPR@24..25 "v" cond=- grouping=false
              FOR_INTRO@5..20: vars=key="k" value="v" collection=VARIABLE_EXPR@17..18 "m"
              error[E0020] 21..23: invalid `for` expression: expected a key expression before `=>`
            "a = {for k, v in m : k => v...}"
              ATTRIBUTE@0..31: name="a" expr=FOR_EXPR@4..31 "{for k, v in m : k => v...}"
              FOR_EXPR@4..31: key=VARIABLE_EXPR@21..22 "k" value=VARIABLE_EXPR@26..27 "v" cond=- grouping=true
              FOR_INTRO@5..20: vars=key="k" value="v" collection=VARIABLE_EXPR@17..18 "m"
            "a = [for x in xs : ]"
              ATTRIBUTE@0..20: name="a" expr=FOR_EXPR@4..20 "[for x in xs : ]"
              FOR_EXPR@4..20: key=- value=- cond=- grouping=false
              FOR_INTRO@5..18: vars=key=- value="x" collection=VARIABLE_EXPR@14..16 "xs"
              error[E0020] 19..20: invalid `for` expression: expected a result expression after `:`
            "a = [for x in : x]"
              ATTRIBUTE@0..18: name="a" expr=FOR_EXPR@4..18 "[for x in : x]"
              FOR_EXPR@4..18: key=- value=- cond=- grouping=false
              FOR_INTRO@5..15: vars=key=- value="x" collection=-
              error[E0020] 14..15: invalid `for` expression: expected a collection after `in`
        "#]],
    );
}

#[test]
fn calls_objects_and_attributes() {
    check(
        &[
            "a = f(1, 2)",
            "a = f(,1)",
            "a = f(1,)",
            "a = f(1,,2)",
            "a = f()",
            "a = { = 1 }",
            "a = { b = }",
            "a = { b = 1, c : 2 }",
            "a =",
            "b \"x\" y { c = 1 }",
            "b {",
        ],
        expect![[r#"
            "a = f(1, 2)"
              ATTRIBUTE@0..11: name="a" expr=FUNCTION_CALL@4..11 "f(1, 2)"
              FUNCTION_CALL@4..11: name="f" slots=[LITERAL_EXPR@6..7 "1", LITERAL_EXPR@9..10 "2"]
            "a = f(,1)"
              ATTRIBUTE@0..9: name="a" expr=FUNCTION_CALL@4..9 "f(,1)"
              FUNCTION_CALL@4..9: name="f" slots=[-, LITERAL_EXPR@7..8 "1"]
              error[E0011] 6..7: invalid expression: expected the start of an expression
            "a = f(1,)"
              ATTRIBUTE@0..9: name="a" expr=FUNCTION_CALL@4..9 "f(1,)"
              FUNCTION_CALL@4..9: name="f" slots=[LITERAL_EXPR@6..7 "1"]
            "a = f(1,,2)"
              ATTRIBUTE@0..11: name="a" expr=FUNCTION_CALL@4..11 "f(1,,2)"
              FUNCTION_CALL@4..11: name="f" slots=[LITERAL_EXPR@6..7 "1", -, LITERAL_EXPR@9..10 "2"]
              error[E0011] 8..9: invalid expression: expected the start of an expression
            "a = f()"
              ATTRIBUTE@0..7: name="a" expr=FUNCTION_CALL@4..7 "f()"
              FUNCTION_CALL@4..7: name="f" slots=[]
            "a = { = 1 }"
              ATTRIBUTE@0..11: name="a" expr=OBJECT_EXPR@4..11 "{ = 1 }"
              OBJECT_ITEM@6..9: key=- value=LITERAL_EXPR@8..9 "1"
              error[E0011] 6..7: missing key: expected a key before `=`
            "a = { b = }"
              ATTRIBUTE@0..11: name="a" expr=OBJECT_EXPR@4..11 "{ b = }"
              OBJECT_ITEM@6..9: key=VARIABLE_EXPR@6..7 "b" value=-
              error[E0011] 10..11: invalid expression: expected the start of an expression
            "a = { b = 1, c : 2 }"
              ATTRIBUTE@0..20: name="a" expr=OBJECT_EXPR@4..20 "{ b = 1, c : 2 }"
              OBJECT_ITEM@6..11: key=VARIABLE_EXPR@6..7 "b" value=LITERAL_EXPR@10..11 "1"
              OBJECT_ITEM@13..18: key=VARIABLE_EXPR@13..14 "c" value=LITERAL_EXPR@17..18 "2"
            "a ="
              ATTRIBUTE@0..3: name="a" expr=-
              error[E0011] 3..3: missing expression: expected a value here
            "b \"x\" y { c = 1 }"
              BLOCK@0..17: type="b" labels=[BLOCK_LABEL@2..5 "\"x\"", BLOCK_LABEL@6..7 "y"] body=BODY@10..15 "c = 1"
              ATTRIBUTE@10..15: name="c" expr=LITERAL_EXPR@14..15 "1"
            "b {"
              BLOCK@0..3: type="b" labels=[] body=BODY@3..3 ""
              error[E0015] 2..3: unclosed configuration block: the block's `}` is missing after this line, at the end of the file
        "#]],
    );
}

#[test]
fn templates() {
    check(
        &[
            "a = \"${x}\"",
            "a = \"${}\"",
            "a = \"%{ if c }t%{ else }e%{ endif }\"",
            "a = \"%{ if }t%{ endif }\"",
            "a = \"%{ if c }t\"",
            "a = \"%{ if c }%{ else }e%{ endif }\"",
            "a = \"%{ for k, v in xs }${v}%{ endfor }\"",
            "a = \"%{ for k, in xs }${k}%{ endfor }\"",
            "a = \"%{ for x in xs }%{ else }y%{ endfor }\"",
        ],
        expect![[r#"
            "a = \"${x}\""
              ATTRIBUTE@0..10: name="a" expr=TEMPLATE_EXPR@4..10 "\"${x}\""
              TEMPLATE_INTERPOLATION@5..9: expr=VARIABLE_EXPR@7..8 "x"
            "a = \"${}\""
              ATTRIBUTE@0..9: name="a" expr=TEMPLATE_EXPR@4..9 "\"${}\""
              TEMPLATE_INTERPOLATION@5..8: expr=-
              error[E0011] 7..8: invalid expression: expected the start of an expression
            "a = \"%{ if c }t%{ else }e%{ endif }\""
              ATTRIBUTE@0..36: name="a" expr=TEMPLATE_EXPR@4..36 "\"%{ if c }t%{ else }e%{ endif }\""
              TEMPLATE_IF@5..35: condition=VARIABLE_EXPR@11..12 "c" then=TEMPLATE_BODY@14..15 "t" else=TEMPLATE_BODY@24..25 "e" endif=true
            "a = \"%{ if }t%{ endif }\""
              ATTRIBUTE@0..24: name="a" expr=TEMPLATE_EXPR@4..24 "\"%{ if }t%{ endif }\""
              TEMPLATE_IF@5..23: condition=- then=TEMPLATE_BODY@12..13 "t" else=- endif=true
              error[E0011] 11..12: invalid expression: expected the start of an expression
            "a = \"%{ if c }t\""
              ATTRIBUTE@0..16: name="a" expr=TEMPLATE_EXPR@4..16 "\"%{ if c }t\""
              TEMPLATE_IF@5..15: condition=VARIABLE_EXPR@11..12 "c" then=TEMPLATE_BODY@14..15 "t" else=- endif=false
              error[E0023] 5..14: missing `endif`: this `if` directive has no corresponding `%{ endif }`
            "a = \"%{ if c }%{ else }e%{ endif }\""
              ATTRIBUTE@0..35: name="a" expr=TEMPLATE_EXPR@4..35 "\"%{ if c }%{ else }e%{ endif }\""
              TEMPLATE_IF@5..34: condition=VARIABLE_EXPR@11..12 "c" then=TEMPLATE_BODY@14..14 "" else=TEMPLATE_BODY@23..24 "e" endif=true
            "a = \"%{ for k, v in xs }${v}%{ endfor }\""
              ATTRIBUTE@0..40: name="a" expr=TEMPLATE_EXPR@4..40 "\"%{ for k, v in xs }${v}%{ endfor }\""
              TEMPLATE_FOR@5..39: vars=key="k" value="v" collection=VARIABLE_EXPR@20..22 "xs" body=TEMPLATE_BODY@24..28 "${v}" endfor=true
              TEMPLATE_INTERPOLATION@24..28: expr=VARIABLE_EXPR@26..27 "v"
            "a = \"%{ for k, in xs }${k}%{ endfor }\""
              ATTRIBUTE@0..38: name="a" expr=TEMPLATE_EXPR@4..38 "\"%{ for k, in xs }${k}%{ endfor }\""
              TEMPLATE_FOR@5..37: vars=key="k" value=- collection=VARIABLE_EXPR@18..20 "xs" body=TEMPLATE_BODY@22..26 "${k}" endfor=true
              TEMPLATE_INTERPOLATION@22..26: expr=VARIABLE_EXPR@24..25 "k"
              error[E0021] 15..17: invalid `for` directive: expected a value variable name after `,`
            "a = \"%{ for x in xs }%{ else }y%{ endfor }\""
              ATTRIBUTE@0..43: name="a" expr=TEMPLATE_EXPR@4..43 "\"%{ for x in xs }%{ else }y%{ endfor }\""
              TEMPLATE_FOR@5..42: vars=key=- value="x" collection=VARIABLE_EXPR@17..19 "xs" body=TEMPLATE_BODY@21..21 "" endfor=true
              error[E0022] 21..30: unexpected `else` directive: an `else` clause is not expected in a `for` directive
        "#]],
    );
}

/// A source map keeps `AstPtr`s to nodes of every kind it may point at, enums included, and
/// gets the same typed node back from the tree.
#[test]
fn pointers_round_trip() {
    let parse = pcl_syntax::parse("a = \"${x}\"\nb {\n  c = [for v in xs : v]\n}\n");
    let root = parse.syntax();
    let items: Vec<ast::BodyItem> = parse.tree().body().unwrap().items().collect();
    assert_eq!(items.len(), 2);
    for item in &items {
        assert_eq!(&ast::ptr(item).to_node(&root), item);
    }
    let exprs: Vec<Expr> = root.descendants().filter_map(Expr::cast).collect();
    assert_eq!(exprs.len(), 5);
    for e in &exprs {
        assert_eq!(&ast::ptr(e).to_node(&root), e);
    }
    let sequences: Vec<ast::TemplateSequence> = root
        .descendants()
        .filter_map(ast::TemplateSequence::cast)
        .collect();
    assert_eq!(sequences.len(), 1);
    let part = ast::ptr(&sequences[0]).to_node(&root);
    assert!(matches!(part, ast::TemplateSequence::Interpolation(_)));
    // A pointer to the enum casts to the variant's type, and back.
    let variant: ast::AstPtr<ast::TemplateInterpolation> =
        ast::ptr(&sequences[0]).cast().expect("an interpolation");
    assert_eq!(
        variant
            .to_node(&root)
            .expr()
            .map(|e| e.syntax().to_string()),
        Some("x".to_string())
    );
}
