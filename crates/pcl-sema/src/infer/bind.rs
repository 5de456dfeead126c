//! Binding resources, reads and components: their inputs checked against the schema (or the
//! component's program), their options, `range`, and the type other nodes see.

use pcl_diagnostics::{suggest, Code, Severity};
use pcl_hir::{
    AttrId, BindingId, BindingKind, BlockId, Expr, ExprId, NodeKind, Resolution, ResourceOption,
};
use pcl_types::{ConstValue, ConversionKind, Traverser, Type, TypeKind};
use std::borrow::Cow;
use std::sync::OnceLock;

use crate::infer::{collection_types, rewrap, show, Infer, Lazy};
use crate::packages::{resource_schema, PackageError, ResourceSchema, TokenError};
use crate::Target;

/// A required property found missing from an object literal (see [`Infer::check_value`]).
pub(crate) struct MissingRequired {
    /// The literal it is missing from.
    literal: ExprId,
    name: Box<str>,
    /// The conversion's message, for the literal or for the key that misspells it.
    message: String,
    reported: bool,
}

/// The request for the schema of a resource or read with a well-formed `token`: in the package
/// the token names, at the version the program or the block's options ask for.
fn resource_token_request<'db>(
    db: &'db dyn pcl_db::Db,
    program: pcl_db::Program,
    body: &pcl_hir::Body,
    token: &str,
) -> Option<crate::packages::TokenRequest<'db>> {
    // Looked up by `&str`: the interned keys allocate only when first seen.
    let package_name = pcl_schema::token::package_of_token(token)?;
    let request = crate::packages::resource_package_request(db, program, body, package_name);
    Some(crate::packages::TokenRequest::new(db, request, token))
}

/// The type of a resource or read that has no `range` option, as [`Infer::bind_resource`]
/// gives it, without inferring its body: its schema's outputs, or `dynamic` without a usable
/// schema. `None` for a node with a `range`, whose type depends on its body. So a resource's
/// type depends on its token and its schema only: an edit elsewhere that changes how its
/// inputs check does not walk the nodes that use it.
pub(crate) fn unranged_resource_type(db: &dyn pcl_db::Db, node: pcl_hir::Node<'_>) -> Option<Type> {
    let body = node.body(db);
    if body.range_option().is_some() {
        return None;
    }
    // A malformed token has no package (`package_of_token`), as `resolve_resource` finds.
    let schema = node
        .signature(db)
        .label(1)
        .and_then(|token| {
            let program = node.file(db).program(db);
            resource_token_request(db, program, body, token)
        })
        .and_then(|key| resource_schema(db, key).as_ref().ok())
        .filter(|schema| schema.unusable.is_none());
    Some(schema.map_or_else(Type::dynamic, |schema| schema.outputs.clone()))
}

/// How a `range` option shapes the node's type.
#[derive(Clone, Debug)]
pub(crate) enum RangeKind {
    /// No `range`: one instance.
    None,
    /// A bool: zero or one instance (`T?`), lifted to the range's eventual.
    Bool(Type),
    /// A number: a list of instances, never lifted.
    Number,
    /// A list or tuple: a list, wrapped in the range's eventual.
    List(Type),
    /// A map or object: a map keyed like the range, wrapped in its eventual.
    Map(Type),
    /// `dynamic`, or something that cannot be iterated (reported): a list.
    Other,
}

impl RangeKind {
    /// The type of the node given the type `one` of a single instance.
    pub(crate) fn apply(&self, one: Type) -> Type {
        match self {
            RangeKind::None => one,
            RangeKind::Bool(source) => rewrap(source, Type::optional(one)),
            RangeKind::Number | RangeKind::Other => Type::list(one),
            RangeKind::List(source) => rewrap(source, Type::list(one)),
            RangeKind::Map(source) => rewrap(source, Type::map(one)),
        }
    }
}

/// The keys of an object literal when each is a string literal, none twice: the literal's
/// type is then an object with these properties.
fn literal_keys<'b>(
    body: &'b pcl_hir::Body,
    items: &[pcl_hir::ObjectItem],
) -> Option<Vec<&'b str>> {
    let mut keys = Vec::with_capacity(items.len());
    for item in items {
        let Expr::Literal(ConstValue::String(key)) = body.expr(item.key) else {
            return None;
        };
        keys.push(&**key);
    }
    // Twice the same key: by comparing for a few keys, by a set for many (a literal may have
    // 100,000 keys).
    let distinct = if keys.len() <= 16 {
        keys.iter().enumerate().all(|(i, k)| !keys[..i].contains(k))
    } else {
        let mut seen = rustc_hash::FxHashSet::default();
        seen.reserve(keys.len());
        keys.iter().all(|k| seen.insert(*k))
    };
    distinct.then_some(keys)
}

/// Whether a property may be left out of an object literal: the conversion's rule for a
/// property the source lacks.
fn may_leave_out(ty: &Type) -> bool {
    ty.is_dynamic() || ty.union_elements().iter().any(Type::is_none)
}

/// The primitive of `value`'s literal type when a literal of it is never wrong for `shape`:
/// `shape` itself (`"a"` of `string`, `true` of `bool`, `2` of `int`), or `number` for any
/// number. Such a literal converts wherever its primitive does, and no value of it is a
/// problem there (`crate::infer::literal_conversion_problem`).
fn own_primitive(value: &ConstValue, shape: &Type) -> Option<Type> {
    let primitive = value.underlying_type();
    let fits = primitive == *shape
        || (matches!(shape.kind(), TypeKind::Number) && matches!(primitive.kind(), TypeKind::Int));
    (fits && !primitive.is_none()).then_some(primitive)
}

/// The one member of `ty` a literal converts to: `ty` itself, or the one member of its union
/// that is not an output, a promise or `none`. None when there are several, or none.
fn plain_member(ty: &Type) -> Option<&Type> {
    match ty.kind() {
        TypeKind::Union(members) => {
            let mut plain = members.iter().filter(|t| {
                !t.is_none() && !matches!(t.kind(), TypeKind::Output(_) | TypeKind::Promise(_))
            });
            let first = plain.next()?;
            match plain.next() {
                Some(_) => None,
                None => Some(first),
            }
        }
        TypeKind::Output(_) | TypeKind::Promise(_) => None,
        _ => Some(ty),
    }
}

/// The schema type with its `none`, input and eventual wrappers removed, shallowly:
/// `union(T, output(T))?` → `T`. What a literal written for it is shaped like. Builds no new
/// type unless several plain members remain (a union of objects, say), and is borrowed
/// otherwise: a schema's types are shared by every thread, and each copy of a handle writes
/// its shared count.
pub(crate) fn shape_of(ty: &Type) -> Cow<'_, Type> {
    let mut ty = ty;
    for _ in 0..8 {
        match ty.kind() {
            TypeKind::Output(e) | TypeKind::Promise(e) => ty = e,
            TypeKind::Union(members) => {
                let is_plain = |t: &&Type| {
                    !t.is_none() && !matches!(t.kind(), TypeKind::Output(_) | TypeKind::Promise(_))
                };
                let mut plain = members.iter().filter(is_plain);
                let Some(first) = plain.next() else {
                    return Cow::Borrowed(ty);
                };
                if plain.next().is_none() {
                    ty = first;
                } else if 2 + plain.count() == members.len() {
                    return Cow::Borrowed(ty);
                } else {
                    return Cow::Owned(Type::union(members.iter().filter(is_plain).cloned()));
                }
            }
            _ => return Cow::Borrowed(ty),
        }
    }
    Cow::Borrowed(ty)
}

impl<'a, 'db> Infer<'a, 'db> {
    pub(crate) fn lenient(&self) -> bool {
        pcl_db::workspace(self.db).options(self.db).lenient
    }

    /// A problem that lenient mode (schemas not all available) makes a warning.
    pub(crate) fn report_strict(
        &mut self,
        code: Code,
        target: Target,
        message: impl Into<String>,
        help: Option<String>,
        fix: Option<String>,
    ) {
        let severity = if self.lenient() {
            Severity::Warning
        } else {
            code.default_severity()
        };
        self.report_with(code, severity, target, message, help, fix);
    }

    pub(crate) fn options_block(&self) -> Option<BlockId> {
        options_block(self.body)
    }

    // ---- resources and reads -------------------------------------------------------------

    /// Binds a `resource` or `read` block; returns the resource variable's type.
    pub(crate) fn bind_resource(&mut self) -> Type {
        let read = self.kind == NodeKind::Read;
        let token = self.signature.label(1).map(str::to_string);
        let schema = token.as_deref().and_then(|t| self.resolve_resource(t));
        let options = self.options_block();
        let range = match options {
            Some(options) => self.bind_options(
                options,
                schema.map(|s| if read { &s.read_inputs } else { &s.inputs }),
            ),
            None => RangeKind::None,
        };
        let Some(schema) = schema else {
            // Unknown (reported): every use of it is unchecked, ranged or not.
            self.infer_body_attrs();
            return Type::dynamic();
        };
        if read {
            let token = token.as_deref().unwrap_or_default();
            if schema.is_provider {
                self.report(
                    Code::CannotRead,
                    Target::Label(1),
                    format!("provider resources cannot be read: `{token}` is a provider"),
                );
            } else if schema.is_component {
                self.report(
                    Code::CannotRead,
                    Target::Label(1),
                    format!("component resources cannot be read: `{token}` is a component"),
                );
            }
        }
        // Borrowed from the memo: a schema's types are shared by every thread, and each copy
        // of a handle writes its shared count.
        let inputs = if read {
            &schema.read_inputs
        } else {
            &schema.inputs
        };
        let what = format_args!("resource type `{}`", schema.canonical_token);
        self.check_inputs(inputs, &what, true, &[]);
        range.apply(schema.outputs.clone())
    }

    /// The schema of a resource token, reporting why there is none.
    fn resolve_resource(&mut self, token: &str) -> Option<&'db ResourceSchema> {
        if let Err(e) = pcl_schema::token::decompose_token(token) {
            self.report(Code::MalformedToken, Target::Label(1), format!("{e}"));
            return None;
        }
        let key = resource_token_request(self.db, self.program, self.body, token)?;
        match resource_schema(self.db, key) {
            Ok(schema) => match &schema.unusable {
                None => Some(schema),
                Some(problem) => {
                    let message = format!(
                        "the schema's definition of resource type `{token}` cannot be used: {problem}"
                    );
                    self.report_strict(Code::UnknownPackage, Target::Label(1), message, None, None);
                    None
                }
            },
            Err(TokenError::Package(error)) => {
                self.report_unknown_package(Target::Label(1), error);
                None
            }
            Err(TokenError::Unknown(unknown)) => {
                let suggestion = unknown.suggestions.first().cloned();
                let message = format!(
                    "unknown resource type `{token}` in package `{}`",
                    unknown.package
                );
                let help = unknown.help();
                self.report_strict(
                    Code::UnknownResourceType,
                    Target::Label(1),
                    message,
                    help,
                    suggestion.map(|s| format!("\"{s}\"")),
                );
                // A fix for each candidate the help names, the likeliest first.
                if let Some(reported) = self.diagnostics.last_mut() {
                    reported.fixes.extend(
                        unknown
                            .suggestions
                            .iter()
                            .skip(1)
                            .map(|s| format!("\"{s}\"")),
                    );
                }
                None
            }
        }
    }

    pub(crate) fn report_unknown_package(&mut self, target: Target, error: &PackageError) {
        let message = format!("unknown package `{}`: {error}", error.package());
        let help = match error {
            PackageError::NotFound { name, .. } => Some(format!(
                "add a schema file named `{name}-VERSION.json` to a schema directory (`pulumi package get-schema {name} > {name}-VERSION.json` writes one)"
            )),
            PackageError::Invalid { .. } => None,
        };
        self.report_strict(Code::UnknownPackage, target, message, help, None);
        if let Some(reported) = self.diagnostics.last_mut() {
            reported.package = Some(error.package().to_string());
        }
    }

    /// Infers every attribute of the body (a node with no schema to check them against).
    pub(crate) fn infer_body_attrs(&mut self) {
        let values: Vec<ExprId> = self.body.attrs_in(None).map(|(_, a)| a.value).collect();
        for value in values {
            self.infer_expr(value);
        }
    }

    /// Checks the body's attributes against an input object: unknown attributes, values that
    /// do not convert, and missing required ones. `exact`: schema inputs, whose own input
    /// wrappers say where outputs are accepted; otherwise every input accepts an output.
    /// `what` names the object in messages, formatted only for a problem.
    pub(crate) fn check_inputs(
        &mut self,
        inputs: &Type,
        what: &dyn std::fmt::Display,
        exact: bool,
        skip: &[&str],
    ) {
        let TypeKind::Object(object) = inputs.kind() else {
            self.infer_body_attrs();
            return;
        };
        let properties = object.properties();
        let body = self.body;
        let attrs: Vec<(AttrId, &pcl_hir::Name, ExprId)> = body
            .attrs_in(None)
            .map(|(id, a)| (id, &a.name, a.value))
            .collect();
        // Attributes the inputs do not have, with the input each probably misspells: reported
        // once the missing required inputs are known, since a required input misspelt is one
        // mistake (`lenght = 16`), reported at the attribute, not also at the block's `{`.
        let mut unsupported: Vec<(AttrId, &str, Option<String>)> = Vec::new();
        for (id, name, value) in &attrs {
            let name = name.as_str();
            let checked = name != "__logicalName" && !skip.contains(&name);
            let dest = properties.get(name).filter(|_| checked);
            if let Some(dest) = dest {
                if self.fits_as_written(*value, dest, exact) {
                    self.settled.push(*value);
                    continue;
                }
            }
            let ty = self.infer_expr(*value);
            if !checked {
                continue;
            }
            let Some(dest) = dest else {
                let suggestion = suggest::best_match(name, properties.iter().map(|(k, _)| &**k))
                    .map(str::to_string);
                unsupported.push((*id, name, suggestion));
                continue;
            };
            self.check_value(
                *value,
                &ty,
                dest,
                exact,
                format_args!("the attribute `{name}` of {what}"),
            );
        }
        // By name: by comparing for a few attributes, by a set for many (a component may take
        // 100,000 inputs).
        let many: Option<rustc_hash::FxHashSet<&str>> =
            (attrs.len() > 16).then(|| attrs.iter().map(|(_, n, _)| n.as_str()).collect());
        let mut misspelt: Vec<Option<Type>> = vec![None; unsupported.len()];
        for (name, ty) in properties.iter() {
            let given = match &many {
                Some(set) => set.contains(&**name),
                None => attrs.iter().any(|(_, n, _)| n.as_str() == &**name),
            };
            if given {
                continue;
            }
            // Cheapest first: `is_optional` of a type without `none` asks the relation.
            if ty.is_const() || ty.is_dynamic() || ty.is_optional() {
                continue;
            }
            let misspelling = unsupported
                .iter()
                .enumerate()
                .position(|(i, (_, _, s))| misspelt[i].is_none() && s.as_deref() == Some(&**name));
            if let Some(i) = misspelling {
                misspelt[i] = Some(ty.clone());
                continue;
            }
            self.report_strict(
                Code::MissingAttribute,
                Target::OpenBrace,
                format!("missing required attribute `{name}` of {what}"),
                Some(format!(
                    "`{name}` is of type {}",
                    show(&ty.resolve_outputs())
                )),
                None,
            );
        }
        for ((id, name, suggestion), required) in unsupported.into_iter().zip(misspelt) {
            let message = match (&required, &suggestion) {
                (Some(ty), Some(input)) => format!(
                    "unsupported attribute `{name}` of {what}, whose required attribute `{input}` ({}) is missing",
                    show(&ty.resolve_outputs())
                ),
                _ => format!("unsupported attribute `{name}` of {what}"),
            };
            self.report_strict(
                Code::UnsupportedAttribute,
                Target::AttrName(id),
                message,
                suggestion
                    .as_deref()
                    .map(pcl_diagnostics::style::did_you_mean),
                suggestion,
            );
        }
    }

    /// Checks one value against the type of the attribute or argument it is given for: the
    /// conversion (with the reason when it fails), discriminated unions narrowed by their
    /// discriminator, and keys of object literals that the type does not have.
    pub(crate) fn check_value(
        &mut self,
        expr: ExprId,
        src: &Type,
        dest: &Type,
        exact: bool,
        context: std::fmt::Arguments<'_>,
    ) {
        let narrowed = self.narrow(expr, dest);
        let dest = narrowed.as_ref().unwrap_or(dest);
        let effective = if exact {
            Cow::Borrowed(dest)
        } else {
            Cow::Owned(dest.input_type())
        };
        match effective.conversion_kind_from(src) {
            ConversionKind::Safe => {}
            ConversionKind::Unsafe => {
                if let Some(problem) = crate::infer::literal_conversion_problem(src, dest) {
                    self.report_literal_problem(expr, context, problem);
                }
            }
            ConversionKind::None => {
                // Explain against the plain shapes: their reason names the real types.
                let plain = dest
                    .resolve_outputs()
                    .conversion_from(&src.resolve_outputs());
                let reason = effective.conversion_from(src).reason;
                // Where inside a literal the problem is: reported there, not at the value's
                // first line (a missing `name` of the second container of a deployment's spec
                // was reported at `spec = {`).
                let at = crate::infer::explaining_reason(&plain, reason.as_ref())
                    .map_or(expr, |r| self.part_at(expr, r.path()));
                let missing =
                    crate::infer::explaining_reason(&plain, reason.as_ref()).and_then(|r| match &r
                        .kind
                    {
                        pcl_types::ReasonKind::MissingProperty { name, .. } => Some(name.clone()),
                        _ => None,
                    });
                let why = crate::infer::why_not(plain, reason, src, dest);
                let why = if exact
                    && src.eventual_strength() != pcl_types::Eventual::None
                    && shape_of(dest).conversion_kind_from(&src.resolve_outputs())
                        != ConversionKind::None
                {
                    format!(
                        "the property is plain: it takes a value known before deployment, not an output of type {}",
                        show(src)
                    )
                } else {
                    why
                };
                let message = format!("{context}: {why}");
                if let Some(name) = missing {
                    // A required property missing from an object literal is most often one
                    // misspelt there (`nmae = "web"`): that key is the mistake, and the
                    // literal's walk reports it as such, in place of both the missing
                    // property at the literal's first line and a warning at the key.
                    self.missing_required = Some(MissingRequired {
                        literal: self.unparen(at),
                        name,
                        message,
                        reported: false,
                    });
                    self.check_literal_shape(expr, dest, context, true, 0);
                    if let Some(missing) = self.missing_required.take() {
                        if !missing.reported {
                            self.report_value(at, missing.message);
                        }
                    }
                    return;
                }
                match self.enum_value_fix(at, dest) {
                    // A string one or two edits from a value of the enum (`"privat"`).
                    Some(value) => self.report_strict(
                        Code::TypeMismatch,
                        Target::Expr(at),
                        message,
                        Some(pcl_diagnostics::style::did_you_mean(&format!(
                            "\"{value}\""
                        ))),
                        Some(format!("\"{value}\"")),
                    ),
                    None => self.report_value(at, message),
                }
            }
        }
        // Keys the type does not have, and literals deep inside that cannot convert, are
        // problems of their own, reported also beside one that made the whole fail (a string
        // given for a port beside a container missing its name): a conversion names one.
        self.check_literal_shape(expr, dest, context, true, 0);
    }

    /// Whether `expr`, an object or tuple literal, fits `dest` as [`Infer::check_value`] would
    /// find it, with nothing to report: a conversion that exists (an unsafe conversion of an
    /// object or tuple is not reported: only a literal's value can decide one now), no key the
    /// type lacks, no literal that cannot convert. Decided part by part against the type,
    /// without building the literal's own type (building the object types of resources' inputs
    /// and converting them was a third of a check); its other parts are typed as `infer_expr`
    /// types them, in the same order, and each converts as it does inside the literal's
    /// conversion (against the same property type). False when in doubt (a union of objects,
    /// a set, a missing property that is not optional, ...): the caller then types and checks
    /// the value as usual (the parts typed here are not typed again), so what is reported
    /// never depends on this, only what it costs.
    pub(crate) fn fits_as_written(&mut self, expr: ExprId, dest: &Type, exact: bool) -> bool {
        if self.all_types
            || !matches!(
                self.body.expr(self.unparen(expr)),
                Expr::Object(_) | Expr::Tuple(_)
            )
        {
            return false;
        }
        let effective = if exact {
            Cow::Borrowed(dest)
        } else {
            Cow::Owned(dest.input_type())
        };
        self.fits(expr, &effective, dest, 0)
    }

    /// [`Infer::fits_as_written`] of a part: `effective` is the type its conversion is
    /// against (the property's input type unless exact), `dest` the property's own type, whose
    /// shape `check_literal_shape` walks, at `depth` below the attribute.
    fn fits(&mut self, expr: ExprId, effective: &Type, dest: &Type, depth: usize) -> bool {
        // `check_literal_shape` stops there; so does this.
        if depth > 64 {
            return false;
        }
        let expr = self.unparen(expr);
        let body = self.body;
        let composite = matches!(body.expr(expr), Expr::Object(_) | Expr::Tuple(_));
        if !composite {
            if let Expr::Literal(value) = body.expr(expr) {
                // A literal of the very primitive its property is shaped like (`"a"` for a
                // string, `2` for a number): it converts, and no value of it is wrong there,
                // so it is left untyped, as a settled part may be (typing it interns a
                // literal type, for every such value of every resource).
                if let Some(primitive) = own_primitive(value, &shape_of(dest)) {
                    return effective.conversion_kind_from(&primitive) != ConversionKind::None;
                }
            }
            // A part typed as usual. The literal's conversion is the worst of its parts' (an
            // object's, a list's, a map's), so it exists when each part's does; a literal part
            // is checked as `check_literal_shape` checks it.
            let ty = self.infer_expr(expr);
            if effective.conversion_kind_from(&ty) == ConversionKind::None {
                return false;
            }
            return depth == 0
                || !matches!(body.expr(expr), Expr::Literal(_))
                || crate::infer::literal_conversion_problem(&ty, &shape_of(dest)).is_none();
        }
        if effective.is_dynamic() {
            // Anything converts to `dynamic`, and `check_literal_shape` has no shape to walk.
            self.infer_expr(expr);
            return true;
        }
        // The member of the destination the literal converts to: a conversion to a union
        // exists when one to a member does; outputs and `none` are members an object or tuple
        // literal does not convert to.
        let Some(target) = plain_member(effective) else {
            return false;
        };
        // A union of shapes is narrowed by `check_value`: left to it.
        let shape = shape_of(dest);
        // For a resource's inputs (exact) the destination's plain member is its shape.
        let same = *target == *shape;
        match (body.expr(expr), target.kind(), shape.kind()) {
            (Expr::Object(items), TypeKind::Object(target), TypeKind::Object(shape)) => {
                let Some(keys) = literal_keys(body, items) else {
                    return false;
                };
                // Every key a property of both (else `check_literal_shape` warns, and the
                // conversion ignores it); every property left out optional (the conversion's
                // rule for a property the source lacks).
                // Each object's properties read once: a schema's object lends them to every
                // thread, and each reading writes two shared counts.
                let (target_properties, shape_properties) =
                    (target.properties(), shape.properties());
                let mut parts = Vec::with_capacity(keys.len());
                let mut required_given = 0;
                for (item, &key) in items.iter().zip(&keys) {
                    let Some(to) = target_properties.get(key) else {
                        return false;
                    };
                    if !may_leave_out(to) {
                        required_given += 1;
                    }
                    let of = if same {
                        to
                    } else {
                        match shape_properties.get(key) {
                            Some(of) => of,
                            None => return false,
                        }
                    };
                    parts.push((item.value, to, of));
                }
                // The keys are distinct properties: every required one is given when as many
                // required ones are given as there are.
                let required = target_properties
                    .iter()
                    .filter(|(_, ty)| !may_leave_out(ty))
                    .count();
                if required_given != required {
                    return false;
                }
                parts
                    .into_iter()
                    .all(|(value, to, of)| self.fits(value, to, of, depth + 1))
            }
            (Expr::Object(items), TypeKind::Map(to), TypeKind::Map(of)) => {
                if literal_keys(body, items).is_none() {
                    return false;
                }
                items
                    .iter()
                    .all(|item| self.fits(item.value, to, of, depth + 1))
            }
            (Expr::Tuple(elements), TypeKind::List(to), TypeKind::List(of)) => elements
                .iter()
                .all(|&element| self.fits(element, to, of, depth + 1)),
            _ => false,
        }
    }

    fn report_value(&mut self, expr: ExprId, message: String) {
        self.report_strict(Code::TypeMismatch, Target::Expr(expr), message, None, None);
    }

    /// The value of an enum `dest` admits that a string literal at `expr` most likely
    /// misspells.
    fn enum_value_fix(&self, expr: ExprId, dest: &Type) -> Option<String> {
        let Expr::Literal(ConstValue::String(text)) = self.body.expr(self.unparen(expr)) else {
            return None;
        };
        fn values(ty: &Type, out: &mut Vec<String>, depth: usize) {
            if depth > 8 {
                return;
            }
            match ty.kind() {
                TypeKind::Enum(e) => out.extend(e.values.iter().filter_map(|v| match v {
                    ConstValue::String(s) => Some(s.to_string()),
                    _ => None,
                })),
                TypeKind::Output(inner) | TypeKind::Promise(inner) => values(inner, out, depth + 1),
                TypeKind::Union(members) => {
                    for member in members.iter() {
                        values(member, out, depth + 1);
                    }
                }
                _ => {}
            }
        }
        let mut candidates = Vec::new();
        values(dest, &mut candidates, 0);
        suggest::best_match(text, candidates.iter().map(String::as_str)).map(str::to_string)
    }

    fn report_literal_problem(
        &mut self,
        expr: ExprId,
        context: std::fmt::Arguments<'_>,
        problem: crate::infer::LiteralProblem,
    ) {
        let message = format!("{context}: {}", problem.message);
        if problem.code == Code::TypeMismatch {
            self.report_value(expr, message);
        } else {
            self.report(problem.code, Target::Expr(expr), message);
        }
    }

    /// A union of objects narrowed to the member an object literal selects: the member whose
    /// discriminating property is the constant (or enum value) the literal sets.
    fn narrow(&self, expr: ExprId, dest: &Type) -> Option<Type> {
        if !matches!(self.body.expr(self.unparen(expr)), Expr::Object(_)) {
            return None;
        }
        let shape = shape_of(dest);
        let members = shape.union_elements();
        if members.len() < 2
            || !members
                .iter()
                .all(|m| matches!(m.kind(), TypeKind::Object(_)))
        {
            return None;
        }
        let Expr::Object(items) = self.body.expr(self.unparen(expr)) else {
            return None;
        };
        for item in items.iter() {
            let (Expr::Literal(ConstValue::String(key)), Expr::Literal(value)) =
                (self.body.expr(item.key), self.body.expr(item.value))
            else {
                continue;
            };
            let selected: Vec<&Type> = members
                .iter()
                .filter(|m| {
                    let TypeKind::Object(o) = m.kind() else {
                        return false;
                    };
                    o.property(key).is_some_and(|p| admits_constant(&p, value))
                })
                .collect();
            if let [one] = selected.as_slice() {
                return Some((*one).clone());
            }
        }
        None
    }

    /// The part of the literal `expr` a conversion's path leads to: through object literals
    /// by key and tuple literals by index, as far as the literal goes (a step into something
    /// else, or into any element of a collection, stops there).
    fn part_at<'p>(
        &self,
        expr: ExprId,
        path: impl Iterator<Item = &'p pcl_types::PathStep>,
    ) -> ExprId {
        let mut at = expr;
        for step in path {
            let part = match (self.body.expr(self.unparen(at)), step) {
                (Expr::Object(items), pcl_types::PathStep::Property(key)) => items
                    .iter()
                    .rev()
                    .find_map(|item| match self.body.expr(item.key) {
                        Expr::Literal(ConstValue::String(k)) if **k == **key => Some(item.value),
                        _ => None,
                    }),
                (Expr::Tuple(elements), pcl_types::PathStep::Index(i)) => elements.get(*i).copied(),
                _ => None,
            };
            match part {
                Some(part) => at = part,
                None => break,
            }
        }
        at
    }

    fn unparen(&self, mut expr: ExprId) -> ExprId {
        while let Expr::Paren(inner) = self.body.expr(expr) {
            expr = *inner;
        }
        expr
    }

    /// Warns about keys of object literals that the schema type does not have: the reference
    /// silently drops them, and they are almost always typos.
    fn check_literal_shape(
        &mut self,
        expr: ExprId,
        dest: &Type,
        context: std::fmt::Arguments<'_>,
        check_literals: bool,
        depth: usize,
    ) {
        if depth > 64 {
            return;
        }
        let expr = self.unparen(expr);
        match self.body.expr(expr) {
            Expr::Object(_) | Expr::Tuple(_) => {}
            Expr::Literal(_) if check_literals && depth > 0 => {}
            _ => return,
        }
        let dest = match self.narrow(expr, dest) {
            Some(narrowed) => Cow::Owned(narrowed),
            None => shape_of(dest),
        };
        let body = self.body;
        match (body.expr(expr), dest.kind()) {
            (Expr::Literal(_), _) if check_literals && depth > 0 => {
                let ty = self.infer_expr(expr);
                if let Some(problem) = crate::infer::literal_conversion_problem(&ty, &dest) {
                    self.report_literal_problem(expr, context, problem);
                }
            }
            (Expr::Object(items), TypeKind::Object(object)) => {
                let properties = object.properties();
                for item in items.iter() {
                    let Expr::Literal(ConstValue::String(key)) = body.expr(item.key) else {
                        continue;
                    };
                    match properties.get(key) {
                        Some(property) => self.check_literal_shape(
                            item.value,
                            property,
                            context,
                            check_literals,
                            depth + 1,
                        ),
                        None => {
                            let key = key.to_string();
                            let names: Vec<Box<str>> =
                                properties.iter().map(|(k, _)| k.clone()).collect();
                            let suggestion = suggest::best_match(&key, names.iter().map(|k| &**k))
                                .map(str::to_string);
                            let shown: Vec<&str> = names.iter().map(|k| &**k).take(12).collect();
                            let object_name = crate::infer::one_line_type(
                                &crate::infer::widen_literals(Type::clone(&dest)),
                            );
                            if let Some(missing) = self.missing_required.as_mut().filter(|m| {
                                !m.reported
                                    && m.literal == expr
                                    && suggestion.as_deref() == Some(&*m.name)
                            }) {
                                missing.reported = true;
                                let message = format!(
                                    "{}, and `{key}` is not a property of {object_name}",
                                    missing.message
                                );
                                let name = missing.name.to_string();
                                self.report_strict(
                                    Code::TypeMismatch,
                                    Target::Expr(item.key),
                                    message,
                                    Some(pcl_diagnostics::style::did_you_mean(&name)),
                                    Some(name),
                                );
                                continue;
                            }
                            let help = match &suggestion {
                                Some(s) => Some(pcl_diagnostics::style::did_you_mean(s)),
                                None if shown.is_empty() => None,
                                None => Some(format!(
                                    "the type has {}",
                                    pcl_diagnostics::style::quoted_list(&shown, "and")
                                )),
                            };
                            self.report_with(
                                Code::UnknownObjectKey,
                                Severity::Warning,
                                Target::Expr(item.key),
                                format!("unknown property `{key}` of {object_name}: it is ignored"),
                                help,
                                suggestion,
                            );
                        }
                    }
                }
            }
            (Expr::Object(items), TypeKind::Map(element)) => {
                for item in items.iter() {
                    self.check_literal_shape(
                        item.value,
                        element,
                        context,
                        check_literals,
                        depth + 1,
                    );
                }
            }
            (Expr::Tuple(elements), TypeKind::List(element) | TypeKind::Set(element)) => {
                for value in elements.iter() {
                    self.check_literal_shape(*value, element, context, check_literals, depth + 1);
                }
            }
            _ => {}
        }
    }

    // ---- options -------------------------------------------------------------------------

    /// Binds the `options` block; returns how `range` shapes the node. `inputs` is the
    /// resource's input object, the scope of property paths (`None`: no schema).
    pub(crate) fn bind_options(&mut self, options: BlockId, inputs: Option<&Type>) -> RangeKind {
        let body = self.body;
        let attrs: Vec<(AttrId, &pcl_hir::Name, ExprId)> = body
            .attrs_in(Some(options))
            .map(|(id, a)| (id, &a.name, a.value))
            .collect();
        // `range` first: the body's `range` variable depends on it.
        let range_attr = self
            .body
            .range_option()
            .map(|(id, a)| (id, a.value))
            .filter(|&(id, _)| attrs.iter().any(|(a, _, _)| *a == id));
        let range = match range_attr {
            Some((_, value)) => {
                let ty = self.infer_expr(value);
                self.bind_range(value, ty)
            }
            None => RangeKind::None,
        };
        for (id, name, value) in &attrs {
            let name = name.as_str();
            let option = ResourceOption::from_name(name);
            if range_attr.is_some_and(|(range, _)| range == *id) {
                continue;
            }
            match option {
                Some(ResourceOption::Range) => {}
                Some(o) if o.takes_property_paths() && self.kind != NodeKind::Component => {
                    self.bind_property_paths(*value, inputs, name);
                }
                Some(ResourceOption::Hooks) => self.bind_hooks(*value),
                _ => {
                    let ty = self.infer_expr(*value);
                    if let Some(expected) = option.and_then(option_type) {
                        let ok = self.expect(
                            *value,
                            &ty,
                            expected,
                            Lazy(|| {
                                format!("the option `{name}` must be of type {}", show(expected))
                            }),
                        );
                        // Their objects' keys are checked as invoke options' are (B3): a
                        // misspelled `create` or `name` would be dropped without a word. An
                        // alias is a string or an object: the objects are checked as such.
                        match option {
                            Some(ResourceOption::CustomTimeouts) => self.check_literal_shape(
                                *value,
                                expected,
                                format_args!("the option `{name}`"),
                                ok,
                                0,
                            ),
                            // A string alias is a literal no object check flags.
                            Some(ResourceOption::Aliases) => self.check_literal_shape(
                                *value,
                                alias_objects(),
                                format_args!("the option `{name}`"),
                                ok,
                                0,
                            ),
                            _ => {}
                        }
                    }
                    if option == Some(ResourceOption::Version) {
                        self.check_version(*value);
                    }
                }
            }
        }
        range
    }

    fn check_version(&mut self, value: ExprId) {
        if let Expr::Literal(ConstValue::String(text)) = self.body.expr(value) {
            let bare = text.strip_prefix('v').unwrap_or(text);
            if semver::Version::parse(bare).is_err() {
                let message =
                    format!("the version `{text:?}` is not a semantic version (like `\"4.2.0\"`)");
                self.report(Code::TypeMismatch, Target::Expr(value), message);
            }
        }
    }

    /// Types `range` and defines the body's `range` variable.
    fn bind_range(&mut self, expr: ExprId, ty: Type) -> RangeKind {
        // Built once per process, as the options' types are.
        static EXPECTED: OnceLock<Type> = OnceLock::new();
        let expected = EXPECTED.get_or_init(|| {
            Type::union([
                Type::bool(),
                Type::number(),
                Type::list(Type::dynamic()),
                Type::map(Type::dynamic()),
            ])
        });
        let component = self.kind == NodeKind::Component;
        if !self.expect(
            expr,
            &ty,
            expected,
            "`range` must be a bool, a number, a list or a map",
        ) {
            return RangeKind::Other;
        }
        let mut resolved = ty.resolve_outputs().without_none();
        if resolved.union_elements().iter().any(|t| t.is_dynamic()) {
            resolved = Type::dynamic();
        }
        let safe =
            |dest: Type| dest.input_type().conversion_kind_from(&resolved) == ConversionKind::Safe;
        let (kind, range_type) = if resolved.is_dynamic() {
            (
                RangeKind::Other,
                Type::object([("key", Type::dynamic()), ("value", Type::dynamic())]),
            )
        } else if safe(Type::bool()) {
            self.range_over_bool = true;
            let source = if component {
                Type::dynamic()
            } else {
                ty.clone()
            };
            (RangeKind::Bool(source), Type::dynamic())
        } else if safe(Type::number()) {
            (RangeKind::Number, Type::object([("value", Type::int())]))
        } else {
            match collection_types(&resolved) {
                Some((key, value)) => {
                    let keyed_by_string = key.strip_const() == Type::string();
                    let kind = if component {
                        if keyed_by_string {
                            RangeKind::Map(Type::dynamic())
                        } else {
                            RangeKind::Other
                        }
                    } else if keyed_by_string {
                        RangeKind::Map(ty.clone())
                    } else {
                        RangeKind::List(ty.clone())
                    };
                    (kind, Type::object([("key", key), ("value", value)]))
                }
                None => {
                    self.report(
                        Code::NotIterable,
                        Target::Expr(expr),
                        format!("cannot iterate over a value of type {}", show(&ty)),
                    );
                    (
                        RangeKind::Other,
                        Type::object([("key", Type::dynamic()), ("value", Type::dynamic())]),
                    )
                }
            }
        };
        let bindings: Vec<BindingId> = self
            .body
            .bindings()
            .filter(|(_, b)| b.kind == BindingKind::Range)
            .map(|(id, _)| id)
            .collect();
        for binding in bindings {
            self.set_binding(binding, range_type.clone());
        }
        kind
    }

    /// `ignoreChanges = [tags, spec.replicas, items[0]]`: paths into the resource's own
    /// inputs, not references to other nodes.
    fn bind_property_paths(&mut self, root: ExprId, inputs: Option<&Type>, option: &str) {
        let property = Type::opaque("Property");
        let elements: Vec<ExprId> = match self.body.expr(self.unparen(root)) {
            Expr::Tuple(elements) => elements.to_vec(),
            Expr::Missing => Vec::new(),
            _ => {
                self.mark_all(root, &property);
                self.report(
                    Code::InvalidPropertyPath,
                    Target::Expr(root),
                    format!(
                        "`{option}` takes a list of property paths, like `[tags, spec.replicas]`"
                    ),
                );
                self.set(root, Type::list(property));
                return;
            }
        };
        for element in elements {
            self.mark_all(element, &property);
            let Some(inputs) = inputs else { continue };
            self.check_property_path(element, inputs, option);
        }
        self.set(root, Type::list(property));
    }

    fn mark_all(&mut self, root: ExprId, ty: &Type) {
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            self.set(id, ty.clone());
            self.body.for_each_child(id, |c| stack.push(c));
        }
    }

    fn check_property_path(&mut self, element: ExprId, inputs: &Type, option: &str) {
        // Unwind the traversal to its root name.
        let mut steps: Vec<(ExprId, ExprId, Traverser)> = Vec::new();
        let mut current = self.unparen(element);
        let root_name = loop {
            match self.body.expr(current) {
                Expr::GetAttr { receiver, name } => {
                    steps.push((current, *receiver, Traverser::attr(name)));
                    current = *receiver;
                }
                Expr::Index { receiver, index } => {
                    let key = match self.body.expr(*index) {
                        Expr::Literal(value) => value.clone().literal_type(),
                        _ => Type::dynamic(),
                    };
                    steps.push((current, *receiver, Traverser::Index(key)));
                    current = *receiver;
                }
                Expr::Variable {
                    name,
                    resolution: Resolution::Root,
                } => break Some(name.clone()),
                _ => break None,
            }
        };
        let Some(root_name) = root_name else {
            self.report(
                Code::InvalidPropertyPath,
                Target::Expr(element),
                format!("`{option}` takes property paths of the resource's inputs, like `tags` or `spec.replicas`"),
            );
            return;
        };
        let TypeKind::Object(object) = inputs.kind() else {
            return;
        };
        let Some(mut ty) = object.property(&root_name) else {
            let names: Vec<Box<str>> = object.properties().iter().map(|(k, _)| k.clone()).collect();
            let suggestion =
                suggest::best_match(&root_name, names.iter().map(|k| &**k)).map(str::to_string);
            self.report_strict(
                Code::InvalidPropertyPath,
                Target::Expr(current),
                format!("`{root_name}` is not an input property of this resource"),
                suggestion
                    .as_deref()
                    .map(pcl_diagnostics::style::did_you_mean),
                suggestion,
            );
            return;
        };
        for (expr, receiver, traverser) in steps.into_iter().rev() {
            let traversal = shape_of(&ty).traverse(&traverser);
            if let Some((_, reason)) = &traversal.diagnostic {
                self.report_with(
                    Code::InvalidPropertyPath,
                    Code::InvalidPropertyPath.default_severity(),
                    Target::Accessor { expr, receiver },
                    reason.to_string(),
                    reason.help(),
                    None,
                );
                return;
            }
            ty = traversal.ty;
        }
    }

    /// `hooks = { beforeCreate = [myHook], onError = [errorHook] }`.
    fn bind_hooks(&mut self, value: ExprId) {
        const KEYS: &[&str] = &[
            "afterCreate",
            "afterDelete",
            "afterUpdate",
            "beforeCreate",
            "beforeDelete",
            "beforeUpdate",
            "onError",
        ];
        self.infer_expr(value);
        let Expr::Object(items) = self.body.expr(self.unparen(value)).clone() else {
            self.report(
                Code::InvalidHooks,
                Target::Expr(value),
                "the `hooks` option must be an object mapping hook names to lists of hooks, like `{ beforeCreate = [myHook] }`",
            );
            return;
        };
        for item in items.iter() {
            let Expr::Literal(ConstValue::String(key)) = self.body.expr(item.key) else {
                continue;
            };
            let key = key.to_string();
            if !KEYS.contains(&key.as_str()) {
                let suggestion =
                    suggest::best_match(&key, KEYS.iter().copied()).map(str::to_string);
                self.report_with(
                    Code::InvalidHooks,
                    Severity::Error,
                    Target::Expr(item.key),
                    format!("unknown hook name `{key}`"),
                    Some(match &suggestion {
                        Some(s) => pcl_diagnostics::style::did_you_mean(s),
                        None => format!(
                            "hook names are {}",
                            pcl_diagnostics::style::quoted_list(KEYS, "and")
                        ),
                    }),
                    suggestion,
                );
                continue;
            }
            let Expr::Tuple(elements) = self.body.expr(self.unparen(item.value)).clone() else {
                self.report(
                    Code::InvalidHooks,
                    Target::Expr(item.value),
                    format!("the hooks of `{key}` must be a list of hooks, like `[myHook]`"),
                );
                continue;
            };
            let wanted = if key == "onError" {
                "error"
            } else {
                "resource"
            };
            for element in elements.iter() {
                let Expr::Variable {
                    name,
                    resolution: Resolution::Root,
                } = self.body.expr(*element)
                else {
                    self.report(
                        Code::InvalidHooks,
                        Target::Expr(*element),
                        "a hook list holds references to hook blocks",
                    );
                    continue;
                };
                let Some(target) = self.lookup_root(name) else {
                    continue; // reported as an undefined variable
                };
                if target.kind(self.db) != NodeKind::Hook {
                    self.report(
                        Code::InvalidHooks,
                        Target::Expr(*element),
                        format!("`{name}` is not a hook"),
                    );
                    continue;
                }
                // The hook's kind is in its labels: read from its file.
                let kind = crate::resolved_node(self.db, target)
                    .and_then(|hook| hook.signature(self.db).label(0).map(str::to_string))
                    .unwrap_or_default();
                if kind != wanted {
                    self.report(
                        Code::InvalidHooks,
                        Target::Expr(*element),
                        format!(
                            "cannot bind `{kind}` hook `{name}` to `{key}`: it takes `{wanted}` hooks"
                        ),
                    );
                }
            }
        }
    }
}

impl Infer<'_, '_> {
    /// `package { baseProviderName = "terraform-provider" ... parameterization { } }`.
    pub(crate) fn bind_package(&mut self) {
        let values: Vec<ExprId> = self.body.attrs.iter().map(|a| a.value).collect();
        for value in values {
            self.infer_expr(value);
        }
        let has_label = self.signature.label(0).is_some_and(|l| !l.is_empty());
        if self.body.find_attr(None, "baseProviderName").is_none() && !has_label {
            self.report(
                Code::InvalidPackage,
                Target::Name,
                "missing required attribute `baseProviderName` of a `package` block without a label",
            );
        }
        let versions: Vec<(Option<BlockId>, &str)> = std::iter::once((None, "baseProviderVersion"))
            .chain(
                self.body
                    .blocks_in(None)
                    .filter(|(_, b)| b.type_name.as_str() == "parameterization")
                    .map(|(id, _)| (Some(id), "version")),
            )
            .collect();
        for (block, name) in versions {
            let Some((_, attr)) = self.body.find_attr(block, name) else {
                continue;
            };
            let value = attr.value;
            match self.body.expr(value) {
                Expr::Literal(ConstValue::String(text)) => {
                    if semver::Version::parse(text.strip_prefix('v').unwrap_or(text)).is_err() {
                        self.report(
                            Code::InvalidPackage,
                            Target::Expr(value),
                            format!("invalid `{name}` `{text:?}`: not a semantic version"),
                        );
                    }
                }
                _ => self.report(
                    Code::NotALiteral,
                    Target::Expr(value),
                    format!("attribute `{name}` must be a literal string"),
                ),
            }
        }
        let parameterizations: Vec<BlockId> = self
            .body
            .blocks_in(None)
            .filter(|(_, b)| b.type_name.as_str() == "parameterization")
            .map(|(id, _)| id)
            .collect();
        for block in parameterizations {
            for required in ["name", "version", "value"] {
                if self.body.find_attr(Some(block), required).is_none() {
                    self.report(
                        Code::InvalidPackage,
                        Target::BlockType(block),
                        format!(
                            "missing required attribute `{required}` of a `parameterization` block"
                        ),
                    );
                }
            }
        }
    }
}

/// Whether a property of type `ty` can hold the literal `value`: a constant equal to it, or an
/// enum with it among its values.
fn admits_constant(ty: &Type, value: &ConstValue) -> bool {
    let shape = shape_of(ty);
    shape.union_elements().iter().any(|t| match t.kind() {
        TypeKind::Const(c) => &c.value == value,
        TypeKind::Enum(e) => e.values.contains(value),
        _ => false,
    })
}

/// A node's `options` block (the first: a second is reported by lowering), else a misspelt
/// one (`option`, reported by lowering), read as the options the user meant.
pub(crate) fn options_block(body: &pcl_hir::Body) -> Option<BlockId> {
    body.blocks_in(None)
        .find(|(_, b)| b.type_name.as_str() == "options")
        .or_else(|| {
            body.blocks_in(None)
                .find(|(_, b)| pcl_hir::ResourceOption::is_options_block(&b.type_name))
        })
        .map(|(id, _)| id)
}

/// An alias written as an object: `{ name = "old" }`.
fn alias_object() -> Type {
    let optional_string = || Type::optional(Type::string());
    Type::object([
        ("name", optional_string()),
        ("type", optional_string()),
        ("noParent", Type::optional(Type::bool())),
        ("parent", Type::dynamic()),
    ])
}

/// The type a resource option's value must have (`bindResourceOptions`); `None` for the options
/// checked by their own rules (`range`, property paths, `hooks`). Also what editors show.
pub fn resource_option_type(option: ResourceOption) -> Option<Type> {
    option_type(option).cloned()
}

/// [`resource_option_type`], built once per process: binding asks for it for every option of
/// every resource, and a type built and dropped each time was interned, and removed from the
/// shared table again, under its lock.
fn option_type(option: ResourceOption) -> Option<&'static Type> {
    use ResourceOption::*;
    static DYNAMIC: OnceLock<Type> = OnceLock::new();
    static PROVIDERS: OnceLock<Type> = OnceLock::new();
    static LIST: OnceLock<Type> = OnceLock::new();
    static BOOL: OnceLock<Type> = OnceLock::new();
    static STRING: OnceLock<Type> = OnceLock::new();
    static TIMEOUTS: OnceLock<Type> = OnceLock::new();
    static ALIASES: OnceLock<Type> = OnceLock::new();
    static ENV: OnceLock<Type> = OnceLock::new();
    let optional_string = || Type::optional(Type::string());
    Some(match option {
        Parent | Provider | DeletedWith | ReplacementTrigger => DYNAMIC.get_or_init(Type::dynamic),
        Providers => PROVIDERS
            .get_or_init(|| Type::union([Type::map(Type::dynamic()), Type::list(Type::dynamic())])),
        DependsOn | ReplaceWith => LIST.get_or_init(|| Type::list(Type::dynamic())),
        Protect | RetainOnDelete | DeleteBeforeReplace => BOOL.get_or_init(Type::bool),
        Version | PluginDownloadUrl | Import => STRING.get_or_init(Type::string),
        CustomTimeouts => TIMEOUTS.get_or_init(|| {
            Type::object([
                ("create", optional_string()),
                ("update", optional_string()),
                ("delete", optional_string()),
                ("read", optional_string()),
            ])
        }),
        Aliases => {
            ALIASES.get_or_init(|| Type::list(Type::union([Type::string(), alias_object()])))
        }
        EnvVarMappings => ENV.get_or_init(|| Type::map(Type::string())),
        Range | Hooks | AdditionalSecretOutputs | HideDiffs | IgnoreChanges | ReplaceOnChanges => {
            return None
        }
    })
}

/// The list of alias objects a string alias is checked against as an object would be.
fn alias_objects() -> &'static Type {
    static ALIAS_OBJECTS: OnceLock<Type> = OnceLock::new();
    ALIAS_OBJECTS.get_or_init(|| Type::list(alias_object()))
}
