//! Lowering: syntax → nodes with position-free bodies and source maps.
//!
//! One pass per file. Variables are resolved here, by lexical scoping (`for` variables,
//! `range`, hook `args`, `recover`'s `error`), so that later queries never look at syntax.
//! Structural problems that need no types (label counts, unknown blocks, attributes a block
//! does not take, literal-only attributes) are reported here too.

use std::sync::Arc;

use pcl_diagnostics::{suggest, Code, Diagnostic};
use pcl_syntax::ast;
use pcl_syntax::ast::AstNode;
use pcl_syntax::{SyntaxToken, TemplateLiterals, TextRange, TextSize};
use pcl_types::ConstValue;

use crate::body::*;
use crate::item::{LoweredFile, Node, NodeKind, NodeSourceMap, ProgramFile, Signature};
use crate::name::Name;
use crate::options::ResourceOption;

pub(crate) fn lower_file<'db>(db: &'db dyn pcl_db::Db, pf: ProgramFile<'db>) -> LoweredFile<'db> {
    // A file open in an editor is parsed through the `parse` query, whose tree the editor's
    // requests share. Other files are parsed here and their trees dropped when done: salsa
    // evicts least-recently-used trees only between revisions, so memoizing the tree of every
    // file would keep them all alive through a large check (about 40% of its memory).
    let file = pf.file(db);
    let owned;
    let parse = if file.open(db) {
        pcl_db::parse(db, file)
    } else {
        owned = pcl_syntax::parse(file.text(db));
        &owned
    };
    let mut nodes = Vec::new();
    // Syntax errors first: the edge reads them from here.
    let mut diagnostics = parse.diagnostics();
    let Some(body) = parse.tree().body() else {
        return LoweredFile { nodes, diagnostics };
    };
    // An open file keeps each top-level item's lowering by its green node: after an edit,
    // reparsing shares the green nodes of the items it did not touch, so only the edited
    // item is lowered again, and the others only move (their positions, if the text before
    // them changed length). Items lower independently of each other, so this is exactly
    // what lowering them again would give.
    let cache = file
        .open(db)
        .then(|| db.file_caches())
        .flatten()
        .map(|caches| (caches, caches.get::<ItemCache>(file)));
    let mut next_cache = cache.as_ref().map(|_| ItemCache::default());
    let mut seen: rustc_hash::FxHashMap<(NodeKind, Name), u32> = Default::default();
    for item in body.items() {
        let syntax = item.syntax();
        let start = syntax.text_range().start();
        let green = syntax.green();
        let key = std::ptr::from_ref(&*green).cast::<()>() as usize;
        let cached = cache
            .as_ref()
            .and_then(|(_, old)| old.as_ref()?.items.get(&key).cloned());
        let lowered = match cached {
            Some(old) => old.moved_to(start),
            None => {
                let mut item_diagnostics = Vec::new();
                let node = match &item {
                    ast::BodyItem::Attribute(attr) => lower_local(attr, &mut item_diagnostics),
                    ast::BodyItem::Block(block) => lower_block(block, &mut item_diagnostics),
                };
                CachedItem {
                    green: green.into_owned(),
                    start,
                    node: node.map(|node| {
                        Arc::new(LoweredItem {
                            kind: node.kind,
                            name: node.name,
                            signature: node.signature,
                            body: Arc::new(node.body),
                            source_map: Arc::new(node.source_map),
                        })
                    }),
                    diagnostics: Arc::new(item_diagnostics),
                }
            }
        };
        diagnostics.extend(lowered.diagnostics.iter().cloned());
        if let Some(node) = &lowered.node {
            let occurrence = seen.entry((node.kind, node.name.clone())).or_insert(0);
            nodes.push(Node::new(
                db,
                pf,
                node.kind,
                node.name.clone(),
                *occurrence,
                node.signature.clone(),
                node.body.clone(),
                node.source_map.clone(),
            ));
            *occurrence += 1;
        }
        if let Some(next) = &mut next_cache {
            next.items.insert(key, lowered);
        }
    }
    if let (Some((caches, _)), Some(next)) = (cache, next_cache) {
        caches.put(file, Arc::new(next));
    }
    LoweredFile { nodes, diagnostics }
}

/// The lowering of each top-level item of an open file, by the address of its green node.
#[derive(Default)]
struct ItemCache {
    items: rustc_hash::FxHashMap<usize, CachedItem>,
}

/// One item's lowering, with positions as of `start`.
#[derive(Clone)]
struct CachedItem {
    /// Keeps the node alive, so that its address names no other node while cached.
    green: pcl_syntax::GreenNode,
    start: TextSize,
    node: Option<Arc<LoweredItem>>,
    diagnostics: Arc<Vec<Diagnostic>>,
}

struct LoweredItem {
    kind: NodeKind,
    name: Name,
    signature: Signature,
    body: Arc<Body>,
    source_map: Arc<NodeSourceMap>,
}

impl CachedItem {
    /// This item's lowering with its positions moved to `start`.
    fn moved_to(self, start: TextSize) -> CachedItem {
        if start == self.start {
            return self;
        }
        let delta = i64::from(u32::from(start)) - i64::from(u32::from(self.start));
        CachedItem {
            green: self.green,
            start,
            node: self.node.map(|node| {
                Arc::new(LoweredItem {
                    kind: node.kind,
                    name: node.name.clone(),
                    signature: node.signature.clone(),
                    body: node.body.clone(),
                    source_map: Arc::new(node.source_map.moved(delta)),
                })
            }),
            diagnostics: Arc::new(self.diagnostics.iter().map(|d| d.moved(delta)).collect()),
        }
    }
}

struct LoweredNode {
    kind: NodeKind,
    name: Name,
    signature: Signature,
    body: Body,
    source_map: NodeSourceMap,
}

fn range_of(node: &impl AstNode<Language = pcl_syntax::PclLanguage>) -> TextRange {
    node.syntax().text_range()
}

fn lower_local(attr: &ast::Attribute, diagnostics: &mut Vec<Diagnostic>) -> Option<LoweredNode> {
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
        source_map: NodeSourceMap {
            range: range_of(attr),
            keyword: name_token.text_range(),
            name: name_token.text_range(),
            labels: Vec::new(),
            open_brace: None,
            body: body_map,
        },
    })
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

fn lower_block(block: &ast::Block, diagnostics: &mut Vec<Diagnostic>) -> Option<LoweredNode> {
    let type_token = block.type_name()?;
    let keyword = type_token.text();
    let Some(kind) = NodeKind::from_keyword(keyword) else {
        let mut diagnostic = Diagnostic::new(
            Code::UnknownBlockType,
            type_token.text_range(),
            format!("unknown block type `{keyword}`: the block is ignored"),
        );
        if let Some(suggestion) =
            suggest::best_match(keyword, NodeKind::BLOCK_KEYWORDS.iter().copied())
        {
            diagnostic = diagnostic
                .with_help(format!("did you mean `{suggestion}`?"))
                .with_fix(
                    format!("replace with `{suggestion}`"),
                    type_token.text_range(),
                    suggestion,
                );
        }
        diagnostics.push(diagnostic);
        return None;
    };
    let labels: Vec<ast::BlockLabel> = block.labels().collect();
    let label_ranges: Vec<TextRange> = labels.iter().map(range_of).collect();
    let label_values: Vec<Option<Box<str>>> =
        labels.iter().map(|l| l.value().map(Into::into)).collect();
    let rule = label_rule(kind);
    if labels.len() < rule.min || labels.len() > rule.max {
        let range = match (label_ranges.first(), label_ranges.last()) {
            (Some(first), Some(last)) => first.cover(*last),
            _ => type_token.text_range(),
        };
        diagnostics.push(Diagnostic::new(Code::WrongLabelCount, range, rule.message));
    }
    let (name, name_range) = match (kind, rule.name_label) {
        (NodeKind::Pulumi, _) => (Name::new("pulumi"), type_token.text_range()),
        (NodeKind::Package, _) => match labels.first() {
            Some(_) => (
                Name::new(label_values[0].as_deref().unwrap_or("")),
                label_ranges[0],
            ),
            None => (Name::new(""), type_token.text_range()),
        },
        (_, Some(index)) => match label_values.get(index) {
            Some(Some(value)) => (Name::new(value), label_ranges[index]),
            // No usable name: nothing can refer to this block, so it is not a node. Its
            // label problem is reported above or by the syntax validator.
            _ => return None,
        },
        (_, None) => return None,
    };
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
            labels: label_values.into_boxed_slice(),
        },
        body,
        source_map: NodeSourceMap {
            range: range_of(block),
            keyword: type_token.text_range(),
            name: name_range,
            labels: label_ranges,
            open_brace: block.l_brace().map(|t| t.text_range()),
            body: body_map,
        },
    })
}

/// Builds one body: the expression arena, bindings in scope, and the source map.
struct Lowerer<'d> {
    body: Body,
    map: BodySourceMap,
    scopes: Vec<(Name, BindingId)>,
    diagnostics: &'d mut Vec<Diagnostic>,
    /// For type labels: maps ranges of the re-parsed label text back into the file.
    remap: Option<Remap>,
}

#[derive(Clone, Copy)]
struct Remap {
    /// Where offset 0 of the re-parsed text would be in the file.
    shift: i64,
    /// The label's range: every mapped range is clamped into it.
    within: TextRange,
}

impl<'d> Lowerer<'d> {
    fn new(diagnostics: &'d mut Vec<Diagnostic>) -> Self {
        Lowerer {
            body: Body::default(),
            map: BodySourceMap::default(),
            scopes: Vec::new(),
            diagnostics,
            remap: None,
        }
    }

    fn finish(self) -> (Body, BodySourceMap) {
        (self.body, self.map)
    }

    fn range(&self, range: TextRange) -> TextRange {
        match self.remap {
            None => range,
            Some(remap) => {
                let clamp = |offset: TextSize| {
                    let moved = i64::from(u32::from(offset)) + remap.shift;
                    let lo = i64::from(u32::from(remap.within.start()));
                    let hi = i64::from(u32::from(remap.within.end()));
                    TextSize::from(moved.clamp(lo, hi) as u32)
                };
                TextRange::new(clamp(range.start()), clamp(range.end()))
            }
        }
    }

    fn alloc(&mut self, expr: Expr, range: TextRange) -> ExprId {
        let range = self.range(range);
        self.map.push_expr(range);
        self.body.alloc_expr(expr)
    }

    fn bind(&mut self, name: &str, kind: BindingKind, range: TextRange) -> BindingId {
        let range = self.range(range);
        self.map.push_binding(range);
        self.body.alloc_binding(Binding {
            name: Name::new(name),
            kind,
        })
    }

    fn resolve(&self, name: &str) -> Resolution {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| n.as_str() == name)
            .map_or(Resolution::Root, |(_, b)| Resolution::Local(*b))
    }

    fn lower_opt(&mut self, expr: Option<ast::Expr>, fallback: TextRange) -> ExprId {
        match expr {
            Some(expr) => self.lower_expr(&expr),
            None => self.alloc(Expr::Missing, TextRange::empty(fallback.end())),
        }
    }

    // ---- node bodies ---------------------------------------------------------------------

    fn lower_node_body(&mut self, kind: NodeKind, body: &ast::Body) {
        // `range` is in scope in the body of a ranged resource, read or component, and in a
        // component's options; not in a resource's options (as in the reference).
        let ranged = matches!(
            kind,
            NodeKind::Resource | NodeKind::Read | NodeKind::Component
        ) && body.blocks().any(|b| {
            b.type_name().is_some_and(|t| t.text() == "options")
                && b.body().is_some_and(|o| {
                    o.attributes()
                        .filter_map(|a| a.name())
                        .any(|n| ResourceOption::from_name(n.text()) == Some(ResourceOption::Range))
                })
        });
        let range_binding = ranged.then(|| {
            let at = body.syntax().text_range();
            self.bind("range", BindingKind::Range, TextRange::empty(at.start()))
        });
        for item in body.items() {
            match item {
                ast::BodyItem::Attribute(attr) => {
                    let Some(name) = attr.name() else { continue };
                    let pushed = match (kind, name.text()) {
                        (NodeKind::Hook, "command") => {
                            let args = self.bind("args", BindingKind::HookArgs, name.text_range());
                            self.scopes.push((Name::new("args"), args));
                            true
                        }
                        _ => match range_binding {
                            Some(b) => {
                                self.scopes.push((Name::new("range"), b));
                                true
                            }
                            None => false,
                        },
                    };
                    self.lower_attr(&attr, &name, None);
                    if pushed {
                        self.scopes.pop();
                    }
                }
                ast::BodyItem::Block(block) => {
                    let options_see_range = kind == NodeKind::Component;
                    let pushed = match range_binding {
                        Some(b) if options_see_range => {
                            self.scopes.push((Name::new("range"), b));
                            true
                        }
                        _ => false,
                    };
                    self.lower_nested_block(&block, None);
                    if pushed {
                        self.scopes.pop();
                    }
                }
            }
        }
    }

    fn lower_attr(
        &mut self,
        attr: &ast::Attribute,
        name: &SyntaxToken,
        block: Option<BlockId>,
    ) -> AttrId {
        let value = self.lower_opt(attr.expr(), range_of(attr));
        self.map.push_attr(name.text_range(), range_of(attr));
        self.body.alloc_attr(Attr {
            name: Name::new(name.text()),
            value,
            block,
        })
    }

    fn lower_nested_block(&mut self, block: &ast::Block, parent: Option<BlockId>) {
        let Some(type_token) = block.type_name() else {
            return;
        };
        self.map
            .push_block(type_token.text_range(), range_of(block));
        let id = self.body.alloc_block(NestedBlock {
            type_name: Name::new(type_token.text()),
            labels: block.labels().map(|l| l.value().map(Into::into)).collect(),
            parent,
        });
        let Some(body) = block.body() else { return };
        for item in body.items() {
            match item {
                ast::BodyItem::Attribute(attr) => {
                    if let Some(name) = attr.name() {
                        self.lower_attr(&attr, &name, Some(id));
                    }
                }
                ast::BodyItem::Block(inner) => self.lower_nested_block(&inner, Some(id)),
            }
        }
    }

    /// Structural checks of a node's attributes and nested blocks.
    fn check_node_attributes(
        &mut self,
        kind: NodeKind,
        hook_kind: Option<&str>,
        block: &ast::Block,
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
                            .with_help(format!("did you mean `{s}`?"))
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
                    if takes_options && suggest::best_match(type_name, ["options"]).is_some() {
                        diagnostic = diagnostic.with_help("did you mean `options`?").with_fix(
                            "replace with `options`",
                            range,
                            "options",
                        );
                    }
                    self.diagnostics.push(diagnostic);
                }
            }
        }
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
                    .with_help(format!("did you mean `{s}`?"))
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
    fn lower_type_label(&mut self, label: &ast::BlockLabel, text: &str) -> ExprId {
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

    // ---- expressions ---------------------------------------------------------------------

    fn lower_expr(&mut self, expr: &ast::Expr) -> ExprId {
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
                                ConstValue::Int(i) => ConstValue::Int(-i),
                                ConstValue::Number(d) => ConstValue::Number(d.negate()),
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
                let parts = self.lower_template_parts(template.parts(), &template.literals());
                self.finish_template(parts, range)
            }
            ast::Expr::Heredoc(heredoc) => {
                let parts = self.lower_template_parts(heredoc.parts(), &heredoc.literals());
                self.finish_template(parts, range)
            }
        }
    }

    fn lower_object_key(&mut self, key: &ast::ObjectKey) -> ExprId {
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

    fn lower_call(&mut self, call: &ast::FunctionCall, range: TextRange) -> ExprId {
        let name = call.name();
        let args: Vec<ast::Expr> = call.args().collect();
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
            Expr::Call {
                name: Name::new(&name),
                args: lowered.into(),
                expand_final: call.has_expand_final(),
            },
            range,
        )
    }

    fn lower_for(&mut self, for_expr: &ast::ForExpr, range: TextRange) -> ExprId {
        let intro = for_expr.intro();
        let collection = self.lower_opt(intro.as_ref().and_then(|i| i.collection()), range);
        let (key_token, value_token) = intro.as_ref().map_or((None, None), |i| i.variables());
        let (key_var, value_var) = self.bind_for_variables(key_token, value_token, range);
        let key = for_expr.key_expr().map(|k| self.lower_expr(&k));
        let value = self.lower_opt(for_expr.value_expr(), range);
        let condition = for_expr.condition().map(|c| self.lower_expr(&c));
        self.pop_for_variables(key_var, value_var);
        self.alloc(
            Expr::For {
                key_var,
                value_var,
                collection,
                key,
                value,
                condition,
                grouping: for_expr.is_grouping(),
                object: for_expr.is_object(),
            },
            range,
        )
    }

    /// Binds and pushes a `for`'s variables; reports a key and value of the same name.
    fn bind_for_variables(
        &mut self,
        key: Option<SyntaxToken>,
        value: Option<SyntaxToken>,
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

    fn pop_for_variables(&mut self, key_var: Option<BindingId>, value_var: BindingId) {
        for binding in [Some(value_var), key_var].into_iter().flatten() {
            if self.scopes.last().is_some_and(|(_, b)| *b == binding) {
                self.scopes.pop();
            }
        }
    }

    /// `a.b[0]`, `a[*].b`, `a.*.b`: HCL applies the steps after a splat to each element
    /// (attributes only after `.*`; attributes and indexes after `[*]`).
    fn lower_postfix_chain(&mut self, expr: &ast::Expr) -> ExprId {
        enum Step {
            Attr(Option<SyntaxToken>),
            Index(Option<ast::Expr>),
            LegacyIndex(Option<SyntaxToken>),
            Splat { full: bool },
        }
        let mut steps: Vec<(Step, TextRange)> = Vec::new();
        let mut current = Some(expr.clone());
        let root = loop {
            match current {
                Some(ast::Expr::GetAttr(ref g)) => {
                    steps.push((Step::Attr(g.name()), range_of(g)));
                    current = g.receiver();
                }
                Some(ast::Expr::Index(ref i)) => {
                    steps.push((Step::Index(i.index()), range_of(i)));
                    current = i.receiver();
                }
                Some(ast::Expr::LegacyIndex(ref l)) => {
                    steps.push((Step::LegacyIndex(l.index()), range_of(l)));
                    current = l.receiver();
                }
                Some(ast::Expr::Splat(ref s)) => {
                    steps.push((Step::Splat { full: s.is_full() }, range_of(s)));
                    current = s.receiver();
                }
                other => break other,
            }
        };
        steps.reverse();
        let first_range = steps
            .first()
            .map_or(expr.syntax().text_range(), |(_, r)| *r);
        let mut value = self.lower_opt(root, TextRange::empty(first_range.start()));
        let mut i = 0;
        while i < steps.len() {
            let (step, range) = &steps[i];
            match step {
                Step::Splat { full } => {
                    let item = self.alloc(Expr::SplatItem, *range);
                    let mut each = item;
                    let mut end = *range;
                    let mut j = i + 1;
                    while j < steps.len() {
                        let (next, next_range) = &steps[j];
                        each = match next {
                            Step::Attr(name) => self.step_attr(each, name.as_ref(), *next_range),
                            Step::Index(index) if *full => {
                                self.step_index(each, index.as_ref(), *next_range)
                            }
                            Step::LegacyIndex(index) if *full => {
                                self.step_legacy_index(each, index.as_ref(), *next_range)
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
                Step::Attr(name) => value = self.step_attr(value, name.as_ref(), *range),
                Step::Index(index) => value = self.step_index(value, index.as_ref(), *range),
                Step::LegacyIndex(index) => {
                    value = self.step_legacy_index(value, index.as_ref(), *range)
                }
            }
            i += 1;
        }
        value
    }

    fn step_attr(
        &mut self,
        receiver: ExprId,
        name: Option<&SyntaxToken>,
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

    fn step_index(
        &mut self,
        receiver: ExprId,
        index: Option<&ast::Expr>,
        range: TextRange,
    ) -> ExprId {
        let index = match index {
            Some(index) => self.lower_expr(index),
            None => self.alloc(Expr::Missing, TextRange::empty(range.end())),
        };
        self.alloc(Expr::Index { receiver, index }, range)
    }

    fn step_legacy_index(
        &mut self,
        receiver: ExprId,
        index: Option<&SyntaxToken>,
        range: TextRange,
    ) -> ExprId {
        let index =
            match index.and_then(|t| ConstValue::parse_number(t.text()).ok().map(|v| (t, v))) {
                Some((token, value)) => self.alloc(Expr::Literal(value), token.text_range()),
                None => self.alloc(Expr::Missing, TextRange::empty(range.end())),
            };
        self.alloc(Expr::Index { receiver, index }, range)
    }

    // ---- templates -----------------------------------------------------------------------

    /// The parts of one template body, with the values `literals` gives its literal tokens
    /// (escapes, strip markers and heredoc indentation are pcl-syntax's rules); adjacent
    /// literals are melded and empty ones dropped.
    fn lower_template_parts(
        &mut self,
        parts: impl Iterator<Item = ast::TemplatePart>,
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

    fn finish_template(&mut self, parts: Vec<TemplatePart>, range: TextRange) -> ExprId {
        match parts.as_slice() {
            [] => self.alloc(Expr::Literal(ConstValue::String("".into())), range),
            [TemplatePart::Literal(text)] => {
                self.alloc(Expr::Literal(ConstValue::String(text.clone())), range)
            }
            _ => self.alloc(Expr::Template(parts.into()), range),
        }
    }
}
