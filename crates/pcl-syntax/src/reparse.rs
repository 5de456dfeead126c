//! Reparsing after an edit: only the top-level lines the edit touches are parsed again, and
//! every other top-level item keeps its green node (shared, not copied), so a keystroke in a
//! large file costs in proportion to the item it is in, and freeing the old tree frees only
//! that item.
//!
//! Top-level items are independent: at the start of a line of the file's body the parser
//! expects a new item, whatever came before, and the lexer is in its normal mode unless a
//! `${` or `%{` of a string or heredoc is still open there (never in a file without errors).
//! So the lines around the edit, from just after a body-level newline to just after one (or
//! the file's start or end), parse alone to exactly what a parse of the whole new text gives
//! there, *provided* they parse without any error: an error's recovery could reach past them
//! in the whole text (an unclosed `{` swallows everything after it). Anything unusual falls
//! back to a full parse (`None`), which is always right. Facts that span items must not
//! change: whether each `{` is closed anywhere later in the file (an unclosed block recovers
//! by indentation), so the old and the new lines must each pair their braces among
//! themselves, and in a file with a `}` that closes nothing, which `}` is the extra one (the
//! parser decides over the whole file), so such a file parses again whole; where an item whose recovery ran to the end of the file ends, so lines after
//! the last item of a broken file parse again whole, and where an item with an error just
//! above the lines ends (its recovery may have stopped at their first token: an unclosed `[`
//! skips to the first closing bracket), so lines right after one parse again whole; whether
//! a `/*` above is closed (the
//! lexer looks ahead for its `*/`), so new lines with a `*/` in a file with an error above
//! them parse again whole; and the lexer's mode at the lines' start and at the old lines'
//! end, which must be its normal one: a `${` or `%{` whose item the parser's recovery ended at
//! a line's end (an invalid directive, a missing `}`) still holds the lexer in its expression,
//! across lines, until a `}`, so lines after it lex otherwise than alone, and old lines that
//! left one open lexed the text after them otherwise than the new lines do. In a file with
//! errors the lexer's modes are replayed over the old tokens to tell. Whether a heredoc whose
//! marker is misspelt ends at the line that looks like it, and whether `<< EOT` (a space
//! before the marker) is a heredoc, depend on whether a line further on holds the marker, so
//! a file with either error parses again whole, and so does a file with a block header whose
//! `{` is missing (decided by a `}` further on that closes nothing). Two are redone:
//! duplicate attribute names of the top-level body (E0025, with its note), and errors
//! elsewhere only move.
//!
//! `crates/pcl-syntax/tests/reparse.rs` checks the result against a fresh parse, tree and
//! errors, on every kind of edit of real files.

use pcl_parser::SyntaxKind::{self, *};
use rowan::{GreenNode, Language, NodeOrToken, TextRange};
use rustc_hash::FxHashMap;

use crate::validate::Validator;
use crate::{Parse, PclLanguage, SyntaxError};

type Element = NodeOrToken<GreenNode, rowan::GreenToken>;

fn kind_of(element: &Element) -> SyntaxKind {
    PclLanguage::kind_from_raw(match element {
        NodeOrToken::Node(n) => n.kind(),
        NodeOrToken::Token(t) => t.kind(),
    })
}

fn len_of(element: &Element) -> u32 {
    u32::from(match element {
        NodeOrToken::Node(n) => n.text_len(),
        NodeOrToken::Token(t) => t.text_len(),
    })
}

/// The tree of `new_text`, from `old`, the tree of `old_text`: the same [`Parse`] as
/// [`crate::parse`]`(new_text)`, or `None` when the edit is not one this shortcut handles.
pub fn reparse(old: &Parse, old_text: &str, new_text: &str) -> Option<Parse> {
    if u32::try_from(new_text.len()).is_err() || u32::from(old.green.text_len()) != len(old_text) {
        return None;
    }
    // The edit: old[start..old_end] became new[start..new_end].
    let prefix = common_prefix(old_text.as_bytes(), new_text.as_bytes());
    let max_suffix = old_text.len().min(new_text.len()) - prefix;
    let suffix = common_suffix(old_text.as_bytes(), new_text.as_bytes()).min(max_suffix);
    if prefix == old_text.len() && prefix == new_text.len() {
        return Some(old.clone());
    }
    // A file with such errors parses again whole: how the parser recovers from a bracket left
    // open or closing nothing, or a `}` typed once too often, is decided over the whole file (the
    // brackets are matched by kind before parsing, and an unclosed block or object ends where
    // the indentation of the lines after it says), and the lexer's modes after a broken
    // template can reach across items. The old lines and the new ones pair their brackets
    // among themselves (below), so a file without them stays one after a reparse.
    let decided_over_the_file = old.errors.iter().any(|e| {
        use pcl_parser::SyntaxErrorKind::*;
        match e.kind {
            UnexpectedToken => matches!(
                old_text.get(usize::from(e.range.start())..usize::from(e.range.end())),
                Some("}" | "]" | ")")
            ),
            UnclosedBracket | UnclosedBlock | InvalidDirective | UnexpectedDirective
            | UnclosedDirective => true,
            // Whether a heredoc with a misspelt marker (its error has a note at the line
            // taken as its end) ends at that line, where a heredoc that no line closes is cut,
            // and whether `<< EOT` (its error is at the space) is a heredoc, depends on whether
            // a line further on holds the marker.
            UnterminatedHeredoc => true,
            // A block header whose `{` is missing (its error has a note at the `}` that ends
            // the body) is decided by a `}` lines further on that closes nothing.
            InvalidBlock => !e.related.is_empty(),
            InvalidHeredoc => old_text
                .get(usize::from(e.range.start())..usize::from(e.range.end()))
                .is_some_and(|gap| gap.trim().is_empty()),
            _ => false,
        }
    });
    // The same when a bracket went unpaired without an error saying so (a `{` in input that
    // an error's recovery skipped): the pairing of the rest, and so how blocks recover, is the
    // whole file's (found by the syntax fuzz target: a block's `}` given to the indentation
    // rule in a whole parse, not in a reparse).
    if decided_over_the_file || !old.brackets_paired {
        return None;
    }
    let edit_start = prefix as u32;
    let old_edit_end = (old_text.len() - suffix) as u32;
    let delta = new_text.len() as i64 - old_text.len() as i64;

    // The old tree: SOURCE_FILE(trivia..., BODY(children...), trailing...).
    let root: Vec<Element> = old.green.children().map(|c| c.to_owned()).collect();
    let body_index = root.iter().position(
        |c| matches!(c, NodeOrToken::Node(n) if n.kind() == PclLanguage::kind_to_raw(BODY)),
    )?;
    if root.iter().filter(|c| kind_of(c) == BODY).count() != 1
        || root[..body_index].iter().any(|c| !kind_of(c).is_trivia())
    {
        return None;
    }
    let NodeOrToken::Node(body) = &root[body_index] else {
        return None;
    };
    let body_start: u32 = root[..body_index].iter().map(len_of).sum();
    let children: Vec<Element> = body.children().map(|c| c.to_owned()).collect();
    if children.is_empty() {
        return None;
    }
    let mut starts = Vec::with_capacity(children.len() + 1);
    let mut at = body_start;
    for child in &children {
        starts.push(at);
        at += len_of(child);
    }
    let body_end = at;

    // The first child: the one holding the character before the edit (an edit at an item's
    // end can extend it), moved back to the start of its line.
    let before = edit_start.saturating_sub(1);
    let mut first = child_at(&starts, before.max(body_start));
    while first > 0 && kind_of(&children[first - 1]) != NEWLINE {
        first -= 1;
    }
    if edit_start < body_start {
        first = 0;
    }
    // The last child: the one holding the first character after the edit, moved forward to
    // the end of its line.
    let mut last = if old_edit_end >= body_end {
        children.len() - 1
    } else {
        child_at(&starts, old_edit_end.max(body_start))
    };
    while last + 1 < children.len() && kind_of(&children[last]) != NEWLINE {
        last += 1;
    }
    // An item whose recovery ran to the end of the file (an unclosed `[` or `(`, a heredoc
    // without its end) ends before the trailing newlines, and text typed after it belongs to
    // it in a whole parse: lines after the last item parse again whole when that item has
    // an error, in it or after it (an item without one ended where its syntax says).
    let blank = |c: &Element| kind_of(c) == NEWLINE || kind_of(c).is_trivia();
    if let Some(item) = children[..first].iter().rposition(|c| !blank(c)) {
        let start = starts[item];
        if children[first..].iter().all(blank)
            && old.errors.iter().any(|e| u32::from(e.range.end()) >= start)
        {
            return None;
        }
        // Likewise an item just before the lines whose recovery stopped at their first
        // token (an unclosed `[` skips to the first closing bracket): a whole parse takes in
        // more of the file once the edit removes that token, so lines right after an item
        // with an error parse again whole (found by the semantic differential test, a `)`
        // deleted on the line after an unclosed `[for`).
        let end = start + len_of(&children[item]);
        if old
            .errors
            .iter()
            .any(|e| u32::from(e.range.end()) >= start && u32::from(e.range.start()) <= end)
        {
            return None;
        }
    }
    let at_file_start = first == 0;
    let at_file_end = last + 1 == children.len();
    // The segment in the old text, and in the new.
    let seg_start = if at_file_start { 0 } else { starts[first] };
    let old_seg_end = if at_file_end {
        len(old_text)
    } else {
        starts[last] + len_of(&children[last])
    };
    if old_seg_end < old_edit_end || seg_start > edit_start {
        return None;
    }
    let new_seg_end = u32::try_from(old_seg_end as i64 + delta).ok()?;
    let segment = new_text.get(seg_start as usize..new_seg_end as usize)?;

    // A byte order mark is whitespace at the start of a file only.
    if !at_file_start && segment.starts_with('\u{feff}') {
        return None;
    }
    // A `/*` is a comment only if a `*/` follows, anywhere: an unclosed one above the segment
    // (the file has an error before it) lexes otherwise once the segment closes it.
    if segment.contains("*/")
        && old
            .errors
            .iter()
            .any(|e| u32::from(e.range.start()) < seg_start)
    {
        return None;
    }
    let part = crate::parse(segment);
    if part.has_errors() {
        return None;
    }
    let part_root: Vec<Element> = part.green.children().map(|c| c.to_owned()).collect();
    let part_body_index = part_root.iter().position(|c| kind_of(c) == BODY)?;
    if part_root.iter().filter(|c| kind_of(c) == BODY).count() != 1
        || part_root.iter().any(|c| kind_of(c) == ERROR)
    {
        return None;
    }
    let NodeOrToken::Node(part_body) = &part_root[part_body_index] else {
        return None;
    };
    // A segment of trivia only, in the middle of the file: a whole parse puts trivia at the
    // file's end after the body, before it elsewhere; not worth telling apart.
    if part_body.children().len() == 0 && !at_file_start {
        return None;
    }
    // Whether a `{` is closed anywhere later in the file decides how its block recovers (an
    // unclosed block ends where the indentation says), and a closer that closes nothing is
    // skipped where it is, so the segment must leave every bracket outside it matched as
    // before: the old segment balanced, as the new one (which parsed without errors) is. An
    // old segment with a `{` of its own left open took a later `}` that the new one leaves to
    // an unclosed block above it.
    if !braces_balanced(&children[first..=last]) || !braces_balanced(&part_root) {
        return None;
    }
    // The lexer's modes do not follow the parser's items: a `${` or `%{` in a string or
    // heredoc holds the lexer in expression mode, across lines, until its `}`, even where the
    // parser's recovery (an invalid directive, a missing `}`) has ended the item at a line's
    // end. A body-level line start can then be inside one, and the lines after it lex as its
    // expression: a `"` there closes the string (or not, once a `#` typed before it hides it)
    // and a `}` the sequence. So the lines must start in the lexer's normal mode (the text
    // before them is unchanged), and the old lines must end in it, as the new ones do (they
    // parsed alone without errors), or the text after them lexes otherwise. A file without
    // errors is in normal mode at every body-level line start (each item closes its strings,
    // heredocs and sequences); in one with errors the modes are replayed over the old tokens.
    if !old.errors.is_empty()
        && !lexer_normal_at(
            &root,
            (!at_file_start).then_some(seg_start),
            (!at_file_end).then_some(old_seg_end),
        )
    {
        return None;
    }
    let part_pre = &part_root[..part_body_index];
    let part_post = &part_root[part_body_index + 1..];
    if !at_file_end {
        // Lines in the middle of the file end with their newline, and leave nothing after the body.
        let ends_in_newline = part_body
            .children()
            .last()
            .is_some_and(|c| PclLanguage::kind_from_raw(c.kind()) == NEWLINE);
        if !part_post.is_empty() || !ends_in_newline {
            return None;
        }
    }

    // The new body: untouched children before, the segment's (its leading trivia included,
    // which a whole parse puts in the body, since the body has started), untouched after.
    let mut new_children: Vec<Element> = Vec::with_capacity(children.len() + 8);
    new_children.extend(children[..first].iter().cloned());
    if !at_file_start {
        new_children.extend(part_pre.iter().cloned());
    }
    new_children.extend(part_body.children().map(|c| c.to_owned()));
    if !at_file_end {
        new_children.extend(children[last + 1..].iter().cloned());
    }
    let new_body = GreenNode::new(PclLanguage::kind_to_raw(BODY), new_children);
    let mut new_root: Vec<Element> = Vec::with_capacity(root.len());
    if at_file_start {
        new_root.extend(part_pre.iter().cloned());
    } else {
        new_root.extend(root[..body_index].iter().cloned());
    }
    new_root.push(NodeOrToken::Node(new_body.clone()));
    if at_file_end {
        new_root.extend(part_post.iter().cloned());
    } else {
        new_root.extend(root[body_index + 1..].iter().cloned());
    }
    let green = GreenNode::new(PclLanguage::kind_to_raw(SOURCE_FILE), new_root);
    if u32::from(green.text_len()) != len(new_text) {
        return None;
    }

    // Errors: the old ones outside the segment, moved; the top-level duplicates, redone over
    // the whole body, unless neither the old lines nor the new ones hold a top-level
    // attribute: then the names and their order are as they were, and so are their
    // duplicates, which are moved as the other errors are (walking the body's names twice
    // was a fifth of a keystroke's reparse in a file of 700 items).
    let attribute = |kind: rowan::SyntaxKind| PclLanguage::kind_from_raw(kind) == ATTRIBUTE;
    let redo_duplicates = children[first..=last].iter().any(|c| attribute(c.kind()))
        || part_body.children().any(|c| attribute(c.kind()));
    let old_dups: std::collections::HashSet<u32> = if redo_duplicates {
        top_level_names(body, body_start)
            .iter()
            .map(|&(_, s)| s)
            .collect()
    } else {
        Default::default()
    };
    let mut errors: Vec<SyntaxError> = Vec::with_capacity(old.errors.len());
    // Where a range of the old text is: before the segment, after it (moved), inside it (an
    // error the old segment made), or across a boundary (or empty at one: whose is it?).
    enum Place {
        Before,
        After(TextRange),
        Inside,
        Across,
    }
    let place = |range: TextRange| -> Place {
        let (s, e) = (u32::from(range.start()), u32::from(range.end()));
        if e < seg_start || (e == seg_start && s < e) {
            Place::Before
        } else if s > old_seg_end || (s == old_seg_end && e > s) {
            match (
                u32::try_from(s as i64 + delta),
                u32::try_from(e as i64 + delta),
            ) {
                (Ok(s), Ok(e)) => Place::After(TextRange::new(s.into(), e.into())),
                _ => Place::Across,
            }
        } else if s >= seg_start
            && e <= old_seg_end
            && !(s == e && (s == seg_start || s == old_seg_end))
        {
            Place::Inside
        } else {
            Place::Across
        }
    };
    for error in old.errors.iter() {
        if redo_duplicates
            && error.kind == pcl_parser::SyntaxErrorKind::DuplicateAttribute
            && old_dups.contains(&u32::from(error.range.start()))
        {
            continue;
        }
        let mut moved = error.clone();
        match place(error.range) {
            Place::Before => {}
            Place::After(range) => moved.range = range,
            // Made by the old segment, which the new one replaces without errors.
            Place::Inside => {
                if error
                    .related
                    .iter()
                    .all(|(r, _)| matches!(place(*r), Place::Inside))
                {
                    continue;
                }
                return None;
            }
            Place::Across => return None,
        }
        for (range, _) in &mut moved.related {
            match place(*range) {
                Place::Before => {}
                Place::After(moved) => *range = moved,
                Place::Inside | Place::Across => return None,
            }
        }
        errors.push(moved);
    }
    let new_names = if redo_duplicates {
        top_level_names(
            &new_body,
            if at_file_start {
                part_pre.iter().map(len_of).sum()
            } else {
                body_start
            },
        )
    } else {
        Vec::new()
    };
    let mut first_seen: FxHashMap<&str, u32> = FxHashMap::default();
    {
        let mut validator = Validator {
            errors: &mut errors,
        };
        for (name, start) in &new_names {
            match first_seen.entry(name.as_str()) {
                std::collections::hash_map::Entry::Occupied(first) => {
                    validator.attribute_redefined(name, *start, *first.get());
                }
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(*start);
                }
            }
        }
    }
    errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    // A whole parse orders errors at the same range by the stage that found them; rather than
    // guess that order, such rare cases parse again.
    if errors
        .windows(2)
        .any(|w| (w[0].range.start(), w[0].range.end()) == (w[1].range.start(), w[1].range.end()))
    {
        return None;
    }
    // The old file's brackets paired, and the new segment's do among themselves as the old
    // one's did (checked above): so do the new file's.
    Some(Parse {
        green,
        errors: errors.into(),
        brackets_paired: true,
    })
}

/// Whether the brackets (`{}`, `[]`, `()`) of `elements` pair up among themselves, each closer
/// with an opener of its kind: the parser matches them over the whole file first, so a segment
/// that leaves one open (or closes one of its neighbours') changes how other items recover.
fn braces_balanced(elements: &[Element]) -> bool {
    fn walk(element: &Element, open: &mut Vec<SyntaxKind>) -> bool {
        match element {
            NodeOrToken::Token(token) => match PclLanguage::kind_from_raw(token.kind()) {
                kind @ (L_BRACE | L_BRACK | L_PAREN) => {
                    open.push(kind);
                    true
                }
                R_BRACE => open.pop() == Some(L_BRACE),
                R_BRACK => open.pop() == Some(L_BRACK),
                R_PAREN => open.pop() == Some(L_PAREN),
                _ => true,
            },
            NodeOrToken::Node(node) => node.children().all(|child| walk(&child.to_owned(), open)),
        }
    }
    let mut open = Vec::new();
    elements.iter().all(|e| walk(e, &mut open)) && open.is_empty()
}

/// The lexer's mode stack (`pcl_parser`'s lexer), as its tokens show it.
#[derive(Clone, Copy)]
enum Mode {
    /// Inside `${ ... }` or `%{ ... }`, with the count of `{` open in it.
    Sequence(u32),
    Quoted,
    Heredoc,
}

/// Whether the lexer of the text of `root` (the children of a tree's root) is in its normal
/// mode, nothing open, at each of the given offsets (token boundaries, `a <= b`): its mode
/// stack replayed over the tokens before them. `false` as well for a token the lexer does not
/// make in the mode replayed so far, or an offset inside a token.
fn lexer_normal_at(root: &[Element], a: Option<u32>, b: Option<u32>) -> bool {
    struct Replay {
        modes: Vec<Mode>,
        at: u32,
        targets: [Option<u32>; 2],
        normal: bool,
    }
    impl Replay {
        /// Checks the targets at the current offset; false once all are checked.
        fn check(&mut self) -> bool {
            for target in &mut self.targets {
                if *target == Some(self.at) {
                    self.normal &= self.modes.is_empty();
                    *target = None;
                }
            }
            self.normal && self.targets.iter().any(Option::is_some)
        }

        /// Replays one token; false when the lexer cannot have made it here.
        fn token(&mut self, kind: SyntaxKind) -> bool {
            loop {
                match self.modes.last_mut() {
                    Some(Mode::Quoted) => match kind {
                        TEMPLATE_LITERAL => return true,
                        TEMPLATE_INTERP | TEMPLATE_CONTROL => {
                            self.modes.push(Mode::Sequence(0));
                            return true;
                        }
                        CQUOTE => {
                            self.modes.pop();
                            return true;
                        }
                        // A quoted string ends at the end of its line; the line break is lexed
                        // in the mode under it.
                        NEWLINE | ERROR_TOKEN => {
                            self.modes.pop();
                        }
                        _ => return false,
                    },
                    Some(Mode::Heredoc) => {
                        match kind {
                            TEMPLATE_LITERAL => {}
                            TEMPLATE_INTERP | TEMPLATE_CONTROL => {
                                self.modes.push(Mode::Sequence(0));
                            }
                            HEREDOC_END => {
                                self.modes.pop();
                            }
                            _ => return false,
                        }
                        return true;
                    }
                    top => {
                        match (kind, top) {
                            (OQUOTE, _) => self.modes.push(Mode::Quoted),
                            (HEREDOC_START, _) => self.modes.push(Mode::Heredoc),
                            (L_BRACE, Some(Mode::Sequence(depth))) => *depth += 1,
                            (R_BRACE, Some(Mode::Sequence(depth))) => {
                                if *depth == 0 {
                                    return false;
                                }
                                *depth -= 1;
                            }
                            (TEMPLATE_SEQ_END, Some(Mode::Sequence(0))) => {
                                self.modes.pop();
                            }
                            // A `"` that closes the string a `${` without its `}` is in.
                            (CQUOTE, Some(Mode::Sequence(0))) => {
                                let n = self.modes.len();
                                if n < 2 || !matches!(self.modes[n - 2], Mode::Quoted) {
                                    return false;
                                }
                                self.modes.truncate(n - 2);
                            }
                            (
                                CQUOTE | TEMPLATE_SEQ_END | TEMPLATE_LITERAL | TEMPLATE_INTERP
                                | TEMPLATE_CONTROL | HEREDOC_END,
                                _,
                            ) => return false,
                            _ => {}
                        }
                        return true;
                    }
                }
            }
        }

        /// Replays a token of `len` bytes; false once the answer is known.
        fn leaf(&mut self, kind: rowan::SyntaxKind, len: rowan::TextSize) -> bool {
            if !self.check() {
                return false;
            }
            if !self.token(PclLanguage::kind_from_raw(kind)) {
                self.normal = false;
                return false;
            }
            self.at += u32::from(len);
            true
        }

        /// Replays the tokens of `node`; false once the answer is known.
        fn node(&mut self, node: &rowan::GreenNodeData) -> bool {
            node.children().all(|child| match child {
                NodeOrToken::Node(node) => self.node(node),
                NodeOrToken::Token(token) => self.leaf(token.kind(), token.text_len()),
            })
        }
    }
    let mut replay = Replay {
        modes: Vec::new(),
        at: 0,
        targets: [a, b],
        normal: true,
    };
    if root.iter().all(|element| match element {
        NodeOrToken::Node(node) => replay.node(node),
        NodeOrToken::Token(token) => replay.leaf(token.kind(), token.text_len()),
    }) {
        // The end of the text.
        replay.check();
    }
    // An offset between no two tokens is not one this answers for.
    replay.normal && replay.targets.iter().all(Option::is_none)
}

fn len(text: &str) -> u32 {
    text.len() as u32
}

/// The index of the child whose range holds `offset` (the last child if none does).
fn child_at(starts: &[u32], offset: u32) -> usize {
    starts.partition_point(|&s| s <= offset).saturating_sub(1)
}

/// The name and its offset of every attribute directly in `body` (which starts at `start`),
/// as the validation pass sees them: the first identifier token of each attribute.
fn top_level_names(body: &GreenNode, start: u32) -> Vec<(String, u32)> {
    let mut names = Vec::new();
    let mut at = start;
    for child in body.children() {
        let child_len = u32::from(child.text_len());
        if let NodeOrToken::Node(node) = child {
            if PclLanguage::kind_from_raw(node.kind()) == ATTRIBUTE {
                let mut offset = at;
                for part in node.children() {
                    if let NodeOrToken::Token(token) = part {
                        if PclLanguage::kind_from_raw(token.kind()) == IDENT {
                            names.push((token.text().to_string(), offset));
                            break;
                        }
                    }
                    offset += u32::from(part.text_len());
                }
            }
        }
        at += child_len;
    }
    names
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    // Compare in large chunks, then smaller ones, then bytes: the equal runs of an edit are
    // most of a file, and one `memcmp` of 4 KiB costs about what one of 64 bytes does.
    let mut i = 0;
    for chunk in [4096, 64] {
        while i + chunk <= n && a[i..i + chunk] == b[i..i + chunk] {
            i += chunk;
        }
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    for chunk in [4096, 64] {
        while i + chunk <= n
            && a[a.len() - i - chunk..a.len() - i] == b[b.len() - i - chunk..b.len() - i]
        {
            i += chunk;
        }
    }
    while i < n && a[a.len() - 1 - i] == b[b.len() - 1 - i] {
        i += 1;
    }
    i
}
