//! The type scope of config and output labels: `list(string)`, `object({a = int})`,
//! `optional(...)`, `any`.

use pcl_diagnostics::{suggest, Code};
use pcl_hir::{Expr, ExprId};
use pcl_types::{ConstValue, Type};

use super::Infer;
use crate::Target;

const TYPE_NAMES: &[&str] = &["any", "bool", "int", "number", "string"];
const CONSTRUCTORS: &[&str] = &["list", "map", "object", "optional", "set", "tuple"];

/// The type a type expression denotes; problems are reported and give `dynamic`.
pub(crate) fn eval(cx: &mut Infer<'_, '_>, id: ExprId) -> Type {
    let ty = eval_inner(cx, id);
    cx.set(id, ty)
}

fn eval_inner(cx: &mut Infer<'_, '_>, id: ExprId) -> Type {
    let body = cx.body;
    match body.expr(id) {
        Expr::Missing => Type::dynamic(),
        Expr::Paren(inner) => eval(cx, *inner),
        Expr::Variable { name, .. } => match name.as_str() {
            "string" => Type::string(),
            "number" => Type::number(),
            "int" => Type::int(),
            "bool" => Type::bool(),
            "any" | "dynamic" => Type::dynamic(),
            other => {
                let suggestion =
                    suggest::best_match(other, TYPE_NAMES.iter().copied()).map(str::to_string);
                cx.report_with(
                    Code::InvalidTypeExpression,
                    Code::InvalidTypeExpression.default_severity(),
                    Target::Expr(id),
                    format!("unknown type `{other}`: the types are `any`, `bool`, `int`, `number`, `string` and the constructors `list`, `map`, `object`, `optional`, `set` and `tuple`"),
                    suggestion.as_deref().map(pcl_diagnostics::style::did_you_mean),
                    suggestion,
                );
                Type::dynamic()
            }
        },
        Expr::Call(call) => {
            let (name, args) = (call.name.as_str(), &call.args);
            if !CONSTRUCTORS.contains(&name) {
                let suggestion =
                    suggest::best_match(name, CONSTRUCTORS.iter().copied()).map(str::to_string);
                cx.report_with(
                    Code::InvalidTypeExpression,
                    Code::InvalidTypeExpression.default_severity(),
                    Target::Expr(id),
                    format!("unknown type constructor `{name}`"),
                    suggestion
                        .as_deref()
                        .map(pcl_diagnostics::style::did_you_mean),
                    None,
                );
                return Type::dynamic();
            }
            if args.len() != 1 {
                cx.report(
                    Code::InvalidTypeExpression,
                    Target::Expr(id),
                    format!("`{name}()` takes exactly one argument, got {}", args.len()),
                );
                for arg in args.iter() {
                    eval(cx, *arg);
                }
                return Type::dynamic();
            }
            let arg = args[0];
            match name {
                "list" => Type::list(eval(cx, arg)),
                "set" => Type::set(eval(cx, arg)),
                "map" => Type::map(eval(cx, arg)),
                "optional" => Type::optional(eval(cx, arg)),
                "object" => match body.expr(arg) {
                    Expr::Object(items) => {
                        let mut properties = Vec::new();
                        for item in items.iter() {
                            let value = eval(cx, item.value);
                            match body.expr(item.key) {
                                Expr::Literal(ConstValue::String(key)) => {
                                    cx.set(item.key, Type::string());
                                    properties.push((key.to_string(), value));
                                }
                                _ => {
                                    cx.set(item.key, Type::dynamic());
                                    cx.report(
                                        Code::InvalidTypeExpression,
                                        Target::Expr(item.key),
                                        "the keys of an object type must be names or strings",
                                    );
                                }
                            }
                        }
                        cx.set(arg, Type::dynamic());
                        Type::object(properties)
                    }
                    _ => {
                        eval(cx, arg);
                        cx.report(
                            Code::InvalidTypeExpression,
                            Target::Expr(arg),
                            "the argument to `object()` must be an object type, like `object({name = string})`",
                        );
                        Type::dynamic()
                    }
                },
                _ => match body.expr(arg) {
                    Expr::Tuple(elements) => {
                        let types: Vec<Type> = elements.iter().map(|e| eval(cx, *e)).collect();
                        cx.set(arg, Type::dynamic());
                        Type::tuple(types)
                    }
                    _ => {
                        eval(cx, arg);
                        cx.report(
                            Code::InvalidTypeExpression,
                            Target::Expr(arg),
                            "the argument to `tuple()` must be a tuple type, like `tuple([string, int])`",
                        );
                        Type::dynamic()
                    }
                },
            }
        }
        _ => {
            cx.report(
                Code::InvalidTypeExpression,
                Target::Expr(id),
                "not a type: expected a type name (`string`, `number`, `int`, `bool`, `any`) or a constructor (`list(T)`, `map(T)`, `set(T)`, `optional(T)`, `object({...})`, `tuple([...])`)",
            );
            Type::dynamic()
        }
    }
}
