//! The grammar: bodies, attributes and blocks. Expressions and templates live in submodules.
//!
//! Each function parses one construct and emits events through the [`Parser`]. Error recovery
//! follows hclsyntax where it helps (skip to the end of the line after a bad body item) and does
//! better where it does not: junk at body level costs one line, not the rest of the body.

mod expressions;
mod templates;

use crate::error::SyntaxErrorKind;
use crate::parser::{Marker, Parser, MAX_DEPTH};
use crate::syntax_kind::SyntaxKind::{self, *};

pub(crate) use expressions::expr;

pub(crate) fn source_file(p: &mut Parser<'_>) {
    let m = p.start();
    body(p, false, None, false);
    m.complete(p, SOURCE_FILE);
}

/// The error of a `}` typed once too often (see `Parser::at_stray_close`).
pub(crate) const STRAY_CLOSE: &str = "unexpected `}`: this `}` is probably one too many: the file has more `}` than `{`, and the lines after this one are still indented inside the block it would close";

/// A sequence of attributes and blocks, ending at EOF or (inside a block) at `}`.
///
/// `unclosed_indent` is set for the body of a block whose `{` no `}` closes: that body ends before
/// the first item indented no deeper than the block's own line, so a forgotten `}` does not pull
/// the rest of the file into the block.
///
/// `top_level` is set for the body of a block of the file's body: when its `{` is unclosed
/// and both its line and its first item are unindented (a file written without
/// indentation), the indentation tells nothing, and the body ends instead before the first
/// line that reads as the header of a top-level block (`resource b "t" {`), which cannot be
/// nested in a block. Returns whether it ended so.
fn body(p: &mut Parser<'_>, in_block: bool, unclosed_indent: Option<u32>, top_level: bool) -> bool {
    let m = p.start();
    // For an unclosed block: whether its body is written without indentation, decided at
    // its first item.
    let mut flat: Option<bool> = None;
    let mut ended_at_header = false;
    // Quoted argument names are reported once per block body: a body of `"key" = value` lines
    // is one mistake (an object written as a block, or keys pasted from JSON), not one per
    // line. At top level each is its own (and reparsing an edited top-level line must give
    // what parsing the whole file gives).
    let mut quoted_name_reported = false;
    loop {
        match p.current() {
            EOF => break,
            R_BRACE if in_block && !p.at_stray_close() => break,
            NEWLINE => p.bump(NEWLINE),
            IDENT
                if unclosed_indent.is_some_and(|limit| {
                    p.current_line_indent().is_some_and(|indent| {
                        let is_flat = *flat.get_or_insert(top_level && limit == 0 && indent == 0);
                        indent <= limit && (!is_flat || p.at_top_level_block_header())
                    })
                }) =>
            {
                ended_at_header = flat == Some(true);
                break;
            }
            IDENT => item(p, in_block),
            R_BRACE => {
                let e = p.start();
                let message = if p.at_stray_close() {
                    STRAY_CLOSE
                } else {
                    "unexpected `}`: there is no open block to close here"
                };
                p.error(SyntaxErrorKind::UnexpectedToken, message);
                p.bump(R_BRACE);
                e.complete(p, ERROR);
            }
            R_BRACK | R_PAREN if p.at_lone_closer() => {
                expressions::skip_stray_closer(p);
            }
            OQUOTE => {
                let e = p.start();
                let (start, _) = p.current_range();
                templates::template(p);
                let end = p.prev_end();
                if p.at(EQ) {
                    if !(in_block && quoted_name_reported) {
                        p.error_at(
                            SyntaxErrorKind::QuotedArgumentName,
                            start,
                            end,
                            "invalid argument name: argument names must not be quoted",
                        );
                        quoted_name_reported = true;
                    }
                    p.bump(EQ);
                    expr(p);
                } else {
                    p.error_at(SyntaxErrorKind::UnexpectedToken, start, end, "argument or block definition required: expected an argument name or a block type");
                }
                recover_body_item(p, in_block);
                e.complete(p, ERROR);
            }
            _ => {
                p.error(SyntaxErrorKind::UnexpectedToken, "argument or block definition required: expected an argument name or a block type");
                recover_body_item(p, in_block);
            }
        }
    }
    m.complete(p, BODY);
    ended_at_header
}

fn item(p: &mut Parser<'_>, in_block: bool) {
    let errors_before = p.error_count();
    let m = p.start();
    match p.nth(1) {
        EQ => {
            attribute(p, m);
            end_of_item(p, in_block, "argument", errors_before);
        }
        COLON => {
            // `name: value`, as YAML and JSON write it: the argument, with its `:` reported.
            let name = p.current_text();
            argument_with_bad_separator(
                p,
                m,
                in_block,
                errors_before,
                |name| format!("an argument is set with `=`, not `:` (`{name} = ...`)"),
                name,
            );
        }
        // `website` or `rule "a"` ending its line in a block, its body below and its `}` back
        // at its indentation: a nested block whose `{` is missing (see `block`).
        NEWLINE | OQUOTE | IDENT if p.has_stray_closers() && header_missing_open(p) => {
            block(p, m);
            end_of_item(p, in_block, "block definition", errors_before);
        }
        OQUOTE | NUMBER | IDENT if at_argument_missing_eq(p) => {
            let name = p.current_text();
            argument_with_bad_separator(
                p,
                m,
                in_block,
                errors_before,
                |name| {
                    format!("missing `=` between the argument `{name}` and its value (a block would need a `{{` on this line)")
                },
                name,
            );
        }
        OQUOTE | IDENT | L_BRACE => {
            block(p, m);
            end_of_item(p, in_block, "block definition", errors_before);
        }
        NEWLINE if p.nth(2) == L_BRACE => {
            // `block\n{`: hclsyntax requires the brace on the header line. Report that once and
            // parse the block anyway, so its body keeps its structure.
            p.bump(IDENT);
            p.error(SyntaxErrorKind::InvalidBlock, "invalid block definition: the opening brace must be on the same line as the block type");
            p.bump(NEWLINE);
            block_body(p);
            m.complete(p, BLOCK);
            end_of_item(p, in_block, "block definition", errors_before);
        }
        _ => {
            p.bump(IDENT);
            p.error(SyntaxErrorKind::UnexpectedToken, "argument or block definition required: use `=` to set an argument, or `{` to open a block");
            recover_body_item(p, in_block);
            m.complete(p, ERROR);
        }
    }
}

/// Whether the current name and the labels after it end their line as the header of a block
/// whose `{` is missing (see `Parser::close_of_missing_block_open`). Asked only in a file with a
/// closer that closes nothing.
fn header_missing_open(p: &Parser<'_>) -> bool {
    let mut n = 1;
    while n < 16 {
        match p.nth(n) {
            IDENT => n += 1,
            OQUOTE if p.nth(n + 1) == TEMPLATE_LITERAL && p.nth(n + 2) == CQUOTE => n += 3,
            OQUOTE if p.nth(n + 1) == CQUOTE => n += 2,
            NEWLINE => {
                let (header_start, _) = p.current_range();
                return p
                    .close_of_missing_block_open_from(header_start, p.nth_pos(n))
                    .is_some();
            }
            _ => return false,
        }
    }
    false
}

/// An argument whose `=` is missing or written as `:`: reported at the token after its name
/// (the `:` is then taken into the argument), and kept as the argument, so that what it
/// defines stays defined.
fn argument_with_bad_separator(
    p: &mut Parser<'_>,
    m: Marker,
    in_block: bool,
    errors_before: usize,
    message: impl FnOnce(&str) -> String,
    name: &str,
) {
    p.bump(IDENT);
    let (start, end) = p.current_range();
    p.error_at(SyntaxErrorKind::MissingSeparator, start, end, message(name));
    p.eat(COLON);
    expr(p);
    m.complete(p, ATTRIBUTE);
    end_of_item(p, in_block, "argument", errors_before);
}

/// `name "value"` or `name 42` alone on its line, or `name` before an expression that begins
/// with a name (`max maxValue`, `range length(xs)`) with no `{` on the line, where `name` is
/// no block type of PCL: an argument whose `=` is missing (a block needs its `{` on its
/// header's line). Parsed as the argument, so that its name is still defined and the uses of
/// it are not errors too.
fn at_argument_missing_eq(p: &Parser<'_>) -> bool {
    if crate::BLOCK_KEYWORDS.contains(&p.current_text()) {
        return false;
    }
    let mut n = 1;
    match p.nth(1) {
        OQUOTE => {
            // The string's end: quoted strings inside its interpolations nest.
            let mut depth = 0u32;
            loop {
                match p.nth(n) {
                    OQUOTE => depth += 1,
                    CQUOTE => depth = depth.saturating_sub(1),
                    EOF => return false,
                    _ => {}
                }
                n += 1;
                if depth == 0 {
                    break;
                }
                if n > 4096 {
                    return false;
                }
            }
        }
        IDENT => {
            // To the end of the line (brackets may run over lines): a `{` outside brackets
            // makes it a block's header (`name label {`).
            let mut depth = 0u32;
            loop {
                match p.nth(n) {
                    L_PAREN | L_BRACK => depth += 1,
                    R_PAREN | R_BRACK => depth = depth.saturating_sub(1),
                    L_BRACE if depth == 0 => return false,
                    NEWLINE if depth == 0 => return true,
                    EOF => return true,
                    _ => {}
                }
                n += 1;
                if n > 4096 {
                    return false;
                }
            }
        }
        _ => n = 2,
    }
    matches!(p.nth(n), NEWLINE | EOF)
}

fn attribute(p: &mut Parser<'_>, m: Marker) {
    let (name_start, _) = p.current_range();
    p.bump(IDENT);
    p.bump(EQ);
    let (value_start, _) = p.current_range();
    // `metadata =` with the object's lines below and its `}` (or a list's `]`) back at the
    // argument's indentation: the `{` or `[` is missing. One error, and the lines are the
    // value's items, not arguments of the block around.
    if let Some((closer, kind)) = p.closer_of_missing_opener(p.line_indent(name_start)) {
        let (open, close) = if kind == R_BRACK {
            ("[", "]")
        } else {
            ("{", "}")
        };
        let line = p.line_of(p.pos_range(closer).0);
        p.error(
            SyntaxErrorKind::ExpectedExpression,
            format!("missing `{open}` after `=`: the lines below, up to the `{close}` on line {line}, are the value's items"),
        );
        if kind == R_BRACK {
            expressions::tuple_missing_open(p, closer);
        } else {
            expressions::object_missing_open(p, closer);
        }
        m.complete(p, ATTRIBUTE);
        return;
    }
    let value = expr(p);
    // `name = web-server"`: a string whose opening quote is missing. One error over the
    // words and the quote; the words are not a value (no "undefined variable" for them), and
    // the rest of the line is skipped.
    if !matches!(p.current(), NEWLINE | EOF) {
        if let (Some(value), Some(quote_end)) = (value, p.line_ends_in_lone_quote()) {
            value.precede(p).complete(p, ERROR);
            let text = &p.source()[value_start as usize..quote_end as usize];
            let words = text[..text.len() - 1].trim_end();
            let message = if words.len() <= 40 && !words.contains('"') {
                format!("missing opening quote: the `\"` at the end of this line opens a string that never ends; write `\"{words}\"`")
            } else {
                "missing opening quote: the `\"` at the end of this line opens a string that never ends; the value's opening `\"` is probably missing".to_string()
            };
            p.error_at(
                SyntaxErrorKind::UnterminatedString,
                value_start,
                quote_end,
                message,
            );
            let rest = p.start();
            while !matches!(p.current(), NEWLINE | EOF) {
                p.bump_any();
            }
            rest.complete(p, ERROR);
        }
    }
    m.complete(p, ATTRIBUTE);
}

fn block(p: &mut Parser<'_>, m: Marker) {
    let (header_start, _) = p.current_range();
    p.bump(IDENT);
    loop {
        match p.current() {
            IDENT => {
                let l = p.start();
                p.bump(IDENT);
                l.complete(p, BLOCK_LABEL);
            }
            OQUOTE => {
                let l = p.start();
                templates::template(p);
                l.complete(p, BLOCK_LABEL);
            }
            _ => break,
        }
    }
    // `resource bucket "t"` with its lines below, indented deeper, and a `}` that closes
    // nothing back at the header's indentation: the `{` is missing. One error, and the lines
    // are the block's body.
    if let Some(close) = p.close_of_missing_block_open(header_start) {
        block_missing_open(p, header_start, close);
        m.complete(p, BLOCK);
        return;
    }
    match p.current() {
        L_BRACE => block_body(p),
        NEWLINE if p.nth(1) == L_BRACE => {
            p.error(SyntaxErrorKind::InvalidBlock, "invalid block definition: the opening brace must be on the same line as the block type");
            p.bump(NEWLINE);
            block_body(p);
        }
        NUMBER => p.error(
            SyntaxErrorKind::MalformedLabel,
            "invalid block label: a label must be a quoted string or an identifier",
        ),
        _ => p.error(
            SyntaxErrorKind::InvalidBlock,
            "invalid block definition: expected a label or `{` to open the block body",
        ),
    }
    m.complete(p, BLOCK);
}

/// The body of a block whose header ends its line without a `{`, up to the `}` at `close`
/// (found by `Parser::close_of_missing_block_open`), with one error at the header's end.
fn block_missing_open(p: &mut Parser<'_>, header_start: u32, close: u32) {
    let header_end = p.prev_end();
    let line = p.line_of(p.pos_range(close).0);
    let header = &p.source()[header_start as usize..header_end as usize];
    let help = if header.len() <= 80 && !header.contains('\n') {
        format!("write `{header} {{`")
    } else {
        "add `{` at the end of the block header".to_string()
    };
    p.error_with_related(
        SyntaxErrorKind::InvalidBlock,
        p.current_range(),
        format!("missing `{{` at the end of the block header: the lines below, up to the `}}` on line {line}, are its body"),
        vec![(p.pos_range(close), "the `}` that ends the block's body".to_string())],
    );
    p.set_last_help(help);
    p.take_stray_close(close);
    if p.depth >= MAX_DEPTH {
        expressions::too_deep(p);
        return;
    }
    p.depth += 1;
    body(p, true, None, false);
    if p.current_pos() == close {
        p.bump(R_BRACE);
    }
    p.depth -= 1;
}

/// `{ BODY }`, in its multi-line form or the one-line `{ name = value }` form.
fn block_body(p: &mut Parser<'_>) {
    if p.depth >= MAX_DEPTH {
        expressions::too_deep(p);
        return;
    }
    let top_level = p.depth == 0;
    p.depth += 1;
    let (open_start, open_end) = p.current_range();
    let open_pos = p.current_pos();
    let misindented_close = p.take_misindented_open(open_pos);
    // Only a top-level block whose `}` is missing by count ends before a top-level block's
    // header (see `body`).
    let top_level = top_level && misindented_close.is_none();
    let unmatched = p.at_unmatched_brace() || misindented_close.is_some();
    p.bump(L_BRACE);
    match p.current() {
        NEWLINE | EOF | R_BRACE => {
            // Computed only here: a multi-line body's `{` ends its line, so this scans each line
            // at most once.
            let unclosed_indent = unmatched.then(|| p.line_indent(open_start));
            let at_header = body(p, true, unclosed_indent, top_level);
            // The `}` indented less than this block's line is the enclosing block's.
            if Some(p.current_pos()) == misindented_close || !p.eat(R_BRACE) {
                unclosed_block(p, open_pos, (open_start, open_end), at_header);
            }
        }
        _ => one_line_block_body(p, open_start, open_end),
    }
    p.depth -= 1;
}

/// The error of a block that no `}` closes, reported where its `}` is probably missing, with a
/// note at the block's `{` (its first note: `pcl-fmt` finds the block by it). Where a `}`
/// inside the block closes a nested `{` by count but begins a line indented less than that
/// `{`'s line, the nested `{` lost its `}` and took the block's: the `}` missing belongs before
/// the first line after that `{` indented no deeper than its line. Otherwise the block's own
/// `}` is missing where its body ended: after its last token, before the next item indented no
/// deeper than the block (or the end of the file). hclsyntax reports the error at the `{`.
///
/// A block of a file written without indentation whose body ended before the header of a
/// top-level block (`at_header`) names that line.
fn unclosed_block(p: &mut Parser<'_>, open_pos: u32, open: (u32, u32), at_header: bool) {
    let block_note = (open, "the block that no `}` closes".to_string());
    match p.take_misindented_close(open_pos) {
        Some((inner, close)) => {
            let at = p.dedent_after(inner, close);
            p.error_with_related(
                SyntaxErrorKind::UnclosedBlock,
                at,
                "unclosed configuration block: a `}` is probably missing before this line, which is indented no deeper than the line of an inner `{` still open here",
                vec![
                    block_note,
                    (
                        p.range_of(inner),
                        "this `{` is still open there: the `}` that closes it by count is indented less than its line".to_string(),
                    ),
                ],
            );
        }
        None if at_header => {
            let at = p.last_token_range();
            let line = p.line_of(p.current_range().0);
            let notes = if at == open {
                Vec::new()
            } else {
                vec![block_note]
            };
            p.error_with_related(
                SyntaxErrorKind::UnclosedBlock,
                at,
                format!("unclosed configuration block: the block's `}}` is probably missing after this line: line {line} begins a top-level block, which cannot be nested in a block"),
                notes,
            );
            p.set_last_help(format!("add `}}` before line {line}"));
        }
        None => {
            let at = p.last_token_range();
            let message = if p.at(EOF) {
                "unclosed configuration block: the block's `}` is missing after this line, at the end of the file"
            } else {
                "unclosed configuration block: the block's `}` is probably missing after this line: the next item is indented no deeper than the block"
            };
            // An empty body ends at the block's `{`: no note repeats it.
            let notes = if at == open {
                Vec::new()
            } else {
                vec![block_note]
            };
            p.error_with_related(SyntaxErrorKind::UnclosedBlock, at, message, notes);
            if !p.at(EOF) {
                let line = p.line_of(p.current_range().0);
                p.set_last_help(format!("add `}}` before line {line}"));
            }
        }
    }
}

fn one_line_block_body(p: &mut Parser<'_>, open_start: u32, open_end: u32) {
    let body = p.start();
    if p.at(IDENT) && p.nth(1) == EQ {
        let m = p.start();
        attribute(p, m);
    } else {
        p.error(SyntaxErrorKind::InvalidBlock, "argument definition required: a block on one line holds a single `name = value`; put nested blocks on their own lines");
    }
    if !p.at(R_BRACE) {
        match p.current() {
            COMMA | NEWLINE | IDENT => p.error(
                SyntaxErrorKind::InvalidBlock,
                "invalid single-argument block definition: a block on one line holds a single argument, and its `}` must follow on the same line",
            ),
            EOF => {}
            _ => p.error(SyntaxErrorKind::InvalidBlock, "missing closing brace: expected `}` after the argument"),
        }
        skip_to_closing_brace(p);
    }
    body.complete(p, BODY);
    if !p.eat(R_BRACE) {
        p.error_at(
            SyntaxErrorKind::UnclosedBlock,
            open_start,
            open_end,
            "unclosed configuration block: there is no closing brace for this block",
        );
    }
}

/// Skips to the `}` that closes the current block (not consuming it), into an ERROR node.
fn skip_to_closing_brace(p: &mut Parser<'_>) {
    let m = p.start();
    let mut depth = 0u32;
    loop {
        match p.current() {
            EOF => break,
            R_BRACE if depth == 0 => break,
            L_BRACE | L_BRACK | L_PAREN => depth += 1,
            R_BRACE | R_BRACK | R_PAREN => depth = depth.saturating_sub(1),
            OQUOTE | HEREDOC_START => {
                templates::template(p);
                continue;
            }
            _ => {}
        }
        p.bump_any();
    }
    m.complete(p, ERROR);
}

/// After an attribute or block: a newline or the end of the file must follow. When the item
/// already had an error, what follows on its line is its debris: skipped without a second message
/// (hclsyntax's "recovery" flag does the same).
fn end_of_item(p: &mut Parser<'_>, in_block: bool, what: &str, errors_before: usize) {
    // An unclosed block that ended before an outdented item already consumed its line break.
    if p.at(IDENT) && p.current_line_indent().is_some() {
        return;
    }
    // A `}` typed once too often is the body's to report.
    if p.at_stray_close() {
        return;
    }
    if p.error_count() > errors_before && !matches!(p.current(), NEWLINE | EOF) {
        if !(in_block && p.at(R_BRACE)) {
            recover_body_item(p, in_block);
        }
        return;
    }
    match p.current() {
        NEWLINE => p.bump(NEWLINE),
        EOF => {}
        R_BRACE if in_block && what == "block definition" => {
            p.error(SyntaxErrorKind::MissingNewline, format!("missing newline after {what}: put the closing `}}` of the enclosing block on its own line"));
        }
        COMMA if what == "argument" => {
            p.error(
                SyntaxErrorKind::MissingNewline,
                "unexpected comma after argument: arguments are separated by newlines",
            );
            recover_body_item(p, in_block);
        }
        _ => {
            p.error(
                SyntaxErrorKind::MissingNewline,
                format!("missing newline after {what}: each argument and block must end its line"),
            );
            recover_body_item(p, in_block);
        }
    }
}

/// Skips the rest of a bad body item up to the end of its line (tracking brackets, as hclsyntax
/// does), into an ERROR node, and consumes the newline.
fn recover_body_item(p: &mut Parser<'_>, in_block: bool) {
    let m = p.start();
    let mut depth = 0u32;
    let mut skipped = false;
    loop {
        match p.current() {
            EOF => break,
            NEWLINE if depth == 0 => break,
            R_BRACE if depth == 0 && in_block => break,
            L_BRACE | L_BRACK | L_PAREN => depth += 1,
            R_BRACE | R_BRACK | R_PAREN => depth = depth.saturating_sub(1),
            OQUOTE | HEREDOC_START => {
                templates::template(p);
                skipped = true;
                continue;
            }
            _ => {}
        }
        // Anything else, newlines inside brackets included, is part of the skipped item.
        p.bump_any();
        skipped = true;
    }
    if skipped {
        m.complete(p, ERROR);
    } else {
        m.abandon(p);
    }
    p.eat(NEWLINE);
}

/// Kinds that close a construct; recovery never consumes one that belongs to an outer level.
pub(crate) fn is_closer(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        R_BRACE | R_BRACK | R_PAREN | TEMPLATE_SEQ_END | CQUOTE | HEREDOC_END
    )
}
