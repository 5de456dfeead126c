//! `invoke("pkg:mod:fn", {args}, {options})` and `call(resource, "method", {args})`, typed from
//! package schemas.

use pcl_diagnostics::Code;
use pcl_hir::{Expr, ExprId};
use pcl_types::{Annotation, ConstValue, Eventual, Type, TypeKind};

use super::{show, Infer};
use crate::packages::{function_schema, package_request, TokenError, TokenRequest};
use crate::Target;

/// The options object of an invoke (`InvokeOptions`).
fn invoke_options_type() -> Type {
    let optional = Type::optional;
    Type::object([
        ("dependsOn", optional(Type::list(Type::dynamic()))),
        ("parent", Type::dynamic()),
        ("pluginDownloadUrl", optional(Type::string())),
        ("provider", Type::dynamic()),
        ("version", optional(Type::string())),
    ])
}

impl<'a, 'db> Infer<'a, 'db> {
    fn string_literal(&self, expr: ExprId) -> Option<String> {
        match self.body.expr(expr) {
            Expr::Literal(ConstValue::String(s)) => Some(s.to_string()),
            _ => None,
        }
    }

    /// Types an invoke from its function's schema. `args`: each argument and its type (the
    /// token's literal is reported by the caller when it is not a literal).
    ///
    /// `count_known`: the call expands no list into its arguments (`invoke(t, xs...)`), so
    /// their number is known and checked.
    pub(crate) fn bind_invoke(&mut self, args: &[(ExprId, Type)], count_known: bool) -> Type {
        let Some(&(token_expr, _)) = args.first() else {
            return Type::dynamic();
        };
        // The token, the arguments and the invoke options, unless the function is known to
        // take its arguments one by one.
        let too_many = |cx: &mut Self, max: usize| {
            if count_known && args.len() > max {
                cx.report(
                    Code::ArgumentCount,
                    Target::Expr(args[max].0),
                    format!(
                        "too many arguments to `invoke`: expected at most {max}, got {}",
                        args.len()
                    ),
                );
            }
        };
        let Some(token) = self.string_literal(token_expr) else {
            too_many(self, 3);
            return Type::dynamic();
        };
        if let Err(e) = pcl_schema::token::decompose_token(&token) {
            self.report(
                Code::MalformedToken,
                Target::Expr(token_expr),
                e.to_string(),
            );
            too_many(self, 3);
            return Type::dynamic();
        }
        let Some(package) = pcl_schema::token::package_of_token(&token) else {
            too_many(self, 3);
            return Type::dynamic();
        };
        let request = package_request(self.db, self.program, package);
        let key = TokenRequest::new(self.db, request, token.clone());
        let function = match function_schema(self.db, key) {
            Ok(function) => function.clone(),
            Err(TokenError::Package(error)) => {
                let error = error.clone();
                self.report_unknown_package(Target::Expr(token_expr), &error);
                too_many(self, 3);
                return Type::dynamic();
            }
            Err(TokenError::Unknown(unknown)) => {
                let help = unknown.help();
                let fix = unknown.suggestions.first().map(|s| format!("\"{s}\""));
                self.report_strict(
                    Code::UnknownInvokeFunction,
                    Target::Expr(token_expr),
                    format!(
                        "unknown function `{token}` in package `{}`",
                        unknown.package
                    ),
                    help,
                    fix,
                );
                too_many(self, 3);
                return Type::dynamic();
            }
        };
        let sig = &function.signature;
        // The reference requires the second argument of every known function ("missing
        // second arg"): the arguments object, `{}` when nothing is required, or the first
        // positional argument.
        if count_known && args.len() < 2 {
            let message = match &sig.positional {
                Some(params) => format!(
                    "missing the arguments of `{token}`: it takes {} ({}) and then, optionally, the invoke options",
                    pcl_diagnostics::style::count(params.len(), "positional argument"),
                    pcl_diagnostics::style::quoted_list(
                        &params.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
                        "and"
                    )
                ),
                None => {
                    let required = required_properties(&sig.plain_args);
                    if required.is_empty() {
                        format!(
                            "missing the arguments of `{token}`: `invoke` takes them as its second argument, `{{}}` when there are none"
                        )
                    } else {
                        format!(
                            "missing the arguments of `{token}`: it requires {}",
                            pcl_diagnostics::style::quoted_list(&required, "and")
                        )
                    }
                }
            };
            self.report(Code::InvalidInvoke, Target::Expr(token_expr), message);
            return if sig.positional.is_some() {
                Type::promise(sig.result.clone())
            } else {
                sig.promise_result()
            };
        }
        let any_output = args[1..]
            .iter()
            .any(|(_, t)| t.eventual_strength() == Eventual::Output);
        if let Some(positional) = &sig.positional {
            return self.bind_positional_invoke(&token, args, positional, sig, any_output);
        }
        too_many(self, 3);
        let output_form = sig.has_result && any_output;
        match args.get(1) {
            Some((expr, ty)) => {
                let dest = if output_form {
                    &sig.input_args
                } else {
                    &sig.plain_args
                };
                self.check_value(
                    *expr,
                    ty,
                    dest,
                    false,
                    format_args!("the arguments of `{token}`"),
                );
            }
            None => {
                if sig.has_inputs && !sig.plain_args.is_optional() {
                    let required = required_properties(&sig.plain_args);
                    if !required.is_empty() {
                        self.report(
                            Code::InvalidInvoke,
                            Target::Expr(token_expr),
                            format!(
                                "missing the arguments of `{token}`: it requires {}",
                                pcl_diagnostics::style::quoted_list(&required, "and")
                            ),
                        );
                    }
                }
            }
        }
        if let Some((expr, ty)) = args.get(2) {
            self.check_value(
                *expr,
                ty,
                &invoke_options_type(),
                false,
                format_args!("the options of `invoke`"),
            );
        }
        if output_form {
            sig.output_result()
        } else {
            sig.promise_result()
        }
    }

    fn bind_positional_invoke(
        &mut self,
        token: &str,
        args: &[(ExprId, Type)],
        params: &[(String, Type)],
        sig: &pcl_schema::FunctionSignature,
        any_output: bool,
    ) -> Type {
        let given = &args[1..];
        if let (1, Some((expr, _))) = (given.len(), given.first()) {
            if matches!(self.body.expr(*expr), Expr::Object(_))
                && !params.first().is_some_and(|(_, t)| {
                    matches!(super::bind::shape_of(t).kind(), TypeKind::Object(_))
                })
            {
                // Older Pulumi accepted the object form; current Pulumi rejects it. A warning
                // keeps those programs checkable, and the object is checked as arguments.
                let names: Vec<&str> = params.iter().map(|(n, _)| n.as_str()).collect();
                self.report_with(
                    Code::InvalidInvoke,
                    pcl_diagnostics::Severity::Warning,
                    Target::Expr(*expr),
                    format!(
                        "function `{token}` is declared with multi-argument inputs: current Pulumi requires positional arguments, like `invoke(\"{token}\", {})`",
                        names.join(", ")
                    ),
                    None,
                    None,
                );
                let (expr, ty) = (*expr, given[0].1.clone());
                self.check_value(
                    expr,
                    &ty,
                    &sig.plain_args,
                    false,
                    format_args!("the arguments of `{token}`"),
                );
                return if any_output {
                    Type::output(sig.result.clone())
                } else {
                    Type::promise(sig.result.clone())
                };
            }
        }
        // The arguments, then optionally the invoke options.
        if given.len() > params.len() + 1 {
            self.report(
                Code::ArgumentCount,
                Target::Expr(given[params.len() + 1].0),
                format!(
                    "too many arguments to `{token}`: it takes {} and the invoke options",
                    pcl_diagnostics::style::count(params.len(), "positional argument")
                ),
            );
        }
        for (i, (name, ty)) in params.iter().enumerate() {
            match given.get(i) {
                Some((expr, src)) => {
                    self.check_value(
                        *expr,
                        src,
                        ty,
                        false,
                        format_args!("the argument `{name}` of `{token}`"),
                    );
                }
                None if !ty.is_optional() => {
                    self.report(
                        Code::ArgumentCount,
                        Target::Expr(args[0].0),
                        format!(
                            "missing required argument `{name}` of `{token}` (of type {})",
                            show(ty)
                        ),
                    );
                }
                None => {}
            }
        }
        if let Some((expr, ty)) = given.get(params.len()) {
            self.check_value(
                *expr,
                ty,
                &invoke_options_type(),
                false,
                format_args!("the options of `invoke`"),
            );
        }
        if any_output {
            Type::output(sig.result.clone())
        } else {
            Type::promise(sig.result.clone())
        }
    }

    /// Types `call(resource, "method", {args})` from the resource's schema.
    pub(crate) fn bind_call(&mut self, args: &[(ExprId, Type)]) -> Type {
        let [(receiver, receiver_ty), (method_expr, _), rest @ ..] = args else {
            return Type::dynamic();
        };
        let token = match receiver_ty.kind() {
            TypeKind::Object(o) => o.annotations().iter().find_map(|a| match a {
                Annotation::ResourceOutputs(token) => Some(token.to_string()),
                _ => None,
            }),
            _ => None,
        };
        let Some(token) = token else {
            if !receiver_ty.is_dynamic() {
                self.report(
                    Code::InvalidInvoke,
                    Target::Expr(*receiver),
                    format!(
                        "the receiver of `call` must be a single resource, not {}",
                        show(receiver_ty)
                    ),
                );
            }
            return Type::dynamic();
        };
        let Some(method) = self.string_literal(*method_expr) else {
            return Type::dynamic();
        };
        let Some(package) = pcl_schema::token::package_of_token(&token) else {
            return Type::dynamic();
        };
        let request = package_request(self.db, self.program, package);
        let sig = match crate::packages::method_signature(self.db, request, &token, &method) {
            Ok(sig) => sig,
            Err(message) => {
                self.report(
                    Code::InvalidInvoke,
                    Target::Expr(*method_expr),
                    message.to_string(),
                );
                return Type::dynamic();
            }
        };
        if let Some((expr, ty)) = rest.first() {
            self.check_value(
                *expr,
                ty,
                &sig.args,
                false,
                format_args!("the arguments of method `{method}`"),
            );
        }
        sig.result
    }
}

fn required_properties(object: &Type) -> Vec<String> {
    match object.kind() {
        TypeKind::Object(o) => o
            .properties()
            .iter()
            // Required: what the conversion of the arguments reports missing when left out
            // (not an optional or dynamic input, nor a constant one, which accepts `null`).
            .filter(|(_, t)| {
                !t.is_optional()
                    && !t.is_dynamic()
                    && t.conversion_kind_from(&Type::none()) == pcl_types::ConversionKind::None
            })
            .map(|(k, _)| k.to_string())
            .collect(),
        _ => Vec::new(),
    }
}
