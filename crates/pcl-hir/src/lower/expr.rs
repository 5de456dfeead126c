//! Expressions: literals, variables (resolved against the scopes), calls (`recover`'s `error`),
//! collections, `for` expressions and their variables, operators, and traversal chains with
//! HCL's splat rules.

use pcl_diagnostics::{Code, Diagnostic};
use pcl_syntax::ast;
use pcl_syntax::ast::AstNode;
use pcl_syntax::{TextRange, TreeNode, TreeToken};
use pcl_types::ConstValue;

use crate::body::*;
use crate::name::Name;

use super::{range_of, Lowerer};

impl Lowerer<'_> {
    pub(super) fn lower_expr<N: TreeNode>(&mut self, expr: &ast::Expr<N>) -> ExprId {
        let range = expr.syntax().text_range();
        match expr {
            ast::Expr::Literal(lit) => {
                let value = match lit.kind() {
                    Some(ast::LiteralKind::Null) => Some(ConstValue::Null),
                    Some(ast::LiteralKind::Bool(b)) => Some(ConstValue::Bool(b)),
                    Some(ast::LiteralKind::Number(text)) => match ConstValue::parse_number(&text) {
                        Ok(value) => Some(value),
                        // A malformed number was reported by the syntax validator.
                        Err(pcl_types::LiteralError::Malformed(_)) => None,
                        Err(error) => {
                            self.diagnostics.push(Diagnostic::new(
                                Code::InvalidLiteral,
                                self.range(range),
                                error.to_string(),
                            ));
                            None
                        }
                    },
                    None => None,
                };
                match value {
                    Some(value) => self.alloc(Expr::Literal(value), range),
                    None => self.alloc(Expr::Missing, range),
                }
            }
            ast::Expr::Variable(var) => match var.name() {
                Some(name) => {
                    let resolution = self.resolve(name.text());
                    self.alloc(
                        Expr::Variable {
                            name: Name::new(name.text()),
                            resolution,
                        },
                        range,
                    )
                }
                None => self.alloc(Expr::Missing, range),
            },
            ast::Expr::FunctionCall(call) => self.lower_call(call, range),
            ast::Expr::Paren(paren) => {
                let inner = self.lower_opt(paren.expr(), range);
                self.alloc(Expr::Paren(inner), range)
            }
            ast::Expr::Tuple(tuple) => {
                let elements: Vec<ExprId> = tuple.elements().map(|e| self.lower_expr(&e)).collect();
                self.alloc(Expr::Tuple(elements.into()), range)
            }
            ast::Expr::Object(object) => {
                let mut items = Vec::new();
                for item in object.items() {
                    let key = match item.key() {
                        Some(key) => self.lower_object_key(&key),
                        None => {
                            self.alloc(Expr::Missing, TextRange::empty(range_of(&item).start()))
                        }
                    };
                    let value = self.lower_opt(item.value(), range_of(&item));
                    items.push(ObjectItem { key, value });
                }
                self.check_duplicate_keys(&items);
                self.alloc(Expr::Object(items.into()), range)
            }
            ast::Expr::For(for_expr) => self.lower_for(for_expr, range),
            ast::Expr::Conditional(cond) => {
                let condition = self.lower_opt(cond.condition(), range);
                let then_expr = self.lower_opt(cond.then_expr(), range);
                let else_expr = self.lower_opt(cond.else_expr(), range);
                self.alloc(
                    Expr::Conditional {
                        condition,
                        then_expr,
                        else_expr,
                    },
                    range,
                )
            }
            ast::Expr::Binary(binary) => {
                let lhs = self.lower_opt(binary.lhs(), range);
                let rhs = self.lower_opt(binary.rhs(), range);
                match binary.op() {
                    Some(op) => self.alloc(Expr::Binary { op, lhs, rhs }, range),
                    None => self.alloc(Expr::Missing, range),
                }
            }
            ast::Expr::Unary(unary) => {
                let Some(op) = unary.op() else {
                    return self.alloc(Expr::Missing, range);
                };
                // `-1` is the literal -1, as in the reference.
                if let (UnaryOp::Neg, Some(ast::Expr::Literal(lit))) = (op, unary.operand()) {
                    if let Some(ast::LiteralKind::Number(text)) = lit.kind() {
                        if let Ok(value) = ConstValue::parse_number(&text) {
                            let negated = match value {
                                ConstValue::Int(i) => ConstValue::Int(Box::new(-*i)),
                                ConstValue::Number(d) => ConstValue::Number(Box::new(d.negate())),
                                other => other,
                            };
                            return self.alloc(Expr::Literal(negated), range);
                        }
                    }
                }
                let operand = self.lower_opt(unary.operand(), range);
                self.alloc(Expr::Unary { op, operand }, range)
            }
            ast::Expr::GetAttr(_)
            | ast::Expr::Index(_)
            | ast::Expr::LegacyIndex(_)
            | ast::Expr::Splat(_) => self.lower_postfix_chain(expr),
            ast::Expr::Template(template) => {
                if let Some(token) = template.plain_literal() {
                    // As the general path gives it: one literal part is a string literal.
                    let value = ConstValue::String(token.text().into());
                    return self.alloc(Expr::Literal(value), range);
                }
                let parts = self.lower_template_parts(template.parts(), &template.literals());
                self.finish_template(parts, range)
            }
            ast::Expr::Heredoc(heredoc) => {
                let parts = self.lower_template_parts(heredoc.parts(), &heredoc.literals());
                self.finish_template(parts, range)
            }
        }
    }

    /// A key given twice in one object literal (`{ name = "a", name = "b" }`): the later value
    /// is the one used, as Pulumi's binder takes it, so a warning at the later key. Keys
    /// compared by their string value (a bare name and a quoted string alike); linear in the
    /// keys.
    fn check_duplicate_keys(&mut self, items: &[ObjectItem]) {
        if items.len() < 2 {
            return;
        }
        let key_of = |item: &ObjectItem| match self.body.expr(item.key) {
            Expr::Literal(ConstValue::String(key)) => Some(&**key),
            _ => None,
        };
        let mut twice: Vec<(usize, usize)> = Vec::new();
        if items.len() <= 16 {
            // Each key read once, onto the stack; compared pairwise.
            let mut keys: [Option<&str>; 16] = [None; 16];
            for (slot, item) in keys.iter_mut().zip(items) {
                *slot = key_of(item);
            }
            for i in 1..items.len() {
                let Some(key) = keys[i] else { continue };
                if let Some(first) = keys[..i].iter().position(|k| *k == Some(key)) {
                    twice.push((first, i));
                }
            }
        } else {
            let mut seen: rustc_hash::FxHashMap<&str, usize> = Default::default();
            for (i, item) in items.iter().enumerate() {
                let Some(key) = key_of(item) else { continue };
                if let Some(&first) = seen.get(key) {
                    twice.push((first, i));
                } else {
                    seen.insert(key, i);
                }
            }
        }
        let twice: Vec<(String, ExprId, ExprId)> = twice
            .into_iter()
            .filter_map(|(first, again)| {
                let key = key_of(&items[again])?.to_string();
                Some((key, items[first].key, items[again].key))
            })
            .collect();
        for (key, first, again) in twice {
            let diagnostic = Diagnostic::new(
                Code::DuplicateObjectKey,
                self.map.expr(again),
                format!("the key `{key}` is given twice in this object: the later value is used"),
            )
            .with_related(self.map.expr(first), "first given here");
            self.diagnostics.push(diagnostic);
        }
    }

    fn lower_object_key<N: TreeNode>(&mut self, key: &ast::ObjectKey<N>) -> ExprId {
        let range = range_of(key);
        match key.expr() {
            // A bare identifier is the string it spells (`(k) = v` forces an expression).
            Some(ast::Expr::Variable(var)) => match var.name() {
                Some(name) => {
                    self.alloc(Expr::Literal(ConstValue::String(name.text().into())), range)
                }
                None => self.alloc(Expr::Missing, range),
            },
            Some(expr) => self.lower_expr(&expr),
            None => self.alloc(Expr::Missing, range),
        }
    }

    fn lower_call<N: TreeNode>(&mut self, call: &ast::FunctionCall<N>, range: TextRange) -> ExprId {
        let name = call.name();
        let args: Vec<ast::Expr<N>> = call.args().collect();
        let mut lowered = Vec::with_capacity(args.len());
        for (i, arg) in args.iter().enumerate() {
            // `recover(value, recovery)`: `error` is in scope in the recovery.
            if name == "recover" && i == 1 {
                let at = arg.syntax().text_range();
                let binding = self.bind(
                    "error",
                    BindingKind::RecoverError,
                    TextRange::empty(at.start()),
                );
                self.scopes.push((Name::new("error"), binding));
                lowered.push(self.lower_expr(arg));
                self.scopes.pop();
            } else {
                lowered.push(self.lower_expr(arg));
            }
        }
        self.alloc(
            Expr::Call(Box::new(CallExpr {
                name: Name::new(&name),
                args: lowered.into(),
                expand_final: call.has_expand_final(),
            })),
            range,
        )
    }

    fn lower_for<N: TreeNode>(&mut self, for_expr: &ast::ForExpr<N>, range: TextRange) -> ExprId {
        let intro = for_expr.intro();
        let collection = self.lower_opt(intro.as_ref().and_then(|i| i.collection()), range);
        let (key_token, value_token) = intro.as_ref().map_or((None, None), |i| i.variables());
        let (key_var, value_var) = self.bind_for_variables(key_token, value_token, range);
        let key = for_expr.key_expr().map(|k| self.lower_expr(&k));
        let value = self.lower_opt(for_expr.value_expr(), range);
        let condition = for_expr.condition().map(|c| self.lower_expr(&c));
        self.pop_for_variables(key_var, value_var);
        self.alloc(
            Expr::For(Box::new(ForExpr {
                key_var,
                value_var,
                collection,
                key,
                value,
                condition,
                grouping: for_expr.is_grouping(),
                object: for_expr.is_object(),
            })),
            range,
        )
    }

    /// Binds and pushes a `for`'s variables; reports a key and value of the same name.
    pub(super) fn bind_for_variables<T: TreeToken>(
        &mut self,
        key: Option<T>,
        value: Option<T>,
        range: TextRange,
    ) -> (Option<BindingId>, BindingId) {
        let key_var = key
            .as_ref()
            .map(|k| self.bind(k.text(), BindingKind::ForKey, k.text_range()));
        let value_var = match &value {
            Some(v) => self.bind(v.text(), BindingKind::ForValue, v.text_range()),
            // A recovered `for` without variables still gets one, so ids stay total.
            None => self.bind("", BindingKind::ForValue, TextRange::empty(range.start())),
        };
        if let (Some(k), Some(v)) = (&key, &value) {
            if k.text() == v.text() {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::DuplicateVariable,
                        self.range(v.text_range()),
                        format!(
                            "`{}` is already declared in this `for` expression",
                            v.text()
                        ),
                    )
                    .with_related(self.range(k.text_range()), "first declared here"),
                );
            }
        }
        if let (Some(k), Some(b)) = (&key, key_var) {
            self.scopes.push((Name::new(k.text()), b));
        }
        if let Some(v) = &value {
            self.scopes.push((Name::new(v.text()), value_var));
        }
        (key_var, value_var)
    }

    pub(super) fn pop_for_variables(&mut self, key_var: Option<BindingId>, value_var: BindingId) {
        for binding in [Some(value_var), key_var].into_iter().flatten() {
            if self.scopes.last().is_some_and(|(_, b)| *b == binding) {
                self.scopes.pop();
            }
        }
    }

    /// `a.b[0]`, `a[*].b`, `a.*.b`: HCL applies the steps after a splat to each element
    /// (attributes only after `.*`; attributes and indexes after `[*]`).
    fn lower_postfix_chain<N: TreeNode>(&mut self, expr: &ast::Expr<N>) -> ExprId {
        let mut steps: Vec<(ChainStep<N>, TextRange)> = Vec::new();
        let mut current = Some(expr.clone());
        let root = loop {
            match current {
                Some(ast::Expr::GetAttr(ref g)) => {
                    steps.push((ChainStep::Attr(g.name()), range_of(g)));
                    current = g.receiver();
                }
                Some(ast::Expr::Index(ref i)) => {
                    steps.push((ChainStep::Index(i.index()), range_of(i)));
                    current = i.receiver();
                }
                Some(ast::Expr::LegacyIndex(ref l)) => {
                    steps.push((ChainStep::LegacyIndex(l.index()), range_of(l)));
                    current = l.receiver();
                }
                Some(ast::Expr::Splat(ref s)) => {
                    steps.push((ChainStep::Splat { full: s.is_full() }, range_of(s)));
                    current = s.receiver();
                }
                other => break other,
            }
        };
        steps.reverse();
        let first_range = steps
            .first()
            .map_or(expr.syntax().text_range(), |(_, r)| *r);
        let value = self.lower_opt(root, TextRange::empty(first_range.start()));
        self.apply_steps(value, &steps)
    }

    /// The steps of a traversal applied to `value`. After `[*]`, the rest of the traversal,
    /// splats included, applies to each element (hclsyntax parses it anew against the
    /// element: `a[*].b.*.c` is each element's `b.*.c`); after `.*`, the attributes that follow.
    fn apply_steps<N: TreeNode>(
        &mut self,
        mut value: ExprId,
        steps: &[(ChainStep<N>, TextRange)],
    ) -> ExprId {
        let mut i = 0;
        while i < steps.len() {
            let (step, range) = &steps[i];
            match step {
                ChainStep::Splat { full } => {
                    let item = self.alloc(Expr::SplatItem, *range);
                    let mut each = item;
                    let mut end = *range;
                    let mut j = i + 1;
                    while j < steps.len() {
                        let (next, next_range) = &steps[j];
                        each = match next {
                            ChainStep::Attr(name) => {
                                self.step_attr(each, name.as_ref(), *next_range)
                            }
                            ChainStep::Index(index) if *full => {
                                self.step_index(each, index.as_ref(), *next_range)
                            }
                            ChainStep::LegacyIndex(index) if *full => {
                                self.step_legacy_index(each, index.as_ref(), *next_range)
                            }
                            ChainStep::Splat { .. } if *full => {
                                let rest = &steps[j..];
                                end = rest.last().map_or(end, |(_, r)| *r);
                                j = steps.len();
                                each = self.apply_steps(each, rest);
                                break;
                            }
                            _ => break,
                        };
                        end = *next_range;
                        j += 1;
                    }
                    value = self.alloc(
                        Expr::Splat {
                            source: value,
                            each,
                        },
                        end,
                    );
                    i = j;
                    continue;
                }
                ChainStep::Attr(name) => value = self.step_attr(value, name.as_ref(), *range),
                ChainStep::Index(index) => value = self.step_index(value, index.as_ref(), *range),
                ChainStep::LegacyIndex(index) => {
                    value = self.step_legacy_index(value, index.as_ref(), *range)
                }
            }
            i += 1;
        }
        value
    }

    fn step_attr<T: TreeToken>(
        &mut self,
        receiver: ExprId,
        name: Option<&T>,
        range: TextRange,
    ) -> ExprId {
        match name {
            Some(name) => self.alloc(
                Expr::GetAttr {
                    receiver,
                    name: Name::new(name.text()),
                },
                range,
            ),
            None => self.alloc(Expr::Missing, range),
        }
    }

    fn step_index<N: TreeNode>(
        &mut self,
        receiver: ExprId,
        index: Option<&ast::Expr<N>>,
        range: TextRange,
    ) -> ExprId {
        let index = match index {
            Some(index) => self.lower_expr(index),
            None => self.alloc(Expr::Missing, TextRange::empty(range.end())),
        };
        self.alloc(Expr::Index { receiver, index }, range)
    }

    fn step_legacy_index<T: TreeToken>(
        &mut self,
        receiver: ExprId,
        index: Option<&T>,
        range: TextRange,
    ) -> ExprId {
        let index =
            match index.and_then(|t| ConstValue::parse_number(t.text()).ok().map(|v| (t, v))) {
                Some((token, value)) => self.alloc(Expr::Literal(value), token.text_range()),
                None => self.alloc(Expr::Missing, TextRange::empty(range.end())),
            };
        self.alloc(Expr::Index { receiver, index }, range)
    }
}

/// One step of a traversal, outermost last, as `lower_postfix_chain` collects them.
enum ChainStep<N: TreeNode> {
    Attr(Option<N::Token>),
    Index(Option<ast::Expr<N>>),
    LegacyIndex(Option<N::Token>),
    Splat { full: bool },
}
