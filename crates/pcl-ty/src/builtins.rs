//! The builtin functions of PCL, with their signatures, argument checks and return types
//! (`pcl-semantics.md` §2).

use pcl_diagnostics::{suggest, Code, Severity};
use pcl_hir::{Expr, ExprId, Name};
use pcl_types::{unify_all, Annotation, ConstValue, Eventual, Type, TypeKind};

use crate::infer::{show, Infer};
use crate::Target;

/// A builtin function: its name, its signature as shown to users, and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinDoc {
    pub name: &'static str,
    /// `name(param: type, ...) -> result`; parameters are separated by `, ` at the top level.
    pub signature: &'static str,
    pub doc: &'static str,
}

/// Every builtin function, sorted by name: the one list of builtins (names, signatures shown by
/// editors, documentation); the checks of each are in `infer_call`.
pub const BUILTINS: &[BuiltinDoc] = &[
    BuiltinDoc {
        name: "assetArchive",
        signature: "assetArchive(assets: map(Asset | Archive)) -> Archive",
        doc: "An archive made of the named assets and archives.",
    },
    BuiltinDoc {
        name: "call",
        signature: "call(self: resource, method: string, args: object) -> output(T)",
        doc: "Calls a method of a resource: `method` names it, `args` are its arguments.",
    },
    BuiltinDoc {
        name: "can",
        signature: "can(value) -> bool",
        doc: "Whether `value` evaluates without an error.",
    },
    BuiltinDoc {
        name: "cwd",
        signature: "cwd() -> string",
        doc: "The working directory of the deployment.",
    },
    BuiltinDoc {
        name: "element",
        signature: "element(list: list(T), index: int) -> T",
        doc: "The element of `list` at `index` (wrapping around).",
    },
    BuiltinDoc {
        name: "entries",
        signature: "entries(collection: list(T) | map(T)) -> list({key, value})",
        doc: "The key and value of every element of a list or map.",
    },
    BuiltinDoc {
        name: "fileArchive",
        signature: "fileArchive(path: string) -> Archive",
        doc: "An archive read from a file or directory.",
    },
    BuiltinDoc {
        name: "fileAsset",
        signature: "fileAsset(path: string) -> Asset",
        doc: "An asset read from a file.",
    },
    BuiltinDoc {
        name: "filebase64",
        signature: "filebase64(path: string) -> string",
        doc: "The contents of a file, base64-encoded.",
    },
    BuiltinDoc {
        name: "filebase64sha256",
        signature: "filebase64sha256(path: string) -> string",
        doc: "The base64-encoded SHA-256 hash of a file's contents.",
    },
    BuiltinDoc {
        name: "fromBase64",
        signature: "fromBase64(value: string) -> string",
        doc: "Decodes a base64 string.",
    },
    BuiltinDoc {
        name: "getOutput",
        signature: "getOutput(stackReference, outputName: string) -> output(dynamic)",
        doc: "An output of another stack, read through a StackReference resource.",
    },
    BuiltinDoc {
        name: "invoke",
        signature: "invoke(token: string, args: object, options?: object) -> T",
        doc: "Calls a provider function; `token` names it (a string literal).",
    },
    BuiltinDoc {
        name: "join",
        signature: "join(separator: string, strings: list(string)) -> string",
        doc: "The strings joined with the separator.",
    },
    BuiltinDoc {
        name: "length",
        signature: "length(value: list | map | object | string) -> int",
        doc: "The number of elements, properties or characters.",
    },
    BuiltinDoc {
        name: "lookup",
        signature: "lookup(map: map(T), key: string, default?: T) -> T",
        doc: "The element of `map` at `key`, or `default` when there is none.",
    },
    BuiltinDoc {
        name: "max",
        signature: "max(first: number, rest: number...) -> number",
        doc: "The largest of the numbers (`int` when all are).",
    },
    BuiltinDoc {
        name: "min",
        signature: "min(first: number, rest: number...) -> number",
        doc: "The smallest of the numbers (`int` when all are).",
    },
    BuiltinDoc {
        name: "notImplemented",
        signature: "notImplemented(errorMessage: string) -> dynamic",
        doc:
            "A placeholder for an expression a converter could not translate; fails when evaluated.",
    },
    BuiltinDoc {
        name: "organization",
        signature: "organization() -> string",
        doc: "The name of the current organization.",
    },
    BuiltinDoc {
        name: "project",
        signature: "project() -> string",
        doc: "The name of the current project.",
    },
    BuiltinDoc {
        name: "pulumiResourceName",
        signature: "pulumiResourceName(resource) -> string",
        doc: "The logical name of a resource.",
    },
    BuiltinDoc {
        name: "pulumiResourceType",
        signature: "pulumiResourceType(resource) -> string",
        doc: "The type token of a resource.",
    },
    BuiltinDoc {
        name: "range",
        signature: "range(fromOrTo: int, to?: int) -> list(int)",
        doc: "The integers from `fromOrTo` (or 0) up to, not including, `to` (or `fromOrTo`).",
    },
    BuiltinDoc {
        name: "readFile",
        signature: "readFile(path: string) -> string",
        doc: "The contents of a file.",
    },
    BuiltinDoc {
        name: "recover",
        signature: "recover(value: output(T), recovery: T) -> output(T)",
        doc: "`value`, or `recovery` (where `error` is the error's message) when `value` fails.",
    },
    BuiltinDoc {
        name: "remoteArchive",
        signature: "remoteArchive(uri: string) -> Archive",
        doc: "An archive fetched from a URI.",
    },
    BuiltinDoc {
        name: "remoteAsset",
        signature: "remoteAsset(uri: string) -> Asset",
        doc: "An asset fetched from a URI.",
    },
    BuiltinDoc {
        name: "rootDirectory",
        signature: "rootDirectory() -> string",
        doc: "The directory of the program's Pulumi.yaml.",
    },
    BuiltinDoc {
        name: "secret",
        signature: "secret(value: T) -> output(T)",
        doc: "`value`, marked secret.",
    },
    BuiltinDoc {
        name: "sha1",
        signature: "sha1(input: string) -> string",
        doc: "The hexadecimal SHA-1 hash of a string.",
    },
    BuiltinDoc {
        name: "singleOrNone",
        signature: "singleOrNone(list: list(T)) -> T?",
        doc: "The only element of a list, or null when it is empty.",
    },
    BuiltinDoc {
        name: "split",
        signature: "split(separator: string, string: string) -> list(string)",
        doc: "The parts of `string` between occurrences of `separator`.",
    },
    BuiltinDoc {
        name: "stack",
        signature: "stack() -> string",
        doc: "The name of the current stack.",
    },
    BuiltinDoc {
        name: "stringAsset",
        signature: "stringAsset(value: string) -> Asset",
        doc: "An asset whose contents are the string.",
    },
    BuiltinDoc {
        name: "toBase64",
        signature: "toBase64(value: string) -> string",
        doc: "Encodes a string in base64.",
    },
    BuiltinDoc {
        name: "toJSON",
        signature: "toJSON(value) -> string",
        doc: "The value as JSON text.",
    },
    BuiltinDoc {
        name: "try",
        signature: "try(expressions...) -> T",
        doc: "The first of the expressions that evaluates without an error.",
    },
    BuiltinDoc {
        name: "unsecret",
        signature: "unsecret(value: T) -> output(T)",
        doc: "`value`, no longer marked secret.",
    },
];

/// The builtin named `name`.
pub fn builtin_doc(name: &str) -> Option<&'static BuiltinDoc> {
    BUILTINS
        .binary_search_by(|b| b.name.cmp(name))
        .ok()
        .map(|i| &BUILTINS[i])
}

/// Every builtin function name, sorted.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTINS.iter().map(|b| b.name)
}

/// Functions PCL had and removed (Pulumi 3.230).
const REMOVED: &[&str] = &["mimeType", "readDir"];

pub(crate) fn is_builtin(name: &str) -> bool {
    builtin_doc(name).is_some()
}

/// One argument after `...` expansion.
#[derive(Clone)]
struct Arg {
    expr: ExprId,
    ty: Type,
}

/// The arguments of a call: explicit ones, and whether a list was expanded into an unknown
/// number of them (then arity cannot be checked, and the element type fills the rest).
struct Args {
    args: Vec<Arg>,
    spread: Option<Arg>,
}

impl Args {
    /// The explicit arguments with their types (what schema-typed calls check).
    fn typed(&self) -> Vec<(ExprId, Type)> {
        self.args.iter().map(|a| (a.expr, a.ty.clone())).collect()
    }

    fn len_known(&self) -> Option<usize> {
        self.spread.is_none().then_some(self.args.len())
    }

    /// The `i`-th argument, or the spread element for positions it may cover.
    fn get(&self, i: usize) -> Option<Arg> {
        self.args.get(i).cloned().or_else(|| self.spread.clone())
    }

    fn types(&self) -> Vec<Type> {
        self.args
            .iter()
            .chain(&self.spread)
            .map(|a| a.ty.clone())
            .collect()
    }
}

struct Param {
    name: &'static str,
    ty: Type,
    optional: bool,
}

fn p(name: &'static str, ty: Type) -> Param {
    Param {
        name,
        ty,
        optional: false,
    }
}

fn opt(name: &'static str, ty: Type) -> Param {
    Param {
        name,
        ty,
        optional: true,
    }
}

pub(crate) fn infer_call(
    cx: &mut Infer<'_, '_>,
    id: ExprId,
    name: &Name,
    arg_exprs: &[ExprId],
    expand_final: bool,
) -> Type {
    let mut args = Args {
        args: Vec::new(),
        spread: None,
    };
    for (i, expr) in arg_exprs.iter().enumerate() {
        let ty = cx.infer_expr(*expr);
        let last = i + 1 == arg_exprs.len();
        if last && expand_final {
            let inner = ty.resolve_outputs().without_none().strip_const();
            match inner.kind() {
                TypeKind::Tuple(elements) => args.args.extend(elements.iter().map(|t| Arg {
                    expr: *expr,
                    ty: t.clone(),
                })),
                TypeKind::List(e) | TypeKind::Set(e) => {
                    args.spread = Some(Arg {
                        expr: *expr,
                        ty: e.clone(),
                    })
                }
                TypeKind::Dynamic => {
                    args.spread = Some(Arg {
                        expr: *expr,
                        ty: Type::dynamic(),
                    })
                }
                _ => {
                    cx.report(
                        Code::InvalidArgument,
                        Target::Expr(*expr),
                        format!(
                            "only a list, set or tuple can be expanded with `...`, not a value of type {}",
                            show(&ty)
                        ),
                    );
                    args.args.push(Arg { expr: *expr, ty });
                }
            }
        } else {
            args.args.push(Arg { expr: *expr, ty });
        }
    }
    let f = name.as_str();
    let string = Type::string;
    match f {
        "element" => {
            let ok = check(
                cx,
                id,
                f,
                &args,
                &[p("list", Type::dynamic()), p("index", Type::int())],
                None,
            );
            let Some(list) = args.get(0) else {
                return Type::dynamic();
            };
            let inner = list.ty.resolve_outputs().without_none().strip_const();
            let element = match inner.kind() {
                TypeKind::List(e) => e.clone(),
                TypeKind::Tuple(es) => unify_all(es.iter()).unsafe_,
                TypeKind::Dynamic => Type::dynamic(),
                _ => {
                    if ok {
                        cx.report(
                            Code::InvalidArgument,
                            Target::Expr(list.expr),
                            format!(
                                "the first argument to `element` must be a list or tuple, not {}",
                                show(&list.ty)
                            ),
                        );
                    }
                    Type::dynamic()
                }
            };
            lift_by(element, &[list.ty])
        }
        "entries" => {
            check(cx, id, f, &args, &[p("collection", Type::dynamic())], None);
            let Some(collection) = args.get(0) else {
                return Type::dynamic();
            };
            let (key, value) = cx.iterate(collection.expr, &collection.ty);
            lift_by(
                Type::list(Type::object([("key", key), ("value", value)])),
                &[collection.ty],
            )
        }
        "length" => {
            check(cx, id, f, &args, &[p("value", Type::dynamic())], None);
            let Some(value) = args.get(0) else {
                return Type::int();
            };
            let inner = value.ty.resolve_outputs().without_none().strip_const();
            let countable = matches!(
                inner.kind(),
                TypeKind::List(_) | TypeKind::Map(_) | TypeKind::Object(_) | TypeKind::Tuple(_)
            ) || Type::string().conversion_from(&inner).exists();
            if !countable {
                cx.report(
                    Code::InvalidArgument,
                    Target::Expr(value.expr),
                    format!(
                        "the argument to `length` must be a list, map, object, tuple or string, not {}",
                        show(&value.ty)
                    ),
                );
            }
            lift_by(Type::int(), &[value.ty])
        }
        "lookup" => {
            let Some(map) = args.get(0) else {
                check(
                    cx,
                    id,
                    f,
                    &args,
                    &[p("map", Type::dynamic()), p("key", string())],
                    None,
                );
                return Type::dynamic();
            };
            let inner = map.ty.resolve_outputs().without_none().strip_const();
            let element = match inner.kind() {
                TypeKind::Map(e) => Some(e.clone()),
                TypeKind::Object(o) if o.properties().is_empty() => Some(Type::dynamic()),
                TypeKind::Object(o) => {
                    Some(unify_all(o.properties().iter().map(|(_, t)| t)).unsafe_)
                }
                TypeKind::Dynamic => Some(Type::dynamic()),
                _ => None,
            };
            let element_or_dynamic = element.clone().unwrap_or_else(Type::dynamic);
            check(
                cx,
                id,
                f,
                &args,
                &[
                    p("map", Type::dynamic()),
                    p("key", string()),
                    opt("default", Type::optional(element_or_dynamic.clone())),
                ],
                None,
            );
            if element.is_none() {
                cx.report(
                    Code::InvalidArgument,
                    Target::Expr(map.expr),
                    format!(
                        "the first argument to `lookup` must be a map or object, not {}",
                        show(&map.ty)
                    ),
                );
            }
            lift_by(element_or_dynamic, &[map.ty])
        }
        "range" => general(
            cx,
            id,
            f,
            &args,
            &[p("fromOrTo", Type::int()), opt("to", Type::int())],
            None,
            Type::list(Type::int()),
        ),
        "join" => general(
            cx,
            id,
            f,
            &args,
            &[p("separator", string()), p("list", Type::list(string()))],
            None,
            string(),
        ),
        "split" => general(
            cx,
            id,
            f,
            &args,
            &[p("separator", string()), p("string", string())],
            None,
            Type::list(string()),
        ),
        "readFile" | "filebase64" | "filebase64sha256" => {
            general(cx, id, f, &args, &[p("path", string())], None, string())
        }
        "sha1" => general(cx, id, f, &args, &[p("input", string())], None, string()),
        "toBase64" | "fromBase64" => {
            general(cx, id, f, &args, &[p("value", string())], None, string())
        }
        "toJSON" => {
            check(cx, id, f, &args, &[p("value", Type::dynamic())], None);
            lift_by(string(), &args.types())
        }
        "secret" | "unsecret" => {
            check(cx, id, f, &args, &[p("value", Type::dynamic())], None);
            Type::output(args.get(0).map_or_else(Type::dynamic, |a| a.ty))
        }
        "fileAsset" => general(
            cx,
            id,
            f,
            &args,
            &[p("path", string())],
            None,
            Type::asset(),
        ),
        "stringAsset" => general(
            cx,
            id,
            f,
            &args,
            &[p("value", string())],
            None,
            Type::asset(),
        ),
        "remoteAsset" => general(cx, id, f, &args, &[p("uri", string())], None, Type::asset()),
        "fileArchive" => general(
            cx,
            id,
            f,
            &args,
            &[p("path", string())],
            None,
            Type::archive(),
        ),
        "remoteArchive" => general(
            cx,
            id,
            f,
            &args,
            &[p("uri", string())],
            None,
            Type::archive(),
        ),
        "assetArchive" => general(
            cx,
            id,
            f,
            &args,
            &[p(
                "assets",
                Type::map(Type::union([Type::archive(), Type::asset()])),
            )],
            None,
            Type::archive(),
        ),
        "stack" | "project" | "organization" | "cwd" | "rootDirectory" => {
            general(cx, id, f, &args, &[], None, string())
        }
        "notImplemented" => general(
            cx,
            id,
            f,
            &args,
            &[p("errorMessage", string())],
            None,
            Type::dynamic(),
        ),
        "singleOrNone" => {
            check(cx, id, f, &args, &[p("value", Type::dynamic())], None);
            let Some(value) = args.get(0) else {
                return Type::dynamic();
            };
            let inner = value.ty.resolve_outputs().without_none().strip_const();
            let element = match inner.kind() {
                TypeKind::List(e) => e.clone(),
                TypeKind::Tuple(es) => es.first().cloned().unwrap_or_else(Type::none),
                TypeKind::Dynamic => Type::dynamic(),
                _ => {
                    cx.report(
                        Code::InvalidArgument,
                        Target::Expr(value.expr),
                        format!(
                            "the argument to `singleOrNone` must be a list or tuple, not {}",
                            show(&value.ty)
                        ),
                    );
                    Type::dynamic()
                }
            };
            lift_by(Type::optional(element), &[value.ty])
        }
        "getOutput" => general(
            cx,
            id,
            f,
            &args,
            &[
                p("stackReference", Type::dynamic()),
                p("outputName", string()),
            ],
            None,
            Type::output(Type::dynamic()),
        ),
        "try" => {
            if args.len_known() == Some(0) {
                cx.report(
                    Code::ArgumentCount,
                    Target::Expr(id),
                    "missing arguments to `try`: it takes at least one argument",
                );
                return Type::dynamic();
            }
            let types = args.types();
            if types.iter().any(|t| t.is_dynamic()) {
                return Type::output(Type::dynamic());
            }
            let result = unify_all(types.iter()).safe;
            lift_by(result, &types)
        }
        "can" => {
            check(cx, id, f, &args, &[p("value", Type::dynamic())], None);
            let lifted = args.get(0).is_some_and(|a| {
                a.ty.is_dynamic()
                    || a.ty
                        .union_elements()
                        .iter()
                        .any(|t| matches!(t.kind(), TypeKind::Output(_)))
            });
            if lifted {
                Type::output(Type::bool())
            } else {
                Type::bool()
            }
        }
        "recover" => {
            check(
                cx,
                id,
                f,
                &args,
                &[p("value", Type::dynamic()), p("recovery", Type::dynamic())],
                None,
            );
            let (Some(value), Some(recovery)) = (args.get(0), args.get(1)) else {
                return Type::output(Type::dynamic());
            };
            if !matches!(value.ty.kind(), TypeKind::Output(_)) && !value.ty.is_dynamic() {
                cx.report(
                    Code::InvalidArgument,
                    Target::Expr(value.expr),
                    format!(
                        "the first argument to `recover` must be an output, not {}",
                        show(&value.ty)
                    ),
                );
            }
            Type::output(
                unify_all([value.ty.resolve_outputs(), recovery.ty.resolve_outputs()]).safe,
            )
        }
        "max" | "min" => {
            let number = args
                .types()
                .iter()
                // A number literal counts too (the reference looks only for the exact
                // type, so `max(1, 2.5)` would be typed int).
                .any(|t| t.resolve_outputs().strip_const() == Type::number());
            let t = if number { Type::number() } else { Type::int() };
            general(
                cx,
                id,
                f,
                &args,
                &[p("first", t.clone())],
                Some(p("rest", t.clone())),
                t,
            )
        }
        "pulumiResourceType" | "pulumiResourceName" => {
            check(cx, id, f, &args, &[p("resource", Type::dynamic())], None);
            if let Some(resource) = args.get(0) {
                let is_resource = match resource.ty.kind() {
                    TypeKind::Dynamic => true,
                    TypeKind::Object(o) => o
                        .annotations()
                        .iter()
                        .any(|a| matches!(a, Annotation::ResourceOutputs(_))),
                    _ => false,
                };
                if !is_resource {
                    cx.report(
                        Code::InvalidArgument,
                        Target::Expr(resource.expr),
                        format!(
                            "the argument to `{f}` must be a single resource, not {}",
                            show(&resource.ty)
                        ),
                    );
                }
            }
            string()
        }
        "invoke" => {
            if let Some(token) = args.args.first() {
                if !matches!(
                    cx.body.expr(token.expr),
                    Expr::Literal(ConstValue::String(_))
                ) {
                    cx.report(
                        Code::InvalidArgument,
                        Target::Expr(token.expr),
                        "the token of `invoke` must be a literal string, like `\"aws:ec2:getAmi\"`",
                    );
                }
            }
            check(
                cx,
                id,
                f,
                &args,
                &[
                    p("token", string()),
                    opt("args", Type::dynamic()),
                    opt("options", Type::dynamic()),
                ],
                None,
            );
            cx.bind_invoke(&args.typed())
        }
        "call" => {
            if args.len_known().is_some_and(|n| n < 3) {
                cx.report(
                    Code::ArgumentCount,
                    Target::Expr(id),
                    "missing arguments to `call`: it takes a receiver, a method name and an arguments object",
                );
                return Type::dynamic();
            }
            check(
                cx,
                id,
                f,
                &args,
                &[
                    p("self", Type::dynamic()),
                    p("method", string()),
                    p("args", Type::dynamic()),
                ],
                None,
            );
            if let Some(method) = args.args.get(1) {
                if !matches!(
                    cx.body.expr(method.expr),
                    Expr::Literal(ConstValue::String(_))
                ) {
                    cx.report(
                        Code::InvalidArgument,
                        Target::Expr(method.expr),
                        "the method name of `call` must be a literal string",
                    );
                }
            }
            cx.bind_call(&args.typed())
        }
        _ if REMOVED.contains(&f) => {
            cx.report(
                Code::RemovedFunction,
                Target::Expr(id),
                format!("function `{f}` was removed from PCL in Pulumi 3.230"),
            );
            Type::dynamic()
        }
        _ => {
            let suggestion = suggest::best_match(f, builtin_names()).map(str::to_string);
            let help = match (&suggestion, cx.lookup_root(name)) {
                (Some(s), _) => Some(format!("did you mean `{s}`?")),
                (None, Some(_)) => Some(format!("`{f}` is a variable, not a function")),
                _ => None,
            };
            cx.report_with(
                Code::UnknownFunction,
                Severity::Error,
                Target::CallName(id),
                format!("unknown function `{f}`"),
                help,
                suggestion,
            );
            Type::dynamic()
        }
    }
}

/// `result`, lifted to output or promise if any of `args` holds one.
fn lift_by(result: Type, args: &[Type]) -> Type {
    match args.iter().map(|t| t.eventual_strength()).max() {
        Some(Eventual::Output) => Type::output(result),
        Some(Eventual::Promise) => Type::promise(result),
        _ => result,
    }
}

/// Checks a call against a signature and returns `ret`, lifted when an argument is an
/// eventual where the parameter is not (the reference's rule).
fn general(
    cx: &mut Infer<'_, '_>,
    id: ExprId,
    f: &str,
    args: &Args,
    params: &[Param],
    varargs: Option<Param>,
    ret: Type,
) -> Type {
    check(
        cx,
        id,
        f,
        args,
        params,
        varargs.as_ref().map(|v| Param {
            name: v.name,
            ty: v.ty.clone(),
            optional: true,
        }),
    );
    let mut lift = false;
    let mut types = Vec::new();
    for (i, arg) in args.args.iter().chain(&args.spread).enumerate() {
        let param = params
            .get(i)
            .map(|p| p.ty.clone())
            .or(varargs.as_ref().map(|v| v.ty.clone()));
        if let Some(param) = param {
            if !param.assignable_from(&arg.ty) {
                lift = true;
            }
        }
        types.push(arg.ty.clone());
    }
    if lift {
        Type::lift(ret, types)
    } else {
        ret
    }
}

/// Arity and conversion checks; false when the arity is wrong.
fn check(
    cx: &mut Infer<'_, '_>,
    id: ExprId,
    f: &str,
    args: &Args,
    params: &[Param],
    varargs: Option<Param>,
) -> bool {
    let mut ok = true;
    if let Some(count) = args.len_known() {
        if let Some(missing) = params.iter().skip(count).find(|p| !p.optional) {
            let required = params.iter().filter(|p| !p.optional).count();
            cx.report(
                Code::ArgumentCount,
                Target::Expr(id),
                format!(
                    "missing required parameter `{}` of `{f}`: expected {}{} argument{}, got {count}",
                    missing.name,
                    if required < params.len() || varargs.is_some() { "at least " } else { "" },
                    required,
                    if required == 1 { "" } else { "s" },
                ),
            );
            ok = false;
        }
        if varargs.is_none() && count > params.len() {
            let extra = &args.args[params.len()];
            cx.report(
                Code::ArgumentCount,
                Target::Expr(extra.expr),
                format!(
                    "too many arguments to `{f}`: expected {}{}, got {count}",
                    if params.iter().any(|p| p.optional) {
                        "at most "
                    } else {
                        ""
                    },
                    params.len()
                ),
            );
            ok = false;
        }
    }
    for (i, arg) in args.args.iter().enumerate() {
        let param = params.get(i).or(varargs.as_ref());
        if let Some(param) = param {
            cx.expect(
                arg.expr,
                &arg.ty,
                &param.ty,
                &format!(
                    "argument `{}` of `{f}` must be of type {}",
                    param.name,
                    show(&param.ty)
                ),
            );
        }
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_sorted_and_their_signatures_name_them() {
        for pair in BUILTINS.windows(2) {
            assert!(
                pair[0].name < pair[1].name,
                "{} before {}",
                pair[0].name,
                pair[1].name
            );
        }
        for builtin in BUILTINS {
            assert!(
                builtin.signature.starts_with(&format!("{}(", builtin.name)),
                "{}",
                builtin.signature
            );
            assert!(builtin_doc(builtin.name).is_some());
        }
        assert!(builtin_doc("mimeType").is_none());
    }
}
