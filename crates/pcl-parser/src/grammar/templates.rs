//! Templates: quoted strings and heredocs, with `${ }` interpolations and `%{ }` directives.
//!
//! Directives are parsed into structured nodes (`TEMPLATE_IF`, `TEMPLATE_FOR`, each holding its
//! directives and `TEMPLATE_BODY`s) in one pass, instead of hclsyntax's flatten-then-match.

use super::expr;
use super::expressions::{eat_for_variable, recover_in_list, too_deep};
use pcl_diagnostics::suggest::edit_distance;

use crate::error::SyntaxErrorKind;
use crate::parser::{CompletedMarker, Parser, MAX_DEPTH};
use crate::syntax_kind::SyntaxKind::{self, *};

/// A quoted template or a heredoc, starting at `"` or `<<EOT`.
pub(crate) fn template(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let (open_start, open_end) = p.current_range();
    // The heredoc's opening marker without its line break (absent at the end of input).
    let marker_end = open_end
        - (p.current_text().len() - p.current_text().trim_end_matches(['\r', '\n']).len()) as u32;
    let heredoc = p.at(HEREDOC_START);
    let cut = heredoc && p.at_cut_heredoc();
    p.bump_any();
    p.with_newlines(true, |p| parts(p, false));
    if heredoc {
        if p.at(HEREDOC_END) {
            misspelt_heredoc_end(p, (open_start, marker_end));
            p.bump(HEREDOC_END);
        } else if cut {
            cut_heredoc(p, (open_start, marker_end));
        } else {
            p.error_at(
                SyntaxErrorKind::UnterminatedHeredoc,
                open_start,
                marker_end,
                "unterminated heredoc: no line holding only the closing marker ends it (the marker line must also end with a newline)",
            );
        }
        m.complete(p, HEREDOC_EXPR)
    } else {
        if p.raw_current() == OQUOTE {
            // The lexer ended the string before a space and a quoted word on its line (see
            // `quoted_label_follows` in the lexer): its closing `"` is missing there.
            let end = p.prev_end().max(open_end);
            let text = &p.source()[open_start as usize..end as usize];
            p.error_with_help(
                SyntaxErrorKind::UnterminatedString,
                open_start,
                end,
                format!("missing closing quote: the string `{text}` has no `\"` before the next string on its line"),
                Some(format!("write `{text}\"`")),
            );
            return m.complete(p, TEMPLATE_EXPR);
        }
        if !p.eat(CQUOTE) {
            let end = p.prev_end();
            p.error_at(
                SyntaxErrorKind::UnterminatedString,
                open_start,
                end.max(open_end),
                "unterminated string: a quoted string must end with `\"` on the line where it starts (use a heredoc for text on several lines)",
            );
        }
        m.complete(p, TEMPLATE_EXPR)
    }
}

/// After a heredoc whose opener is at `range` (without its line break) and that no line
/// further on closes: the lexer cut it where its closing line is most likely missing (see
/// `cut_end` in the lexer). One error, at the opener; a space before the marker (`<< EOT`) is
/// part of it.
fn cut_heredoc(p: &mut Parser<'_>, range: (u32, u32)) {
    let opener = &p.source()[range.0 as usize..range.1 as usize];
    let flush = if opener[2..].starts_with('-') {
        "-"
    } else {
        ""
    };
    let marker = opener[2 + flush.len()..].trim();
    let spaced = marker.len() < opener.len() - 2 - flush.len();
    let last = p.line_of(p.prev_end().max(range.1));
    let message = if spaced {
        format!("unterminated heredoc: the line `{marker}` that closes it is missing, and there must be no space between `<<` and the marker; the heredoc is taken to end after line {last}")
    } else {
        format!("unterminated heredoc: the line `{marker}` that closes it is missing; the heredoc is taken to end after line {last}")
    };
    let help = if spaced {
        format!("write `<<{flush}{marker}`, and add a line `{marker}` after line {last}")
    } else {
        format!("add a line `{marker}` after line {last}")
    };
    p.error_with_help(
        SyntaxErrorKind::UnterminatedHeredoc,
        range.0,
        range.1,
        message,
        Some(help),
    );
}

/// At the `HEREDOC_END` of the heredoc whose opener is at `range` (without its line break):
/// when that line is not the marker, the lexer took it as the marker misspelt, because no line
/// further on can close the heredoc. One error, at the opener.
fn misspelt_heredoc_end(p: &mut Parser<'_>, range: (u32, u32)) {
    let opener = &p.source()[range.0 as usize..range.1 as usize];
    let marker = opener
        .trim_start_matches('<')
        .trim_start_matches('-')
        .split_whitespace()
        .next()
        .unwrap_or("");
    let (end_start, end_end) = p.current_range();
    let line = p.current_text().trim();
    if line == marker {
        return;
    }
    let text_start =
        end_start + (p.current_text().len() - p.current_text().trim_start().len()) as u32;
    let number = p.line_of(end_start);
    let before = p.error_count();
    p.error_with_related(
        SyntaxErrorKind::UnterminatedHeredoc,
        range,
        format!("unterminated heredoc: no line holding only `{marker}` closes it; `{line}` on line {number} is read as that marker misspelt, and ends it"),
        vec![((text_start, end_end), "the heredoc is taken to end here".to_string())],
    );
    if p.error_count() > before {
        p.set_last_help(format!(
            "write `{marker}` on line {number} to close the heredoc"
        ));
    }
}

/// The directive keyword after `%{`, if the current token opens a directive.
fn directive_keyword<'a>(p: &Parser<'a>) -> Option<&'a str> {
    if !p.at(TEMPLATE_CONTROL) {
        return None;
    }
    match p.nth_ignoring_newlines(1) {
        (IDENT, text) => Some(text),
        _ => Some(""),
    }
}

/// Template parts up to the end of the template or (when `in_directive`) up to an `else`,
/// `endif` or `endfor` directive, which the caller consumes.
fn parts(p: &mut Parser<'_>, in_directive: bool) {
    loop {
        match p.current() {
            TEMPLATE_LITERAL => p.bump(TEMPLATE_LITERAL),
            TEMPLATE_INTERP => interpolation(p),
            TEMPLATE_CONTROL => match directive_keyword(p) {
                Some("if") => nested(p, template_if),
                Some("for") => nested(p, template_for),
                Some(kw @ ("else" | "endif" | "endfor")) => {
                    if in_directive {
                        return;
                    }
                    let e = p.start();
                    let (start, _) = p.current_range();
                    let end = directive(p, keyword_kind(kw));
                    let message = match kw {
                        "else" => "unexpected `else` directive: there is no open `%{ if }` for it",
                        "endif" => {
                            "unexpected `endif` directive: there is no open `%{ if }` for it"
                        }
                        _ => "unexpected `endfor` directive: there is no open `%{ for }` for it",
                    };
                    p.error_at(SyntaxErrorKind::UnexpectedDirective, start, end, message);
                    e.complete(p, ERROR);
                }
                _ => {
                    let e = p.start();
                    p.bump(TEMPLATE_CONTROL);
                    let suggestion = p.with_newlines(false, |p| {
                        let word = if p.at(IDENT) { p.current_text() } else { "" };
                        closest_keyword(word)
                    });
                    let (start, end) = p.current_range();
                    p.error_with_help(
                        SyntaxErrorKind::InvalidDirective,
                        start,
                        end,
                        "invalid template control keyword: expected `if`, `else`, `endif`, `for` or `endfor`",
                        suggestion.map(pcl_diagnostics::style::did_you_mean),
                    );
                    p.with_newlines(false, |p| {
                        recover_in_list(p, TEMPLATE_SEQ_END, false);
                        p.eat(TEMPLATE_SEQ_END);
                    });
                    e.complete(p, ERROR);
                }
            },
            _ => return,
        }
    }
}

fn nested(p: &mut Parser<'_>, f: fn(&mut Parser<'_>)) {
    if p.depth >= MAX_DEPTH {
        too_deep(p);
        return;
    }
    p.depth += 1;
    f(p);
    p.depth -= 1;
}

fn keyword_kind(keyword: &str) -> SyntaxKind {
    match keyword {
        "if" => IF_KW,
        "else" => ELSE_KW,
        "endif" => ENDIF_KW,
        "for" => FOR_KW,
        _ => ENDFOR_KW,
    }
}

/// `${ expr }`.
fn interpolation(p: &mut Parser<'_>) {
    let m = p.start();
    let (open_start, open_end) = p.current_range();
    p.with_newlines(false, |p| {
        p.bump(TEMPLATE_INTERP);
        if !p.at(EOF) && !sequence_ended(p) {
            expr(p);
        }
        if sequence_ended(p) {
            // The lexer ended the interpolation before separators and a `${` (see
            // `runs_into_interpolation` in the lexer): its `}` is missing there.
            let end = p.prev_end().max(open_end);
            let text = p.source()[open_start as usize..end as usize].trim_end();
            let help = (end > open_end && text.len() <= 60 && !text.contains(['`', '\n']))
                .then(|| format!("write `{text}}}`"));
            p.error_with_help(
                SyntaxErrorKind::UnclosedBracket,
                open_start,
                end,
                "unterminated template interpolation: its `}` is missing before the next `${`",
                help,
            );
            return;
        }
        // At `"` the lexer already decided the interpolation lacks its `}` (see the lexer).
        if !p.at(TEMPLATE_SEQ_END) && !p.at(EOF) && !p.at(CQUOTE) {
            p.error(SyntaxErrorKind::UnexpectedToken, "extra characters after interpolation expression: expected `}` (to write a literal `${`, double the dollar sign: `$${`)");
            recover_to_sequence_end(p);
        }
        if !p.eat(TEMPLATE_SEQ_END) {
            p.error_at(
                SyntaxErrorKind::UnclosedBracket,
                open_start,
                open_end,
                "unterminated template interpolation: there is no closing `}` for this `${`",
            );
        }
    });
    m.complete(p, TEMPLATE_INTERPOLATION);
}

/// Whether the current token is one of a template's own (text or the start of a sequence), met
/// inside a sequence: the lexer ended that sequence without its `}`.
fn sequence_ended(p: &Parser<'_>) -> bool {
    matches!(
        p.current(),
        TEMPLATE_LITERAL | TEMPLATE_INTERP | TEMPLATE_CONTROL
    ) && !p.at_nested_interp()
}

/// `${ expr }` written inside an interpolation's expression (`"${upper(${prefix})}"`): one
/// error at the `${`, and the expression is read as if in parentheses.
pub(crate) fn nested_interpolation(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let (open_start, open_end) = p.current_range();
    p.bump(TEMPLATE_INTERP);
    let (inner_start, _) = p.current_range();
    let before = p.error_count();
    if !p.at(TEMPLATE_SEQ_END) {
        expr(p);
    }
    let inner_end = p.prev_end().max(inner_start);
    let text = p.source()[inner_start as usize..inner_end as usize].trim();
    let help = (p.error_count() == before
        && !text.is_empty()
        && text.len() <= 60
        && !text.contains(['`', '\n']))
    .then(|| format!("write `{text}`"));
    p.error_with_help(
        SyntaxErrorKind::UnexpectedToken,
        open_start,
        open_end,
        "`${` inside an interpolation: the expression is already inside `${ }`",
        help,
    );
    if !p.at(TEMPLATE_SEQ_END) {
        recover_to_sequence_end(p);
    }
    p.eat(TEMPLATE_SEQ_END);
    m.complete(p, PAREN_EXPR)
}

fn recover_to_sequence_end(p: &mut Parser<'_>) {
    // Brackets of other kinds may be unbalanced in junk; only the sequence end counts here.
    while !p.at(TEMPLATE_SEQ_END) && !p.at(EOF) {
        recover_in_list(p, TEMPLATE_SEQ_END, false);
        if !p.at(TEMPLATE_SEQ_END) && !p.at(EOF) {
            p.bump_any();
        }
    }
}

/// One `%{ keyword ... }` directive; returns its end offset.
fn directive(p: &mut Parser<'_>, keyword: SyntaxKind) -> u32 {
    let m = p.start();
    let (open_start, open_end) = p.current_range();
    p.with_newlines(false, |p| {
        p.bump(TEMPLATE_CONTROL);
        p.bump_remap(keyword);
        match keyword {
            IF_KW => {
                expr(p);
            }
            FOR_KW => {
                if eat_for_variable(p) {
                    if p.eat(COMMA) && !eat_for_variable(p) {
                        p.error(SyntaxErrorKind::InvalidDirective, "invalid `for` directive: expected a value variable name after `,`");
                    }
                } else {
                    p.error(SyntaxErrorKind::InvalidDirective, "invalid `for` directive: expected a variable name after `for`");
                }
                if p.at_ident("in") {
                    p.bump_remap(IN_KW);
                    expr(p);
                } else {
                    p.error(SyntaxErrorKind::InvalidDirective, "invalid `for` directive: expected `in` and a collection after the variable names");
                }
            }
            _ => {}
        }
        if !p.at(TEMPLATE_SEQ_END) && !p.at(EOF) && !sequence_ended(p) {
            p.error(SyntaxErrorKind::InvalidDirective, "extra characters in template directive: expected `}`");
            recover_to_sequence_end(p);
        }
        if !p.eat(TEMPLATE_SEQ_END) {
            p.error_at(
                SyntaxErrorKind::UnclosedBracket,
                open_start,
                open_end,
                "unterminated template directive: there is no closing `}` for this `%{`",
            );
        }
    });
    m.complete(p, TEMPLATE_DIRECTIVE);
    p.prev_end()
}

fn template_body(p: &mut Parser<'_>) {
    let m = p.start();
    parts(p, true);
    m.complete(p, TEMPLATE_BODY);
}

/// `%{ if c }...%{ else }...%{ endif }`.
fn template_if(p: &mut Parser<'_>) {
    let m = p.start();
    let (start, _) = p.current_range();
    let end = directive(p, IF_KW);
    template_body(p);
    if directive_keyword(p) == Some("else") {
        directive(p, ELSE_KW);
        template_body(p);
    }
    match directive_keyword(p) {
        Some("endif") => {
            directive(p, ENDIF_KW);
        }
        _ => {
            p.error_at(
                SyntaxErrorKind::UnclosedDirective,
                start,
                end,
                "missing `endif`: this `if` directive has no corresponding `%{ endif }`",
            );
        }
    }
    m.complete(p, TEMPLATE_IF);
}

/// `%{ for x in xs }...%{ endfor }`.
fn template_for(p: &mut Parser<'_>) {
    let m = p.start();
    let (start, _) = p.current_range();
    let end = directive(p, FOR_KW);
    template_body(p);
    if directive_keyword(p) == Some("else") {
        let (else_start, _) = p.current_range();
        let e = p.start();
        let else_end = directive(p, ELSE_KW);
        p.error_at(
            SyntaxErrorKind::UnexpectedDirective,
            else_start,
            else_end,
            "unexpected `else` directive: an `else` clause is not expected in a `for` directive",
        );
        e.complete(p, ERROR);
        template_body(p);
    }
    if directive_keyword(p) == Some("endfor") {
        directive(p, ENDFOR_KW);
    } else {
        p.error_at(
            SyntaxErrorKind::UnclosedDirective,
            start,
            end,
            "missing `endfor`: this `for` directive has no corresponding `%{ endfor }`",
        );
    }
    m.complete(p, TEMPLATE_FOR);
}

/// The directive keyword closest in spelling to `word`, for "did you mean". Keywords are short,
/// so up to two edits are accepted (a swapped pair of letters, `esle`, costs two); ties go to
/// the alphabetically first keyword.
fn closest_keyword(word: &str) -> Option<&'static str> {
    if word.is_empty() {
        return None;
    }
    ["if", "else", "endif", "for", "endfor"]
        .into_iter()
        .map(|kw| (edit_distance(word, kw), kw))
        .filter(|&(d, _)| d <= 2)
        .min()
        .map(|(_, kw)| kw)
}
