//! hclwrite's layout rules, on the token stream: indentation by bracket count per line, spacing
//! between neighbouring tokens, and alignment of the `=` and end-of-line comment "cells" of
//! consecutive lines.
//!
//! The rules are hclwrite.Format's (the formatter behind `terraform fmt`), rule for rule, so that
//! the output is byte for byte what HCL users get from their tools; docs/fmt.md lists where we
//! knowingly differ. The result is a number of spaces before every token; line breaks, token text
//! and the whitespace of damaged lines are never changed.

use unicode_segmentation::UnicodeSegmentation;

use crate::tokens::{Class, Token};

/// One line: token indices `start..end`, split into the lead, the `=` cell (`assign..`) and the
/// end-of-line comment cell (`comment..`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line {
    pub(crate) start: usize,
    pub(crate) assign: Option<usize>,
    pub(crate) comment: Option<usize>,
    pub(crate) end: usize,
    /// The line holds text with syntax errors: its whitespace stays as written, and it takes no
    /// part in alignment.
    pub(crate) damaged: bool,
    /// The line overlaps a damaged item, whose brackets are not counted for indentation: an
    /// unclosed `[` or `${` in broken text must not push every later line to the right.
    pub(crate) in_damaged_item: bool,
    /// How many unclosed blocks the parser ended just before this line (by its indentation):
    /// their levels end here, as if their `}` were written.
    pub(crate) ends_unclosed: u32,
}

impl Line {
    fn lead_end(&self) -> usize {
        self.assign.or(self.comment).unwrap_or(self.end)
    }

    fn assign_end(&self) -> usize {
        self.comment.unwrap_or(self.end)
    }

    fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// Splits the tokens (without the final EOF token) into lines and cells.
pub(crate) fn lines(tokens: &[Token]) -> Vec<Line> {
    let body = &tokens[..tokens.len() - 1];
    let mut lines = Vec::with_capacity(body.len() / 4 + 1);
    let mut start = 0;
    for (i, token) in body.iter().enumerate() {
        if token.class.is_line_end() {
            lines.push(split_cells(body, start, i + 1));
            start = i + 1;
        }
    }
    // The last line (empty when the input ends with a line break).
    lines.push(split_cells(body, start, body.len()));
    lines
}

fn split_cells(tokens: &[Token], start: usize, end: usize) -> Line {
    let mut line = Line {
        start,
        assign: None,
        comment: None,
        end,
        damaged: false,
        in_damaged_item: false,
        ends_unclosed: 0,
    };
    if end - start > 1 && tokens[end - 1].class.is_comment() {
        line.comment = Some(end - 1);
    }
    let lead_end = line.lead_end();
    if let Some(eq) = (start + 1..lead_end).find(|&i| tokens[i].class == Class::Equal) {
        // Only a right-hand side that closes every bracket it opens is a cell of its own; one that
        // opens a multi-line value is not aligned.
        if net_brackets(&tokens[eq..lead_end]) == 0 {
            line.assign = Some(eq);
        }
    }
    line
}

/// Openers minus closers.
fn net_brackets(tokens: &[Token]) -> i32 {
    tokens.iter().map(|t| t.class.bracket_change()).sum()
}

/// Computes the spaces before every token. `spaces` comes in holding the original gap lengths
/// (what hclwrite keeps where no rule applies: before the end of the input).
pub(crate) fn layout(text: &str, tokens: &[Token], lines: &[Line], spaces: &mut [u32]) {
    indent(tokens, lines, spaces);
    space(text, tokens, lines, spaces);
    align(text, tokens, lines, spaces);
}

/// Indentation: two spaces per level, where a line with a net surplus of openers opens one level
/// and a line with a net surplus of closers closes as many levels as it closes openers of earlier
/// lines. The stack keeps unbalanced lines (`foo([` then `])`) from drifting.
fn indent(tokens: &[Token], lines: &[Line], spaces: &mut [u32]) {
    let mut levels: Vec<i32> = Vec::new();
    for line in lines {
        if line.is_empty() {
            continue;
        }
        for _ in 0..line.ends_unclosed {
            levels.pop();
        }
        let first = line.start;
        if tokens[first].class == Class::Newline {
            spaces[first] = 0;
            continue;
        }
        if line.in_damaged_item {
            // Kept as written, and neutral to the lines around it.
            continue;
        }
        let mut net = 0;
        for token in &tokens[first..line.lead_end()] {
            net += token.class.bracket_change();
            if token.class == Class::OHeredoc {
                break;
            }
        }
        if let Some(assign) = line.assign {
            net += net_brackets(&tokens[assign..line.assign_end()]);
        }
        if net > 0 {
            spaces[first] = 2 * levels.len() as u32;
            levels.push(net);
            continue;
        }
        let mut closed = -net;
        while closed > 0 {
            let Some(top) = levels.last_mut() else { break };
            if closed >= *top {
                closed -= *top;
                levels.pop();
            } else {
                *top -= closed;
                closed = 0;
            }
        }
        spaces[first] = 2 * levels.len() as u32;
    }
}

/// Spacing between the tokens of each cell.
fn space(text: &str, tokens: &[Token], lines: &[Line], spaces: &mut [u32]) {
    for line in lines {
        space_run(text, tokens, line.start, line.lead_end(), spaces);
        if let Some(assign) = line.assign {
            // One space separates `=` from what it assigns; alignment may add more.
            spaces[assign] = 1;
            space_run(text, tokens, assign, line.assign_end(), spaces);
        }
    }
}

fn space_run(text: &str, tokens: &[Token], start: usize, end: usize, spaces: &mut [u32]) {
    for i in start..end.saturating_sub(1) {
        let before = if i > start {
            Some(&tokens[i - 1])
        } else {
            None
        };
        spaces[i + 1] = u32::from(space_after(text, &tokens[i], before, &tokens[i + 1]));
    }
}

/// Whether `subject` is followed by a space, given its neighbours (`before` is `None` at the start
/// of a cell).
fn space_after(text: &str, subject: &Token, before: Option<&Token>, after: &Token) -> bool {
    use Class::*;
    let (s, a) = (subject.class, after.class);
    let b = before.map(|t| t.class);
    if a == Newline {
        // Never a space before a line break.
        return false;
    }
    match (s, a) {
        // A function name and its `(`.
        (Ident, OParen) => return false,
        // Namespaced function names: `provider::aws::arn_parse`.
        (Ident, DoubleColon) | (DoubleColon, Ident) => return false,
        // `2. 1` (a legacy index on a number): without the space it would be the number `2.1`.
        // hclwrite writes `2.1`, changing the program; found by fuzzing.
        (Dot, Number)
            if before.is_some_and(|b| {
                b.class == Number && token_text(text, b).bytes().all(|c| c.is_ascii_digit())
            }) =>
        {
            return true
        }
        (Dot, _) | (_, Dot) => return false,
        (_, Comma | Ellipsis) => return false,
        (Comma, _) => return true,
        // Template text is kept as written.
        (Literal | OQuote | OHeredoc, _) | (_, Literal | CQuote | CHeredoc) => return false,
        _ => {}
    }
    if s == Ident && b == Some(Ident) && token_text(text, subject) == "in" {
        // `for x in [a]`: the keyword, not an index into a variable named `in`.
        return true;
    }
    if a == OBrack && (s == Ident || s == Number || s.bracket_change() < 0) {
        return false;
    }
    match s {
        Bang => return false,
        Minus => {
            // Negation (no space) unless what comes before can end an operand.
            return !matches!(
                b,
                None | Some(
                    OParen
                        | OBrace
                        | OBrack
                        | Equal
                        | Colon
                        | Comma
                        | Question
                        | Plus
                        | Star
                        | Slash
                        | Percent
                        | Minus
                        | EqualOp
                        | NotEqual
                        | Greater
                        | GreaterEq
                        | Less
                        | LessEq
                        | And
                        | Or
                        | Bang
                )
            );
        }
        _ => {}
    }
    if s == OBrace || a == CBrace {
        // Braces are padded (`{ a = 1 }`), except an empty pair (`{}`).
        return !(s == OBrace && a == CBrace);
    }
    match (s, a) {
        // `${ {a = 1} }`: an object directly in an interpolation is set apart from it.
        (TemplateInterp | TemplateControl, OBrace) | (CBrace, TemplateSeqEnd) => return true,
        (TemplateSeqEnd, TemplateInterp | TemplateControl) => return false,
        _ => {}
    }
    if s.bracket_change() > 0 || a.bracket_change() < 0 {
        return false;
    }
    true
}

/// Aligns the `=` of consecutive attribute lines one column after the widest lead, then the
/// end-of-line comments of consecutive commented lines one column after the widest lead and `=`
/// cell. Damaged lines break both kinds of group.
fn align(text: &str, tokens: &[Token], lines: &[Line], spaces: &mut [u32]) {
    align_cells(text, tokens, lines, spaces, |l| l.assign, Line::lead_end);
    align_cells(text, tokens, lines, spaces, |l| l.comment, Line::assign_end);
}

/// Lines up the cell `cell` of each group of consecutive lines that have it, after the widest
/// text before it (the tokens up to `before_end`).
fn align_cells(
    text: &str,
    tokens: &[Token],
    lines: &[Line],
    spaces: &mut [u32],
    cell: impl Fn(&Line) -> Option<usize>,
    before_end: impl Fn(&Line) -> usize,
) {
    let columns = |spaces: &[u32], line: &Line| -> u32 {
        let (from, to) = (line.start, before_end(line));
        tokens[from..to]
            .iter()
            .zip(&spaces[from..to])
            .map(|(t, &s)| s + graphemes(token_text(text, t)))
            .sum()
    };
    let mut i = 0;
    while i < lines.len() {
        let start = i;
        while i < lines.len() && cell(&lines[i]).is_some() && !lines[i].damaged {
            i += 1;
        }
        if i == start {
            i += 1;
            continue;
        }
        let group = &lines[start..i];
        let widest = group.iter().map(|l| columns(spaces, l)).max().unwrap_or(0);
        for line in group {
            let width = columns(spaces, line);
            if let Some(cell) = cell(line) {
                spaces[cell] = widest - width + 1;
            }
        }
    }
}

pub(crate) fn token_text<'t>(text: &'t str, token: &Token) -> &'t str {
    &text[token.start as usize..token.end as usize]
}

/// Columns a token takes: grapheme clusters, as hclwrite counts them.
fn graphemes(text: &str) -> u32 {
    if text.is_ascii() {
        // Only `\r\n` joins two ASCII characters into one cluster.
        let crlf = text.as_bytes().windows(2).filter(|w| w == b"\r\n").count();
        (text.len() - crlf) as u32
    } else {
        text.graphemes(true).count() as u32
    }
}
