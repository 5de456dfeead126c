//! The builtin functions of PCL (`pcl-semantics.md` §2): the one table of builtins, each row
//! a builtin's name, the signature editors show, its documentation and the function that
//! checks a call of it and gives its type; and the checks those functions share (arity,
//! conversions, lifting to outputs).

use pcl_diagnostics::{suggest, Code, Severity};
use pcl_hir::{Expr, ExprId, Name};
use pcl_types::{unify_all, Annotation, ConstValue, ConversionKind, Eventual, Type, TypeKind};

use super::{show, Infer, Lazy};
use crate::Target;

/// Declares [`Builtin`] from one row per builtin, so a builtin's name, signature, documentation
/// and inference are written once, side by side.
macro_rules! builtins {
    ($(
        $variant:ident {
            name: $name:literal,
            signature: $signature:literal,
            doc: $doc:literal,
            infer: $infer:ident $(,)?
        }
    )*) => {
        /// A builtin function of PCL.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Builtin {
            $($variant,)*
        }

        impl Builtin {
            /// Every builtin, sorted by name.
            pub const ALL: &'static [Builtin] = &[$(Builtin::$variant,)*];

            /// The builtin called `name`.
            pub fn from_name(name: &str) -> Option<Builtin> {
                match name {
                    $($name => Some(Builtin::$variant),)*
                    _ => None,
                }
            }

            /// Its name, as a program calls it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Builtin::$variant => $name,)*
                }
            }

            /// `name(param: type, ...) -> result`, as shown to users; parameters are separated
            /// by `, ` at the top level.
            pub fn signature(self) -> &'static str {
                match self {
                    $(Builtin::$variant => $signature,)*
                }
            }

            /// What it does, in one sentence.
            pub fn doc(self) -> &'static str {
                match self {
                    $(Builtin::$variant => $doc,)*
                }
            }

            /// Checks a call of this builtin and gives its type.
            fn infer(self, cx: &mut Infer<'_, '_>, call: &Call) -> Type {
                match self {
                    $(Builtin::$variant => $infer(cx, call),)*
                }
            }
        }
    };
}

builtins! {
    AssetArchive {
        name: "assetArchive",
        signature: "assetArchive(assets: map(Asset | Archive)) -> Archive",
        doc: "An archive made of the named assets and archives.",
        infer: asset_archive,
    }
    Call {
        name: "call",
        signature: "call(self: resource, method: string, args: object) -> output(T)",
        doc: "Calls a method of a resource: `method` names it, `args` are its arguments.",
        infer: method_call,
    }
    Can {
        name: "can",
        signature: "can(value) -> bool",
        doc: "Whether `value` evaluates without an error.",
        infer: can,
    }
    Cwd {
        name: "cwd",
        signature: "cwd() -> string",
        doc: "The working directory of the deployment.",
        infer: nullary_string,
    }
    Element {
        name: "element",
        signature: "element(list: list(T), index: int) -> T",
        doc: "The element of `list` at `index` (wrapping around).",
        infer: element,
    }
    Entries {
        name: "entries",
        signature: "entries(collection: list(T) | map(T)) -> list({key, value})",
        doc: "The key and value of every element of a list or map.",
        infer: entries,
    }
    FileArchive {
        name: "fileArchive",
        signature: "fileArchive(path: string) -> Archive",
        doc: "An archive read from a file or directory.",
        infer: file_archive,
    }
    FileAsset {
        name: "fileAsset",
        signature: "fileAsset(path: string) -> Asset",
        doc: "An asset read from a file.",
        infer: file_asset,
    }
    Filebase64 {
        name: "filebase64",
        signature: "filebase64(path: string) -> string",
        doc: "The contents of a file, base64-encoded.",
        infer: string_of_path,
    }
    Filebase64sha256 {
        name: "filebase64sha256",
        signature: "filebase64sha256(path: string) -> string",
        doc: "The base64-encoded SHA-256 hash of a file's contents.",
        infer: string_of_path,
    }
    FromBase64 {
        name: "fromBase64",
        signature: "fromBase64(value: string) -> string",
        doc: "Decodes a base64 string.",
        infer: string_of_string,
    }
    GetOutput {
        name: "getOutput",
        signature: "getOutput(stackReference, outputName: string) -> output(dynamic)",
        doc: "An output of another stack, read through a StackReference resource.",
        infer: get_output,
    }
    Invoke {
        name: "invoke",
        signature: "invoke(token: string, args: object, options?: object) -> T",
        doc: "Calls a provider function; `token` names it (a string literal).",
        infer: invoke,
    }
    Join {
        name: "join",
        signature: "join(separator: string, strings: list(string)) -> string",
        doc: "The strings joined with the separator.",
        infer: join,
    }
    Length {
        name: "length",
        signature: "length(value: list | map | object | string) -> int",
        doc: "The number of elements, properties or characters.",
        infer: length,
    }
    Lookup {
        name: "lookup",
        signature: "lookup(map: map(T), key: string, default?: T) -> T",
        doc: "The element of `map` at `key`, or `default` when there is none.",
        infer: lookup,
    }
    Max {
        name: "max",
        signature: "max(first: number, rest: number...) -> number",
        doc: "The largest of the numbers (`int` when all are).",
        infer: max_or_min,
    }
    Min {
        name: "min",
        signature: "min(first: number, rest: number...) -> number",
        doc: "The smallest of the numbers (`int` when all are).",
        infer: max_or_min,
    }
    NotImplemented {
        name: "notImplemented",
        signature: "notImplemented(errorMessage: string) -> dynamic",
        doc: "A placeholder for an expression a converter could not translate; fails when evaluated.",
        infer: not_implemented,
    }
    Organization {
        name: "organization",
        signature: "organization() -> string",
        doc: "The name of the current organization.",
        infer: nullary_string,
    }
    Project {
        name: "project",
        signature: "project() -> string",
        doc: "The name of the current project.",
        infer: nullary_string,
    }
    PulumiResourceName {
        name: "pulumiResourceName",
        signature: "pulumiResourceName(resource) -> string",
        doc: "The logical name of a resource.",
        infer: of_resource,
    }
    PulumiResourceType {
        name: "pulumiResourceType",
        signature: "pulumiResourceType(resource) -> string",
        doc: "The type token of a resource.",
        infer: of_resource,
    }
    Range {
        name: "range",
        signature: "range(fromOrTo: int, to?: int) -> list(int)",
        doc: "The integers from `fromOrTo` (or 0) up to, not including, `to` (or `fromOrTo`).",
        infer: range,
    }
    ReadFile {
        name: "readFile",
        signature: "readFile(path: string) -> string",
        doc: "The contents of a file.",
        infer: string_of_path,
    }
    Recover {
        name: "recover",
        signature: "recover(value: output(T), recovery: T) -> output(T)",
        doc: "`value`, or `recovery` (where `error` is the error's message) when `value` fails.",
        infer: recover,
    }
    RemoteArchive {
        name: "remoteArchive",
        signature: "remoteArchive(uri: string) -> Archive",
        doc: "An archive fetched from a URI.",
        infer: remote_archive,
    }
    RemoteAsset {
        name: "remoteAsset",
        signature: "remoteAsset(uri: string) -> Asset",
        doc: "An asset fetched from a URI.",
        infer: remote_asset,
    }
    RootDirectory {
        name: "rootDirectory",
        signature: "rootDirectory() -> string",
        doc: "The directory of the program's Pulumi.yaml.",
        infer: nullary_string,
    }
    Secret {
        name: "secret",
        signature: "secret(value: T) -> output(T)",
        doc: "`value`, marked secret.",
        infer: secret_or_unsecret,
    }
    Sha1 {
        name: "sha1",
        signature: "sha1(input: string) -> string",
        doc: "The hexadecimal SHA-1 hash of a string.",
        infer: sha1,
    }
    SingleOrNone {
        name: "singleOrNone",
        signature: "singleOrNone(value: list(T)) -> T?",
        doc: "The only element of a list, or null when it is empty.",
        infer: single_or_none,
    }
    Split {
        name: "split",
        signature: "split(separator: string, string: string) -> list(string)",
        doc: "The parts of `string` between occurrences of `separator`.",
        infer: split,
    }
    Stack {
        name: "stack",
        signature: "stack() -> string",
        doc: "The name of the current stack.",
        infer: nullary_string,
    }
    StringAsset {
        name: "stringAsset",
        signature: "stringAsset(value: string) -> Asset",
        doc: "An asset whose contents are the string.",
        infer: string_asset,
    }
    ToBase64 {
        name: "toBase64",
        signature: "toBase64(value: string) -> string",
        doc: "Encodes a string in base64.",
        infer: string_of_string,
    }
    ToJson {
        name: "toJSON",
        signature: "toJSON(value) -> string",
        doc: "The value as JSON text.",
        infer: to_json,
    }
    Try {
        name: "try",
        signature: "try(expressions...) -> T",
        doc: "The first of the expressions that evaluates without an error.",
        infer: first_success,
    }
    Unsecret {
        name: "unsecret",
        signature: "unsecret(value: T) -> output(T)",
        doc: "`value`, no longer marked secret.",
        infer: secret_or_unsecret,
    }
}

/// Functions PCL had and removed (Pulumi 3.230).
const REMOVED: &[&str] = &["mimeType", "readDir"];

/// A call of a builtin, with its arguments typed.
struct Call {
    id: ExprId,
    builtin: Builtin,
    args: Args,
}

impl Call {
    fn name(&self) -> &'static str {
        self.builtin.name()
    }
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

/// Types a call `name(args)`: the arguments always (even of an unknown function), then the
/// builtin's own checks.
pub(crate) fn infer_call(
    cx: &mut Infer<'_, '_>,
    id: ExprId,
    name: &Name,
    arg_exprs: &[ExprId],
    expand_final: bool,
) -> Type {
    let args = infer_args(cx, arg_exprs, expand_final);
    match Builtin::from_name(name.as_str()) {
        Some(builtin) => builtin.infer(cx, &Call { id, builtin, args }),
        None => unknown_function(cx, id, name),
    }
}

fn infer_args(cx: &mut Infer<'_, '_>, arg_exprs: &[ExprId], expand_final: bool) -> Args {
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
    args
}

fn unknown_function(cx: &mut Infer<'_, '_>, id: ExprId, name: &Name) -> Type {
    let f = name.as_str();
    if REMOVED.contains(&f) {
        cx.report(
            Code::RemovedFunction,
            Target::Expr(id),
            format!("function `{f}` was removed from PCL in Pulumi 3.230"),
        );
        return Type::dynamic();
    }
    let suggestion =
        suggest::best_match(f, Builtin::ALL.iter().map(|b| b.name())).map(str::to_string);
    let help = suggestion
        .as_deref()
        .map(pcl_diagnostics::style::did_you_mean);
    let variable = suggestion.is_none();
    cx.report_with(
        Code::UnknownFunction,
        Severity::Error,
        Target::CallName(id),
        format!("unknown function `{f}`"),
        help,
        suggestion,
    );
    if variable {
        // Whether it names a variable is the edge's to say (`variable_for`).
        if let Some(last) = cx.diagnostics.last_mut() {
            last.variable_for = Some(name.clone());
        }
    }
    Type::dynamic()
}

// The inference of each builtin, in the order of the table.

fn asset_archive(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(
        cx,
        call,
        &[p(
            "assets",
            Type::map(Type::union([Type::archive(), Type::asset()])),
        )],
        None,
        Type::archive(),
    )
}

fn method_call(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    let f = call.name();
    let args = &call.args;
    if args.len_known().is_some_and(|n| n < 3) {
        cx.report(
            Code::ArgumentCount,
            Target::Expr(call.id),
            format!("missing arguments to `{f}`: it takes a receiver, a method name and an arguments object"),
        );
        return Type::dynamic();
    }
    check(
        cx,
        call,
        &[
            p("self", Type::dynamic()),
            p("method", Type::string()),
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
                format!("the method name of `{f}` must be a literal string"),
            );
        }
    }
    cx.bind_call(&args.typed())
}

fn can(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    check(cx, call, &[p("value", Type::dynamic())], None);
    let lifted = call.args.get(0).is_some_and(|a| {
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

/// `cwd`, `organization`, `project`, `rootDirectory`, `stack`.
fn nullary_string(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(cx, call, &[], None, Type::string())
}

fn element(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    let ok = check(
        cx,
        call,
        &[p("list", Type::dynamic()), p("index", Type::int())],
        None,
    );
    let Some(list) = call.args.get(0) else {
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
                        "the first argument to `{}` must be a list or tuple, not {}",
                        call.name(),
                        show(&list.ty)
                    ),
                );
            }
            Type::dynamic()
        }
    };
    lift_by(element, &[list.ty])
}

fn entries(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    check(cx, call, &[p("collection", Type::dynamic())], None);
    let Some(collection) = call.args.get(0) else {
        return Type::dynamic();
    };
    let (key, value) = cx.iterate(collection.expr, &collection.ty);
    lift_by(
        Type::list(Type::object([("key", key), ("value", value)])),
        &[collection.ty],
    )
}

fn file_archive(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(
        cx,
        call,
        &[p("path", Type::string())],
        None,
        Type::archive(),
    )
}

fn file_asset(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(cx, call, &[p("path", Type::string())], None, Type::asset())
}

/// `filebase64`, `filebase64sha256`, `readFile`.
fn string_of_path(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(cx, call, &[p("path", Type::string())], None, Type::string())
}

/// `fromBase64`, `toBase64`.
fn string_of_string(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(
        cx,
        call,
        &[p("value", Type::string())],
        None,
        Type::string(),
    )
}

fn get_output(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(
        cx,
        call,
        &[
            p("stackReference", Type::dynamic()),
            p("outputName", Type::string()),
        ],
        None,
        Type::output(Type::dynamic()),
    )
}

fn invoke(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    if let Some(token) = call.args.args.first() {
        if !matches!(
            cx.body.expr(token.expr),
            Expr::Literal(ConstValue::String(_))
        ) {
            cx.report(
                Code::InvalidArgument,
                Target::Expr(token.expr),
                format!(
                    "the token of `{}` must be a literal string, like `\"aws:ec2:getAmi\"`",
                    call.name()
                ),
            );
        }
    }
    // How many arguments follow the token depends on the function (one per input for a
    // function with multi-argument inputs, then the invoke options): `bind_invoke` counts them.
    check(
        cx,
        call,
        &[p("token", Type::string())],
        Some(opt("argument", Type::dynamic())),
    );
    cx.bind_invoke(&call.args.typed(), call.args.len_known().is_some())
}

fn join(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(
        cx,
        call,
        &[
            p("separator", Type::string()),
            p("strings", Type::list(Type::string())),
        ],
        None,
        Type::string(),
    )
}

fn length(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    check(cx, call, &[p("value", Type::dynamic())], None);
    let Some(value) = call.args.get(0) else {
        return Type::int();
    };
    let inner = value.ty.resolve_outputs().without_none().strip_const();
    let countable = matches!(
        inner.kind(),
        TypeKind::List(_) | TypeKind::Map(_) | TypeKind::Object(_) | TypeKind::Tuple(_)
    ) || Type::string().conversion_kind_from(&inner) != ConversionKind::None;
    if !countable {
        cx.report(
            Code::InvalidArgument,
            Target::Expr(value.expr),
            format!(
                "the argument to `{}` must be a list, map, object, tuple or string, not {}",
                call.name(),
                show(&value.ty)
            ),
        );
    }
    lift_by(Type::int(), &[value.ty])
}

fn lookup(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    let Some(map) = call.args.get(0) else {
        check(
            cx,
            call,
            &[p("map", Type::dynamic()), p("key", Type::string())],
            None,
        );
        return Type::dynamic();
    };
    let inner = map.ty.resolve_outputs().without_none().strip_const();
    // The element type with its literal types widened, as a local's are (deviation 3): in
    // `lookup({ dev = "t2.micro", prod = "m5.large" }, env, "t2.nano")` the values are strings,
    // not one of two values, and the default is another string (the reference types a quoted
    // string `string`, and converts one number literal to another unsafely).
    let element = match inner.kind() {
        TypeKind::Map(e) => Some(crate::infer::widen_literals(e.clone())),
        TypeKind::Object(o) if o.properties().is_empty() => Some(Type::dynamic()),
        TypeKind::Object(o) => Some(
            unify_all(
                o.properties()
                    .iter()
                    .map(|(_, t)| crate::infer::widen_literals(t.clone())),
            )
            .unsafe_,
        ),
        TypeKind::Dynamic => Some(Type::dynamic()),
        _ => None,
    };
    let element_or_dynamic = element.clone().unwrap_or_else(Type::dynamic);
    check(
        cx,
        call,
        &[
            p("map", Type::dynamic()),
            p("key", Type::string()),
            opt("default", Type::optional(element_or_dynamic.clone())),
        ],
        None,
    );
    if element.is_none() {
        cx.report(
            Code::InvalidArgument,
            Target::Expr(map.expr),
            format!(
                "the first argument to `{}` must be a map or object, not {}",
                call.name(),
                show(&map.ty)
            ),
        );
    }
    lift_by(element_or_dynamic, &[map.ty])
}

/// `max`, `min`.
fn max_or_min(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    let number = call
        .args
        .types()
        .iter()
        // A number literal counts too (the reference looks only for the exact
        // type, so `max(1, 2.5)` would be typed int).
        .any(|t| t.resolve_outputs().strip_const() == Type::number());
    let t = if number { Type::number() } else { Type::int() };
    general(
        cx,
        call,
        &[p("first", t.clone())],
        Some(p("rest", t.clone())),
        t,
    )
}

fn not_implemented(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(
        cx,
        call,
        &[p("errorMessage", Type::string())],
        None,
        Type::dynamic(),
    )
}

/// `pulumiResourceName`, `pulumiResourceType`.
fn of_resource(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    check(cx, call, &[p("resource", Type::dynamic())], None);
    if let Some(resource) = call.args.get(0) {
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
                    "the argument to `{}` must be a single resource, not {}",
                    call.name(),
                    show(&resource.ty)
                ),
            );
        }
    }
    Type::string()
}

fn range(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(
        cx,
        call,
        &[p("fromOrTo", Type::int()), opt("to", Type::int())],
        None,
        Type::list(Type::int()),
    )
}

fn recover(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    check(
        cx,
        call,
        &[p("value", Type::dynamic()), p("recovery", Type::dynamic())],
        None,
    );
    let (Some(value), Some(recovery)) = (call.args.get(0), call.args.get(1)) else {
        return Type::output(Type::dynamic());
    };
    if !matches!(value.ty.kind(), TypeKind::Output(_)) && !value.ty.is_dynamic() {
        cx.report(
            Code::InvalidArgument,
            Target::Expr(value.expr),
            format!(
                "the first argument to `{}` must be an output, not {}",
                call.name(),
                show(&value.ty)
            ),
        );
    }
    Type::output(unify_all([value.ty.resolve_outputs(), recovery.ty.resolve_outputs()]).safe)
}

fn remote_archive(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(cx, call, &[p("uri", Type::string())], None, Type::archive())
}

fn remote_asset(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(cx, call, &[p("uri", Type::string())], None, Type::asset())
}

/// `secret`, `unsecret`.
fn secret_or_unsecret(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    check(cx, call, &[p("value", Type::dynamic())], None);
    Type::output(call.args.get(0).map_or_else(Type::dynamic, |a| a.ty))
}

fn sha1(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(
        cx,
        call,
        &[p("input", Type::string())],
        None,
        Type::string(),
    )
}

fn single_or_none(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    check(cx, call, &[p("value", Type::dynamic())], None);
    let Some(value) = call.args.get(0) else {
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
                    "the argument to `{}` must be a list or tuple, not {}",
                    call.name(),
                    show(&value.ty)
                ),
            );
            Type::dynamic()
        }
    };
    lift_by(Type::optional(element), &[value.ty])
}

fn split(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(
        cx,
        call,
        &[p("separator", Type::string()), p("string", Type::string())],
        None,
        Type::list(Type::string()),
    )
}

fn string_asset(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    general(cx, call, &[p("value", Type::string())], None, Type::asset())
}

fn to_json(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    check(cx, call, &[p("value", Type::dynamic())], None);
    lift_by(Type::string(), &call.args.types())
}

/// `try`.
fn first_success(cx: &mut Infer<'_, '_>, call: &Call) -> Type {
    if call.args.len_known() == Some(0) {
        cx.report(
            Code::ArgumentCount,
            Target::Expr(call.id),
            format!(
                "missing arguments to `{}`: it takes at least one argument",
                call.name()
            ),
        );
        return Type::dynamic();
    }
    let types = call.args.types();
    if types.iter().any(|t| t.is_dynamic()) {
        return Type::output(Type::dynamic());
    }
    let result = unify_all(types.iter()).safe;
    lift_by(result, &types)
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
    call: &Call,
    params: &[Param],
    varargs: Option<Param>,
    ret: Type,
) -> Type {
    check(
        cx,
        call,
        params,
        varargs.as_ref().map(|v| Param {
            name: v.name,
            ty: v.ty.clone(),
            optional: true,
        }),
    );
    let mut lift = false;
    let mut types = Vec::new();
    for (i, arg) in call.args.args.iter().chain(&call.args.spread).enumerate() {
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
fn check(cx: &mut Infer<'_, '_>, call: &Call, params: &[Param], varargs: Option<Param>) -> bool {
    let f = call.name();
    let args = &call.args;
    let mut ok = true;
    if let Some(count) = args.len_known() {
        if let Some(missing) = params.iter().skip(count).find(|p| !p.optional) {
            let required = params.iter().filter(|p| !p.optional).count();
            cx.report(
                Code::ArgumentCount,
                Target::Expr(call.id),
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
                Lazy(|| {
                    format!(
                        "argument `{}` of `{f}` must be of type {}",
                        param.name,
                        show(&param.ty)
                    )
                }),
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
        for pair in Builtin::ALL.windows(2) {
            assert!(
                pair[0].name() < pair[1].name(),
                "{} before {}",
                pair[0].name(),
                pair[1].name()
            );
        }
        for &builtin in Builtin::ALL {
            assert!(
                builtin
                    .signature()
                    .starts_with(&format!("{}(", builtin.name())),
                "{}",
                builtin.signature()
            );
            assert_eq!(Builtin::from_name(builtin.name()), Some(builtin));
        }
        for removed in REMOVED {
            assert_eq!(Builtin::from_name(removed), None);
        }
    }
}
