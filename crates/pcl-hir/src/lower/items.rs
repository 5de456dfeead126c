//! Top-level items: a local or a block becomes a node with its name, labels and signature;
//! the label rules of each block kind, the attributes each takes, the structural checks of a
//! node's attributes and nested blocks (`options` included), and config/output type labels.

use pcl_diagnostics::{suggest, Code, Diagnostic};
use pcl_syntax::ast;
use pcl_syntax::{TextRange, TextSize};
use pcl_syntax::{TreeNode, TreeToken};
use pcl_types::ConstValue;

use crate::body::*;
use crate::item::{NodeKind, NodeRanges, NodeSourceMap, Signature};
use crate::name::Name;
use crate::options::ResourceOption;

use super::{range_of, Lowerer, Remap};

/// One item lowered: what becomes a [`Node`](crate::Node).
pub(super) struct LoweredNode {
    pub(super) kind: NodeKind,
    pub(super) name: Name,
    pub(super) signature: Signature,
    pub(super) body: Body,
    pub(super) source_map: NodeSourceMap,
}

pub(super) fn lower_local<N: TreeNode>(
    attr: &ast::Attribute<N>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<LoweredNode> {
    let name_token = attr.name()?;
    let mut lowerer = Lowerer::new(diagnostics);
    let value = lowerer.lower_opt(attr.expr(), range_of(attr));
    lowerer.body.value = Some(value);
    let (body, body_map) = lowerer.finish();
    Some(LoweredNode {
        kind: NodeKind::Local,
        name: Name::new(name_token.text()),
        signature: Signature::default(),
        body,
        source_map: NodeSourceMap::new(NodeRanges {
            range: range_of(attr),
            keyword: name_token.text_range(),
            name: name_token.text_range(),
            labels: Box::default(),
            open_brace: None,
            body: body_map,
        }),
    })
}

/// The name of a block of `kind` with these labels (each decoded, `None` for a label that is
/// not a plain string), and which label holds it (`None`: the block's type keyword stands for
/// it); `None` for a block no expression can refer to, which makes no node. The one rule
/// lowering and an open file's items ([`item_identity`]) name blocks by.
fn block_name(kind: NodeKind, labels: &[Option<Name>]) -> Option<(Name, Option<usize>)> {
    match (kind, label_rule(kind).name_label) {
        (NodeKind::Pulumi, _) => Some((Name::new("pulumi"), None)),
        (NodeKind::Package, _) => match labels.first() {
            Some(label) => Some((Name::new(label.as_deref().unwrap_or("")), Some(0))),
            None => Some((Name::new(""), None)),
        },
        (_, Some(index)) => match labels.get(index) {
            Some(Some(value)) => Some((value.clone(), Some(index))),
            // No usable name: nothing can refer to this block, so it is not a node. Its
            // label problem is reported by lowering or by the syntax validator.
            _ => None,
        },
        (_, None) => None,
    }
}

/// The kind and name of the node an item makes, if it makes one: what lowering it would give
/// ([`lower_local`], [`lower_block`]) without lowering its body.
pub(crate) fn item_identity<N: TreeNode>(item: &ast::BodyItem<N>) -> Option<(NodeKind, Name)> {
    match item {
        ast::BodyItem::Attribute(attr) => Some((NodeKind::Local, Name::new(attr.name()?.text()))),
        ast::BodyItem::Block(block) => {
            let kind = NodeKind::from_keyword(block.type_name()?.text())?;
            let labels: Vec<Option<Name>> = block
                .labels()
                .map(|l| l.value().map(|v| Name::new(&v)))
                .collect();
            block_name(kind, &labels).map(|(name, _)| (kind, name))
        }
    }
}

/// What the labels of each block kind are.
struct LabelRule {
    min: usize,
    max: usize,
    /// Which label is the node's name (`None`: the name is fixed or absent).
    name_label: Option<usize>,
    message: &'static str,
}

fn label_rule(kind: NodeKind) -> LabelRule {
    let rule = |min, max, name_label, message| LabelRule {
        min,
        max,
        name_label,
        message,
    };
    match kind {
        NodeKind::Resource => rule(
            2,
            2,
            Some(0),
            "`resource` blocks must have exactly two labels: a name and a resource type token",
        ),
        NodeKind::Read => rule(
            2,
            2,
            Some(0),
            "`read` blocks must have exactly two labels: a name and a resource type token",
        ),
        NodeKind::Config => rule(
            1,
            2,
            Some(0),
            "`config` blocks must have one or two labels: a name and an optional type",
        ),
        NodeKind::Output => rule(
            1,
            2,
            Some(0),
            "`output` blocks must have one or two labels: a name and an optional type",
        ),
        NodeKind::Component => rule(
            1,
            2,
            Some(0),
            "`component` blocks must have one or two labels: a name and an optional source directory",
        ),
        NodeKind::Hook => rule(
            2,
            2,
            Some(1),
            "`hook` blocks must have exactly two labels: a kind (`resource` or `error`) and a name",
        ),
        NodeKind::Pulumi => rule(0, 0, None, "`pulumi` blocks must not have any labels"),
        NodeKind::Package => rule(0, 1, None, "`package` blocks must have at most one label"),
        NodeKind::Local => rule(0, 0, None, ""),
    }
}

/// The attributes each block kind takes, where the set is fixed (resources and components
/// take their schema's inputs, which the binder checks).
pub fn known_attributes(
    kind: NodeKind,
    hook_kind: Option<&str>,
) -> Option<&'static [&'static str]> {
    Some(match kind {
        NodeKind::Config => &[
            "__logicalName",
            "default",
            "description",
            "nullable",
            "secret",
        ],
        NodeKind::Output => &["__logicalName", "description", "value"],
        NodeKind::Pulumi => &["requiredVersionRange"],
        NodeKind::Hook if hook_kind == Some("error") => &["command"],
        NodeKind::Hook => &["command", "ignoreErrors", "onDryRun"],
        _ => return None,
    })
}

/// For a Terraform block type that PCL does not have: how PCL writes it, and the keyword
/// that replaces it where the block is otherwise the same.
fn terraform_block(keyword: &str) -> Option<(&'static str, Option<&'static str>)> {
    Some(match keyword {
        "variable" => (
            "a program's inputs are `config` blocks in PCL: `config \"name\" \"type\" { default = ... }`",
            Some("config"),
        ),
        "locals" => (
            "local values are top-level attributes in PCL, one per line: `name = value`",
            None,
        ),
        "module" => (
            "another program is included with a `component` block in PCL: `component name \"./dir\" { ... }`",
            Some("component"),
        ),
        "data" => (
            "a data source is read in PCL by calling `invoke(\"pkg:module:function\", { ... })` in an expression",
            None,
        ),
        "provider" => (
            "a provider is a resource of type `pulumi:providers:NAME` in PCL",
            None,
        ),
        _ => return None,
    })
}

pub(super) fn lower_block<N: TreeNode>(
    block: &ast::Block<N>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<LoweredNode> {
    let type_token = block.type_name()?;
    let keyword = type_token.text();
    let Some(kind) = NodeKind::from_keyword(keyword) else {
        let mut diagnostic = Diagnostic::new(
            Code::UnknownBlockType,
            type_token.text_range(),
            format!("unknown block type `{keyword}`: the block is ignored"),
        );
        if let Some((help, replacement)) = terraform_block(keyword) {
            // Terraform's blocks, written by habit or left by a conversion: what PCL says
            // instead (their names would otherwise be undefined at every use, unexplained).
            diagnostic = diagnostic.with_help(help);
            if let Some(replacement) = replacement {
                diagnostic = diagnostic.with_fix(
                    format!("replace with `{replacement}`"),
                    type_token.text_range(),
                    replacement,
                );
            }
        } else if let Some(suggestion) =
            suggest::best_match(keyword, NodeKind::BLOCK_KEYWORDS.iter().copied())
        {
            diagnostic = diagnostic
                .with_help(pcl_diagnostics::style::did_you_mean(suggestion))
                .with_fix(
                    format!("replace with `{suggestion}`"),
                    type_token.text_range(),
                    suggestion,
                );
        }
        diagnostics.push(diagnostic);
        return None;
    };
    let labels: Vec<ast::BlockLabel<N>> = block.labels().collect();
    let label_ranges: Vec<TextRange> = labels.iter().map(range_of).collect();
    // Interned: a token or type label is shared by every node that names it, and a name
    // label by the node's name.
    let label_values: Vec<Option<Name>> = labels
        .iter()
        .map(|l| l.value().map(|v| Name::new(&v)))
        .collect();
    let rule = label_rule(kind);
    if labels.len() < rule.min || labels.len() > rule.max {
        let range = match (label_ranges.first(), label_ranges.last()) {
            (Some(first), Some(last)) => first.cover(*last),
            _ => type_token.text_range(),
        };
        diagnostics.push(Diagnostic::new(Code::WrongLabelCount, range, rule.message));
    }
    let (name, name_label) = block_name(kind, &label_values)?;
    let name_range = name_label.map_or_else(|| type_token.text_range(), |i| label_ranges[i]);
    let hook_kind = (kind == NodeKind::Hook)
        .then(|| label_values[0].as_deref())
        .flatten();
    if kind == NodeKind::Hook {
        if let (Some(kind_value), Some(range)) = (&label_values[0], label_ranges.first()) {
            if !matches!(&**kind_value, "resource" | "error") {
                diagnostics.push(Diagnostic::new(
                    Code::InvalidLabel,
                    *range,
                    format!("invalid hook kind `{kind_value}`: expected `resource` or `error`"),
                ));
            }
        }
    }

    let mut lowerer = Lowerer::new(diagnostics);
    if let Some(body) = block.body() {
        lowerer.lower_node_body(kind, &body);
    }
    if matches!(kind, NodeKind::Config | NodeKind::Output) {
        if let (Some(label), Some(Some(text))) = (labels.get(1), label_values.get(1)) {
            let ty = lowerer.lower_type_label(label, text);
            lowerer.body.type_expr = Some(ty);
        }
    }
    lowerer.check_node_attributes(kind, hook_kind, block);
    let (body, body_map) = lowerer.finish();
    Some(LoweredNode {
        kind,
        name,
        signature: Signature {
            labels: label_values.into(),
        },
        body,
        source_map: NodeSourceMap::new(NodeRanges {
            range: range_of(block),
            keyword: type_token.text_range(),
            name: name_range,
            labels: label_ranges.into_boxed_slice(),
            open_brace: block.l_brace().map(|t| t.text_range()),
            body: body_map,
        }),
    })
}

impl Lowerer<'_> {
    /// Structural checks of a node's attributes and nested blocks.
    fn check_node_attributes<N: TreeNode>(
        &mut self,
        kind: NodeKind,
        hook_kind: Option<&str>,
        block: &ast::Block<N>,
    ) {
        let known = known_attributes(kind, hook_kind);
        let attrs: Vec<(AttrId, Attr)> = self
            .body
            .attrs_in(None)
            .map(|(id, a)| (id, a.clone()))
            .collect();
        for (id, attr) in &attrs {
            let name = attr.name.as_str();
            let range = self.map.attr_name(*id);
            if let Some(known) = known {
                if !known.contains(&name) {
                    let (code, message) = match kind {
                        NodeKind::Hook => (
                            Code::UnsupportedAttribute,
                            format!(
                                "unknown attribute `{name}` of this hook: expected {}",
                                pcl_diagnostics::style::quoted_list(known, "or")
                            ),
                        ),
                        _ => (
                            Code::IgnoredAttribute,
                            format!(
                                "`{}` blocks do not use the attribute `{name}`: it is ignored",
                                kind.keyword()
                            ),
                        ),
                    };
                    let mut diagnostic = Diagnostic::new(code, range, message);
                    if let Some(s) = suggest::best_match(name, known.iter().copied()) {
                        diagnostic = diagnostic
                            .with_help(pcl_diagnostics::style::did_you_mean(s))
                            .with_fix(format!("replace with `{s}`"), range, s);
                    }
                    self.diagnostics.push(diagnostic);
                }
            }
            let value = self.body.expr(attr.value);
            let literal = |expected: &str| -> Option<String> {
                let ok = matches!(
                    (expected, value),
                    ("string", Expr::Literal(ConstValue::String(_)))
                        | ("bool", Expr::Literal(ConstValue::Bool(_)))
                        | (_, Expr::Missing)
                );
                (!ok).then(|| format!("attribute `{name}` must be a literal {expected}"))
            };
            let problem = match (kind, name) {
                (NodeKind::Package | NodeKind::Local, _) => None,
                (_, "__logicalName") => literal("string"),
                (NodeKind::Config, "description") => literal("string"),
                (NodeKind::Config, "nullable" | "secret") => literal("bool"),
                _ => None,
            };
            if let Some(message) = problem {
                let range = self.map.expr(attr.value);
                self.diagnostics
                    .push(Diagnostic::new(Code::NotALiteral, range, message));
            }
        }
        if kind == NodeKind::Hook && !attrs.iter().any(|(_, a)| a.name.as_str() == "command") {
            let at = block
                .l_brace()
                .map_or_else(|| range_of(block), |t| t.text_range());
            self.diagnostics.push(Diagnostic::new(
                Code::MissingAttribute,
                at,
                "missing required attribute `command` of a `hook` block",
            ));
        }
        if kind == NodeKind::Component
            && block.labels().count() == 1
            && !attrs.iter().any(|(_, a)| a.name.as_str() == "token")
        {
            let at = block
                .l_brace()
                .map_or_else(|| range_of(block), |t| t.text_range());
            self.diagnostics.push(Diagnostic::new(
                Code::MissingAttribute,
                at,
                "missing required attribute `token` of a `component` block without a source: it sets the component's type token",
            ));
        }
        // Nested blocks.
        let blocks: Vec<(BlockId, NestedBlock)> = self
            .body
            .blocks_in(None)
            .map(|(id, b)| (id, b.clone()))
            .collect();
        let mut seen_options = false;
        for (id, nested) in &blocks {
            let type_name = nested.type_name.as_str();
            let range = self.map.block_type(*id);
            let takes_options = matches!(
                kind,
                NodeKind::Resource | NodeKind::Read | NodeKind::Component
            );
            match (kind, type_name) {
                (_, "options") if takes_options => {
                    if seen_options {
                        self.diagnostics.push(Diagnostic::new(
                            Code::UnsupportedBlock,
                            range,
                            "duplicate `options` block: a block takes at most one",
                        ));
                    }
                    seen_options = true;
                    self.check_options(*id);
                }
                (NodeKind::Package, "parameterization") => {}
                (NodeKind::Config | NodeKind::Output | NodeKind::Pulumi, _) => {
                    self.diagnostics.push(Diagnostic::new(
                        Code::IgnoredAttribute,
                        range,
                        format!(
                            "`{}` blocks do not use nested blocks: `{type_name}` is ignored",
                            kind.keyword()
                        ),
                    ));
                }
                (NodeKind::Package, _) => {}
                _ => {
                    let mut diagnostic = Diagnostic::new(
                        Code::UnsupportedBlock,
                        range,
                        format!("unsupported block type `{type_name}`"),
                    );
                    if takes_options && ResourceOption::is_options_block(type_name) {
                        diagnostic = diagnostic.with_help("did you mean `options`?").with_fix(
                            "replace with `options`",
                            range,
                            "options",
                        );
                    } else if takes_options {
                        diagnostic = self.block_for_attribute(diagnostic, *id, nested, &blocks);
                    }
                    self.diagnostics.push(diagnostic);
                }
            }
        }
    }

    /// A nested block in a resource, read or component: Terraform writes nested settings as
    /// blocks, PCL as attributes whose values are objects (one block) or lists of objects
    /// (a block type repeated). The fix (`name {` to `name = {`) is offered when the block's
    /// body reads as an object as it is: no labels, no blocks inside.
    fn block_for_attribute(
        &self,
        diagnostic: Diagnostic,
        id: BlockId,
        nested: &NestedBlock,
        blocks: &[(BlockId, NestedBlock)],
    ) -> Diagnostic {
        let name = nested.type_name.as_str();
        let repeated = blocks
            .iter()
            .filter(|(_, b)| b.type_name == nested.type_name)
            .count()
            > 1;
        if repeated {
            return diagnostic.with_help(format!(
                "set `{name}` once, as an attribute whose value lists the blocks' contents as objects: `{name} = [{{ ... }}, {{ ... }}]`"
            ));
        }
        let diagnostic = diagnostic.with_help(format!(
            "settings are attributes: set `{name}` with `=`, its value an object: `{name} = {{ ... }}`"
        ));
        let has_inner_blocks = self.body.blocks_in(Some(id)).next().is_some();
        if !nested.labels.is_empty() || has_inner_blocks {
            return diagnostic;
        }
        let at = TextRange::empty(self.map.block_type(id).end());
        diagnostic.with_fix(format!("write `{name} = {{`"), at, " =")
    }

    fn check_options(&mut self, options: BlockId) {
        let attrs: Vec<(AttrId, Name)> = self
            .body
            .attrs_in(Some(options))
            .map(|(id, a)| (id, a.name.clone()))
            .collect();
        for (id, name) in attrs {
            if ResourceOption::from_name(&name).is_some() {
                continue;
            }
            let range = self.map.attr_name(id);
            let mut diagnostic = Diagnostic::new(
                Code::UnsupportedAttribute,
                range,
                format!("unsupported resource option `{name}`"),
            );
            if let Some(s) = suggest::best_match(&name, ResourceOption::names()) {
                diagnostic = diagnostic
                    .with_help(pcl_diagnostics::style::did_you_mean(s))
                    .with_fix(format!("replace with `{s}`"), range, s);
            }
            self.diagnostics.push(diagnostic);
        }
        let nested: Vec<(BlockId, Name)> = self
            .body
            .blocks_in(Some(options))
            .map(|(id, b)| (id, b.type_name.clone()))
            .collect();
        for (id, name) in nested {
            self.diagnostics.push(Diagnostic::new(
                Code::UnsupportedBlock,
                self.map.block_type(id),
                format!("unsupported block type `{name}` in `options`: options are attributes"),
            ));
        }
    }

    /// A config or output type label (`"list(string)"`, or a bare `string`): parsed as an
    /// expression, whose ranges are mapped back into the label.
    fn lower_type_label<N: TreeNode>(&mut self, label: &ast::BlockLabel<N>, text: &str) -> ExprId {
        const PREFIX: &str = "t = ";
        let label_range = range_of(label);
        let content_start = if label.ident().is_some() {
            label_range.start()
        } else {
            // After the opening quote; escapes in a type label are rare and only blur ranges.
            (label_range.start() + TextSize::from(1)).min(label_range.end())
        };
        let parse = pcl_syntax::parse(&format!("{PREFIX}{text}"));
        let shift = i64::from(u32::from(content_start)) - PREFIX.len() as i64;
        let saved = self.remap.replace(Remap {
            shift,
            within: label_range,
        });
        let expr = parse
            .tree()
            .body()
            .and_then(|b| b.attributes().next())
            .and_then(|a| a.expr());
        let id = match expr {
            Some(expr) if !parse.has_errors() => self.lower_expr(&expr),
            _ => {
                let detail = parse
                    .errors()
                    .first()
                    .map(|e| format!(": {}", e.message))
                    .unwrap_or_default();
                self.diagnostics.push(Diagnostic::new(
                    Code::InvalidTypeExpression,
                    label_range,
                    format!("invalid type expression `{text}`{detail}"),
                ));
                self.alloc(Expr::Missing, label_range)
            }
        };
        self.remap = saved;
        id
    }
}
