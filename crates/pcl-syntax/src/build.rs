//! Replays parser events into a rowan green tree, putting trivia back between tokens.

use pcl_parser::{Lexed, Output, Step, SyntaxKind};
use rowan::{GreenNode, GreenNodeBuilder, Language};

use crate::PclLanguage;

/// Builds the green tree. Trivia before a node goes in front of it (in the parent), so that nodes
/// start with a real token; tokens the parser did not consume (none, if the grammar is right) are
/// kept in a trailing ERROR node, so the tree is lossless whatever happens.
pub(crate) fn build_tree(lexed: &Lexed<'_>, output: &Output) -> GreenNode {
    let mut builder = GreenNodeBuilder::new();
    let mut next = 0usize; // next raw token to emit
    let mut depth = 0usize;
    let emit = |builder: &mut GreenNodeBuilder<'_>, i: usize, kind: SyntaxKind| {
        builder.token(PclLanguage::kind_to_raw(kind), lexed.text(i));
    };
    let flush_trivia = |builder: &mut GreenNodeBuilder<'_>, next: &mut usize| {
        while *next < lexed.len() && lexed.kind(*next).is_trivia() {
            emit(builder, *next, lexed.kind(*next));
            *next += 1;
        }
    };
    output.replay(|step| match step {
        Step::Enter(kind) => {
            if depth > 0 {
                flush_trivia(&mut builder, &mut next);
            }
            builder.start_node(PclLanguage::kind_to_raw(kind));
            depth += 1;
        }
        Step::Token(kind) => {
            flush_trivia(&mut builder, &mut next);
            if next < lexed.len() {
                emit(&mut builder, next, kind);
                next += 1;
            }
        }
        Step::Exit => {
            if depth == 1 {
                flush_trivia(&mut builder, &mut next);
                if next < lexed.len() {
                    builder.start_node(PclLanguage::kind_to_raw(SyntaxKind::ERROR));
                    while next < lexed.len() {
                        emit(&mut builder, next, lexed.kind(next));
                        next += 1;
                    }
                    builder.finish_node();
                }
            }
            builder.finish_node();
            depth -= 1;
        }
    });
    builder.finish()
}
