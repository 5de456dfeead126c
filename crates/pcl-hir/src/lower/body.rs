//! Node bodies: attributes and nested blocks, with the scopes a body opens (`range` in a ranged
//! resource, read or component; `args` in a hook's `command`).

use pcl_syntax::ast;
use pcl_syntax::ast::AstNode;
use pcl_syntax::{TextRange, TreeNode, TreeToken};

use crate::body::*;
use crate::item::NodeKind;
use crate::name::Name;
use crate::options::ResourceOption;

use super::{range_of, Lowerer};

impl Lowerer<'_> {
    pub(super) fn lower_node_body<N: TreeNode>(&mut self, kind: NodeKind, body: &ast::Body<N>) {
        // `range` is in scope in the body of a ranged resource, read or component, and in a
        // component's options; not in a resource's options (as in the reference).
        let ranged = matches!(
            kind,
            NodeKind::Resource | NodeKind::Read | NodeKind::Component
        ) && body.blocks().any(|b| {
            b.type_name()
                .is_some_and(|t| ResourceOption::is_options_block(t.text()))
                && b.body().is_some_and(|o| {
                    o.attributes()
                        .filter_map(|a| a.name())
                        .any(|n| ResourceOption::sets_range(n.text()))
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

    fn lower_attr<N: TreeNode>(
        &mut self,
        attr: &ast::Attribute<N>,
        name: &N::Token,
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

    fn lower_nested_block<N: TreeNode>(&mut self, block: &ast::Block<N>, parent: Option<BlockId>) {
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
}
