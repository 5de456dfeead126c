//! The syntax layer's promises: the tokens tile the input, the tree's text is the input, and
//! every error lies inside it.

use pcl_parser::Lexed;

use crate::assert_range_inside;

/// Lexes and parses `text` and checks the promises of the syntax layer.
pub fn check_syntax(text: &str) -> pcl_syntax::Parse {
    let lexed = Lexed::new(text);
    let mut at = 0;
    for i in 0..lexed.len() {
        let (start, end) = lexed.range(i);
        assert_eq!(
            start,
            at,
            "token {i} does not start where token {} ends",
            i.wrapping_sub(1)
        );
        assert!(start < end || i + 1 == lexed.len(), "token {i} is empty");
        assert!(
            text.is_char_boundary(start as usize),
            "token {i} starts inside a character"
        );
        at = end;
    }
    assert_eq!(at as usize, text.len(), "the tokens do not cover the input");
    for error in lexed.errors() {
        assert!(
            error.start <= error.end && error.end as usize <= text.len(),
            "lexer error outside the input: {error:?}"
        );
        assert!(!error.message.is_empty(), "lexer error without a message");
    }

    let parse = pcl_syntax::parse(text);
    let tree = parse.syntax();
    assert_eq!(
        usize::from(tree.text_range().end()),
        text.len(),
        "the tree is not as long as the input"
    );
    assert!(tree.text() == text, "the tree's text is not the input");
    for error in parse.errors() {
        assert_range_inside(
            text,
            error.range,
            &format!("syntax error {:?}", error.message),
        );
    }
    for diagnostic in parse.diagnostics() {
        crate::assert_diagnostic_inside(text, &diagnostic, &|_| None);
    }
    // The dumps walk every node and token of a recovered tree.
    let _ = pcl_syntax::debug_tree(&tree, parse.errors());
    let _ = pcl_syntax::json_tree(&tree);
    check_reparse(text, &parse);
    assert_eq!(
        pcl_syntax::syntax_errors(text),
        parse.errors(),
        "the errors without a tree are not the parse's errors"
    );
    if let Some(difference) = pcl_syntax::flat_tree_difference(text) {
        panic!("the flat tree is not rowan's tree: {difference}");
    }
    if let Some(difference) = pcl_hir::flat_lowering_difference(text) {
        panic!("lowering from the flat tree differs: {difference}");
    }
    parse
}

/// Reparsing after an edit gives what a whole parse gives: for edits of `text` derived from
/// it (the input split in three; each third deleted, doubled, and its first character typed again),
/// `pcl_syntax::reparse` either declines or returns exactly `pcl_syntax::parse` of the result.
pub fn check_reparse(text: &str, parse: &pcl_syntax::Parse) {
    // Hostile inputs of megabytes are for the whole parse; eighteen more of them add nothing.
    if text.len() > 256 << 10 {
        return;
    }
    let floor = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (a, b) = (floor(text.len() / 3), floor(2 * text.len() / 3));
    let mut edited = Vec::new();
    for (from, to) in [(0, a), (a, b), (b, text.len())] {
        edited.push(format!("{}{}", &text[..from], &text[to..]));
        edited.push(format!("{}{}", &text[..to], &text[from..]));
        let one = floor((from + 1).min(to).max(from));
        let one = if one == from {
            floor((from + 4).min(to))
        } else {
            one
        };
        edited.push(format!(
            "{}{}{}",
            &text[..to],
            &text[from..one],
            &text[to..]
        ));
    }
    for new in &edited {
        if let Some(incremental) = pcl_syntax::reparse(parse, text, new) {
            let fresh = pcl_syntax::parse(new);
            assert!(
                incremental == fresh,
                "reparse differs from a fresh parse of the edited text:\n{new:?}\nreparse:\n{}\nfresh:\n{}",
                pcl_syntax::debug_tree(&incremental.syntax(), incremental.errors()),
                pcl_syntax::debug_tree(&fresh.syntax(), fresh.errors())
            );
        }
    }
}
