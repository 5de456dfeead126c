//! The inferencer: types every expression of one node's body. `Infer` holds the state of one
//! node's inference; its children add the rules of one part each, on the same `Infer`:
//! binding resources, reads and their options (`bind`), component blocks (`component`),
//! builtin functions (`builtins`), `invoke` and `call` (`invoke`), and the type scope of
//! config and output labels (`type_expr`). Only what is re-exported here is seen outside.

mod bind;
mod builtins;
mod component;
mod invoke;
mod type_expr;

use pcl_diagnostics::{suggest, Code, Severity};
use pcl_hir::{
    BinaryOp, BindingId, BindingKind, Body, Expr, ExprId, Node, NodeKind, ObjectItem, Resolution,
    TemplatePart, UnaryOp,
};
use pcl_types::{unify_all, ConstValue, ConversionKind, ReasonKind, Traverser, Type, TypeKind};
use rustc_hash::FxHashMap;

use crate::{InferDiagnostic, NodeInference, Target};

pub use bind::resource_option_type;
pub(crate) use bind::{options_block, unranged_resource_type};
pub use builtins::Builtin;
pub(crate) use component::interface_type as component_interface_type;

/// Types one node. `all_types`: also the object and tuple literals that a check settles without
/// typing them ([`Infer::fits_as_written`]): hover and the tests that print every type want
/// them, the checks do not.
pub(crate) fn infer<'db>(
    db: &'db dyn pcl_db::Db,
    node: Node<'db>,
    all_types: bool,
) -> NodeInference {
    // The node's lowering brought up to date first (its item's, or its file's in a program
    // whose files publish: in one none of whose files was ever open, no node was lowered at
    // `LOW`).
    let file = node.file(db);
    crate::lowered_first(
        db,
        node,
        crate::facts::keeps_facts_by_name(db, file.program(db)),
    );
    let body = node.body(db);
    let mut cx = Infer {
        all_types,
        settled: Vec::new(),
        db,
        program: node.file(db).program(db),
        file: node.file(db).file(db),
        kind: node.kind(db),
        signature: node.signature(db),
        body,
        expr_types: vec![None; body.expr_count()],
        binding_types: vec![Type::dynamic(); body.bindings().count()],
        range_over_bool: false,
        hook_is_error: node.kind(db) == NodeKind::Hook
            && node.signature(db).label(0) == Some("error"),
        diagnostics: Vec::new(),
        splat_items: Vec::new(),
        roots: Vec::new(),
        // Read for every node, names or not: a node's inference then runs again when its file
        // opens or closes, so that it takes the durability of what it reads then (salsa keeps
        // the durability of a result whose inputs only backdate: an inference computed while
        // the file was open would stay `LOW` once it closed, and every closed node using it,
        // a chain of them included, would be verified after every keystroke, recursively).
        view: crate::View::of(db, file.file(db)),
        missing_required: None,
    };
    let recover_errors: Vec<BindingId> = body
        .bindings()
        .filter(|(_, b)| b.kind == BindingKind::RecoverError)
        .map(|(id, _)| id)
        .collect();
    for binding in recover_errors {
        cx.set_binding(binding, Type::string());
    }
    let node_type = cx.infer_node();
    // Every expression gets a type, including those of attributes no rule looked at (but the
    // values settled without one: `dynamic`, as no rule reads them). Settled values are found
    // by search once there are many (a resource may set 100,000 attributes).
    if cx.settled.len() > 16 {
        cx.settled.sort_unstable();
    }
    for attr in cx.body.attr_ids() {
        let value = cx.body.attr(attr).value;
        let settled = if cx.settled.len() > 16 {
            cx.settled.binary_search(&value).is_ok()
        } else {
            cx.settled.contains(&value)
        };
        if cx.expr_types[value.index()].is_none() && !settled {
            cx.infer_expr(value);
        }
    }
    NodeInference {
        expr_types: cx
            .expr_types
            .into_iter()
            .map(|t| t.unwrap_or_else(Type::dynamic))
            .collect(),
        binding_types: cx.binding_types.into(),
        diagnostics: cx.diagnostics,
        node_type,
    }
}

/// `T` with every literal type replaced by its underlying type, deeply: what a reference to a
/// local sees. So editing a literal does not change the local's type, and its users do not
/// re-infer.
///
/// Only parts with literal types inside are rebuilt (a node knows whether it has any; a union
/// without literal types is left as it is), each once (types share parts: `{ l = x, r = x }`),
/// so widening costs the new parts of a type, not the types it was built from, which were
/// widened already.
pub fn widen_literals(ty: Type) -> Type {
    // `Type` hashes and compares by identity, which its interior (a deferred object's lock)
    // does not affect.
    #[allow(clippy::mutable_key_type)]
    fn widen(ty: &Type, memo: &mut FxHashMap<Type, Type>) -> Type {
        if !ty.has_literal_parts() {
            return ty.clone();
        }
        if let Some(known) = memo.get(ty) {
            return known.clone();
        }
        let widened = pcl_types::on_enough_stack(|| match ty.kind() {
            TypeKind::Const(c) => c.ty.clone(),
            TypeKind::List(e) => Type::list(widen(e, memo)),
            TypeKind::Map(e) => Type::map(widen(e, memo)),
            TypeKind::Set(e) => Type::set(widen(e, memo)),
            TypeKind::Tuple(es) => Type::tuple(es.iter().map(|e| widen(e, memo))),
            // Widened members unify as HCL would at run time: `1 | 2.5` is number.
            TypeKind::Union(es) => {
                let members: Vec<Type> = es.iter().map(|e| widen(e, memo)).collect();
                unify_all(members).safe
            }
            TypeKind::Output(e) => Type::output(widen(e, memo)),
            TypeKind::Promise(e) => Type::promise(widen(e, memo)),
            TypeKind::Object(o) if !o.is_deferred() => {
                let properties: Vec<(Box<str>, Type)> = o
                    .properties()
                    .iter()
                    .map(|(k, t)| (k.clone(), widen(t, memo)))
                    .collect();
                Type::object_with(properties, o.strict(), o.annotations().to_vec())
            }
            _ => ty.clone(),
        });
        memo.insert(ty.clone(), widened.clone());
        widened
    }
    widen(&ty, &mut FxHashMap::default())
}

/// A message formatted only when it is shown.
pub(crate) struct Lazy<F>(pub(crate) F);

impl<F: Fn() -> String> std::fmt::Display for Lazy<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&(self.0)())
    }
}

pub(crate) struct Infer<'a, 'db> {
    pub(crate) db: &'db dyn pcl_db::Db,
    /// Type every expression: no value is settled without its type (see [`infer`]).
    pub(crate) all_types: bool,
    /// Attribute values that fit their property as written, left without a type.
    pub(crate) settled: Vec<ExprId>,
    pub(crate) kind: NodeKind,
    pub(crate) signature: &'a pcl_hir::Signature,
    pub(crate) body: &'a pcl_hir::Body,
    pub(crate) program: pcl_db::Program,
    /// The file of the node being inferred (whether it is open decides which type of a node
    /// of an open file it sees: see `facts::resolved_type`).
    file: pcl_db::SourceFile,
    expr_types: Vec<Option<Type>>,
    binding_types: Vec<Type>,
    /// A resource ranged over a bool has no `range` variable.
    pub(crate) range_over_bool: bool,
    /// `hook error name { }`: its `args` have no `newOutputs`.
    hook_is_error: bool,
    pub(crate) diagnostics: Vec<InferDiagnostic>,
    splat_items: Vec<Type>,
    /// What the top-level names used so far mean.
    roots: Vec<(pcl_hir::Name, Option<crate::Resolved<'db>>)>,
    /// The view of `file`.
    view: crate::View,
    /// A value found missing a required property, while its literal's keys are checked: a
    /// misspelling of that property among them is reported as the mistake, in its place.
    pub(crate) missing_required: Option<bind::MissingRequired>,
}

/// The collection typing of `for`, `range` and friends: key and value types.
pub(crate) fn collection_types(ty: &Type) -> Option<(Type, Type)> {
    let inner = ty.unwrap_eventual().without_none().strip_const();
    // A union with a dynamic member is not known well enough to reject (the reference
    // does reject it; we avoid the false positive).
    if inner.union_elements().len() > 1 && inner.union_elements().iter().any(|t| t.is_dynamic()) {
        return Some((Type::dynamic(), Type::dynamic()));
    }
    Some(match inner.kind() {
        TypeKind::List(e) => (Type::int(), e.clone()),
        TypeKind::Map(e) => (Type::string(), e.clone()),
        TypeKind::Tuple(es) => (Type::int(), unify_all(es.iter()).safe),
        TypeKind::Object(o) => (
            Type::string(),
            unify_all(o.properties().iter().map(|(_, t)| t)).safe,
        ),
        TypeKind::Dynamic => (Type::dynamic(), Type::dynamic()),
        _ => return None,
    })
}

/// Wraps `result` in the outermost output or promise of `source`.
pub(crate) fn rewrap(source: &Type, result: Type) -> Type {
    match source.kind() {
        TypeKind::Output(_) => Type::output(result),
        TypeKind::Promise(_) => Type::promise(result),
        _ => result,
    }
}

/// A type for a message: literal types are shown as their underlying types.
pub(crate) fn show(ty: &Type) -> String {
    widen_literals(ty.clone()).display_readable_with(pcl_types::NamedObjects::Never)
}

impl<'a, 'db> Infer<'a, 'db> {
    pub(crate) fn report(&mut self, code: Code, target: Target, message: impl Into<String>) {
        self.report_with(code, code.default_severity(), target, message, None, None);
    }

    pub(crate) fn report_with(
        &mut self,
        code: Code,
        severity: Severity,
        target: Target,
        message: impl Into<String>,
        help: Option<String>,
        fix: Option<String>,
    ) {
        // Lenient mode (schemas not all available, as the reference's non-strict options):
        // names and properties that a missing schema would explain are warnings.
        let severity = if severity == Severity::Error
            && matches!(
                code,
                Code::UndefinedVariable | Code::InvalidTraversal | Code::UnknownProperty
            )
            && self.lenient()
        {
            Severity::Warning
        } else {
            severity
        };
        self.diagnostics.push(InferDiagnostic {
            code,
            severity,
            message: message.into(),
            target,
            help,
            fixes: fix.into_iter().collect(),
            package: None,
            suggest_for: None,
            variable_for: None,
        });
    }

    /// Checks that the value of `expr` (of type `src`) can be used where `dest` is expected
    /// (outputs of `dest` are accepted, as everywhere in PCL). Reports why not.
    /// `context` is formatted only when a problem is reported ([`Lazy`] for one that names
    /// types: most values fit, and printing a type for each was a cost of every check).
    pub(crate) fn expect(
        &mut self,
        expr: ExprId,
        src: &Type,
        dest: &Type,
        context: impl std::fmt::Display,
    ) -> bool {
        // Most values fit without outputs in the picture: skip building `dest`'s input type.
        if src == dest
            || dest.is_dynamic()
            || dest.conversion_kind_from(src) == ConversionKind::Safe
        {
            return true;
        }
        let input = dest.input_type();
        let kind = input.conversion_kind_from(src);
        if kind == ConversionKind::Safe {
            return true;
        }
        if kind == ConversionKind::Unsafe {
            // An unsafe conversion of a literal can be decided now: "abc" is never a number.
            if let Some(problem) = literal_conversion_problem(src, dest) {
                self.report(
                    problem.code,
                    Target::Expr(expr),
                    format!("{context}: {}", problem.message),
                );
                return problem.code != Code::TypeMismatch;
            }
            return true;
        }
        // Explain against the plain destination: its reason names the real types.
        let plain = dest.conversion_from(&src.resolve_outputs());
        let why = why_not(plain, input.conversion_from(src).reason, src, dest);
        self.report(
            Code::TypeMismatch,
            Target::Expr(expr),
            format!("{context}: {why}"),
        );
        false
    }

    pub(crate) fn set(&mut self, id: ExprId, ty: Type) -> Type {
        self.expr_types[id.index()] = Some(ty.clone());
        ty
    }

    pub(crate) fn set_binding(&mut self, id: BindingId, ty: Type) {
        self.binding_types[id.index()] = ty;
    }

    // ---- nodes ---------------------------------------------------------------------------

    fn attr_value(&self, name: &str) -> Option<ExprId> {
        self.body.find_attr(None, name).map(|(_, attr)| attr.value)
    }

    fn infer_node(&mut self) -> Type {
        match self.kind {
            NodeKind::Local => match self.body.value {
                Some(value) => self.infer_expr(value),
                None => Type::dynamic(),
            },
            NodeKind::Config => self.infer_config(),
            NodeKind::Output => self.infer_output(),
            NodeKind::Resource | NodeKind::Read => self.bind_resource(),
            NodeKind::Component => self.bind_component(),
            NodeKind::Hook => {
                self.infer_hook(!self.hook_is_error);
                Type::dynamic()
            }
            NodeKind::Pulumi => {
                if let Some(value) = self.attr_value("requiredVersionRange") {
                    let ty = self.infer_expr(value);
                    self.expect(
                        value,
                        &ty,
                        &Type::string(),
                        "`requiredVersionRange` must be a string",
                    );
                }
                Type::dynamic()
            }
            NodeKind::Package => {
                self.bind_package();
                Type::dynamic()
            }
        }
    }

    fn declared_type(&mut self) -> Option<Type> {
        let id = self.body.type_expr?;
        let ty = type_expr::eval(self, id);
        Some(ty)
    }

    fn infer_config(&mut self) -> Type {
        let mut declared = self
            .declared_type()
            .map(optional_object_properties)
            .unwrap_or_else(Type::dynamic);
        if let Some(default) = self.attr_value("default") {
            let ty = self.infer_expr(default);
            if matches!(self.body.expr(default), Expr::Literal(ConstValue::Null)) {
                if !declared.is_optional() && !declared.is_dynamic() {
                    declared = Type::optional(declared);
                }
            } else {
                self.expect(
                    default,
                    &ty,
                    &declared,
                    Lazy(|| {
                        format!(
                            "the default value does not fit the config's type {}",
                            show(&declared)
                        )
                    }),
                );
            }
        }
        if let Some(secret) = self.attr_value("secret") {
            self.infer_expr(secret);
            if matches!(
                self.body.expr(secret),
                Expr::Literal(ConstValue::Bool(true))
            ) {
                declared = Type::output(declared);
            }
        }
        declared
    }

    fn infer_output(&mut self) -> Type {
        let declared = self.declared_type();
        let value = self.attr_value("value").map(|v| (v, self.infer_expr(v)));
        match (declared, value) {
            (Some(declared), Some((expr, ty))) => {
                self.expect(
                    expr,
                    &ty,
                    &declared,
                    Lazy(|| {
                        format!(
                            "the value does not fit the output's type {}",
                            show(&declared)
                        )
                    }),
                );
                declared
            }
            (Some(declared), None) => declared,
            // Deliberately more precise than the reference, whose untyped outputs are dynamic.
            (None, Some((_, ty))) => ty,
            (None, None) => Type::dynamic(),
        }
    }

    fn infer_hook(&mut self, resource_hook: bool) {
        let mut properties = vec![
            ("urn", Type::string()),
            ("id", Type::opaque("id")),
            ("name", Type::string()),
            ("type", Type::string()),
            ("newInputs", Type::map(Type::dynamic())),
            ("oldInputs", Type::map(Type::dynamic())),
            ("oldOutputs", Type::map(Type::dynamic())),
        ];
        if resource_hook {
            properties.push(("newOutputs", Type::map(Type::dynamic())));
        }
        let args = Type::object(properties);
        let bindings: Vec<BindingId> = self
            .body
            .bindings()
            .filter(|(_, b)| b.kind == BindingKind::HookArgs)
            .map(|(id, _)| id)
            .collect();
        for binding in bindings {
            self.set_binding(binding, args.clone());
        }
        let attrs: Vec<(pcl_hir::Name, ExprId)> = self
            .body
            .attrs_in(None)
            .map(|(_, a)| (a.name.clone(), a.value))
            .collect();
        for (name, value) in attrs {
            let ty = self.infer_expr(value);
            match name.as_str() {
                "command" => {
                    self.expect(
                        value,
                        &ty,
                        &Type::list(Type::string()),
                        "`command` must be a list of strings",
                    );
                }
                "onDryRun" | "ignoreErrors" => {
                    self.expect(
                        value,
                        &ty,
                        &Type::bool(),
                        format_args!("{name} must be a bool"),
                    );
                }
                _ => {}
            }
        }
    }

    // ---- expressions ---------------------------------------------------------------------

    pub(crate) fn infer_expr(&mut self, id: ExprId) -> Type {
        if let Some(ty) = &self.expr_types[id.index()] {
            return ty.clone();
        }
        let ty = self.infer_expr_inner(id);
        self.set(id, ty)
    }

    fn infer_expr_inner(&mut self, id: ExprId) -> Type {
        let body: &'a Body = self.body;
        match body.expr(id) {
            Expr::Missing => Type::dynamic(),
            Expr::Literal(value) => value.clone().literal_type(),
            Expr::Template(parts) => {
                if let [TemplatePart::Interpolation(inner)] = &**parts {
                    // `"${x}"` is `x` itself (HCL's template wrap).
                    return self.infer_expr(*inner);
                }
                let mut lift = Vec::new();
                self.infer_template_parts(parts, &mut lift);
                Type::lift(Type::string(), lift)
            }
            Expr::Variable { name, resolution } => self.infer_variable(id, name, resolution),
            Expr::SplatItem => self
                .splat_items
                .last()
                .cloned()
                .unwrap_or_else(Type::dynamic),
            Expr::Call(call) => {
                builtins::infer_call(self, id, &call.name, &call.args, call.expand_final)
            }
            Expr::Paren(inner) => self.infer_expr(*inner),
            Expr::Tuple(elements) => {
                let types: Vec<Type> = elements.iter().map(|e| self.infer_expr(*e)).collect();
                Type::tuple(types)
            }
            Expr::Object(items) => self.infer_object(items),
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
                let coll = self.infer_expr(*collection);
                let (k, v) = self.iterate(*collection, &coll);
                if let Some(key_var) = key_var {
                    self.set_binding(*key_var, k);
                }
                self.set_binding(*value_var, v);
                let mut lift = Vec::new();
                let key_ty = key.map(|k| {
                    let ty = self.infer_expr(k);
                    self.expect(
                        k,
                        &ty,
                        &Type::string(),
                        "the key of a `for` expression must be a string",
                    );
                    lift.push(ty.clone());
                    ty
                });
                let value_ty = self.infer_expr(*value);
                if let Some(c) = condition {
                    let ty = self.infer_expr(*c);
                    self.expect(
                        *c,
                        &ty,
                        &Type::bool(),
                        "the condition of a `for` expression must be a bool",
                    );
                    lift.push(ty);
                }
                let result = match (object, key_ty) {
                    (true, _) if *grouping => Type::map(Type::list(value_ty)),
                    (true, _) => Type::map(value_ty),
                    (false, _) => Type::list(value_ty),
                };
                Type::lift(rewrap(&coll, result), lift)
            }
            Expr::Conditional {
                condition,
                then_expr,
                else_expr,
            } => {
                let c = self.infer_expr(*condition);
                self.expect(
                    *condition,
                    &c,
                    &Type::bool(),
                    "the condition must be a bool",
                );
                let t = self.infer_expr(*then_expr);
                let e = self.infer_expr(*else_expr);
                Type::lift(unify_all([t, e]).safe, [c])
            }
            Expr::Binary { op, lhs, rhs } => self.infer_binary(*op, *lhs, *rhs),
            Expr::Unary { op, operand } => {
                let ty = self.infer_expr(*operand);
                let result = match op {
                    UnaryOp::Not => {
                        self.expect(
                            *operand,
                            &ty,
                            &Type::bool(),
                            "the operand of `!` must be a bool",
                        );
                        Type::bool()
                    }
                    UnaryOp::Neg => {
                        self.expect(
                            *operand,
                            &ty,
                            &Type::number(),
                            "the operand of `-` must be a number",
                        );
                        if is_int(&ty) {
                            Type::int()
                        } else {
                            Type::number()
                        }
                    }
                };
                Type::lift(result, [ty])
            }
            Expr::GetAttr { receiver, name } => {
                let ty = self.infer_expr(*receiver);
                self.traverse(id, *receiver, ty, &Traverser::attr(name))
            }
            Expr::Index { receiver, index } => self.infer_index(id, *receiver, *index),
            Expr::Splat { source, each } => {
                let src = self.infer_expr(*source);
                let inner = src.unwrap_eventual().without_none();
                let item = match inner.kind() {
                    TypeKind::List(e) | TypeKind::Set(e) => e.clone(),
                    TypeKind::Tuple(es) => unify_all(es.iter()).safe,
                    _ => inner,
                };
                self.splat_items.push(item);
                let each_ty = self.infer_expr(*each);
                self.splat_items.pop();
                rewrap(&src, Type::list(each_ty))
            }
        }
    }

    fn infer_template_parts(&mut self, parts: &[TemplatePart], lift: &mut Vec<Type>) {
        for part in parts {
            match part {
                TemplatePart::Literal(_) => {}
                TemplatePart::Interpolation(e) => {
                    let ty = self.infer_expr(*e);
                    self.expect(
                        *e,
                        &ty,
                        &Type::string(),
                        "an interpolated value must convert to a string",
                    );
                    lift.push(ty);
                }
                TemplatePart::If {
                    condition,
                    then_parts,
                    else_parts,
                } => {
                    let ty = self.infer_expr(*condition);
                    self.expect(
                        *condition,
                        &ty,
                        &Type::bool(),
                        "the condition of an `if` directive must be a bool",
                    );
                    lift.push(ty);
                    self.infer_template_parts(then_parts, lift);
                    self.infer_template_parts(else_parts, lift);
                }
                TemplatePart::For {
                    key,
                    value,
                    collection,
                    body,
                } => {
                    let coll = self.infer_expr(*collection);
                    let (k, v) = self.iterate(*collection, &coll);
                    if let Some(key) = key {
                        self.set_binding(*key, k);
                    }
                    self.set_binding(*value, v);
                    lift.push(coll);
                    self.infer_template_parts(body, lift);
                }
            }
        }
    }

    /// The key and value types of iterating over `ty`; reports a value that is no collection.
    pub(crate) fn iterate(&mut self, expr: ExprId, ty: &Type) -> (Type, Type) {
        match collection_types(ty) {
            Some(kv) => kv,
            None => {
                self.report(
                    Code::NotIterable,
                    Target::Expr(expr),
                    format!(
                        "cannot iterate over a value of type {}: expected a list, tuple, map or object",
                        show(ty)
                    ),
                );
                (Type::dynamic(), Type::dynamic())
            }
        }
    }

    fn infer_variable(
        &mut self,
        id: ExprId,
        name: &pcl_hir::Name,
        resolution: &Resolution,
    ) -> Type {
        match resolution {
            Resolution::Local(binding) => {
                let b = self.body.binding(*binding);
                if b.kind == BindingKind::Range && self.range_over_bool {
                    self.report(
                        Code::UndefinedVariable,
                        Target::Expr(id),
                        "undefined variable `range`: a resource whose `range` is a bool has no `range` variable",
                    );
                    return Type::dynamic();
                }
                self.binding_types[binding.index()].clone()
            }
            Resolution::Root => match self.lookup_root(name) {
                Some(target) => match target.kind(self.db) {
                    NodeKind::Pulumi => {
                        self.report(
                            Code::InvalidTraversal,
                            Target::Expr(id),
                            "the `pulumi` block is not a value and cannot be referenced",
                        );
                        Type::dynamic()
                    }
                    _ => crate::facts::resolved_type(self.db, self.file, target),
                },
                None => {
                    self.undefined_variable(id, name);
                    Type::dynamic()
                }
            },
        }
    }

    /// What a top-level name refers to (a narrow query: see `crate::resolve_root`).
    pub(crate) fn lookup_root(&mut self, name: &pcl_hir::Name) -> Option<crate::Resolved<'db>> {
        // A body often names the same node many times; each lookup interns a key.
        if let Some((_, resolved)) = self.roots.iter().find(|(n, _)| n == name) {
            return *resolved;
        }
        let view = self.view;
        let resolved = crate::facts::lookup_root_in(self.db, self.program, view, name);
        self.roots.push((name.clone(), resolved));
        resolved
    }

    fn undefined_variable(&mut self, id: ExprId, name: &str) {
        let help = if name == "range" {
            Some("`range` is defined only in the body of a resource or component whose options set `range`".to_string())
        } else if Builtin::from_name(name).is_some() {
            Some(format!("`{name}` is a function: call it as `{name}(...)`"))
        } else {
            None
        };
        let suggest = help.is_none();
        self.report_with(
            Code::UndefinedVariable,
            Severity::Error,
            Target::Expr(id),
            format!("undefined variable `{name}`"),
            help,
            None,
        );
        if suggest {
            if let Some(last) = self.diagnostics.last_mut() {
                last.suggest_for = Some(pcl_hir::Name::new(name));
            }
        }
    }

    fn infer_object(&mut self, items: &[ObjectItem]) -> Type {
        let mut keys = Vec::new();
        let mut literal_keys = true;
        let mut properties = Vec::new();
        let mut values = Vec::new();
        for item in items {
            let key_ty = self.infer_expr(item.key);
            let value_ty = self.infer_expr(item.value);
            values.push(value_ty.clone());
            keys.push(key_ty.clone());
            let string = Type::string();
            let converts = string.conversion_kind_from(&key_ty) != ConversionKind::None
                || string.input_type().conversion_kind_from(&key_ty) != ConversionKind::None;
            if !converts {
                self.report(
                    Code::NonStringKey,
                    Target::Expr(item.key),
                    format!(
                        "object keys must be strings: cannot use a value of type {} as a key",
                        show(&key_ty)
                    ),
                );
                literal_keys = false;
                continue;
            }
            match key_ty.kind() {
                TypeKind::Const(c) => match key_text(&c.value) {
                    Some(text) => properties.push((text, value_ty)),
                    None => literal_keys = false,
                },
                _ => literal_keys = false,
            }
        }
        let result = if literal_keys {
            Type::object(properties)
        } else {
            Type::map(unify_all(values).safe)
        };
        Type::lift(result, keys)
    }

    fn infer_binary(&mut self, op: BinaryOp, lhs: ExprId, rhs: ExprId) -> Type {
        let l = self.infer_expr(lhs);
        let r = self.infer_expr(rhs);
        let (param, result) = match op {
            BinaryOp::And | BinaryOp::Or => (Some(Type::bool()), Type::bool()),
            BinaryOp::Eq | BinaryOp::NotEq => (None, Type::bool()),
            BinaryOp::Lt | BinaryOp::LtEq | BinaryOp::Gt | BinaryOp::GtEq => {
                (Some(Type::number()), Type::bool())
            }
            // Division is never integral, unlike the reference's typing of int / int.
            BinaryOp::Div => (Some(Type::number()), Type::number()),
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Mod => {
                let result = if is_int(&l) && is_int(&r) {
                    Type::int()
                } else {
                    Type::number()
                };
                (Some(Type::number()), result)
            }
        };
        if let Some(param) = param {
            let context = format!(
                "the operands of `{}` must be of type {}",
                op.as_str(),
                show(&param)
            );
            self.expect(lhs, &l, &param, &context);
            self.expect(rhs, &r, &param, &context);
        }
        Type::lift(result, [l, r])
    }

    fn infer_index(&mut self, id: ExprId, receiver: ExprId, index: ExprId) -> Type {
        let recv = self.infer_expr(receiver);
        let key = self.infer_expr(index);
        if matches!(key.kind(), TypeKind::Const(_)) {
            // A literal key is a traversal step, as in HCL: precise element types and
            // range checks.
            return self.traverse(id, receiver, recv, &Traverser::Index(key));
        }
        let inner = recv.unwrap_eventual().without_none();
        let (key_type, value) = match (inner.kind(), collection_types(&inner)) {
            // Sets cannot be indexed.
            (TypeKind::Set(_), _) | (_, None) if !inner.is_dynamic() => {
                self.report(
                    Code::InvalidTraversal,
                    Target::Accessor { expr: id, receiver },
                    format!("cannot index a value of type {}", show(&recv)),
                );
                return Type::dynamic();
            }
            (_, Some(kv)) => kv,
            (_, None) => (Type::dynamic(), Type::dynamic()),
        };
        self.expect(
            index,
            &key,
            &key_type,
            Lazy(|| format!("the index must be of type {}", show(&key_type))),
        );
        Type::lift(rewrap(&recv, value), [key])
    }

    fn traverse(&mut self, id: ExprId, receiver: ExprId, ty: Type, traverser: &Traverser) -> Type {
        let traversal = ty.traverse(traverser);
        if let Some((severity, reason)) = &traversal.diagnostic {
            let severity = *severity;
            // An optional object without the property: the object's own reason (the unknown
            // property, with its did-you-mean), not "cannot traverse" the optional.
            let reason = match &reason.kind {
                ReasonKind::CannotTraverseUnion { receiver, first }
                    if receiver
                        .union_elements()
                        .iter()
                        .filter(|t| !t.is_none())
                        .count()
                        == 1
                        && matches!(first.kind, ReasonKind::UnknownProperty { .. }) =>
                {
                    &**first
                }
                _ => reason,
            };
            let (code, fix) = match &reason.kind {
                ReasonKind::UnknownProperty { suggestion, .. } => (
                    Code::UnknownProperty,
                    suggestion.as_ref().map(|s| s.to_string()),
                ),
                ReasonKind::CaseInsensitiveMatch { matched, .. } => {
                    (Code::CaseInsensitiveProperty, Some(matched.to_string()))
                }
                ReasonKind::CannotTraverse { receiver } if receiver.is_none() => {
                    (Code::TraversalOfNone, None)
                }
                ReasonKind::ListIndexNotNumber { .. } if severity == Severity::Warning => {
                    (Code::FailsAtRunTime, None)
                }
                _ => (Code::InvalidTraversal, None),
            };
            let severity = if code.default_severity() == Severity::Warning {
                Severity::Warning
            } else {
                severity
            };
            let fix = fix.map(|name| match traverser {
                Traverser::Attr(_) => format!(".{name}"),
                Traverser::Index(_) => format!("[\"{name}\"]"),
            });
            // `pet[0]` of a resource without `range`: a single resource, not a list of them.
            let single_resource = match (&reason.kind, traverser) {
                (ReasonKind::UnknownProperty { object, .. }, Traverser::Index(key)) => {
                    let key = key.resolve_outputs().strip_const();
                    (key == Type::int() || key == Type::number())
                        && matches!(object.kind(), TypeKind::Object(o) if o
                            .annotations()
                            .iter()
                            .any(|a| matches!(a, pcl_types::Annotation::ResourceOutputs(_))))
                }
                _ => false,
            };
            let help = if single_resource {
                Some(
                    "a single resource is not a list: only a resource whose `options` set `range` is indexed by number"
                        .to_string(),
                )
            } else {
                reason.help()
            };
            let message = if code == Code::FailsAtRunTime {
                format!(
                    "{reason}: Pulumi accepts it here, but it cannot convert when the program runs"
                )
            } else {
                reason.to_string()
            };
            self.report_with(
                code,
                severity,
                Target::Accessor { expr: id, receiver },
                message,
                help,
                fix,
            );
        }
        traversal.ty
    }
}

/// The did-you-mean of an undefined name `name` used in `node`: the program's closest name
/// first, then the node's own variables (on a tie, the program's). Read by the edge, not by
/// inference (see [`crate::InferDiagnostic::suggest_for`]).
pub(crate) fn suggest_variable(
    db: &dyn pcl_db::Db,
    node: Node<'_>,
    name: &pcl_hir::Name,
) -> Option<String> {
    let program = node.file(db).program(db);
    let key = crate::RootName::new(db, program, name.clone(), crate::View::Open);
    let program_best = crate::facts::suggest_root_name(db, key);
    let body = node.body(db);
    let locals: Vec<&pcl_hir::Name> = body.bindings().map(|(_, b)| &b.name).collect();
    let candidates = program_best
        .iter()
        .chain(locals.iter().copied())
        .map(|n| n.as_str());
    suggest::best_match(name.as_str(), candidates).map(str::to_string)
}

/// Why a literal of type `src` cannot convert to the primitive `dest` at run time, if it
/// cannot: a string that is no number or bool, a fraction where an int is expected.
pub(crate) fn literal_conversion_problem(src: &Type, dest: &Type) -> Option<LiteralProblem> {
    // Shallow: only a literal (or an eventual literal) has a value to decide by, and only a
    // primitive destination (behind its none, input and eventual wrappers) can reject it.
    let resolved = src.unwrap_eventual();
    let TypeKind::Const(c) = resolved.kind() else {
        return None;
    };
    let dest = bind::shape_of(dest);
    let value = &c.value;
    let error = |message: String| LiteralProblem {
        message,
        code: Code::TypeMismatch,
    };
    // Pulumi's binder accepts a bool for a number and a number for a bool (both convert
    // through a string), and programs converted from Terraform carry them (its own tests
    // bind `inputTwo = true` for an int): reported, but as a warning.
    let at_run_time = |message: String| LiteralProblem {
        message: format!(
            "{message}: Pulumi accepts it here, but it cannot convert when the program runs"
        ),
        code: Code::FailsAtRunTime,
    };
    match (dest.kind(), value) {
        (TypeKind::Int | TypeKind::Number, ConstValue::String(text)) => {
            // go-cty's conversion parses the string as a big float, which takes a leading `+`.
            let text = text.trim();
            let unsigned = text
                .strip_prefix('+')
                .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
                .unwrap_or(text);
            match ConstValue::parse_number(unsigned) {
                Ok(ConstValue::Int(_)) => None,
                Ok(ConstValue::Number(_)) if matches!(dest.kind(), TypeKind::Number) => None,
                Ok(_) => Some(error(format!("the string `{value}` is not a whole number"))),
                Err(_) => Some(error(format!("the string `{value}` is not a number"))),
            }
        }
        (TypeKind::Int, ConstValue::Number(_)) => {
            Some(error(format!("`{value}` is not a whole number")))
        }
        // go-cty converts `"1"` and `"0"` too.
        (TypeKind::Bool, ConstValue::String(text))
            if !matches!(&**text, "true" | "false" | "1" | "0") =>
        {
            Some(error(format!(
                "the string `{value}` is not a bool (`\"true\"` or `\"false\"`)"
            )))
        }
        (TypeKind::Bool, ConstValue::Int(_) | ConstValue::Number(_)) => {
            Some(at_run_time(format!("the number `{value}` is not a bool")))
        }
        (TypeKind::Int | TypeKind::Number, ConstValue::Bool(_)) => {
            Some(at_run_time(format!("the bool `{value}` is not a number")))
        }
        _ => None,
    }
}

/// Why a literal never converts to the type expected, and how it is reported: an error
/// (`TypeMismatch`), or a warning where Pulumi's binder accepts it (`FailsAtRunTime`).
pub(crate) struct LiteralProblem {
    pub(crate) message: String,
    pub(crate) code: Code,
}

/// Whether a type is `int` (a literal int counts: `1 + 2` is int, deliberately).
fn is_int(ty: &Type) -> bool {
    ty.resolve_outputs().strip_const() == Type::int()
}

/// The text of a literal key: strings as they are, numbers and bools as HCL prints them.
fn key_text(value: &ConstValue) -> Option<String> {
    match value {
        ConstValue::String(s) => Some(s.to_string()),
        ConstValue::Int(i) => Some(i.to_string()),
        ConstValue::Number(d) => Some(d.to_string()),
        ConstValue::Bool(b) => Some(b.to_string()),
        ConstValue::Null => None,
    }
}

/// Config object types get optional properties (`makeObjectPropertiesOptional`): the top
/// level of `object`, `list(object)` and `map(object)`.
fn optional_object_properties(ty: Type) -> Type {
    let optional = |object: Type| match object.kind() {
        TypeKind::Object(o) if !o.is_deferred() => Type::object_with(
            o.properties().iter().map(|(k, t)| {
                let t = if t.is_optional() {
                    t.clone()
                } else {
                    Type::optional(t.clone())
                };
                (k.clone(), t)
            }),
            o.strict(),
            o.annotations().to_vec(),
        ),
        _ => object,
    };
    match ty.kind() {
        TypeKind::Object(_) => optional(ty),
        TypeKind::List(e) => Type::list(optional(e.clone())),
        TypeKind::Map(e) => Type::map(optional(e.clone())),
        _ => ty,
    }
}

/// A node's type on one line: a resource's output object is shown as its token, as in
/// `list(resource(aws:s3:BucketObject))`, and other objects on one line.
pub fn one_line_type(ty: &pcl_types::Type) -> String {
    ty.display_readable_with(pcl_types::ReadableStyle::ONE_LINE)
}

/// The reason that explains why a value does not convert: that of `plain` (the conversion
/// between the plain shapes, whose reason names the real types) if that fails too, else
/// `reason` (the conversion's own). Read for the message and for where it is reported.
pub(crate) fn explaining_reason<'r>(
    plain: &'r pcl_types::Conversion,
    reason: Option<&'r pcl_types::Reason>,
) -> Option<&'r pcl_types::Reason> {
    plain
        .reason
        .as_ref()
        .filter(|_| plain.kind == ConversionKind::None)
        .or(reason)
}

/// Why `src` does not convert to `dest`, for a message: the [`explaining_reason`], else the
/// two types.
pub(crate) fn why_not(
    plain: pcl_types::Conversion,
    reason: Option<pcl_types::Reason>,
    src: &Type,
    dest: &Type,
) -> String {
    explaining_reason(&plain, reason.as_ref()).map_or_else(
        || {
            format!(
                "cannot assign a value of type {} to type {}",
                show(src),
                show(dest)
            )
        },
        |r| r.to_string(),
    )
}
