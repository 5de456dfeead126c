//! Semantic tokens: what each name is (a resource, a config, a builtin, a property), on top
//! of the lexical classes an editor's grammar already knows.

use std::path::Path;

use pcl_db::RootDatabase;
use pcl_diagnostics::{TextRange, TextSize};
use pcl_hir::{file_nodes, Expr, NodeKind, Resolution};
use pcl_syntax::SyntaxKind;
use rustc_hash::FxHashMap;

use crate::semantics;

/// The class of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HighlightKind {
    Keyword,
    Variable,
    Property,
    Function,
    Type,
    String,
    Number,
    Comment,
    Operator,
    Parameter,
    EnumMember,
    Namespace,
}

impl HighlightKind {
    pub const ALL: &'static [HighlightKind] = &[
        HighlightKind::Keyword,
        HighlightKind::Variable,
        HighlightKind::Property,
        HighlightKind::Function,
        HighlightKind::Type,
        HighlightKind::String,
        HighlightKind::Number,
        HighlightKind::Comment,
        HighlightKind::Operator,
        HighlightKind::Parameter,
        HighlightKind::EnumMember,
        HighlightKind::Namespace,
    ];

    /// The LSP name of the class.
    pub fn name(self) -> &'static str {
        match self {
            HighlightKind::Keyword => "keyword",
            HighlightKind::Variable => "variable",
            HighlightKind::Property => "property",
            HighlightKind::Function => "function",
            HighlightKind::Type => "type",
            HighlightKind::String => "string",
            HighlightKind::Number => "number",
            HighlightKind::Comment => "comment",
            HighlightKind::Operator => "operator",
            HighlightKind::Parameter => "parameter",
            HighlightKind::EnumMember => "enumMember",
            HighlightKind::Namespace => "namespace",
        }
    }
}

/// Modifiers of a token, as bits of [`SemanticToken::modifiers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HighlightModifier {
    /// Where a name is declared.
    Declaration = 1,
    /// A config (set by the stack, never reassigned) or a resource.
    Readonly = 2,
    /// A builtin function.
    DefaultLibrary = 4,
}

impl HighlightModifier {
    pub const ALL: &'static [HighlightModifier] = &[
        HighlightModifier::Declaration,
        HighlightModifier::Readonly,
        HighlightModifier::DefaultLibrary,
    ];

    pub fn name(self) -> &'static str {
        match self {
            HighlightModifier::Declaration => "declaration",
            HighlightModifier::Readonly => "readonly",
            HighlightModifier::DefaultLibrary => "defaultLibrary",
        }
    }
}

/// One classified token. Tokens are in order and do not overlap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub range: TextRange,
    pub kind: HighlightKind,
    pub modifiers: u32,
}

pub(crate) fn semantic_tokens(db: &RootDatabase, path: &Path) -> Vec<SemanticToken> {
    let Some(source) = db.files().get(path) else {
        return Vec::new();
    };
    // What each variable names, by the start of its range.
    let mut variables: FxHashMap<TextSize, (HighlightKind, u32)> = FxHashMap::default();
    if let Some(file) = semantics::program_file(db, path) {
        for &node in file_nodes(db, file) {
            let body = node.body(db);
            let node_map = node.source_map(db);
            let map = node_map.body();
            for (id, expr) in body.exprs() {
                let Expr::Variable { name, resolution } = expr else {
                    continue;
                };
                let class = match resolution {
                    Resolution::Local(_) => (HighlightKind::Parameter, 0),
                    Resolution::Root => {
                        match pcl_sema::lookup_node(db, file.program(db), file.file(db), name)
                            .map(|n| n.kind(db))
                        {
                            Some(NodeKind::Config) => {
                                (HighlightKind::Parameter, HighlightModifier::Readonly as u32)
                            }
                            Some(NodeKind::Resource | NodeKind::Read | NodeKind::Component) => {
                                (HighlightKind::Variable, HighlightModifier::Readonly as u32)
                            }
                            _ => (HighlightKind::Variable, 0),
                        }
                    }
                };
                variables.insert(map.expr(id).start(), class);
            }
        }
    }
    let parse = pcl_db::parse(db, source);
    let mut out = Vec::new();
    for token in parse
        .syntax()
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        let range = token.text_range();
        let parent = token.parent().map(|p| p.kind());
        let (kind, modifiers) = match token.kind() {
            SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT => (HighlightKind::Comment, 0),
            SyntaxKind::NUMBER => (HighlightKind::Number, 0),
            SyntaxKind::OQUOTE
            | SyntaxKind::CQUOTE
            | SyntaxKind::TEMPLATE_LITERAL
            | SyntaxKind::HEREDOC_START
            | SyntaxKind::HEREDOC_END => label_class(&token).unwrap_or((HighlightKind::String, 0)),
            SyntaxKind::TRUE_KW
            | SyntaxKind::FALSE_KW
            | SyntaxKind::NULL_KW
            | SyntaxKind::FOR_KW
            | SyntaxKind::IN_KW
            | SyntaxKind::IF_KW
            | SyntaxKind::ELSE_KW
            | SyntaxKind::ENDIF_KW
            | SyntaxKind::ENDFOR_KW => (HighlightKind::Keyword, 0),
            SyntaxKind::IDENT => match parent {
                Some(SyntaxKind::BLOCK) => (HighlightKind::Keyword, 0),
                Some(SyntaxKind::BLOCK_LABEL) => {
                    label_class(&token).unwrap_or((HighlightKind::Variable, 0))
                }
                Some(SyntaxKind::ATTRIBUTE) => {
                    let top_level = token
                        .parent()
                        .and_then(|a| a.parent())
                        .and_then(|b| b.parent())
                        .is_some_and(|f| f.kind() == SyntaxKind::SOURCE_FILE);
                    if top_level {
                        (
                            HighlightKind::Variable,
                            HighlightModifier::Declaration as u32,
                        )
                    } else {
                        (HighlightKind::Property, 0)
                    }
                }
                Some(SyntaxKind::FUNCTION_CALL) => {
                    let builtin = pcl_sema::Builtin::from_name(token.text()).is_some();
                    (
                        HighlightKind::Function,
                        if builtin {
                            HighlightModifier::DefaultLibrary as u32
                        } else {
                            0
                        },
                    )
                }
                Some(SyntaxKind::GET_ATTR_EXPR) | Some(SyntaxKind::OBJECT_KEY) => {
                    (HighlightKind::Property, 0)
                }
                Some(SyntaxKind::FOR_INTRO) => (
                    HighlightKind::Parameter,
                    HighlightModifier::Declaration as u32,
                ),
                Some(SyntaxKind::VARIABLE_EXPR) => match variables.get(&range.start()) {
                    Some(&(kind, modifiers)) => (kind, modifiers),
                    // A bare object key (`{ name = "x" }`) is a property's name, not a
                    // variable (a key in parentheses is an expression, resolved above).
                    None if token
                        .parent()
                        .and_then(|v| v.parent())
                        .is_some_and(|k| k.kind() == SyntaxKind::OBJECT_KEY) =>
                    {
                        (HighlightKind::Property, 0)
                    }
                    None => (HighlightKind::Variable, 0),
                },
                _ => continue,
            },
            _ => continue,
        };
        out.push(SemanticToken {
            range,
            kind,
            modifiers,
        });
    }
    out
}

/// The class of a block label's token: the name a block declares, a resource's type token
/// or a config's type, a component's source, a hook's kind.
fn label_class(token: &pcl_syntax::SyntaxToken) -> Option<(HighlightKind, u32)> {
    let label = token
        .parent_ancestors()
        .take(3)
        .find(|n| n.kind() == SyntaxKind::BLOCK_LABEL)?;
    let block = label.parent()?;
    let keyword = block
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == SyntaxKind::IDENT)
        .map(|t| t.text().to_string())?;
    let index = label
        .siblings(rowan::Direction::Prev)
        .filter(|s| s.kind() == SyntaxKind::BLOCK_LABEL)
        .count()
        - 1;
    // A declaration has the class its uses have (above), so that a theme colours both alike.
    let declared = HighlightModifier::Declaration as u32;
    let readonly = HighlightModifier::Readonly as u32;
    Some(match (keyword.as_str(), index) {
        ("hook", 0) => (HighlightKind::Keyword, 0),
        ("config", 0) => (HighlightKind::Parameter, declared | readonly),
        ("resource" | "read" | "component", 0) => (HighlightKind::Variable, declared | readonly),
        ("hook", 1) | (_, 0) => (HighlightKind::Variable, declared),
        ("resource" | "read", 1) => (HighlightKind::Type, 0),
        ("config" | "output", 1) => (HighlightKind::Type, 0),
        _ => (HighlightKind::String, 0),
    })
}
