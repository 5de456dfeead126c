//! Expressions: the operator precedence table, terms, postfix traversals and splats,
//! collections, for-expressions and function calls.

use super::{is_closer, templates};
use crate::error::SyntaxErrorKind;
use crate::parser::{CompletedMarker, Parser, MAX_DEPTH};
use crate::syntax_kind::SyntaxKind::{self, *};

/// A full expression (a conditional at the top). `None` when nothing could be parsed.
pub(crate) fn expr(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if p.depth >= MAX_DEPTH {
        too_deep(p);
        return None;
    }
    p.depth += 1;
    let result = conditional(p);
    p.depth -= 1;
    result
}

fn conditional(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let condition = binary(p, 1)?;
    if !p.at(QUESTION) {
        return Some(condition);
    }
    let m = condition.precede(p);
    p.bump(QUESTION);
    if p.at(COLON) {
        // `c ? : b`: the true branch is missing; the false one is still read as such.
        p.error(
            SyntaxErrorKind::ExpectedExpression,
            "missing true expression in conditional: expected a value before `:`",
        );
    } else {
        expr(p);
    }
    if p.eat(COLON) {
        expr(p);
    } else {
        p.error(
            SyntaxErrorKind::UnexpectedToken,
            "missing false expression in conditional: expected `:` and a value",
        );
    }
    Some(m.complete(p, CONDITIONAL_EXPR))
}

/// Binding power of a binary operator (higher binds tighter); all are left-associative.
fn binary_precedence(kind: SyntaxKind) -> Option<u8> {
    Some(match kind {
        PIPE2 => 1,
        AMP2 => 2,
        EQ2 | NEQ => 3,
        LT | LTEQ | GT | GTEQ => 4,
        PLUS | MINUS => 5,
        STAR | SLASH | PERCENT => 6,
        _ => return None,
    })
}

fn binary(p: &mut Parser<'_>, min_precedence: u8) -> Option<CompletedMarker> {
    let mut lhs = unary(p)?;
    let depth_before = p.depth;
    while let Some(precedence) = binary_precedence(p.current()) {
        if precedence < min_precedence {
            break;
        }
        if !enter_chain_link(p) {
            break;
        }
        let m = lhs.precede(p);
        p.bump_any();
        if binary(p, precedence + 1).is_none() {
            // `unary` reported the missing operand.
        }
        lhs = m.complete(p, BINARY_EXPR);
    }
    p.depth = depth_before;
    Some(lhs)
}

/// Each link of an operator or traversal chain wraps the tree built so far one level deeper, so
/// links count against the nesting budget too: a 100,000-link chain must not make a tree whose
/// drop (recursive in rowan) overflows the stack. Past the budget, the rest of the expression is
/// consumed flat with one error.
fn enter_chain_link(p: &mut Parser<'_>) -> bool {
    if p.depth >= MAX_DEPTH {
        too_deep(p);
        return false;
    }
    p.depth += 1;
    true
}

/// `-x` and `!x`: the operand is a term with its traversals, so `-a.b` is `-(a.b)`.
fn unary(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if !matches!(p.current(), MINUS | BANG) {
        return postfix(p);
    }
    if p.depth >= MAX_DEPTH {
        too_deep(p);
        return None;
    }
    p.depth += 1;
    let m = p.start();
    p.bump_any();
    unary(p);
    p.depth -= 1;
    Some(m.complete(p, UNARY_EXPR))
}

fn postfix(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let mut lhs = term(p)?;
    // Whether the following traversal steps belong to an attribute-only splat (`.*`), which
    // cannot hold another.
    let mut in_attr_splat = false;
    let depth_before = p.depth;
    loop {
        if matches!(p.current(), DOT | L_BRACK) && !enter_chain_link(p) {
            break;
        }
        match p.current() {
            DOT => {
                let m = lhs.precede(p);
                match p.nth(1) {
                    IDENT => {
                        p.bump(DOT);
                        p.bump(IDENT);
                        lhs = m.complete(p, GET_ATTR_EXPR);
                    }
                    NUMBER => {
                        p.bump(DOT);
                        if p.current_text().contains(['.', 'e', 'E']) {
                            p.error(
                                SyntaxErrorKind::MalformedTraversal,
                                "invalid legacy index syntax: write `[0][1]` instead of `.0.1`",
                            );
                        }
                        p.bump(NUMBER);
                        lhs = m.complete(p, LEGACY_INDEX_EXPR);
                    }
                    STAR => {
                        // Inside a full splat, `.*` is an attribute-only splat of each element
                        // (hclsyntax parses the rest of the traversal after `[*]` anew); only
                        // an attribute-only splat cannot hold another.
                        if in_attr_splat {
                            let (start, _) = p.current_range();
                            let (_, end) = p.nth_range(1);
                            p.error_at(SyntaxErrorKind::MalformedTraversal, start, end, "nested splat expression not allowed: only one `.*` or `[*]` may apply to a traversal");
                        }
                        p.bump(DOT);
                        p.bump(STAR);
                        in_attr_splat = true;
                        lhs = m.complete(p, SPLAT_EXPR);
                    }
                    _ => {
                        p.bump(DOT);
                        p.error(
                            SyntaxErrorKind::MalformedTraversal,
                            "invalid attribute name: expected an attribute name after `.`",
                        );
                        lhs = m.complete(p, GET_ATTR_EXPR);
                        break;
                    }
                }
            }
            L_BRACK => {
                let m = lhs.precede(p);
                if p.nth(1) == STAR && p.nth(2) == R_BRACK {
                    p.bump(L_BRACK);
                    p.bump(STAR);
                    p.bump(R_BRACK);
                    lhs = m.complete(p, SPLAT_EXPR);
                    continue;
                }
                in_attr_splat = false;
                let (open_start, open_end) = p.current_range();
                p.with_newlines(false, |p| {
                    p.bump(L_BRACK);
                    if p.at(STAR) {
                        p.error(SyntaxErrorKind::MalformedTraversal, "missing close bracket on splat index: expected `]` right after `*`");
                        p.bump(STAR);
                        p.eat(R_BRACK);
                        return;
                    }
                    expr(p);
                    if !p.eat(R_BRACK) {
                        p.error_at(SyntaxErrorKind::UnclosedBracket, open_start, open_end, "missing close bracket on index: expected `]` after the index expression");
                        recover_in_list(p, R_BRACK, false);
                        p.eat(R_BRACK);
                    }
                });
                lhs = m.complete(p, INDEX_EXPR);
            }
            _ => break,
        }
    }
    p.depth = depth_before;
    Some(lhs)
}

fn term(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let m = match p.current() {
        NUMBER => {
            let m = p.start();
            p.bump(NUMBER);
            m.complete(p, LITERAL_EXPR)
        }
        IDENT => {
            if p.nth(1) == L_PAREN || p.nth(1) == COLON2 {
                return Some(function_call(p));
            }
            let keyword = match p.current_text() {
                "true" => Some(TRUE_KW),
                "false" => Some(FALSE_KW),
                "null" => Some(NULL_KW),
                _ => None,
            };
            let m = p.start();
            match keyword {
                Some(kw) => {
                    p.bump_remap(kw);
                    m.complete(p, LITERAL_EXPR)
                }
                None => {
                    p.bump(IDENT);
                    m.complete(p, VARIABLE_EXPR)
                }
            }
        }
        L_PAREN => parenthesized(p),
        L_BRACK => tuple(p),
        L_BRACE => object(p),
        OQUOTE | HEREDOC_START => templates::template(p),
        TEMPLATE_INTERP if p.at_nested_interp() => templates::nested_interpolation(p),
        DOT if p.nth(1) == NUMBER => {
            let m = p.start();
            p.error(
                SyntaxErrorKind::InvalidNumber,
                "invalid expression: a number must start with a digit (write `0.5`, not `.5`)",
            );
            p.bump(DOT);
            p.bump(NUMBER);
            m.complete(p, ERROR)
        }
        NEWLINE | EOF => {
            p.error(
                SyntaxErrorKind::ExpectedExpression,
                "missing expression: expected a value here",
            );
            return None;
        }
        kind if is_closer(kind) || kind == COMMA => {
            p.error(
                SyntaxErrorKind::ExpectedExpression,
                "invalid expression: expected the start of an expression",
            );
            return None;
        }
        _ => {
            let m = p.start();
            p.error(
                SyntaxErrorKind::ExpectedExpression,
                "invalid expression: expected the start of an expression",
            );
            p.bump_any();
            m.complete(p, ERROR)
        }
    };
    Some(m)
}

/// `name(args)` or `ns::name(args)`.
fn function_call(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump(IDENT);
    while p.at(COLON2) {
        p.bump(COLON2);
        if !p.eat(IDENT) {
            p.error(
                SyntaxErrorKind::UnexpectedToken,
                "missing function name: expected a name after `::`",
            );
            return m.complete(p, FUNCTION_CALL);
        }
    }
    if p.at(L_PAREN) {
        arg_list(p);
    } else {
        p.error(
            SyntaxErrorKind::UnexpectedToken,
            "missing open parenthesis: a namespaced function name must be followed by `(`",
        );
    }
    m.complete(p, FUNCTION_CALL)
}

fn arg_list(p: &mut Parser<'_>) {
    let m = p.start();
    let open = p.current_range();
    let opener = p.current_pos();
    let mut left_open = false;
    let mut missing = false;
    const WHAT: &str = "unterminated function call";
    p.with_newlines(false, |p| {
        p.bump(L_PAREN);
        while !p.at(R_PAREN) && !p.at(EOF) {
            if list_left_open(p) {
                left_open = true;
                break;
            }
            if skip_stray_closer(p) {
                continue;
            }
            if closer_missing_here(p, opener, open, WHAT, ("(", ")")) {
                missing = true;
                break;
            }
            if expr(p).is_none() {
                recover_in_list(p, R_PAREN, false);
            }
            if p.at(ELLIPSIS) {
                p.bump(ELLIPSIS);
                if !p.at(R_PAREN) && !list_left_open(p) {
                    p.error(
                        SyntaxErrorKind::UnexpectedToken,
                        "missing closing parenthesis: `...` may only follow the last argument",
                    );
                    recover_in_list(p, R_PAREN, false);
                    p.eat(COMMA);
                }
                continue;
            }
            if p.eat(COMMA) {
                continue;
            }
            if !p.at(R_PAREN) && !p.at(EOF) {
                if list_left_open(p) {
                    left_open = true;
                    break;
                }
                if skip_stray_closer(p) {
                    p.eat(COMMA);
                    continue;
                }
                if closer_missing_here(p, opener, open, WHAT, ("(", ")")) {
                    missing = true;
                    break;
                }
                if !missing_separator(
                    p,
                    R_PAREN,
                    "missing argument separator: expected `,` or `)`",
                ) {
                    break;
                }
            }
        }
        if !missing && !p.eat(R_PAREN) {
            unclosed_list(p, open, left_open, WHAT, "(", ")");
        }
    });
    m.complete(p, ARG_LIST);
}

fn parenthesized(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let open = p.current_range();
    let opener = p.current_pos();
    let mut left_open = false;
    let mut missing = false;
    const WHAT: &str = "unbalanced parentheses";
    p.with_newlines(false, |p| {
        p.bump(L_PAREN);
        // At EOF the missing `)` below is the one error worth reporting.
        if list_left_open(p) {
            left_open = true;
        } else if !p.at(EOF) {
            expr(p);
        }
        while skip_stray_closer(p) {}
        if !p.at(R_PAREN) && !p.at(EOF) {
            if list_left_open(p) {
                left_open = true;
            } else if closer_missing_here(p, opener, open, WHAT, ("(", ")")) {
                missing = true;
            } else {
                p.error(
                    SyntaxErrorKind::UnexpectedToken,
                    "invalid expression: expected `)` to close the parentheses",
                );
                recover_in_list(p, R_PAREN, false);
            }
        }
        if !missing && !p.eat(R_PAREN) {
            unclosed_list(p, open, left_open, WHAT, "(", ")");
        }
    });
    m.complete(p, PAREN_EXPR)
}

fn tuple(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let open = p.current_range();
    let is_for = p.with_newlines(false, |p| p.nth_at_ident(1, "for"));
    let opener = p.current_pos();
    let mut left_open = false;
    let mut missing = false;
    const WHAT: &str = "unterminated tuple";
    p.with_newlines(false, |p| {
        p.bump(L_BRACK);
        if is_for {
            for_expr(p, false);
        } else {
            while !p.at(R_BRACK) && !p.at(EOF) {
                if list_left_open(p) {
                    left_open = true;
                    break;
                }
                if skip_stray_closer(p) {
                    continue;
                }
                if closer_missing_here(p, opener, open, WHAT, ("[", "]")) {
                    missing = true;
                    break;
                }
                if expr(p).is_none() {
                    recover_in_list(p, R_BRACK, false);
                }
                if p.eat(COMMA) {
                    continue;
                }
                if !p.at(R_BRACK) && !p.at(EOF) {
                    if list_left_open(p) {
                        left_open = true;
                        break;
                    }
                    if skip_stray_closer(p) {
                        p.eat(COMMA);
                        continue;
                    }
                    if closer_missing_here(p, opener, open, WHAT, ("[", "]")) {
                        missing = true;
                        break;
                    }
                    if !missing_separator(p, R_BRACK, "missing item separator: expected `,` or `]`")
                    {
                        break;
                    }
                }
            }
        }
        if !missing && !p.eat(R_BRACK) {
            unclosed_list(p, open, left_open, WHAT, "[", "]");
        }
    });
    let kind = if is_for { FOR_EXPR } else { TUPLE_EXPR };
    m.complete(p, kind)
}

/// A closing bracket that closes nothing where it is (`"a"]` in an object, `}}` after the last
/// object of a list), or a `}` typed once too often: reported and skipped, so that the list
/// around it keeps its items and the construct it would have ended goes on. Whether one was.
#[inline]
pub(crate) fn skip_stray_closer(p: &mut Parser<'_>) -> bool {
    p.has_stray_closers() && skip_stray_closer_cold(p)
}

#[cold]
fn skip_stray_closer_cold(p: &mut Parser<'_>) -> bool {
    let message = if p.at_lone_closer() {
        let (closer, opener) = match p.current() {
            R_BRACK => ("]", "["),
            R_PAREN => (")", "("),
            _ => ("}", "{"),
        };
        format!("unexpected `{closer}`: there is no `{opener}` open here for it to close")
    } else if p.at_stray_close() {
        super::STRAY_CLOSE.to_string()
    } else {
        return false;
    };
    let e = p.start();
    p.error(SyntaxErrorKind::UnexpectedToken, message);
    p.bump_any();
    e.complete(p, ERROR);
    true
}

/// Whether the current token closes an enclosing bracket before which the closer of this list
/// (opened at `opener`, a position in the parser's tokens, with the range `open`) is missing
/// (`[{ ... ]`): then the error is here, with a note at the opener, and the list ends without
/// taking the token.
#[inline]
fn closer_missing_here(
    p: &mut Parser<'_>,
    opener: u32,
    open: (u32, u32),
    what: &str,
    texts: (&str, &str),
) -> bool {
    p.has_missing_closers() && closer_missing_here_cold(p, opener, open, what, texts)
}

#[cold]
fn closer_missing_here_cold(
    p: &mut Parser<'_>,
    opener: u32,
    open: (u32, u32),
    what: &str,
    (opener_text, closer_text): (&str, &str),
) -> bool {
    if !p.at_missing_closer_of(opener) {
        return false;
    }
    let found = p.current_text();
    p.error_with_related(
        SyntaxErrorKind::UnclosedBracket,
        p.current_range(),
        format!("{what}: its `{closer_text}` is probably missing before this `{found}`"),
        vec![(
            open,
            format!("the `{opener_text}` that no `{closer_text}` closes"),
        )],
    );
    true
}

/// Whether a list (arguments, a tuple, parentheses) was probably left open: the current token
/// begins a line with what no expression continues with and what begins a body's item (`name
/// =`, a block's header) or closes the enclosing block (`}`).
fn list_left_open(p: &Parser<'_>) -> bool {
    // The kinds first: most elements begin with neither, and are then told apart at once.
    let begins_item = match p.current() {
        R_BRACE => true,
        IDENT => matches!(p.next_on_line(), EQ | IDENT | OQUOTE | L_BRACE),
        _ => false,
    };
    begins_item && p.current_line_indent().is_some()
}

/// The error of a list that nothing closes. When the list was left open before a line that
/// begins an item or closes the enclosing block, its closer is probably missing after its last
/// token: the error is there, with a note at the opener. Otherwise (the file ends, or the list
/// holds nothing yet) it is at the opener, as hclsyntax reports it.
fn unclosed_list(
    p: &mut Parser<'_>,
    open: (u32, u32),
    left_open: bool,
    what: &str,
    opener: &str,
    closer: &str,
) {
    let last = p.last_token_range();
    if left_open && last != open {
        let next = if p.at(R_BRACE) {
            "closes the enclosing block"
        } else {
            "begins another item"
        };
        p.error_with_related(
            SyntaxErrorKind::UnclosedBracket,
            last,
            format!(
                "{what}: its `{closer}` is probably missing after this, since the next line {next}"
            ),
            vec![(open, format!("the `{opener}` that no `{closer}` closes"))],
        );
    } else {
        p.error_at(
            SyntaxErrorKind::UnclosedBracket,
            open.0,
            open.1,
            format!("{what}: there is no closing `{closer}` for this `{opener}`"),
        );
    }
}

fn object(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let (open_start, open_end) = p.current_range();
    // `for` makes this a for-expression even on the next line.
    let is_for = p.with_newlines(false, |p| p.nth_at_ident(1, "for"));
    if is_for {
        p.with_newlines(false, |p| {
            p.bump(L_BRACE);
            for_expr(p, true);
            if !p.eat(R_BRACE) {
                p.error_at(
                    SyntaxErrorKind::UnclosedBracket,
                    open_start,
                    open_end,
                    "unterminated `for` expression: there is no closing `}` for this `{`",
                );
            }
        });
        return m.complete(p, FOR_EXPR);
    }
    let opener = p.current_pos();
    let open = (open_start, open_end);
    let mut missing = false;
    const WHAT: &str = "unterminated object";
    // An object whose `}` by count is indented less than its line lost its own `}`: it ends
    // before the first line indented no deeper than its own, as an unclosed block does.
    let misindented_close = p.take_misindented_open(opener);
    let unclosed_indent = misindented_close.map(|_| p.line_indent(open_start));
    p.with_newlines(true, |p| {
        p.bump(L_BRACE);
        loop {
            while p.eat(NEWLINE) {}
            if skip_stray_closer(p) {
                continue;
            }
            let at_misindented_close =
                misindented_close.is_some() && Some(p.current_pos()) == misindented_close;
            if (p.at(R_BRACE) && !at_misindented_close) || p.at(EOF) {
                break;
            }
            if let Some(limit) = unclosed_indent {
                let dedented = p.current_line_indent().is_some_and(|indent| indent <= limit);
                if dedented || at_misindented_close {
                    p.error_with_related(
                        SyntaxErrorKind::UnclosedBracket,
                        p.last_token_range(),
                        format!("{WHAT}: its `}}` is probably missing after this, since the next line is indented no deeper than the line of its `{{`"),
                        vec![(open, "the `{` that no `}` closes".to_string())],
                    );
                    missing = true;
                    break;
                }
            }
            if closer_missing_here(p, opener, open, WHAT, ("{", "}")) {
                missing = true;
                break;
            }
            let item_start = p.raw_pos();
            object_item(p);
            if p.eat(COMMA) || p.eat(NEWLINE) {
                continue;
            }
            // At a line's start the newline was taken by an object left open inside the item
            // (an item that took nothing separates nothing).
            if p.raw_pos() != item_start && p.current_line_indent().is_some() {
                continue;
            }
            if skip_stray_closer(p) {
                let _ = p.eat(COMMA) || p.eat(NEWLINE);
                continue;
            }
            if p.at(R_BRACE) || p.at(EOF) {
                break;
            }
            if closer_missing_here(p, opener, open, WHAT, ("{", "}")) {
                missing = true;
                break;
            }
            if !missing_item_separator(p) {
                break;
            }
        }
        if !missing && !p.eat(R_BRACE) {
            p.error_at(
                SyntaxErrorKind::UnclosedBracket,
                open_start,
                open_end,
                "unterminated object: there is no closing `}` for this `{`",
            );
        }
    });
    m.complete(p, OBJECT_EXPR)
}

fn object_item(p: &mut Parser<'_>) {
    let item = p.start();
    let key = p.start();
    let parsed = if p.at(EQ) || p.at(COLON) {
        // `{ = 1 }`: the key is missing; the value is still read as such.
        p.error(
            SyntaxErrorKind::ExpectedExpression,
            format!("missing key: expected a key before `{}`", p.current_text()),
        );
        key.abandon(p);
        false
    } else {
        let parsed = expr(p).is_some();
        key.complete(p, OBJECT_KEY);
        parsed
    };
    if p.at(EQ) || p.at(COLON) {
        p.bump_any();
        if expr(p).is_none() {
            recover_in_list(p, R_BRACE, true);
        }
    } else if parsed {
        p.error(SyntaxErrorKind::MissingSeparator, "missing key/value separator: expected `=` or `:` after the key (quote a key that contains dots)");
        recover_in_list(p, R_BRACE, true);
    } else {
        recover_in_list(p, R_BRACE, true);
    }
    item.complete(p, OBJECT_ITEM);
}

/// The items of an object whose `{` is missing (`metadata =` and the lines below it, up to
/// the `}` at `closer`, found by `Parser::closer_of_missing_opener`), as an object: the caller
/// reported the mistake.
pub(crate) fn object_missing_open(p: &mut Parser<'_>, closer: u32) {
    let m = p.start();
    p.with_newlines(true, |p| {
        loop {
            while p.eat(NEWLINE) {}
            if p.current_pos() >= closer || p.at(EOF) {
                break;
            }
            let before = p.raw_pos();
            object_item(p);
            if p.eat(COMMA) || p.eat(NEWLINE) || p.current_pos() >= closer {
                continue;
            }
            if p.raw_pos() == before {
                break;
            }
            if !missing_item_separator(p) {
                break;
            }
        }
        if p.current_pos() == closer {
            p.bump(R_BRACE);
        }
    });
    m.complete(p, OBJECT_EXPR);
}

/// The elements of a tuple whose `[` is missing, up to the `]` at `closer`, as
/// [`object_missing_open`] reads an object's items.
pub(crate) fn tuple_missing_open(p: &mut Parser<'_>, closer: u32) {
    let m = p.start();
    p.with_newlines(false, |p| {
        loop {
            if p.current_pos() >= closer || p.at(EOF) {
                break;
            }
            let before = p.raw_pos();
            if expr(p).is_none() {
                recover_in_list(p, R_BRACK, false);
            }
            if p.eat(COMMA) || p.current_pos() >= closer {
                continue;
            }
            if p.raw_pos() == before {
                break;
            }
            if !missing_separator(p, R_BRACK, "missing item separator: expected `,` or `]`") {
                break;
            }
        }
        if p.current_pos() == closer {
            p.bump(R_BRACK);
        }
    });
    m.complete(p, TUPLE_EXPR);
}

/// After an object's item followed by neither a newline, `,` nor `}`: reports the missing
/// separator and skips to the next one (left for the loop). Whether the object goes on.
fn missing_item_separator(p: &mut Parser<'_>) -> bool {
    p.error(
        SyntaxErrorKind::MissingSeparator,
        "missing attribute separator: expected a newline or `,` after the attribute value",
    );
    recover_in_list(p, R_BRACE, true) || matches!(p.current(), COMMA | NEWLINE)
}

/// After a list's item followed by neither `,` nor `closer`: reports the missing separator and
/// skips to the next `,` (taking it). Whether the list goes on.
fn missing_separator(p: &mut Parser<'_>, closer: SyntaxKind, message: &str) -> bool {
    p.error(SyntaxErrorKind::MissingSeparator, message);
    if !recover_in_list(p, closer, false) && !p.at(COMMA) {
        return false;
    }
    p.eat(COMMA);
    true
}

/// The part of `[for ...]` / `{for ...}` after the opening bracket, up to the closing bracket.
fn for_expr(p: &mut Parser<'_>, is_object: bool) {
    let closer = if is_object { R_BRACE } else { R_BRACK };
    let errors_before = p.error_count();
    let intro = p.start();
    p.bump_remap(FOR_KW);
    if at_for_variable(p) {
        p.bump(IDENT);
        if p.eat(COMMA) && !eat_for_variable(p) {
            p.error(
                SyntaxErrorKind::InvalidForExpression,
                "invalid `for` expression: expected a value variable name after `,`",
            );
        }
    } else {
        p.error(
            SyntaxErrorKind::InvalidForExpression,
            "invalid `for` expression: expected a variable name after `for`",
        );
    }
    if p.at_ident("in") {
        p.bump_remap(IN_KW);
        if p.at(COLON) {
            p.error(
                SyntaxErrorKind::InvalidForExpression,
                "invalid `for` expression: expected a collection after `in`",
            );
        } else {
            expr(p);
        }
    } else {
        p.error(
            SyntaxErrorKind::InvalidForExpression,
            "invalid `for` expression: expected `in` and a collection after the variable names",
        );
    }
    if !p.eat(COLON) {
        p.error(
            SyntaxErrorKind::InvalidForExpression,
            "invalid `for` expression: expected `:` after the collection",
        );
    }
    intro.complete(p, FOR_INTRO);
    if p.error_count() > errors_before {
        // A broken header (`[for, x]`, `{for = 1}`): skip the rest, one error is enough.
        skip_to_closer(p, closer);
        return;
    }
    if matches!(p.current(), R_BRACE | R_BRACK | EOF) {
        p.error(
            SyntaxErrorKind::InvalidForExpression,
            "invalid `for` expression: expected a result expression after `:`",
        );
    } else if p.at(FAT_ARROW) {
        // `{for k, v in m : => v}`: the key is missing; the value is still read as such. (In a
        // tuple, the `=>` itself is the error, reported below.)
        if is_object {
            p.error(
                SyntaxErrorKind::InvalidForExpression,
                "invalid `for` expression: expected a key expression before `=>`",
            );
        }
    } else {
        expr(p);
    }
    if p.at(FAT_ARROW) {
        if !is_object {
            p.error(SyntaxErrorKind::InvalidForExpression, "invalid `for` expression: a key expression (`=>`) is not valid when building a tuple; use `{` and `}` to build an object");
        }
        p.bump(FAT_ARROW);
        expr(p);
    } else if is_object && !matches!(p.current(), EOF) {
        p.error(SyntaxErrorKind::InvalidForExpression, "invalid `for` expression: a key expression is required when building an object; write `key => value`");
    }
    if p.at(ELLIPSIS) {
        if !is_object {
            p.error(SyntaxErrorKind::InvalidForExpression, "invalid `for` expression: grouping ellipsis (`...`) cannot be used when building a tuple");
        }
        p.bump(ELLIPSIS);
    }
    if p.at_ident("if") {
        let cond = p.start();
        p.bump_remap(IF_KW);
        expr(p);
        cond.complete(p, FOR_COND);
    }
    if !p.at(closer) && !p.at(EOF) {
        p.error(
            SyntaxErrorKind::InvalidForExpression,
            format!(
                "invalid `for` expression: expected `{}` to end the `for` expression",
                if is_object { "}" } else { "]" }
            ),
        );
        skip_to_closer(p, closer);
    }
}

/// Whether the current token is a for-variable name. `in` is one only where a name is followed by
/// `,` or by the keyword `in` (`for in in xs`); elsewhere it is the keyword, and the name before
/// it is missing (`for in xs`, `for k, in m`).
pub(crate) fn at_for_variable(p: &Parser<'_>) -> bool {
    p.at(IDENT) && (!p.at_ident("in") || p.nth(1) == COMMA || p.nth_at_ident(1, "in"))
}

/// Consumes a for-variable name, if there is one.
pub(crate) fn eat_for_variable(p: &mut Parser<'_>) -> bool {
    let at = at_for_variable(p);
    if at {
        p.bump(IDENT);
    }
    at
}

/// Skips everything up to `closer` at depth zero (commas included), into ERROR nodes.
fn skip_to_closer(p: &mut Parser<'_>, closer: SyntaxKind) {
    loop {
        recover_in_list(p, closer, false);
        if !p.eat(COMMA) {
            break;
        }
    }
}

/// Skips to the next `,` or `closer` at bracket depth zero (or a newline, where `newlines_end`),
/// into an ERROR node. Returns whether anything was skipped.
pub(crate) fn recover_in_list(p: &mut Parser<'_>, closer: SyntaxKind, newlines_end: bool) -> bool {
    let m = p.start();
    let mut depth = 0u32;
    let mut skipped = false;
    loop {
        let kind = p.current();
        match kind {
            EOF => break,
            COMMA if depth == 0 => break,
            NEWLINE if depth == 0 && newlines_end => break,
            k if k == closer && depth == 0 => break,
            L_BRACE | L_BRACK | L_PAREN => depth += 1,
            R_BRACE | R_BRACK | R_PAREN if depth > 0 => depth -= 1,
            OQUOTE | HEREDOC_START => {
                templates::template(p);
                skipped = true;
                continue;
            }
            // A closer of another level: it belongs to an enclosing construct.
            k if is_closer(k) && depth == 0 => break,
            _ => {}
        }
        p.bump_any();
        skipped = true;
    }
    if skipped {
        m.complete(p, ERROR);
    } else {
        m.abandon(p);
    }
    skipped
}

/// Nesting beyond [`MAX_DEPTH`]: report once, then consume the nested input flat (tracking
/// brackets) up to the closer of the enclosing construct, so the tree stays shallow.
pub(crate) fn too_deep(p: &mut Parser<'_>) {
    p.error(
        SyntaxErrorKind::NestingTooDeep,
        format!(
        "nesting too deep: expressions, templates and blocks may nest at most {MAX_DEPTH} levels \
         (chained operators and traversals count as levels)"
    ),
    );
    let m = p.start();
    let mut depth = 0u32;
    loop {
        match p.current() {
            EOF => break,
            // A significant newline outside anything opened here ends the enclosing item.
            NEWLINE if depth == 0 => break,
            L_BRACE | L_BRACK | L_PAREN | OQUOTE | HEREDOC_START | TEMPLATE_INTERP
            | TEMPLATE_CONTROL => depth += 1,
            k if is_closer(k) => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            _ => {}
        }
        p.bump_any();
    }
    m.complete(p, ERROR);
}
