//! Position-free bodies: the expressions of one node in an arena, and the node's attributes
//! and nested blocks, with a separate [`BodySourceMap`] from ids to syntax ranges.
//!
//! Nothing here holds a position, so a body compares equal after an edit that only moves it
//! (a blank line above it), and nothing that reads it re-runs.

use pcl_syntax::{TextRange, TextSize};
use pcl_types::ConstValue;

use crate::name::Name;

/// The ids of a body's arenas: an index stored plus one, so that `Option<Id>` takes no more
/// room than the id (expressions hold several optional ids).
macro_rules! arena_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(std::num::NonZeroU32);

        impl $name {
            pub fn index(self) -> usize {
                self.0.get() as usize - 1
            }

            fn from_index(index: usize) -> $name {
                let id = u32::try_from(index + 1).expect("fewer than 2^32 - 1 ids in a body");
                $name(std::num::NonZeroU32::new(id).expect("one more than an index"))
            }
        }

        /// As if derived on the index.
        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_tuple(stringify!($name)).field(&(self.index() as u32)).finish()
            }
        }
    };
}

arena_id!(
    /// An expression of a body.
    ExprId
);
arena_id!(
    /// A local variable: a `for` variable, `range`, a hook's `args`, `recover`'s `error`.
    BindingId
);
arena_id!(
    /// An attribute of the node's body or of one of its nested blocks.
    AttrId
);
arena_id!(
    /// A nested block (`options { }`) of the node's body.
    BlockId
);

/// Operators are the syntax layer's: plain position-free enums.
pub use pcl_syntax::ast::{BinaryOp, UnaryOp};

/// What a variable refers to, decided by lexical scoping at lowering time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Resolution {
    /// A local variable of this body.
    Local(BindingId),
    /// Not bound locally: a top-level name of the program (or undefined).
    Root,
}

/// A part of a template.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TemplatePart {
    /// Literal text, unescaped, with heredoc indentation and `~` strip markers applied.
    Literal(Box<str>),
    /// `${expr}`.
    Interpolation(ExprId),
    /// `%{if cond}then%{else}else%{endif}`.
    If {
        condition: ExprId,
        then_parts: Box<[TemplatePart]>,
        else_parts: Box<[TemplatePart]>,
    },
    /// `%{for key, value in collection}body%{endfor}`.
    For {
        key: Option<BindingId>,
        value: BindingId,
        collection: ExprId,
        body: Box<[TemplatePart]>,
    },
}

/// An object constructor item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObjectItem {
    /// The key: a bare identifier or a literal string is a string literal expression.
    pub key: ExprId,
    pub value: ExprId,
}

/// An expression, with its children as ids into the same arena.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// Something the parser could not read (it reported why).
    Missing,
    /// `null`, `true`, a number (exact, `-` folded in) or a string without interpolations.
    Literal(ConstValue),
    /// A template with interpolations or directives (quoted or heredoc).
    Template(Box<[TemplatePart]>),
    Variable {
        name: Name,
        resolution: Resolution,
    },
    /// The element a splat is applied to (HCL's anonymous symbol).
    SplatItem,
    /// Boxed, as is `For`: the other variants fit in 16 bytes, so an expression is 24.
    Call(Box<CallExpr>),
    Paren(ExprId),
    Tuple(Box<[ExprId]>),
    Object(Box<[ObjectItem]>),
    For(Box<ForExpr>),
    Conditional {
        condition: ExprId,
        then_expr: ExprId,
        else_expr: ExprId,
    },
    Binary {
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    Unary {
        op: UnaryOp,
        operand: ExprId,
    },
    GetAttr {
        receiver: ExprId,
        name: Name,
    },
    Index {
        receiver: ExprId,
        index: ExprId,
    },
    /// `source[*].each` / `source.*.each`: `each` is evaluated per element, with
    /// [`Expr::SplatItem`] standing for the element.
    Splat {
        source: ExprId,
        each: ExprId,
    },
}

// Expression arenas are the largest part of the lowered program.
const _: () = assert!(std::mem::size_of::<Expr>() == 24);

/// A function call (boxed in [`Expr::Call`]: calls are few).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallExpr {
    pub name: Name,
    pub args: Box<[ExprId]>,
    /// `f(a, xs...)`: the last argument is expanded.
    pub expand_final: bool,
}

/// A `for` expression (boxed in [`Expr::For`]: they are few).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ForExpr {
    pub key_var: Option<BindingId>,
    pub value_var: BindingId,
    pub collection: ExprId,
    /// `k` in `{for ... : k => v}`; `None` for a tuple `for`.
    pub key: Option<ExprId>,
    pub value: ExprId,
    pub condition: Option<ExprId>,
    /// `{for ... : k => v...}`.
    pub grouping: bool,
    /// `{for ...}` rather than `[for ...]`.
    pub object: bool,
}

/// What introduces a local variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BindingKind {
    /// The key variable of a `for` expression or directive (the `for` is its owner).
    ForKey,
    /// The value variable of a `for` expression or directive.
    ForValue,
    /// `range` in the body of a ranged resource or component.
    Range,
    /// `args` in a hook's `command`.
    HookArgs,
    /// `error` in the second argument of `recover`.
    RecoverError,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Binding {
    pub name: Name,
    pub kind: BindingKind,
}

/// An attribute of the node's body (`block: None`) or of a nested block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Attr {
    pub name: Name,
    pub value: ExprId,
    pub block: Option<BlockId>,
}

/// A nested block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NestedBlock {
    pub type_name: Name,
    pub labels: Box<[Option<Box<str>>]>,
    pub parent: Option<BlockId>,
}

/// The position-free content of one node. Slices, not vectors: a body lives as long as its
/// node (built by lowering's [`BodyBuilder`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Body {
    exprs: Box<[Expr]>,
    bindings: Box<[Binding]>,
    pub attrs: Box<[Attr]>,
    pub blocks: Box<[NestedBlock]>,
    /// The value of a top-level attribute (a local).
    pub value: Option<ExprId>,
    /// The type expression of a config or output label.
    pub type_expr: Option<ExprId>,
}

impl Body {
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }

    pub fn exprs(&self) -> impl Iterator<Item = (ExprId, &Expr)> {
        self.exprs
            .iter()
            .enumerate()
            .map(|(i, e)| (ExprId::from_index(i), e))
    }

    pub fn expr_count(&self) -> usize {
        self.exprs.len()
    }

    pub fn binding(&self, id: BindingId) -> &Binding {
        &self.bindings[id.index()]
    }

    pub fn bindings(&self) -> impl Iterator<Item = (BindingId, &Binding)> {
        self.bindings
            .iter()
            .enumerate()
            .map(|(i, b)| (BindingId::from_index(i), b))
    }

    pub fn attr(&self, id: AttrId) -> &Attr {
        &self.attrs[id.index()]
    }

    pub fn attr_ids(&self) -> impl Iterator<Item = AttrId> {
        (0..self.attrs.len()).map(AttrId::from_index)
    }

    /// The attributes directly in `block` (`None`: the node's own body), in source order.
    pub fn attrs_in(&self, block: Option<BlockId>) -> impl Iterator<Item = (AttrId, &Attr)> {
        self.attrs
            .iter()
            .enumerate()
            .filter(move |(_, a)| a.block == block)
            .map(|(i, a)| (AttrId::from_index(i), a))
    }

    /// The attribute `name` directly in `block`.
    pub fn find_attr(&self, block: Option<BlockId>, name: &str) -> Option<(AttrId, &Attr)> {
        self.attrs_in(block).find(|(_, a)| a.name.as_str() == name)
    }

    /// The attribute of the node's `options` blocks (or a misspelt one:
    /// [`crate::ResourceOption::is_options_block`]) that sets `range`: `range` itself, else a
    /// misspelling of it (see [`crate::ResourceOption::sets_range`]). The one rule for
    /// whether a node is ranged and by what.
    pub fn range_option(&self) -> Option<(AttrId, &Attr)> {
        let options = || {
            self.blocks_in(None)
                .filter(|(_, b)| crate::ResourceOption::is_options_block(&b.type_name))
                .flat_map(|(id, _)| self.attrs_in(Some(id)))
        };
        let range = crate::ResourceOption::Range.name();
        options()
            .find(|(_, a)| a.name.as_str() == range)
            .or_else(|| options().find(|(_, a)| crate::ResourceOption::sets_range(&a.name)))
    }

    pub fn block(&self, id: BlockId) -> &NestedBlock {
        &self.blocks[id.index()]
    }

    /// The nested blocks directly in `parent`, in source order.
    pub fn blocks_in(
        &self,
        parent: Option<BlockId>,
    ) -> impl Iterator<Item = (BlockId, &NestedBlock)> {
        blocks_in(&self.blocks, parent)
    }

    /// Calls `f` on each direct child expression of `id`.
    pub fn for_each_child(&self, id: ExprId, mut f: impl FnMut(ExprId)) {
        fn walk(parts: &[TemplatePart], f: &mut impl FnMut(ExprId)) {
            for part in parts {
                match part {
                    TemplatePart::Literal(_) => {}
                    TemplatePart::Interpolation(e) => f(*e),
                    TemplatePart::If {
                        condition,
                        then_parts,
                        else_parts,
                    } => {
                        f(*condition);
                        walk(then_parts, f);
                        walk(else_parts, f);
                    }
                    TemplatePart::For {
                        collection, body, ..
                    } => {
                        f(*collection);
                        walk(body, f);
                    }
                }
            }
        }
        match self.expr(id) {
            Expr::Missing | Expr::Literal(_) | Expr::Variable { .. } | Expr::SplatItem => {}
            Expr::Template(p) => walk(p, &mut f),
            Expr::Call(call) => call.args.iter().copied().for_each(f),
            Expr::Paren(e) => f(*e),
            Expr::Tuple(es) => es.iter().copied().for_each(f),
            Expr::Object(items) => {
                for item in items.iter() {
                    f(item.key);
                    f(item.value);
                }
            }
            Expr::For(for_expr) => {
                let ForExpr {
                    collection,
                    key,
                    value,
                    condition,
                    ..
                } = &**for_expr;
                f(*collection);
                if let Some(k) = key {
                    f(*k);
                }
                f(*value);
                if let Some(c) = condition {
                    f(*c);
                }
            }
            Expr::Conditional {
                condition,
                then_expr,
                else_expr,
            } => {
                f(*condition);
                f(*then_expr);
                f(*else_expr);
            }
            Expr::Binary { lhs, rhs, .. } => {
                f(*lhs);
                f(*rhs);
            }
            Expr::Unary { operand, .. } => f(*operand),
            Expr::GetAttr { receiver, .. } => f(*receiver),
            Expr::Index { receiver, index } => {
                f(*receiver);
                f(*index);
            }
            Expr::Splat { source, each } => {
                f(*source);
                f(*each);
            }
        }
    }
}

/// A [`Body`] being built by lowering. Its vectors come from a pool of the thread's, emptied
/// and returned by [`BodyBuilder::finish`]: a body grown from empty vectors reallocated each
/// of them about log2(length) times and once more to fit (0.6% of a check's instructions).
#[derive(Default)]
pub(crate) struct BodyBuilder {
    exprs: Vec<Expr>,
    bindings: Vec<Binding>,
    attrs: Vec<Attr>,
    blocks: Vec<NestedBlock>,
    pub(crate) value: Option<ExprId>,
    pub(crate) type_expr: Option<ExprId>,
}

impl BodyBuilder {
    pub(crate) fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }

    /// As [`Body::attrs_in`].
    pub(crate) fn attrs_in(&self, block: Option<BlockId>) -> impl Iterator<Item = (AttrId, &Attr)> {
        self.attrs
            .iter()
            .enumerate()
            .filter(move |(_, a)| a.block == block)
            .map(|(i, a)| (AttrId::from_index(i), a))
    }

    /// As [`Body::blocks_in`].
    pub(crate) fn blocks_in(
        &self,
        parent: Option<BlockId>,
    ) -> impl Iterator<Item = (BlockId, &NestedBlock)> {
        blocks_in(&self.blocks, parent)
    }

    pub(crate) fn alloc_expr(&mut self, expr: Expr) -> ExprId {
        self.exprs.push(expr);
        ExprId::from_index(self.exprs.len() - 1)
    }

    pub(crate) fn alloc_binding(&mut self, binding: Binding) -> BindingId {
        self.bindings.push(binding);
        BindingId::from_index(self.bindings.len() - 1)
    }

    pub(crate) fn alloc_attr(&mut self, attr: Attr) -> AttrId {
        self.attrs.push(attr);
        AttrId::from_index(self.attrs.len() - 1)
    }

    pub(crate) fn alloc_block(&mut self, block: NestedBlock) -> BlockId {
        self.blocks.push(block);
        BlockId::from_index(self.blocks.len() - 1)
    }

    /// A builder with the thread's pooled vectors (empty, with their capacity).
    pub(crate) fn new() -> BodyBuilder {
        BODY_POOL.take()
    }

    /// The body, each part in an allocation of its length (a vector grown by pushing holds
    /// up to twice its length, and the allocator does not shrink a block in place when more
    /// than half of it is used); the vectors go back to the thread's pool.
    pub(crate) fn finish(mut self) -> Body {
        let body = Body {
            exprs: exact(&mut self.exprs),
            bindings: exact(&mut self.bindings),
            attrs: exact(&mut self.attrs),
            blocks: exact(&mut self.blocks),
            value: self.value,
            type_expr: self.type_expr,
        };
        if self.exprs.capacity() <= MAX_POOLED {
            self.value = None;
            self.type_expr = None;
            BODY_POOL.set(self);
        }
        body
    }
}

/// Pooled vectors longer than this are dropped rather than kept by the thread.
const MAX_POOLED: usize = 1 << 16;

thread_local! {
    static BODY_POOL: std::cell::Cell<BodyBuilder> = std::cell::Cell::default();
    static MAP_POOL: std::cell::Cell<SourceMapBuilder> = std::cell::Cell::default();
}

/// Where the parts of a body are, relative to the start of its node (a node that only moves
/// keeps them). Only edge queries (diagnostics, IDE) read them, through [`BodySourceMap`].
/// Slices, not vectors: the ranges live as long as their node, and each vector's capacity
/// would cost a word more (11 MB at 100k resources).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyRanges {
    /// The syntax range of each expression.
    exprs: Box<[TextRange]>,
    /// The name token of each binding.
    bindings: Box<[TextRange]>,
    /// Per attribute: the name token and the whole attribute.
    attrs: Box<[(TextRange, TextRange)]>,
    /// Per nested block: the type keyword and the whole block.
    blocks: Box<[(TextRange, TextRange)]>,
}

impl BodyRanges {
    /// Every range made relative to `start` (from ranges in the file).
    pub(crate) fn relative_to(mut self, start: TextSize) -> BodyRanges {
        let at = |r: &mut TextRange| *r = relative(*r, start);
        self.exprs.iter_mut().for_each(at);
        self.bindings.iter_mut().for_each(at);
        for (a, b) in self.attrs.iter_mut().chain(self.blocks.iter_mut()) {
            at(a);
            at(b);
        }
        self
    }
}

/// `range` relative to `start`, which lowering puts at or before every range of a node (a
/// range before it, were there one, would be clamped rather than panic).
pub(crate) fn relative(range: TextRange, start: TextSize) -> TextRange {
    debug_assert!(range.start() >= start, "{range:?} before {start:?}");
    let from = |at: TextSize| at.checked_sub(start).unwrap_or_default();
    TextRange::new(from(range.start()), from(range.end()))
}

/// Where the parts of a body are in the file: a node's [`BodyRanges`] at its start.
#[derive(Clone, Copy, Debug)]
pub struct BodySourceMap<'a> {
    pub(crate) start: TextSize,
    pub(crate) ranges: &'a BodyRanges,
}

impl BodySourceMap<'_> {
    pub fn expr(&self, id: ExprId) -> TextRange {
        self.ranges.exprs[id.index()] + self.start
    }
    pub fn binding(&self, id: BindingId) -> TextRange {
        self.ranges.bindings[id.index()] + self.start
    }
    pub fn attr_name(&self, id: AttrId) -> TextRange {
        self.ranges.attrs[id.index()].0 + self.start
    }
    pub fn attr(&self, id: AttrId) -> TextRange {
        self.ranges.attrs[id.index()].1 + self.start
    }
    pub fn block_type(&self, id: BlockId) -> TextRange {
        self.ranges.blocks[id.index()].0 + self.start
    }
    pub fn block(&self, id: BlockId) -> TextRange {
        self.ranges.blocks[id.index()].1 + self.start
    }
}

/// A body's ranges being built by lowering (in the file; made relative to the node's start
/// when the node is done).
#[derive(Default)]
pub(crate) struct SourceMapBuilder {
    exprs: Vec<TextRange>,
    bindings: Vec<TextRange>,
    attrs: Vec<(TextRange, TextRange)>,
    blocks: Vec<(TextRange, TextRange)>,
}

impl SourceMapBuilder {
    pub(crate) fn expr(&self, id: ExprId) -> TextRange {
        self.exprs[id.index()]
    }
    pub(crate) fn attr_name(&self, id: AttrId) -> TextRange {
        self.attrs[id.index()].0
    }
    pub(crate) fn block_type(&self, id: BlockId) -> TextRange {
        self.blocks[id.index()].0
    }

    pub(crate) fn push_expr(&mut self, range: TextRange) {
        self.exprs.push(range);
    }
    pub(crate) fn push_binding(&mut self, range: TextRange) {
        self.bindings.push(range);
    }
    pub(crate) fn push_attr(&mut self, name: TextRange, whole: TextRange) {
        self.attrs.push((name, whole));
    }
    pub(crate) fn push_block(&mut self, type_name: TextRange, whole: TextRange) {
        self.blocks.push((type_name, whole));
    }

    /// A builder with the thread's pooled vectors, as [`BodyBuilder::new`].
    pub(crate) fn new() -> SourceMapBuilder {
        MAP_POOL.take()
    }

    /// The ranges, each part in an allocation of its length; the vectors go back to the
    /// thread's pool.
    pub(crate) fn finish(mut self) -> BodyRanges {
        let ranges = BodyRanges {
            exprs: exact(&mut self.exprs),
            bindings: exact(&mut self.bindings),
            attrs: exact(&mut self.attrs),
            blocks: exact(&mut self.blocks),
        };
        if self.exprs.capacity() <= MAX_POOLED {
            MAP_POOL.set(self);
        }
        ranges
    }
}

/// The elements of `v` moved into an allocation of exactly their number, `v` left empty with
/// its capacity (arenas are read for as long as their node lives: no spare room).
fn exact<T>(v: &mut Vec<T>) -> Box<[T]> {
    let mut exact = Vec::with_capacity(v.len());
    exact.append(v);
    exact.into_boxed_slice()
}

/// The blocks of `blocks` directly in `parent`, in source order (for a body and its builder).
fn blocks_in(
    blocks: &[NestedBlock],
    parent: Option<BlockId>,
) -> impl Iterator<Item = (BlockId, &NestedBlock)> {
    blocks
        .iter()
        .enumerate()
        .filter(move |(_, b)| b.parent == parent)
        .map(|(i, b)| (BlockId::from_index(i), b))
}
