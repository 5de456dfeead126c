//! What the typed AST ([`crate::ast`]) reads of a syntax tree, as two traits, so that its
//! accessors (the one home of which child plays which part) serve two trees: rowan's lossless
//! tree (the editor's, and every query that needs one) and the flat tree that batch lowering
//! builds and drops per file ([`crate::flat`]).

use rowan::NodeOrToken;

use crate::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange};

/// A node of a syntax tree: its kind, its range, and its children in order. The iterators own
/// what they need (they borrow neither the node nor the tree's owner beyond the node's own
/// lifetime), as rowan's do.
pub trait TreeNode: Clone + Eq + std::hash::Hash + std::fmt::Debug {
    type Token: TreeToken;
    type Children: Iterator<Item = Self>;
    type Elements: Iterator<Item = NodeOrToken<Self, Self::Token>>;

    fn kind(&self) -> SyntaxKind;
    fn text_range(&self) -> TextRange;
    /// The child nodes, in order.
    fn children(&self) -> Self::Children;
    /// The child nodes and tokens, in order.
    fn children_with_tokens(&self) -> Self::Elements;
    /// The first token of the first child, descending through first children (`None` when a
    /// first child on the way is an empty node): rowan's rule.
    fn first_token(&self) -> Option<Self::Token>;
}

/// A token of a syntax tree.
pub trait TreeToken: Clone + Eq + std::hash::Hash + std::fmt::Debug {
    fn kind(&self) -> SyntaxKind;
    fn text(&self) -> &str;
    fn text_range(&self) -> TextRange;
}

impl TreeNode for SyntaxNode {
    type Token = SyntaxToken;
    type Children = rowan::SyntaxNodeChildren<crate::PclLanguage>;
    type Elements = rowan::SyntaxElementChildren<crate::PclLanguage>;

    fn kind(&self) -> SyntaxKind {
        SyntaxNode::kind(self)
    }

    fn text_range(&self) -> TextRange {
        SyntaxNode::text_range(self)
    }

    fn children(&self) -> Self::Children {
        SyntaxNode::children(self)
    }

    fn children_with_tokens(&self) -> Self::Elements {
        SyntaxNode::children_with_tokens(self)
    }

    fn first_token(&self) -> Option<SyntaxToken> {
        SyntaxNode::first_token(self)
    }
}

impl TreeToken for SyntaxToken {
    fn kind(&self) -> SyntaxKind {
        SyntaxToken::kind(self)
    }

    fn text(&self) -> &str {
        SyntaxToken::text(self)
    }

    fn text_range(&self) -> TextRange {
        SyntaxToken::text_range(self)
    }
}
