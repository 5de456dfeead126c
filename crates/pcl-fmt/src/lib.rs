//! The canonical layout of HCL native syntax (PCL `.pp`, Terraform `.tf`/`.tfvars`, `.hcl`).
//!
//! This crate owns formatting: the layout rules of hclwrite.Format (the formatter behind
//! `terraform fmt`), applied to the lossless token stream of `pcl-parser`, and expressed as
//! whitespace edits so that a command line tool and a language server (document, range and
//! on-type formatting) use the same code. Formatting only ever changes horizontal whitespace
//! between tokens: line breaks, tokens, comments, string and heredoc contents stay as they are.
//! Text with syntax errors is formatted too, except for the damaged items, which keep every byte
//! as written.
//!
//! It reads the lexer's tokens directly (the lossless tree holds exactly these tokens) and builds
//! the rowan tree only when the parser reports errors, to find the damaged items: formatting a
//! clean file costs a lex and a parse, and no tree.

mod damage;
mod layout;
mod tokens;

use pcl_parser::Lexed;
pub use pcl_syntax::{TextRange, TextSize};

use crate::damage::{Damage, UnclosedBlocks};
use crate::layout::Line;
use crate::tokens::Token;

/// Replace the text of `range` (a byte range of the original text) with `new_text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

/// The formatted text, and how to get there from the original.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formatted {
    pub text: String,
    /// Whitespace replacements, in order and non-overlapping; applying them to the original text
    /// gives `text`.
    pub edits: Vec<TextEdit>,
    /// Items with syntax errors, left exactly as written (byte ranges of the original text).
    pub damaged: Vec<TextRange>,
    /// The whole file was left as written: its syntax errors make the parse depend on
    /// indentation in a way that formatting would change (see [`format`]). `damaged` then
    /// covers the whole text.
    pub kept_whole: bool,
}

impl Formatted {
    pub fn is_changed(&self) -> bool {
        !self.edits.is_empty()
    }
}

/// Why a text was not formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// The formatted text would be far longer than the original: indentation grows with nesting,
    /// so thousands of nested blocks on their own lines would take gigabytes.
    OutputTooLarge { input: usize, output: usize },
    /// Texts of 4 GiB or more (offsets are 32-bit).
    InputTooLarge { input: usize },
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::OutputTooLarge { input, output } => write!(
                f,
                "not formatted: indenting it would take the text from {input} to {output} bytes \
                 (it is nested too deeply)"
            ),
            FormatError::InputTooLarge { input } => write!(
                f,
                "not formatted: {input} bytes is more than the 4 GiB a text may have"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// The largest output accepted for an input of `len` bytes: room for any sane indentation.
fn output_limit(len: usize) -> usize {
    len.saturating_mul(8).saturating_add(64 << 20)
}

/// Formats a whole file.
pub fn format(text: &str) -> Result<Formatted, FormatError> {
    if text.len() >= u32::MAX as usize {
        return Err(FormatError::InputTooLarge { input: text.len() });
    }
    let plan = Plan::new(text, UnclosedBlocks::Formatted);
    let formatted = render(text, &plan)?;
    if !plan.has_errors {
        return Ok(formatted);
    }
    // With syntax errors, the parser's recovery can depend on indentation (an unclosed block
    // ends before the first item indented no deeper than its `{` line), which formatting
    // changes, and then the damaged items of the output differ from the input's. An output
    // is accepted only when formatting it gives it back, so that formatting is idempotent by
    // construction; otherwise everything from the unclosed block on is kept, and failing
    // that the whole file.
    // It must also parse as the input does: an output that formats to itself can still move
    // a line out of an unclosed block (a damaged line kept at its width in tabs, under a
    // block line indented in spaces).
    let once = |text: &str, how| render(text, &Plan::new(text, how)).map(|f| f.text);
    if once(&formatted.text, UnclosedBlocks::Formatted)? == formatted.text
        && parses_alike(text, &formatted.text)
    {
        return Ok(formatted);
    }
    let kept = render(text, &Plan::new(text, UnclosedBlocks::KeptToEnd))?;
    // `format(kept)` is `kept` when either of its two steps gives `kept` back.
    let again = once(&kept.text, UnclosedBlocks::Formatted)?;
    let first_step_keeps = again == kept.text;
    let second_step_keeps = once(&again, UnclosedBlocks::Formatted)? != again
        && once(&kept.text, UnclosedBlocks::KeptToEnd)? == kept.text;
    if (first_step_keeps || second_step_keeps) && parses_alike(text, &kept.text) {
        return Ok(kept);
    }
    Ok(Formatted {
        text: text.to_string(),
        edits: Vec::new(),
        damaged: vec![TextRange::up_to(TextSize::of(text))],
        kept_whole: true,
    })
}

/// Whether two texts that differ only in whitespace parse to the same tree (the same nodes,
/// and the same tokens but whitespace, in the same places).
fn parses_alike(a: &str, b: &str) -> bool {
    fn shape(text: &str) -> Vec<(u32, pcl_syntax::SyntaxKind, Option<String>)> {
        let mut out = Vec::new();
        let mut depth = 0u32;
        for event in pcl_syntax::parse(text).syntax().preorder_with_tokens() {
            match event {
                rowan::WalkEvent::Enter(rowan::NodeOrToken::Node(node)) => {
                    out.push((depth, node.kind(), None));
                    depth += 1;
                }
                rowan::WalkEvent::Enter(rowan::NodeOrToken::Token(token)) => {
                    if token.kind() != pcl_syntax::SyntaxKind::WHITESPACE {
                        out.push((depth, token.kind(), Some(token.text().to_string())));
                    }
                }
                rowan::WalkEvent::Leave(rowan::NodeOrToken::Node(_)) => depth -= 1,
                rowan::WalkEvent::Leave(rowan::NodeOrToken::Token(_)) => {}
            }
        }
        out
    }
    shape(a) == shape(b)
}

/// The output of a plan, with its edits.
fn render(text: &str, plan: &Plan) -> Result<Formatted, FormatError> {
    let output_len = plan.output_len();
    if output_len > output_limit(text.len()) {
        return Err(FormatError::OutputTooLarge {
            input: text.len(),
            output: output_len,
        });
    }
    let mut out = String::with_capacity(output_len);
    let mut edits = Vec::new();
    out.push_str(&text[..plan.prefix as usize]);
    for ((i, token), damaged) in plan.tokens.iter().enumerate().zip(plan.damaged_flags()) {
        let old_gap = &text[token.gap_start as usize..token.start as usize];
        let new_len = plan.spaces[i] as usize;
        let unchanged = damaged || (old_gap.len() == new_len && old_gap.bytes().all(|b| b == b' '));
        if unchanged {
            out.push_str(old_gap);
        } else {
            let start = out.len();
            out.extend(std::iter::repeat_n(' ', new_len));
            edits.push(TextEdit {
                range: TextRange::new(token.gap_start.into(), token.start.into()),
                new_text: out[start..].to_string(),
            });
        }
        out.push_str(layout::token_text(text, token));
    }
    Ok(Formatted {
        text: out,
        edits,
        damaged: plan.damaged.clone(),
        kept_whole: false,
    })
}

/// The edits of [`format`] that fall on the lines `range` touches: range formatting, and on-type
/// formatting (with the range of the line just finished). Alignment is computed over the whole file,
/// so formatting every range in turn gives the same text as formatting the file.
pub fn format_range(text: &str, range: TextRange) -> Result<Vec<TextEdit>, FormatError> {
    let start = usize::from(range.start()).min(text.len());
    let end = usize::from(range.end()).clamp(start, text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    Ok(format(text)?
        .edits
        .into_iter()
        .filter(|e| {
            usize::from(e.range.start()) >= line_start && usize::from(e.range.end()) <= line_end
        })
        .collect())
}

/// Everything the output is made of: the tokens, their lines, and the spaces before each token.
struct Plan {
    /// Length of a leading byte order mark, which is kept.
    prefix: u32,
    tokens: Vec<Token>,
    lines: Vec<Line>,
    spaces: Vec<u32>,
    damaged: Vec<TextRange>,
    /// Whether the parser reported errors.
    has_errors: bool,
}

impl Plan {
    fn new(text: &str, unclosed_blocks: UnclosedBlocks) -> Plan {
        let prefix = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let lexed = Lexed::new(text);
        let clean =
            lexed.errors().is_empty() && pcl_parser::parse_source_file(&lexed).errors.is_empty();
        let tokens = tokens::tokens(&lexed, prefix);
        drop(lexed);
        let mut lines = layout::lines(&tokens);
        let damage = if clean {
            Damage::default()
        } else {
            damage::find(text, unclosed_blocks)
        };
        mark_damaged(&tokens, &mut lines, &damage);
        // hclwrite keeps the original gap length where no rule applies (before the end of input).
        let mut spaces: Vec<u32> = tokens.iter().map(|t| t.start - t.gap_start).collect();
        layout::layout(text, &tokens, &lines, &mut spaces);
        Plan {
            prefix,
            tokens,
            lines,
            spaces,
            damaged: damage.all(),
            has_errors: !clean,
        }
    }
}

impl Plan {
    /// Whether token `i` is on a damaged line (kept as written), for every token in order.
    fn damaged_flags(&self) -> impl Iterator<Item = bool> + '_ {
        let last = self.lines.last().is_some_and(|l| l.damaged);
        self.lines
            .iter()
            .flat_map(|l| (l.start..l.end).map(move |_| l.damaged))
            // The end of the input belongs to the last line.
            .chain(std::iter::once(last))
    }

    /// Length of the formatted text.
    fn output_len(&self) -> usize {
        self.tokens
            .iter()
            .zip(&self.spaces)
            .zip(self.damaged_flags())
            .map(|((t, &spaces), damaged)| {
                let gap = if damaged {
                    t.start - t.gap_start
                } else {
                    spaces
                };
                gap as usize + (t.end - t.start) as usize
            })
            .sum::<usize>()
            + self.prefix as usize
    }
}

/// Marks the lines that overlap damage.
fn mark_damaged(tokens: &[Token], lines: &mut [Line], damage: &Damage) {
    for &end in &damage.unclosed_ends {
        let end = u32::from(end);
        let after = lines.partition_point(|l| l.start < l.end && tokens[l.start].start < end);
        if let Some(line) = lines[after..].iter_mut().find(|l| l.start < l.end) {
            line.ends_unclosed += 1;
        }
    }
    if damage.items.is_empty() && damage.lines.is_empty() {
        return;
    }
    for line in lines.iter_mut().filter(|l| l.start < l.end) {
        let from = tokens[line.start].gap_start;
        let to = tokens[line.end - 1].end;
        line.in_damaged_item = overlaps(&damage.items, from, to);
        line.damaged = line.in_damaged_item || overlaps(&damage.lines, from, to);
    }
    // An empty last line holds only the whitespace before the end of the input, which a
    // damaged item can reach (an item kept to the end of the file).
    if let (Some(last), Some(eof)) = (lines.last_mut(), tokens.last()) {
        if last.start == last.end && eof.gap_start < eof.start {
            last.in_damaged_item = overlaps(&damage.items, eof.gap_start, eof.start);
            last.damaged =
                last.in_damaged_item || overlaps(&damage.lines, eof.gap_start, eof.start);
        }
    }
}

/// Whether any of `ranges` (sorted, non-overlapping) overlaps the bytes `from..to`.
fn overlaps(ranges: &[TextRange], from: u32, to: u32) -> bool {
    // The first range that does not end before `from`.
    let i = ranges.partition_point(|r| u32::from(r.end()) < from);
    ranges[i..]
        .iter()
        .take_while(|r| u32::from(r.start()) <= to)
        .any(|r| {
            let (s, e) = (u32::from(r.start()), u32::from(r.end()));
            if s == e {
                from <= s
            } else {
                s < to && e > from
            }
        })
}
