//! Typed views over the syntax tree: zero-cost wrappers with accessors.
//!
//! Accessors return `Option` because a tree built from broken input may lack any part. They find
//! each child relative to the operator or keyword token that introduces it, never by its position
//! among its siblings, so a part missing from broken input is `None` and never shifts another part
//! into its role: in `c ? : b` the true branch is missing and `b` is the false branch; in `x[]`
//! the index is missing, not the receiver; in `for k, in m` `k` stays the key variable. Tokens
//! that recovery put inside an `ERROR` node do not count, so what follows them is not taken for
//! the part they introduce either (`1 + + 2` has no right operand).
//!
//! The views are generic over the tree ([`TreeNode`]): rowan's lossless tree by default (the
//! editor's), or the flat tree that batch lowering builds and drops ([`crate::flat`]), so which
//! child plays which part has one home. Every node type here, and every enum over node types
//! ([`Expr`], [`BodyItem`], [`TemplateSequence`]), implements [`AstNode`]; over rowan's tree
//! also rowan's `AstNode`, so a source map can hold an [`AstPtr`] to any of them and get the
//! typed node back from the tree.

use rowan::NodeOrToken;

use crate::tree::{TreeNode, TreeToken};
use crate::TemplateLiterals;
use crate::{PclLanguage, SyntaxKind, SyntaxKind::*, SyntaxNode};

/// A typed view of a node of kind [`AstNode::can_cast`], over the tree `Self::Node`.
pub trait AstNode: Sized {
    type Node: TreeNode;

    fn can_cast(kind: SyntaxKind) -> bool;
    fn cast(node: Self::Node) -> Option<Self>;
    fn syntax(&self) -> &Self::Node;
}

/// A child of a node: a node or a token.
type Element<N> = NodeOrToken<N, <N as TreeNode>::Token>;

/// A test of a child.
type ElementTest<'a, N> = dyn Fn(&Element<N>) -> bool + 'a;

/// The token type of the tree `N`.
type Token<N> = <N as TreeNode>::Token;

/// Implements rowan's `AstNode` for a view over rowan's tree, from the view's own [`AstNode`].
macro_rules! rowan_ast_node {
    ($name:ident) => {
        impl rowan::ast::AstNode for $name<SyntaxNode> {
            type Language = PclLanguage;

            fn can_cast(kind: SyntaxKind) -> bool {
                <Self as AstNode>::can_cast(kind)
            }

            fn cast(node: SyntaxNode) -> Option<Self> {
                <Self as AstNode>::cast(node)
            }

            fn syntax(&self) -> &SyntaxNode {
                <Self as AstNode>::syntax(self)
            }
        }
    };
}

/// A pointer to a typed node that outlives the tree: its kind and range. `ptr.to_node(&root)`
/// gives the node back from the same tree.
pub type AstPtr<N> = rowan::ast::AstPtr<N>;

/// A pointer to any node that outlives the tree.
pub type SyntaxNodePtr = rowan::ast::SyntaxNodePtr<PclLanguage>;

/// A pointer to a typed node (`AstPtr::new(node)`), for source maps.
pub fn ptr<N: rowan::ast::AstNode<Language = PclLanguage>>(node: &N) -> AstPtr<N> {
    AstPtr::new(node)
}

macro_rules! ast_node {
    ($(#[$doc:meta])* $name:ident, $kind:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name<N = SyntaxNode>(N);

        impl<N: TreeNode> AstNode for $name<N> {
            type Node = N;

            fn can_cast(kind: SyntaxKind) -> bool {
                kind == $kind
            }

            fn cast(node: N) -> Option<Self> {
                (node.kind() == $kind).then(|| $name(node))
            }

            fn syntax(&self) -> &N {
                &self.0
            }
        }

        rowan_ast_node!($name);
    };
}

fn child<N: TreeNode, A: AstNode<Node = N>>(node: &N) -> Option<A> {
    node.children().find_map(A::cast)
}

fn children<N: TreeNode, A: AstNode<Node = N>>(node: &N) -> impl Iterator<Item = A> {
    node.children().filter_map(A::cast)
}

fn token<N: TreeNode>(node: &N, kind: SyntaxKind) -> Option<Token<N>> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == kind)
}

fn tokens<N: TreeNode>(node: &N, kind: SyntaxKind) -> impl Iterator<Item = Token<N>> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(move |t| t.kind() == kind)
}

/// Whether `element` is a direct token of one of `kinds`.
fn is_token<N: TreeNode>(element: &Element<N>, kinds: &[SyntaxKind]) -> bool {
    element
        .as_token()
        .is_some_and(|t| kinds.contains(&t.kind()))
}

/// Whether `element` is a template directive of `keyword` (`IF_KW`, `ELSE_KW`, ...).
fn is_directive<N: TreeNode>(element: &Element<N>, keyword: SyntaxKind) -> bool {
    element.as_node().is_some_and(|n| {
        n.kind() == TEMPLATE_DIRECTIVE
            && TemplateDirective(n.clone())
                .keyword()
                .is_some_and(|k| k.kind() == keyword)
    })
}

/// The direct children of `node` strictly between the first one that `after` accepts and the
/// first one after it that `until` accepts (the end, if none). With `after` given but matching
/// nothing, there are none: the part it introduces is missing.
fn between<N: TreeNode>(
    node: &N,
    after: Option<&ElementTest<'_, N>>,
    until: &ElementTest<'_, N>,
) -> Vec<Element<N>> {
    let mut elements = node.children_with_tokens();
    if let Some(after) = after {
        if !elements.by_ref().any(|e| after(&e)) {
            return Vec::new();
        }
    }
    elements.take_while(|e| !until(e)).collect()
}

/// The first `N` among `elements`.
fn first_node<N: TreeNode, A: AstNode<Node = N>>(elements: Vec<Element<N>>) -> Option<A> {
    elements
        .into_iter()
        .find_map(|e| e.into_node().and_then(A::cast))
}

/// The first `N` child after the first direct token of one of `after`, and before the next
/// token of one of `until`. Lazy: stops at the first match (accessors run for every node
/// lowered, so no element list is built).
fn child_between<N: TreeNode, A: AstNode<Node = N>>(
    node: &N,
    after: &[SyntaxKind],
    until: &[SyntaxKind],
) -> Option<A> {
    let mut elements = node.children_with_tokens();
    if !elements.by_ref().any(|e| is_token::<N>(&e, after)) {
        return None;
    }
    first_before(elements, until)
}

/// The first `N` among `elements`, before a token of one of `until`.
fn first_before<N: TreeNode, A: AstNode<Node = N>>(
    elements: impl Iterator<Item = Element<N>>,
    until: &[SyntaxKind],
) -> Option<A> {
    for element in elements {
        if is_token::<N>(&element, until) {
            return None;
        }
        if let Some(found) = element.into_node().and_then(A::cast) {
            return Some(found);
        }
    }
    None
}

/// The first `N` child before the first direct token of one of `until`.
fn child_before<N: TreeNode, A: AstNode<Node = N>>(node: &N, until: &[SyntaxKind]) -> Option<A> {
    first_before(node.children_with_tokens(), until)
}

/// The first `N` child after the first direct token of one of `after`.
fn child_after<N: TreeNode, A: AstNode<Node = N>>(node: &N, after: &[SyntaxKind]) -> Option<A> {
    child_between(node, after, &[])
}

/// `(key, value)` variables of a for-expression or for-directive header: the identifiers before
/// `in`, the key before the `,` and the value after it (a lone identifier is the value).
fn for_variables<N: TreeNode>(node: &N) -> (Option<Token<N>>, Option<Token<N>>) {
    let header = between(node, None, &|e| is_token::<N>(e, &[IN_KW]));
    let ident = |elements: &[Element<N>]| {
        elements
            .iter()
            .filter_map(|e| e.as_token())
            .find(|t| t.kind() == IDENT)
            .cloned()
    };
    match header.iter().position(|e| is_token::<N>(e, &[COMMA])) {
        Some(comma) => (ident(&header[..comma]), ident(&header[comma + 1..])),
        None => (None, ident(&header)),
    }
}

ast_node!(
    /// The root of a file.
    SourceFile, SOURCE_FILE
);
ast_node!(
    /// The attributes and blocks of a file or a block.
    Body, BODY
);
ast_node!(
    /// `name = expr`.
    Attribute, ATTRIBUTE
);
ast_node!(
    /// `type "label" label { body }`.
    Block, BLOCK
);
ast_node!(
    /// A block label: an identifier or a quoted string.
    BlockLabel, BLOCK_LABEL
);

impl<N: TreeNode> SourceFile<N> {
    /// Wraps a root node. Trees built by [`crate::parse`] and [`crate::parse_flat`] always
    /// have a `SOURCE_FILE` root.
    pub fn cast_root(node: N) -> SourceFile<N> {
        SourceFile(node)
    }

    pub fn body(&self) -> Option<Body<N>> {
        child(&self.0)
    }
}

/// An item of a body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BodyItem<N: TreeNode = SyntaxNode> {
    Attribute(Attribute<N>),
    Block(Block<N>),
}

rowan_ast_node!(BodyItem);

impl<N: TreeNode> AstNode for BodyItem<N> {
    type Node = N;

    fn can_cast(kind: SyntaxKind) -> bool {
        matches!(kind, ATTRIBUTE | BLOCK)
    }

    fn cast(node: N) -> Option<Self> {
        Some(match node.kind() {
            ATTRIBUTE => BodyItem::Attribute(Attribute(node)),
            BLOCK => BodyItem::Block(Block(node)),
            _ => return None,
        })
    }

    fn syntax(&self) -> &N {
        match self {
            BodyItem::Attribute(a) => &a.0,
            BodyItem::Block(b) => &b.0,
        }
    }
}

impl<N: TreeNode> Body<N> {
    pub fn items(&self) -> impl Iterator<Item = BodyItem<N>> {
        children(&self.0)
    }

    pub fn attributes(&self) -> impl Iterator<Item = Attribute<N>> {
        children(&self.0)
    }

    pub fn blocks(&self) -> impl Iterator<Item = Block<N>> {
        children(&self.0)
    }
}

impl<N: TreeNode> Attribute<N> {
    /// The name, before `=`.
    pub fn name(&self) -> Option<Token<N>> {
        token(&self.0, IDENT)
    }

    pub fn eq_token(&self) -> Option<Token<N>> {
        token(&self.0, EQ)
    }

    /// The value, after `=` (or after the name, when the parser found the `=` missing).
    pub fn expr(&self) -> Option<Expr<N>> {
        child(&self.0)
    }
}

impl<N: TreeNode> Block<N> {
    /// The block type: `resource` in `resource x "t" {}`.
    pub fn type_name(&self) -> Option<Token<N>> {
        token(&self.0, IDENT)
    }

    /// The labels, before `{`.
    pub fn labels(&self) -> impl Iterator<Item = BlockLabel<N>> {
        between(&self.0, None, &|e| is_token(e, &[L_BRACE]))
            .into_iter()
            .filter_map(|e| e.into_node().and_then(BlockLabel::cast))
    }

    /// The body, after `{` (or after the labels, when the parser found the `{` missing at the
    /// header's end).
    pub fn body(&self) -> Option<Body<N>> {
        child(&self.0)
    }

    pub fn l_brace(&self) -> Option<Token<N>> {
        token(&self.0, L_BRACE)
    }

    pub fn r_brace(&self) -> Option<Token<N>> {
        token(&self.0, R_BRACE)
    }
}

impl<N: TreeNode> BlockLabel<N> {
    pub fn ident(&self) -> Option<Token<N>> {
        token(&self.0, IDENT)
    }

    pub fn template(&self) -> Option<TemplateExpr<N>> {
        child(&self.0)
    }

    /// The label's value: the identifier, or the decoded string. `None` for a string with
    /// template sequences or invalid escapes (the validator reports those).
    pub fn value(&self) -> Option<String> {
        match self.ident() {
            Some(ident) => Some(ident.text().to_string()),
            None => self.template()?.literal_value(),
        }
    }
}

/// Any expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr<N: TreeNode = SyntaxNode> {
    Literal(LiteralExpr<N>),
    Variable(VariableExpr<N>),
    FunctionCall(FunctionCall<N>),
    Paren(ParenExpr<N>),
    Tuple(TupleExpr<N>),
    Object(ObjectExpr<N>),
    For(ForExpr<N>),
    Conditional(ConditionalExpr<N>),
    Binary(BinaryExpr<N>),
    Unary(UnaryExpr<N>),
    GetAttr(GetAttrExpr<N>),
    Index(IndexExpr<N>),
    LegacyIndex(LegacyIndexExpr<N>),
    Splat(SplatExpr<N>),
    Template(TemplateExpr<N>),
    Heredoc(HeredocExpr<N>),
}

rowan_ast_node!(Expr);

impl<N: TreeNode> AstNode for Expr<N> {
    type Node = N;

    fn can_cast(kind: SyntaxKind) -> bool {
        matches!(
            kind,
            LITERAL_EXPR
                | VARIABLE_EXPR
                | FUNCTION_CALL
                | PAREN_EXPR
                | TUPLE_EXPR
                | OBJECT_EXPR
                | FOR_EXPR
                | CONDITIONAL_EXPR
                | BINARY_EXPR
                | UNARY_EXPR
                | GET_ATTR_EXPR
                | INDEX_EXPR
                | LEGACY_INDEX_EXPR
                | SPLAT_EXPR
                | TEMPLATE_EXPR
                | HEREDOC_EXPR
        )
    }

    fn cast(node: N) -> Option<Self> {
        Some(match node.kind() {
            LITERAL_EXPR => Expr::Literal(LiteralExpr(node)),
            VARIABLE_EXPR => Expr::Variable(VariableExpr(node)),
            FUNCTION_CALL => Expr::FunctionCall(FunctionCall(node)),
            PAREN_EXPR => Expr::Paren(ParenExpr(node)),
            TUPLE_EXPR => Expr::Tuple(TupleExpr(node)),
            OBJECT_EXPR => Expr::Object(ObjectExpr(node)),
            FOR_EXPR => Expr::For(ForExpr(node)),
            CONDITIONAL_EXPR => Expr::Conditional(ConditionalExpr(node)),
            BINARY_EXPR => Expr::Binary(BinaryExpr(node)),
            UNARY_EXPR => Expr::Unary(UnaryExpr(node)),
            GET_ATTR_EXPR => Expr::GetAttr(GetAttrExpr(node)),
            INDEX_EXPR => Expr::Index(IndexExpr(node)),
            LEGACY_INDEX_EXPR => Expr::LegacyIndex(LegacyIndexExpr(node)),
            SPLAT_EXPR => Expr::Splat(SplatExpr(node)),
            TEMPLATE_EXPR => Expr::Template(TemplateExpr(node)),
            HEREDOC_EXPR => Expr::Heredoc(HeredocExpr(node)),
            _ => return None,
        })
    }

    fn syntax(&self) -> &N {
        match self {
            Expr::Literal(e) => &e.0,
            Expr::Variable(e) => &e.0,
            Expr::FunctionCall(e) => &e.0,
            Expr::Paren(e) => &e.0,
            Expr::Tuple(e) => &e.0,
            Expr::Object(e) => &e.0,
            Expr::For(e) => &e.0,
            Expr::Conditional(e) => &e.0,
            Expr::Binary(e) => &e.0,
            Expr::Unary(e) => &e.0,
            Expr::GetAttr(e) => &e.0,
            Expr::Index(e) => &e.0,
            Expr::LegacyIndex(e) => &e.0,
            Expr::Splat(e) => &e.0,
            Expr::Template(e) => &e.0,
            Expr::Heredoc(e) => &e.0,
        }
    }
}

ast_node!(
    /// A number, `true`, `false` or `null`.
    LiteralExpr, LITERAL_EXPR
);
ast_node!(
    /// A variable reference: the root of a traversal.
    VariableExpr, VARIABLE_EXPR
);
ast_node!(
    /// `name(args)` or `ns::name(args)`.
    FunctionCall, FUNCTION_CALL
);
ast_node!(ArgList, ARG_LIST);
ast_node!(ParenExpr, PAREN_EXPR);
ast_node!(TupleExpr, TUPLE_EXPR);
ast_node!(ObjectExpr, OBJECT_EXPR);
ast_node!(
    /// `key = value` or `key: value` in an object constructor.
    ObjectItem, OBJECT_ITEM
);
ast_node!(ObjectKey, OBJECT_KEY);
ast_node!(
    /// `[for ...]` or `{for ...}`.
    ForExpr, FOR_EXPR
);
ast_node!(
    /// `for k, v in collection :`.
    ForIntro, FOR_INTRO
);
ast_node!(ForCond, FOR_COND);
ast_node!(ConditionalExpr, CONDITIONAL_EXPR);
ast_node!(BinaryExpr, BINARY_EXPR);
ast_node!(UnaryExpr, UNARY_EXPR);
ast_node!(
    /// `receiver.name`.
    GetAttrExpr, GET_ATTR_EXPR
);
ast_node!(
    /// `receiver[index]`.
    IndexExpr, INDEX_EXPR
);
ast_node!(
    /// `receiver.0`, the legacy index form.
    LegacyIndexExpr, LEGACY_INDEX_EXPR
);
ast_node!(
    /// `receiver.*` or `receiver[*]`.
    SplatExpr, SPLAT_EXPR
);
ast_node!(
    /// A quoted template `"..."`.
    TemplateExpr, TEMPLATE_EXPR
);
ast_node!(
    /// `<<EOT ... EOT` or `<<-EOT ... EOT`.
    HeredocExpr, HEREDOC_EXPR
);
ast_node!(TemplateInterpolation, TEMPLATE_INTERPOLATION);
ast_node!(TemplateIf, TEMPLATE_IF);
ast_node!(TemplateFor, TEMPLATE_FOR);
ast_node!(TemplateDirective, TEMPLATE_DIRECTIVE);
ast_node!(TemplateBody, TEMPLATE_BODY);

/// What a literal is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LiteralKind {
    /// The number's text, exactly as written (no precision lost).
    Number(String),
    Bool(bool),
    Null,
}

impl<N: TreeNode> LiteralExpr<N> {
    pub fn token(&self) -> Option<Token<N>> {
        self.0.first_token()
    }

    pub fn kind(&self) -> Option<LiteralKind> {
        let token = self.token()?;
        Some(match token.kind() {
            NUMBER => LiteralKind::Number(token.text().to_string()),
            TRUE_KW => LiteralKind::Bool(true),
            FALSE_KW => LiteralKind::Bool(false),
            NULL_KW => LiteralKind::Null,
            _ => return None,
        })
    }
}

impl<N: TreeNode> VariableExpr<N> {
    pub fn name(&self) -> Option<Token<N>> {
        token(&self.0, IDENT)
    }
}

impl<N: TreeNode> FunctionCall<N> {
    /// The name, namespaces joined with `::` (`provider::aws::arn_parse`).
    pub fn name(&self) -> String {
        tokens(&self.0, IDENT)
            .map(|t| t.text().to_string())
            .collect::<Vec<_>>()
            .join("::")
    }

    pub fn name_tokens(&self) -> impl Iterator<Item = Token<N>> {
        tokens(&self.0, IDENT)
    }

    pub fn arg_list(&self) -> Option<ArgList<N>> {
        child(&self.0)
    }

    /// The arguments that are there, in order (see [`ArgList::slots`] for their positions).
    pub fn args(&self) -> impl Iterator<Item = Expr<N>> {
        self.arg_list()
            .into_iter()
            .flat_map(|list| children::<N, Expr<N>>(&list.0).collect::<Vec<_>>())
    }

    /// Whether the last argument is expanded with `...`.
    pub fn has_expand_final(&self) -> bool {
        self.arg_list()
            .is_some_and(|list| token(&list.0, ELLIPSIS).is_some())
    }
}

impl<N: TreeNode> ArgList<N> {
    /// One entry per argument position, delimited by the `,`s: `f(,1)` has a missing first
    /// argument and `1` second; a trailing comma (`f(1,)`) opens no position.
    pub fn slots(&self) -> Vec<Option<Expr<N>>> {
        let mut slots = Vec::new();
        let mut current: Option<Option<Expr<N>>> = None;
        for element in self.0.children_with_tokens() {
            match element {
                NodeOrToken::Token(t) if t.kind() == COMMA => {
                    slots.push(current.take().flatten());
                    current = Some(None);
                }
                NodeOrToken::Token(t) if t.kind() == R_PAREN => break,
                NodeOrToken::Node(n) => {
                    let slot = current.get_or_insert(None);
                    if slot.is_none() {
                        *slot = Expr::cast(n);
                    }
                }
                NodeOrToken::Token(_) => {}
            }
        }
        // Text after the last comma is a position only if something is there.
        if let Some(Some(last)) = current {
            slots.push(Some(last));
        }
        slots
    }
}

impl<N: TreeNode> ParenExpr<N> {
    /// The expression after `(` (or after a `${` written inside an interpolation, which the
    /// parser reads as parentheses).
    pub fn expr(&self) -> Option<Expr<N>> {
        child_between(
            &self.0,
            &[L_PAREN, TEMPLATE_INTERP],
            &[R_PAREN, TEMPLATE_SEQ_END],
        )
    }
}

impl<N: TreeNode> TupleExpr<N> {
    pub fn elements(&self) -> impl Iterator<Item = Expr<N>> {
        children(&self.0)
    }
}

impl<N: TreeNode> ObjectExpr<N> {
    pub fn items(&self) -> impl Iterator<Item = ObjectItem<N>> {
        children(&self.0)
    }
}

impl<N: TreeNode> ObjectItem<N> {
    /// The key, before `=` or `:`.
    pub fn key(&self) -> Option<ObjectKey<N>> {
        child_before(&self.0, &[EQ, COLON])
    }

    /// The value, after `=` or `:`.
    pub fn value(&self) -> Option<Expr<N>> {
        child_after(&self.0, &[EQ, COLON])
    }
}

impl<N: TreeNode> ObjectKey<N> {
    pub fn expr(&self) -> Option<Expr<N>> {
        child(&self.0)
    }

    /// The key as a literal name: a bare identifier or a literal string (`None` when computed).
    pub fn literal_name(&self) -> Option<String> {
        match self.expr()? {
            Expr::Variable(v) => Some(v.name()?.text().to_string()),
            Expr::Template(t) => t.literal_value(),
            Expr::Literal(l) => match l.kind()? {
                LiteralKind::Number(n) => Some(n),
                LiteralKind::Bool(b) => Some(b.to_string()),
                LiteralKind::Null => Some("null".to_string()),
            },
            _ => None,
        }
    }
}

impl<N: TreeNode> ForExpr<N> {
    pub fn intro(&self) -> Option<ForIntro<N>> {
        child(&self.0)
    }

    /// Whether this builds an object (`{for ...}`) rather than a tuple.
    pub fn is_object(&self) -> bool {
        self.0.first_token().is_some_and(|t| t.kind() == L_BRACE)
    }

    /// `k` in `{for ... : k => v}`: the expression before `=>` (none without `=>`).
    pub fn key_expr(&self) -> Option<Expr<N>> {
        token(&self.0, FAT_ARROW)?;
        child_before(&self.0, &[FAT_ARROW])
    }

    /// The element value (`v` in both `[for ...: v]` and `{for ...: k => v}`): the expression
    /// after `=>`, or without `=>` the one after the header.
    pub fn value_expr(&self) -> Option<Expr<N>> {
        if token(&self.0, FAT_ARROW).is_some() {
            child_after(&self.0, &[FAT_ARROW])
        } else {
            child(&self.0)
        }
    }

    pub fn is_grouping(&self) -> bool {
        token(&self.0, ELLIPSIS).is_some()
    }

    pub fn cond(&self) -> Option<ForCond<N>> {
        child(&self.0)
    }

    /// The filter, after `if`.
    pub fn condition(&self) -> Option<Expr<N>> {
        self.cond()?.expr()
    }
}

impl<N: TreeNode> ForIntro<N> {
    /// `(key variable, value variable)`: the names before `in`, the key before the `,` and the
    /// value after it; a lone name is the value variable (`for k, in m` has a key and no value).
    pub fn variables(&self) -> (Option<Token<N>>, Option<Token<N>>) {
        for_variables(&self.0)
    }

    /// The collection, after `in` (before the `:`).
    pub fn collection(&self) -> Option<Expr<N>> {
        child_between(&self.0, &[IN_KW], &[COLON])
    }
}

impl<N: TreeNode> ForCond<N> {
    /// The condition, after `if`.
    pub fn expr(&self) -> Option<Expr<N>> {
        child_after(&self.0, &[IF_KW])
    }
}

impl<N: TreeNode> ConditionalExpr<N> {
    /// The condition, before `?`.
    pub fn condition(&self) -> Option<Expr<N>> {
        child_before(&self.0, &[QUESTION])
    }

    /// The value when true, between `?` and `:`.
    pub fn then_expr(&self) -> Option<Expr<N>> {
        child_between(&self.0, &[QUESTION], &[COLON])
    }

    /// The value when false, after `:`.
    pub fn else_expr(&self) -> Option<Expr<N>> {
        child_after(&self.0, &[COLON])
    }
}

/// Binary operators, in the spelling of the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl BinaryOp {
    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Eq => "==",
            BinaryOp::NotEq => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::LtEq => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::GtEq => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
        }
    }
}

/// The binary operator tokens.
const BINARY_OPS: &[SyntaxKind] = &[
    PIPE2, AMP2, EQ2, NEQ, LT, LTEQ, GT, GTEQ, PLUS, MINUS, STAR, SLASH, PERCENT,
];

impl<N: TreeNode> BinaryExpr<N> {
    /// The left operand, before the operator.
    pub fn lhs(&self) -> Option<Expr<N>> {
        child_before(&self.0, BINARY_OPS)
    }

    /// The right operand, after the operator.
    pub fn rhs(&self) -> Option<Expr<N>> {
        child_after(&self.0, BINARY_OPS)
    }

    pub fn op_token(&self) -> Option<Token<N>> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| binary_op(t.kind()).is_some())
    }

    pub fn op(&self) -> Option<BinaryOp> {
        binary_op(self.op_token()?.kind())
    }
}

fn binary_op(kind: SyntaxKind) -> Option<BinaryOp> {
    Some(match kind {
        PIPE2 => BinaryOp::Or,
        AMP2 => BinaryOp::And,
        EQ2 => BinaryOp::Eq,
        NEQ => BinaryOp::NotEq,
        LT => BinaryOp::Lt,
        LTEQ => BinaryOp::LtEq,
        GT => BinaryOp::Gt,
        GTEQ => BinaryOp::GtEq,
        PLUS => BinaryOp::Add,
        MINUS => BinaryOp::Sub,
        STAR => BinaryOp::Mul,
        SLASH => BinaryOp::Div,
        PERCENT => BinaryOp::Mod,
        _ => return None,
    })
}

/// `-x` or `!x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
}

impl<N: TreeNode> UnaryExpr<N> {
    pub fn op(&self) -> Option<UnaryOp> {
        match self.0.first_token()?.kind() {
            MINUS => Some(UnaryOp::Neg),
            BANG => Some(UnaryOp::Not),
            _ => None,
        }
    }

    /// The operand, after the operator.
    pub fn operand(&self) -> Option<Expr<N>> {
        child_after(&self.0, &[MINUS, BANG])
    }
}

/// The first token of `kind` after the first direct token of `after`.
fn token_after<N: TreeNode>(node: &N, after: SyntaxKind, kind: SyntaxKind) -> Option<Token<N>> {
    between(node, Some(&|e| is_token::<N>(e, &[after])), &|_| false)
        .into_iter()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == kind)
}

impl<N: TreeNode> GetAttrExpr<N> {
    /// The receiver, before `.`.
    pub fn receiver(&self) -> Option<Expr<N>> {
        child_before(&self.0, &[DOT])
    }

    /// The attribute name, after `.`.
    pub fn name(&self) -> Option<Token<N>> {
        token_after(&self.0, DOT, IDENT)
    }
}

impl<N: TreeNode> IndexExpr<N> {
    /// The receiver, before `[`.
    pub fn receiver(&self) -> Option<Expr<N>> {
        child_before(&self.0, &[L_BRACK])
    }

    /// The index, between `[` and `]`.
    pub fn index(&self) -> Option<Expr<N>> {
        child_between(&self.0, &[L_BRACK], &[R_BRACK])
    }
}

impl<N: TreeNode> LegacyIndexExpr<N> {
    /// The receiver, before `.`.
    pub fn receiver(&self) -> Option<Expr<N>> {
        child_before(&self.0, &[DOT])
    }

    /// The index, after `.`.
    pub fn index(&self) -> Option<Token<N>> {
        token_after(&self.0, DOT, NUMBER)
    }
}

impl<N: TreeNode> SplatExpr<N> {
    /// The receiver, before `.*` or `[*]`.
    pub fn receiver(&self) -> Option<Expr<N>> {
        child_before(&self.0, &[DOT, L_BRACK])
    }

    /// `[*]` (applies every following step per element) rather than `.*`.
    pub fn is_full(&self) -> bool {
        token(&self.0, L_BRACK).is_some()
    }
}

/// A part of a template.
///
/// Not an [`AstNode`]: a literal part is a token, and rowan pointers point at nodes. A source
/// map points at the other parts through [`TemplateSequence`] (which is an `AstNode`), and at a
/// literal through the template holding it and the literal's range.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TemplatePart<N: TreeNode = SyntaxNode> {
    Literal(Token<N>),
    Interpolation(TemplateInterpolation<N>),
    If(TemplateIf<N>),
    For(TemplateFor<N>),
}

impl<N: TreeNode> TemplatePart<N> {
    /// The part's range in the file.
    pub fn text_range(&self) -> crate::TextRange {
        match self {
            TemplatePart::Literal(t) => t.text_range(),
            TemplatePart::Interpolation(n) => n.0.text_range(),
            TemplatePart::If(n) => n.0.text_range(),
            TemplatePart::For(n) => n.0.text_range(),
        }
    }

    /// The part as a node, unless it is a literal.
    pub fn sequence(&self) -> Option<TemplateSequence<N>> {
        Some(match self {
            TemplatePart::Literal(_) => return None,
            TemplatePart::Interpolation(n) => TemplateSequence::Interpolation(n.clone()),
            TemplatePart::If(n) => TemplateSequence::If(n.clone()),
            TemplatePart::For(n) => TemplateSequence::For(n.clone()),
        })
    }
}

/// The parts of a template that are nodes: `${ }` interpolations and `%{ }` directives.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TemplateSequence<N: TreeNode = SyntaxNode> {
    Interpolation(TemplateInterpolation<N>),
    If(TemplateIf<N>),
    For(TemplateFor<N>),
}

rowan_ast_node!(TemplateSequence);

impl<N: TreeNode> AstNode for TemplateSequence<N> {
    type Node = N;

    fn can_cast(kind: SyntaxKind) -> bool {
        matches!(kind, TEMPLATE_INTERPOLATION | TEMPLATE_IF | TEMPLATE_FOR)
    }

    fn cast(node: N) -> Option<Self> {
        Some(match node.kind() {
            TEMPLATE_INTERPOLATION => TemplateSequence::Interpolation(TemplateInterpolation(node)),
            TEMPLATE_IF => TemplateSequence::If(TemplateIf(node)),
            TEMPLATE_FOR => TemplateSequence::For(TemplateFor(node)),
            _ => return None,
        })
    }

    fn syntax(&self) -> &N {
        match self {
            TemplateSequence::Interpolation(n) => &n.0,
            TemplateSequence::If(n) => &n.0,
            TemplateSequence::For(n) => &n.0,
        }
    }
}

impl<N: TreeNode> From<TemplateSequence<N>> for TemplatePart<N> {
    fn from(sequence: TemplateSequence<N>) -> TemplatePart<N> {
        match sequence {
            TemplateSequence::Interpolation(n) => TemplatePart::Interpolation(n),
            TemplateSequence::If(n) => TemplatePart::If(n),
            TemplateSequence::For(n) => TemplatePart::For(n),
        }
    }
}

fn template_parts<N: TreeNode>(node: &N) -> impl Iterator<Item = TemplatePart<N>> {
    node.children_with_tokens().filter_map(|e| match e {
        NodeOrToken::Token(t) if t.kind() == TEMPLATE_LITERAL => Some(TemplatePart::Literal(t)),
        NodeOrToken::Node(n) => TemplateSequence::cast(n).map(TemplatePart::from),
        _ => None,
    })
}

impl<N: TreeNode> TemplateExpr<N> {
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart<N>> {
        template_parts(&self.0)
    }

    /// Whether the string is closed by its `"`.
    pub fn is_terminated(&self) -> bool {
        token(&self.0, CQUOTE).is_some()
    }

    /// The value of each literal token: escapes decoded, strip markers applied.
    pub fn literals(&self) -> TemplateLiterals {
        crate::template::template_literals(&self.0, false, false)
    }

    /// The decoded value when the template is only literal text with valid escapes.
    pub fn literal_value(&self) -> Option<String> {
        if let Some(token) = self.plain_literal() {
            return Some(token.text().to_string());
        }
        self.literals().literal_value()
    }

    /// The one literal token of a string that is nothing else and has nothing to decode
    /// (no `\`, `$` or `%`): its text is its value. Most strings of a program are such
    /// (`"nginx"`), and reading them so spares [`TemplateExpr::literals`]' work.
    pub fn plain_literal(&self) -> Option<N::Token> {
        let mut literal = None;
        for element in self.0.children_with_tokens() {
            match element {
                NodeOrToken::Token(t) if t.kind() == TEMPLATE_LITERAL => {
                    if literal.is_some()
                        || t.text().bytes().any(|b| matches!(b, b'\\' | b'$' | b'%'))
                    {
                        return None;
                    }
                    literal = Some(t);
                }
                NodeOrToken::Token(_) => {}
                NodeOrToken::Node(_) => return None,
            }
        }
        literal
    }
}

impl<N: TreeNode> HeredocExpr<N> {
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart<N>> {
        template_parts(&self.0)
    }

    /// The marker (`EOT`; also of `<< EOT`, an error).
    pub fn marker(&self) -> Option<String> {
        let start = token(&self.0, HEREDOC_START)?;
        let text = start
            .text()
            .trim_start_matches('<')
            .trim_start_matches('-')
            .trim_start_matches([' ', '\t']);
        let end = text
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(text.len());
        Some(text[..end].to_string())
    }

    /// `<<-EOT`: leading indentation is stripped from the value.
    pub fn is_flush(&self) -> bool {
        token(&self.0, HEREDOC_START).is_some_and(|t| t.text().starts_with("<<-"))
    }

    /// The value of each literal token: `$${` and `%%{` decoded, strip markers applied, and for
    /// `<<-EOT` the least indentation removed from each line-leading literal (hclsyntax's rules:
    /// blank lines neither count nor lose anything; a line that starts with `${` or `%{` counts
    /// 0; every whitespace character but the line break counts one, tabs included).
    pub fn literals(&self) -> TemplateLiterals {
        crate::template::template_literals(&self.0, true, self.is_flush())
    }

    /// How many leading whitespace characters `<<-EOT` strips from each line-leading literal
    /// (`0` for `<<EOT`); see [`HeredocExpr::literals`].
    pub fn flush_indent(&self) -> usize {
        self.literals().flush_indent()
    }

    /// The heredoc's value when its body is only literal text: every line kept with its line
    /// break, escapes decoded, and for `<<-EOT` the common indentation removed. `None` when the
    /// body has interpolations or directives.
    pub fn literal_value(&self) -> Option<String> {
        self.literals().literal_value()
    }
}

impl<N: TreeNode> TemplateInterpolation<N> {
    /// The expression, between `${` and `}`.
    pub fn expr(&self) -> Option<Expr<N>> {
        child_between(&self.0, &[TEMPLATE_INTERP], &[TEMPLATE_SEQ_END])
    }
}

impl<N: TreeNode> TemplateDirective<N> {
    /// The directive keyword token (`if`, `else`, `endif`, `for`, `endfor`).
    pub fn keyword(&self) -> Option<Token<N>> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| matches!(t.kind(), IF_KW | ELSE_KW | ENDIF_KW | FOR_KW | ENDFOR_KW))
    }

    /// The expression of an `if` (after `if`) or `for` directive (after `in`).
    pub fn expr(&self) -> Option<Expr<N>> {
        child_between(&self.0, &[IF_KW, IN_KW], &[TEMPLATE_SEQ_END])
    }
}

/// The template directive of `keyword` among the direct children of `node`.
fn directive<N: TreeNode>(node: &N, keyword: SyntaxKind) -> Option<TemplateDirective<N>> {
    node.children_with_tokens()
        .find(|e| is_directive::<N>(e, keyword))
        .and_then(|e| e.into_node())
        .map(TemplateDirective)
}

/// The template body right after the directive of `keyword`, before the next directive.
fn body_after<N: TreeNode>(node: &N, keyword: SyntaxKind) -> Option<TemplateBody<N>> {
    first_node(between(
        node,
        Some(&|e| is_directive::<N>(e, keyword)),
        &|e| e.as_node().is_some_and(|n| n.kind() == TEMPLATE_DIRECTIVE),
    ))
}

impl<N: TreeNode> TemplateBody<N> {
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart<N>> {
        template_parts(&self.0)
    }
}

impl<N: TreeNode> TemplateIf<N> {
    /// `%{ if cond }`.
    pub fn if_directive(&self) -> Option<TemplateDirective<N>> {
        directive(&self.0, IF_KW)
    }

    /// `%{ else }`, if any.
    pub fn else_directive(&self) -> Option<TemplateDirective<N>> {
        directive(&self.0, ELSE_KW)
    }

    /// `%{ endif }` (missing in broken input).
    pub fn endif_directive(&self) -> Option<TemplateDirective<N>> {
        directive(&self.0, ENDIF_KW)
    }

    /// The condition of the `if` directive.
    pub fn condition(&self) -> Option<Expr<N>> {
        self.if_directive()?.expr()
    }

    /// The body after `%{ if }`.
    pub fn then_body(&self) -> Option<TemplateBody<N>> {
        body_after(&self.0, IF_KW)
    }

    /// The body after `%{ else }`.
    pub fn else_body(&self) -> Option<TemplateBody<N>> {
        body_after(&self.0, ELSE_KW)
    }
}

impl<N: TreeNode> TemplateFor<N> {
    /// `%{ for k, v in collection }`.
    pub fn for_directive(&self) -> Option<TemplateDirective<N>> {
        directive(&self.0, FOR_KW)
    }

    /// `%{ endfor }` (missing in broken input).
    pub fn endfor_directive(&self) -> Option<TemplateDirective<N>> {
        directive(&self.0, ENDFOR_KW)
    }

    /// `(key variable, value variable)` of the `for` directive, as for
    /// [`ForIntro::variables`].
    pub fn variables(&self) -> (Option<Token<N>>, Option<Token<N>>) {
        match self.for_directive() {
            Some(directive) => for_variables(&directive.0),
            None => (None, None),
        }
    }

    /// The collection, after `in`.
    pub fn collection(&self) -> Option<Expr<N>> {
        self.for_directive()?.expr()
    }

    /// The body after `%{ for }`.
    pub fn body(&self) -> Option<TemplateBody<N>> {
        body_after(&self.0, FOR_KW)
    }
}

/// Decodes the escapes of a quoted-string literal: `\n \r \t \" \\ \uXXXX \UXXXXXXXX`, and the
/// template escapes `$${` and `%%{`. On error: the byte offset of the bad escape and why.
pub fn unescape_quoted(text: &str) -> Result<String, (usize, usize, String)> {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                let Some(c) = text[i + 1..].chars().next() else {
                    return Err((
                        i,
                        i + 1,
                        "invalid escape sequence: a backslash cannot end the line".into(),
                    ));
                };
                let (value, len) = match c {
                    'n' => ('\n', 2),
                    'r' => ('\r', 2),
                    't' => ('\t', 2),
                    '"' => ('"', 2),
                    '\\' => ('\\', 2),
                    'u' | 'U' => {
                        let digits = if c == 'u' { 4 } else { 8 };
                        let hex = text.get(i + 2..i + 2 + digits).unwrap_or("");
                        let code = (hex.len() == digits && hex.bytes().all(|b| b.is_ascii_hexdigit()))
                            .then(|| u32::from_str_radix(hex, 16).ok())
                            .flatten();
                        match code.and_then(char::from_u32) {
                            Some(ch) => (ch, 2 + digits),
                            None if code.is_some() => {
                                return Err((
                                    i,
                                    i + 2 + digits,
                                    format!("invalid escape sequence: U+{hex} is not a valid Unicode character"),
                                ))
                            }
                            None => {
                                return Err((
                                    i,
                                    i + 2,
                                    format!("invalid escape sequence: `\\{c}` must be followed by exactly {digits} hexadecimal digits"),
                                ))
                            }
                        }
                    }
                    other => {
                        return Err((
                            i,
                            i + 1 + other.len_utf8(),
                            format!("invalid escape sequence `\\{other}`: valid escapes are `\\n`, `\\r`, `\\t`, `\\\"`, `\\\\`, `\\uXXXX` and `\\UXXXXXXXX`"),
                        ))
                    }
                };
                out.push(value);
                i += len;
            }
            b'$' | b'%'
                if bytes.get(i + 1) == Some(&bytes[i]) && bytes.get(i + 2) == Some(&b'{') =>
            {
                out.push(bytes[i] as char);
                out.push('{');
                i += 3;
            }
            _ => {
                // The run up to the next byte that may start an escape is copied as it is
                // (those bytes are ASCII, so the run ends on a character boundary).
                let run = bytes[i + 1..]
                    .iter()
                    .position(|b| matches!(b, b'\\' | b'$' | b'%'))
                    .map_or(bytes.len(), |n| i + 1 + n);
                out.push_str(&text[i..run]);
                i = run;
            }
        }
    }
    Ok(out)
}
