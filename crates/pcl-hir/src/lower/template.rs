//! Templates: quoted strings and heredocs as template parts. The values of their literal text
//! (escapes, strip markers, `<<-` indentation) are pcl-syntax's (`TemplateLiterals`); here they
//! are melded, and interpolations and directives (with their `for` scopes) lowered.

use pcl_syntax::ast;
use pcl_syntax::TreeNode;
use pcl_syntax::{TemplateLiterals, TextRange};
use pcl_types::ConstValue;

use crate::body::*;

use super::{range_of, Lowerer};

impl Lowerer<'_> {
    /// The parts of one template body, with the values `literals` gives its literal tokens
    /// (escapes, strip markers and heredoc indentation are pcl-syntax's rules); adjacent
    /// literals are melded and empty ones dropped.
    pub(super) fn lower_template_parts<N: TreeNode>(
        &mut self,
        parts: impl Iterator<Item = ast::TemplatePart<N>>,
        literals: &TemplateLiterals,
    ) -> Vec<TemplatePart> {
        let mut out: Vec<TemplatePart> = Vec::new();
        for part in parts {
            match part {
                ast::TemplatePart::Literal(token) => {
                    // Every literal token of the template has a value in `literals`.
                    let text = literals.value_of(&token).unwrap_or_default();
                    if text.is_empty() {
                        continue;
                    }
                    match out.last_mut() {
                        Some(TemplatePart::Literal(prev)) => {
                            *prev = [&**prev, text].concat().into();
                        }
                        _ => out.push(TemplatePart::Literal(text.into())),
                    }
                }
                ast::TemplatePart::Interpolation(interp) => {
                    let expr = self.lower_opt(interp.expr(), range_of(&interp));
                    out.push(TemplatePart::Interpolation(expr));
                }
                ast::TemplatePart::If(directive) => {
                    let condition = self.lower_opt(directive.condition(), range_of(&directive));
                    let then_parts = directive
                        .then_body()
                        .map(|b| self.lower_template_parts(b.parts(), literals))
                        .unwrap_or_default();
                    let else_parts = directive
                        .else_body()
                        .map(|b| self.lower_template_parts(b.parts(), literals))
                        .unwrap_or_default();
                    out.push(TemplatePart::If {
                        condition,
                        then_parts: then_parts.into(),
                        else_parts: else_parts.into(),
                    });
                }
                ast::TemplatePart::For(directive) => {
                    let collection = self.lower_opt(directive.collection(), range_of(&directive));
                    let (key_token, value_token) = directive.variables();
                    let (key, value) =
                        self.bind_for_variables(key_token, value_token, range_of(&directive));
                    let body = directive
                        .body()
                        .map(|b| self.lower_template_parts(b.parts(), literals))
                        .unwrap_or_default();
                    self.pop_for_variables(key, value);
                    out.push(TemplatePart::For {
                        key,
                        value,
                        collection,
                        body: body.into(),
                    });
                }
            }
        }
        out
    }

    pub(super) fn finish_template(&mut self, parts: Vec<TemplatePart>, range: TextRange) -> ExprId {
        match parts.as_slice() {
            [] => self.alloc(Expr::Literal(ConstValue::String("".into())), range),
            [TemplatePart::Literal(text)] => {
                self.alloc(Expr::Literal(ConstValue::String(text.clone())), range)
            }
            _ => self.alloc(Expr::Template(parts.into()), range),
        }
    }
}
