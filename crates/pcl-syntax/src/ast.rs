//! Typed views over the syntax tree: zero-cost wrappers with accessors.
//!
//! Accessors return `Option` because a tree built from broken input may lack any part.

use rowan::ast::AstNode;

use crate::{PclLanguage, SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

pub use rowan::ast::AstNode as _;

macro_rules! ast_node {
    ($(#[$doc:meta])* $name:ident, $kind:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(SyntaxNode);

        impl AstNode for $name {
            type Language = PclLanguage;

            fn can_cast(kind: SyntaxKind) -> bool {
                kind == $kind
            }

            fn cast(node: SyntaxNode) -> Option<Self> {
                (node.kind() == $kind).then(|| $name(node))
            }

            fn syntax(&self) -> &SyntaxNode {
                &self.0
            }
        }
    };
}

fn child<N: AstNode<Language = PclLanguage>>(node: &SyntaxNode) -> Option<N> {
    node.children().find_map(N::cast)
}

fn children<N: AstNode<Language = PclLanguage>>(node: &SyntaxNode) -> impl Iterator<Item = N> {
    node.children().filter_map(N::cast)
}

fn token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == kind)
}

fn tokens(node: &SyntaxNode, kind: SyntaxKind) -> impl Iterator<Item = SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(move |t| t.kind() == kind)
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

impl SourceFile {
    /// Wraps a root node. Trees built by [`crate::parse`] always have a `SOURCE_FILE` root.
    pub fn cast_root(node: SyntaxNode) -> SourceFile {
        SourceFile(node)
    }

    pub fn body(&self) -> Option<Body> {
        child(&self.0)
    }
}

/// An item of a body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BodyItem {
    Attribute(Attribute),
    Block(Block),
}

impl Body {
    pub fn items(&self) -> impl Iterator<Item = BodyItem> {
        self.0.children().filter_map(|n| match n.kind() {
            ATTRIBUTE => Some(BodyItem::Attribute(Attribute(n))),
            BLOCK => Some(BodyItem::Block(Block(n))),
            _ => None,
        })
    }

    pub fn attributes(&self) -> impl Iterator<Item = Attribute> {
        children(&self.0)
    }

    pub fn blocks(&self) -> impl Iterator<Item = Block> {
        children(&self.0)
    }
}

impl Attribute {
    pub fn name(&self) -> Option<SyntaxToken> {
        token(&self.0, IDENT)
    }

    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl Block {
    /// The block type: `resource` in `resource x "t" {}`.
    pub fn type_name(&self) -> Option<SyntaxToken> {
        token(&self.0, IDENT)
    }

    pub fn labels(&self) -> impl Iterator<Item = BlockLabel> {
        children(&self.0)
    }

    pub fn body(&self) -> Option<Body> {
        child(&self.0)
    }

    pub fn l_brace(&self) -> Option<SyntaxToken> {
        token(&self.0, L_BRACE)
    }

    pub fn r_brace(&self) -> Option<SyntaxToken> {
        token(&self.0, R_BRACE)
    }
}

impl BlockLabel {
    pub fn ident(&self) -> Option<SyntaxToken> {
        token(&self.0, IDENT)
    }

    pub fn template(&self) -> Option<TemplateExpr> {
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
pub enum Expr {
    Literal(LiteralExpr),
    Variable(VariableExpr),
    FunctionCall(FunctionCall),
    Paren(ParenExpr),
    Tuple(TupleExpr),
    Object(ObjectExpr),
    For(ForExpr),
    Conditional(ConditionalExpr),
    Binary(BinaryExpr),
    Unary(UnaryExpr),
    GetAttr(GetAttrExpr),
    Index(IndexExpr),
    LegacyIndex(LegacyIndexExpr),
    Splat(SplatExpr),
    Template(TemplateExpr),
    Heredoc(HeredocExpr),
}

impl AstNode for Expr {
    type Language = PclLanguage;

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

    fn cast(node: SyntaxNode) -> Option<Self> {
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

    fn syntax(&self) -> &SyntaxNode {
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

impl LiteralExpr {
    pub fn token(&self) -> Option<SyntaxToken> {
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

impl VariableExpr {
    pub fn name(&self) -> Option<SyntaxToken> {
        token(&self.0, IDENT)
    }
}

impl FunctionCall {
    /// The name, namespaces joined with `::` (`provider::aws::arn_parse`).
    pub fn name(&self) -> String {
        tokens(&self.0, IDENT)
            .map(|t| t.text().to_string())
            .collect::<Vec<_>>()
            .join("::")
    }

    pub fn name_tokens(&self) -> impl Iterator<Item = SyntaxToken> {
        tokens(&self.0, IDENT)
    }

    pub fn arg_list(&self) -> Option<ArgList> {
        child(&self.0)
    }

    pub fn args(&self) -> impl Iterator<Item = Expr> {
        self.arg_list()
            .into_iter()
            .flat_map(|list| children::<Expr>(&list.0).collect::<Vec<_>>())
    }

    /// Whether the last argument is expanded with `...`.
    pub fn has_expand_final(&self) -> bool {
        self.arg_list()
            .is_some_and(|list| token(&list.0, ELLIPSIS).is_some())
    }
}

impl ParenExpr {
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl TupleExpr {
    pub fn elements(&self) -> impl Iterator<Item = Expr> {
        children(&self.0)
    }
}

impl ObjectExpr {
    pub fn items(&self) -> impl Iterator<Item = ObjectItem> {
        children(&self.0)
    }
}

impl ObjectItem {
    pub fn key(&self) -> Option<ObjectKey> {
        child(&self.0)
    }

    pub fn value(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl ObjectKey {
    pub fn expr(&self) -> Option<Expr> {
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

impl ForExpr {
    pub fn intro(&self) -> Option<ForIntro> {
        child(&self.0)
    }

    /// Whether this builds an object (`{for ...}`) rather than a tuple.
    pub fn is_object(&self) -> bool {
        self.0.first_token().is_some_and(|t| t.kind() == L_BRACE)
    }

    /// `k` in `{for ... : k => v}`.
    pub fn key_expr(&self) -> Option<Expr> {
        token(&self.0, FAT_ARROW)?;
        children::<Expr>(&self.0).next()
    }

    /// The element value (`v` in both `[for ...: v]` and `{for ...: k => v}`).
    pub fn value_expr(&self) -> Option<Expr> {
        let mut exprs = children::<Expr>(&self.0);
        if token(&self.0, FAT_ARROW).is_some() {
            exprs.nth(1)
        } else {
            exprs.next()
        }
    }

    pub fn is_grouping(&self) -> bool {
        token(&self.0, ELLIPSIS).is_some()
    }

    pub fn condition(&self) -> Option<Expr> {
        child::<ForCond>(&self.0).and_then(|c| child(&c.0))
    }
}

impl ForIntro {
    /// `(key variable, value variable)`; with one variable it is the value variable.
    pub fn variables(&self) -> (Option<SyntaxToken>, Option<SyntaxToken>) {
        let names: Vec<_> = tokens(&self.0, IDENT).collect();
        match names.as_slice() {
            [value] => (None, Some(value.clone())),
            [key, value, ..] => (Some(key.clone()), Some(value.clone())),
            [] => (None, None),
        }
    }

    pub fn collection(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl ConditionalExpr {
    pub fn condition(&self) -> Option<Expr> {
        children::<Expr>(&self.0).next()
    }

    pub fn then_expr(&self) -> Option<Expr> {
        children::<Expr>(&self.0).nth(1)
    }

    pub fn else_expr(&self) -> Option<Expr> {
        children::<Expr>(&self.0).nth(2)
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

impl BinaryExpr {
    pub fn lhs(&self) -> Option<Expr> {
        children::<Expr>(&self.0).next()
    }

    pub fn rhs(&self) -> Option<Expr> {
        children::<Expr>(&self.0).nth(1)
    }

    pub fn op_token(&self) -> Option<SyntaxToken> {
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

impl UnaryExpr {
    pub fn op(&self) -> Option<UnaryOp> {
        match self.0.first_token()?.kind() {
            MINUS => Some(UnaryOp::Neg),
            BANG => Some(UnaryOp::Not),
            _ => None,
        }
    }

    pub fn operand(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl GetAttrExpr {
    pub fn receiver(&self) -> Option<Expr> {
        child(&self.0)
    }

    pub fn name(&self) -> Option<SyntaxToken> {
        token(&self.0, IDENT)
    }
}

impl IndexExpr {
    pub fn receiver(&self) -> Option<Expr> {
        children::<Expr>(&self.0).next()
    }

    pub fn index(&self) -> Option<Expr> {
        children::<Expr>(&self.0).nth(1)
    }
}

impl LegacyIndexExpr {
    pub fn receiver(&self) -> Option<Expr> {
        child(&self.0)
    }

    pub fn index(&self) -> Option<SyntaxToken> {
        token(&self.0, NUMBER)
    }
}

impl SplatExpr {
    pub fn receiver(&self) -> Option<Expr> {
        child(&self.0)
    }

    /// `[*]` (applies every following step per element) rather than `.*`.
    pub fn is_full(&self) -> bool {
        token(&self.0, L_BRACK).is_some()
    }
}

/// A part of a template.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TemplatePart {
    Literal(SyntaxToken),
    Interpolation(TemplateInterpolation),
    If(TemplateIf),
    For(TemplateFor),
}

fn template_parts(node: &SyntaxNode) -> impl Iterator<Item = TemplatePart> {
    node.children_with_tokens().filter_map(|e| match e {
        rowan::NodeOrToken::Token(t) if t.kind() == TEMPLATE_LITERAL => {
            Some(TemplatePart::Literal(t))
        }
        rowan::NodeOrToken::Node(n) => match n.kind() {
            TEMPLATE_INTERPOLATION => Some(TemplatePart::Interpolation(TemplateInterpolation(n))),
            TEMPLATE_IF => Some(TemplatePart::If(TemplateIf(n))),
            TEMPLATE_FOR => Some(TemplatePart::For(TemplateFor(n))),
            _ => None,
        },
        _ => None,
    })
}

impl TemplateExpr {
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart> {
        template_parts(&self.0)
    }

    /// Whether the string is closed by its `"`.
    pub fn is_terminated(&self) -> bool {
        token(&self.0, CQUOTE).is_some()
    }

    /// The decoded value when the template is only literal text with valid escapes.
    pub fn literal_value(&self) -> Option<String> {
        let mut value = String::new();
        for part in self.parts() {
            match part {
                TemplatePart::Literal(t) => value.push_str(&unescape_quoted(t.text()).ok()?),
                _ => return None,
            }
        }
        Some(value)
    }
}

impl HeredocExpr {
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart> {
        template_parts(&self.0)
    }

    /// The marker (`EOT`).
    pub fn marker(&self) -> Option<String> {
        let start = token(&self.0, HEREDOC_START)?;
        let text = start.text().trim_start_matches('<').trim_start_matches('-');
        let end = text
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(text.len());
        Some(text[..end].to_string())
    }

    /// `<<-EOT`: leading indentation is stripped from the value.
    pub fn is_flush(&self) -> bool {
        token(&self.0, HEREDOC_START).is_some_and(|t| t.text().starts_with("<<-"))
    }

    /// How many leading whitespace characters `<<-EOT` strips from each line-leading literal:
    /// the least indentation over the lines of the body (hclsyntax's rule). Lines holding only
    /// whitespace are ignored; a line that starts with `${` or `%{` has indentation 0. Every
    /// whitespace character but the line break counts as one, tabs included. `0` for `<<EOT`.
    pub fn flush_indent(&self) -> usize {
        if !self.is_flush() {
            return 0;
        }
        let mut least: Option<usize> = None;
        let mut at_line_start = true;
        for element in self.own_template_elements() {
            match element {
                rowan::NodeOrToken::Token(literal) => {
                    let text = literal.text();
                    if at_line_start {
                        let indent = text
                            .chars()
                            .take_while(|c| c.is_whitespace() && *c != '\n' && *c != '\r')
                            .count();
                        let blank = text.trim_start_matches(|c: char| {
                            c.is_whitespace() && c != '\n' && c != '\r'
                        });
                        if !(blank == "\n" || blank == "\r\n") {
                            least = Some(least.map_or(indent, |l| l.min(indent)));
                        }
                    }
                    at_line_start = text.ends_with('\n');
                }
                rowan::NodeOrToken::Node(_) => {
                    if at_line_start {
                        least = Some(0);
                    }
                    at_line_start = false;
                }
            }
        }
        least.unwrap_or(0)
    }

    /// The heredoc's value when its body is only literal text: every line kept with its line
    /// break, and for `<<-EOT` the common indentation removed. `None` when the body has
    /// interpolations or directives.
    pub fn literal_value(&self) -> Option<String> {
        let strip = self.flush_indent();
        let mut value = String::new();
        let mut at_line_start = true;
        for part in self.parts() {
            let TemplatePart::Literal(literal) = part else {
                return None;
            };
            let text = literal.text();
            let text = if at_line_start {
                let cut = text
                    .char_indices()
                    .take_while(|(_, c)| c.is_whitespace() && *c != '\n' && *c != '\r')
                    .take(strip)
                    .last()
                    .map_or(0, |(i, c)| i + c.len_utf8());
                &text[cut..]
            } else {
                text
            };
            value.push_str(text);
            at_line_start = literal.text().ends_with('\n');
        }
        Some(value)
    }

    /// Literal tokens and template sequences of this heredoc in source order, including those in
    /// directive bodies, but not those of templates nested inside its interpolations.
    fn own_template_elements(&self) -> impl Iterator<Item = crate::SyntaxElement> + '_ {
        // Into TEMPLATE_IF / TEMPLATE_FOR / TEMPLATE_BODY only (their nesting is bounded by the
        // parser's depth limit); each directive and interpolation is one opaque element.
        fn walk(node: &SyntaxNode, out: &mut Vec<crate::SyntaxElement>) {
            for element in node.children_with_tokens() {
                match &element {
                    rowan::NodeOrToken::Token(t) if t.kind() == TEMPLATE_LITERAL => {
                        out.push(element.clone())
                    }
                    rowan::NodeOrToken::Node(n)
                        if matches!(n.kind(), TEMPLATE_IF | TEMPLATE_FOR | TEMPLATE_BODY) =>
                    {
                        walk(n, out)
                    }
                    rowan::NodeOrToken::Node(n)
                        if matches!(n.kind(), TEMPLATE_INTERPOLATION | TEMPLATE_DIRECTIVE) =>
                    {
                        out.push(element.clone())
                    }
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.0, &mut out);
        out.into_iter()
    }
}

impl TemplateInterpolation {
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl TemplateDirective {
    /// The directive keyword token (`if`, `else`, `endif`, `for`, `endfor`).
    pub fn keyword(&self) -> Option<SyntaxToken> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| t.kind().is_keyword())
    }

    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl TemplateBody {
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart> {
        template_parts(&self.0)
    }
}

impl TemplateIf {
    pub fn condition(&self) -> Option<Expr> {
        child::<TemplateDirective>(&self.0)?.expr()
    }

    pub fn then_body(&self) -> Option<TemplateBody> {
        children::<TemplateBody>(&self.0).next()
    }

    pub fn else_body(&self) -> Option<TemplateBody> {
        children::<TemplateBody>(&self.0).nth(1)
    }
}

impl TemplateFor {
    /// `(key variable, value variable)`.
    pub fn variables(&self) -> (Option<SyntaxToken>, Option<SyntaxToken>) {
        let Some(directive) = child::<TemplateDirective>(&self.0) else {
            return (None, None);
        };
        let names: Vec<_> = tokens(&directive.0, IDENT).collect();
        match names.as_slice() {
            [value] => (None, Some(value.clone())),
            [key, value, ..] => (Some(key.clone()), Some(value.clone())),
            [] => (None, None),
        }
    }

    pub fn collection(&self) -> Option<Expr> {
        child::<TemplateDirective>(&self.0)?.expr()
    }

    pub fn body(&self) -> Option<TemplateBody> {
        child(&self.0)
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
                        "Invalid escape sequence: a backslash cannot end the line".into(),
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
                                    format!("Invalid escape sequence: U+{hex} is not a valid Unicode character"),
                                ))
                            }
                            None => {
                                return Err((
                                    i,
                                    i + 2,
                                    format!("Invalid escape sequence: `\\{c}` must be followed by exactly {digits} hexadecimal digits"),
                                ))
                            }
                        }
                    }
                    other => {
                        return Err((
                            i,
                            i + 1 + other.len_utf8(),
                            format!("Invalid escape sequence `\\{other}`: valid escapes are \\n, \\r, \\t, \\\", \\\\, \\uXXXX and \\UXXXXXXXX"),
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
                let c = text[i..].chars().next().unwrap_or('\u{fffd}');
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    Ok(out)
}
