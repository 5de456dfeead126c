//! The parser cursor: lookahead over non-trivia tokens, markers for nodes, newline modes, errors.

use crate::error::SyntaxErrorKind;
use crate::event::{Event, Output, ParseError};
use crate::lexer::Lexed;
use crate::syntax_kind::SyntaxKind::{self, *};

/// How deep expressions, templates and blocks may nest before the parser stops descending.
/// Deeper input is still consumed (flat, inside an ERROR node), so the tree stays shallow and no
/// recursion in this crate or above can overflow the stack.
pub const MAX_DEPTH: u32 = 256;

pub(crate) struct Parser<'a> {
    lexed: &'a Lexed<'a>,
    /// Indices (into `lexed`) of the non-trivia tokens.
    tokens: Vec<u32>,
    pos: usize,
    events: Vec<Event>,
    errors: Vec<ParseError>,
    /// Stack of "are newlines significant here?" (hclsyntax's peeker stack).
    newline_modes: Vec<bool>,
    pub(crate) depth: u32,
    /// Positions (in `tokens`) of `{` tokens that no `}` closes, in order. Usually empty.
    unmatched_braces: Vec<u32>,
    /// When some `{` is unclosed: the pairs (positions in `tokens`) of a `{` and the `}` that
    /// closes it by count but begins a line indented less than the `{`'s line, in order. Such
    /// a `}` most likely belongs to an enclosing `{`, so the one missing is just before it.
    /// In the order of their `}`; the flag marks a pair already given to a block.
    misindented_closes: Vec<(u32, u32, bool)>,
    /// `misindented_closes` by their `{`: (its position, the pair's index), sorted.
    misindented_by_opener: Vec<(u32, usize)>,
    /// When the file has more `}` than `{`: the `}` tokens (positions in `tokens`) that are
    /// probably the extra ones (see `stray_closes`), in order. Usually empty. The parser skips
    /// each as an error inside its block, so the block keeps the lines after it.
    stray_closes: Vec<u32>,
    /// Those of `stray_closes` that end the body of a block whose `{` is missing (see
    /// `close_of_missing_block_open`), in order: each is the block's `}` after all.
    stray_taken: Vec<u32>,
    /// Closing brackets that close nothing where they are: a `]` or `)` with no `[` or `(`
    /// open, a `}` with no `{` open that is not explained by a `}` typed once too often.
    /// In order; usually empty. Lists skip them as errors, so they keep their items.
    lone_closers: Vec<u32>,
    /// `(opener, closer)`: a `[`, `(` or `{` whose closing bracket is missing before a closer
    /// of an enclosing bracket (`[{ ... ]`), in the order of their openers. Usually empty.
    /// The list of the opener ends there, with one error at that closer.
    missing_closers: Vec<(u32, u32)>,
    /// The last offset `line_of` counted to, and its line.
    line_cache: std::cell::Cell<(u32, usize)>,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(lexed: &'a Lexed<'a>) -> Parser<'a> {
        let tokens: Vec<u32> = (0..lexed.len())
            .filter(|&i| !lexed.kind(i).is_trivia())
            .map(|i| i as u32)
            .collect();
        let Braces {
            unclosed: unmatched_braces,
            misindented_closes,
            stray_closes,
            lone_closers,
            missing_closers,
        } = braces(lexed, &tokens);
        // A token's own event, and its share of the nodes' starts and finishes: a little over
        // two a token in real programs, so three: sized once, the vector is not copied as it
        // grows (room never written costs no memory), and a batch of files reuses the same
        // few blocks.
        let mut misindented_by_opener: Vec<(u32, usize)> = misindented_closes
            .iter()
            .enumerate()
            .map(|(i, &(opener, _, _))| (opener, i))
            .collect();
        misindented_by_opener.sort_unstable();
        let events = Vec::with_capacity(tokens.len() * 3 + 8);
        Parser {
            lexed,
            tokens,
            pos: 0,
            events,
            errors: Vec::new(),
            newline_modes: vec![true],
            depth: 0,
            unmatched_braces,
            misindented_closes,
            misindented_by_opener,
            stray_closes,
            stray_taken: Vec::new(),
            lone_closers,
            missing_closers,
            line_cache: std::cell::Cell::new((0, 1)),
        }
    }

    pub(crate) fn finish(self) -> Output {
        let brackets_paired = self.unmatched_braces.is_empty()
            && self.stray_closes.is_empty()
            && self.lone_closers.is_empty()
            && self.missing_closers.is_empty();
        Output {
            events: self.events,
            errors: self.errors,
            brackets_paired,
        }
    }

    fn newlines_significant(&self) -> bool {
        *self.newline_modes.last().unwrap_or(&true)
    }

    /// Runs `f` with newlines significant (`true`) or ignored (`false`).
    pub(crate) fn with_newlines<T>(
        &mut self,
        significant: bool,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        self.newline_modes.push(significant);
        let result = f(self);
        self.newline_modes.pop();
        result
    }

    fn raw_kind(&self, pos: usize) -> SyntaxKind {
        match self.tokens.get(pos) {
            Some(&i) => self.lexed.kind(i as usize),
            None => EOF,
        }
    }

    /// Where the parser is in the raw tokens: moves with every token taken.
    #[inline]
    pub(crate) fn raw_pos(&self) -> usize {
        self.pos
    }

    /// Position of the `n`th token ahead, skipping newlines where they are ignored.
    pub(crate) fn nth_pos(&self, n: usize) -> usize {
        self.nth_pos_in_mode(n, self.newlines_significant())
    }

    /// Kind and text of the `n`th token ahead as if newlines were ignored here.
    pub(crate) fn nth_ignoring_newlines(&self, n: usize) -> (SyntaxKind, &'a str) {
        let pos = self.nth_pos_in_mode(n, false);
        (self.raw_kind(pos), self.token_text(pos))
    }

    fn nth_pos_in_mode(&self, n: usize, newlines_significant: bool) -> usize {
        let mut pos = self.pos;
        let mut left = n;
        loop {
            if !newlines_significant {
                while self.raw_kind(pos) == NEWLINE {
                    pos += 1;
                }
            }
            if left == 0 {
                return pos;
            }
            left -= 1;
            pos += 1;
        }
    }

    pub(crate) fn nth(&self, n: usize) -> SyntaxKind {
        self.raw_kind(self.nth_pos(n))
    }

    pub(crate) fn current(&self) -> SyntaxKind {
        self.nth(0)
    }

    pub(crate) fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == kind
    }

    /// Whether the `n`th token is the identifier `text` (a contextual keyword).
    pub(crate) fn nth_at_ident(&self, n: usize, text: &str) -> bool {
        let pos = self.nth_pos(n);
        self.raw_kind(pos) == IDENT && self.token_text(pos) == text
    }

    pub(crate) fn at_ident(&self, text: &str) -> bool {
        self.nth_at_ident(0, text)
    }

    fn token_text(&self, pos: usize) -> &'a str {
        match self.tokens.get(pos) {
            Some(&i) => self.lexed.text(i as usize),
            None => "",
        }
    }

    pub(crate) fn current_text(&self) -> &'a str {
        self.token_text(self.nth_pos(0))
    }

    /// Byte range of the current token (an empty range at the end of input).
    pub(crate) fn current_range(&self) -> (u32, u32) {
        self.range_at(self.nth_pos(0))
    }

    pub(crate) fn nth_range(&self, n: usize) -> (u32, u32) {
        self.range_at(self.nth_pos(n))
    }

    /// Byte range of the token at a position of [`Parser::current_pos`]'s kind.
    pub(crate) fn pos_range(&self, pos: u32) -> (u32, u32) {
        self.range_at(pos as usize)
    }

    fn range_at(&self, pos: usize) -> (u32, u32) {
        match self.tokens.get(pos) {
            Some(&i) => self.lexed.range(i as usize),
            None => {
                let end = self.lexed.source().len() as u32;
                (end, end)
            }
        }
    }

    /// End offset of the last consumed non-trivia token.
    pub(crate) fn prev_end(&self) -> u32 {
        if self.pos == 0 {
            0
        } else {
            self.range_at(self.pos - 1).1
        }
    }

    /// Whether the current token is a `{` that no `}` in the file closes.
    pub(crate) fn at_unmatched_brace(&self) -> bool {
        let pos = self.nth_pos(0) as u32;
        self.raw_kind(pos as usize) == L_BRACE && self.unmatched_braces.binary_search(&pos).is_ok()
    }

    /// Whether the current token opens a heredoc that no line closes, cut by the lexer (see
    /// `Lexed::is_cut_heredoc`).
    pub(crate) fn at_cut_heredoc(&self) -> bool {
        self.current_lexed_index()
            .is_some_and(|i| self.lexed.is_cut_heredoc(i))
    }

    /// Whether the current token is a `${` written inside an interpolation's expression (see
    /// `Lexed::is_nested_interp`).
    #[inline]
    pub(crate) fn at_nested_interp(&self) -> bool {
        self.current_lexed_index()
            .is_some_and(|i| self.lexed.is_nested_interp(i))
    }

    /// The current token's index among the lexer's tokens (trivia included).
    fn current_lexed_index(&self) -> Option<usize> {
        self.tokens.get(self.nth_pos(0)).map(|&i| i as usize)
    }

    /// Whether the current token is a `}` that is probably one too many (the file has more `}`
    /// than `{`, and the lines after this one are still indented inside the block it would
    /// close by count).
    #[inline]
    pub(crate) fn at_stray_close(&self) -> bool {
        if self.stray_closes.is_empty() {
            return false;
        }
        let pos = self.nth_pos(0) as u32;
        self.raw_kind(pos as usize) == R_BRACE
            && self.stray_closes.binary_search(&pos).is_ok()
            && self.stray_taken.binary_search(&pos).is_err()
    }

    /// Whether the file has closers that close nothing or a `}` typed once too often (rare:
    /// lists ask this before anything else about them).
    #[inline]
    pub(crate) fn has_stray_closers(&self) -> bool {
        !(self.lone_closers.is_empty() && self.stray_closes.is_empty())
    }

    /// Whether some bracket's closer is missing before an enclosing one's (rare).
    #[inline]
    pub(crate) fn has_missing_closers(&self) -> bool {
        !self.missing_closers.is_empty()
    }

    /// Whether the current token is a closing bracket that closes nothing where it is (see
    /// `lone_closers`).
    #[inline]
    pub(crate) fn at_lone_closer(&self) -> bool {
        !self.lone_closers.is_empty()
            && self
                .lone_closers
                .binary_search(&(self.nth_pos(0) as u32))
                .is_ok()
    }

    /// Whether the current token is the closer of an enclosing bracket before which the
    /// closing bracket of the opener at `opener` (a position in `tokens`) is missing.
    #[inline]
    pub(crate) fn at_missing_closer_of(&self, opener: u32) -> bool {
        !self.missing_closers.is_empty()
            && self
                .missing_closers
                .binary_search_by_key(&opener, |&(o, _)| o)
                .is_ok_and(|i| self.missing_closers[i].1 == self.nth_pos(0) as u32)
    }

    /// The kind of the next token, a line break included whatever the newline mode.
    pub(crate) fn raw_current(&self) -> SyntaxKind {
        self.raw_kind(self.pos)
    }

    /// The kind of the token after the current one when it is on the same line (`NEWLINE`
    /// when the line ends there, whatever the newline mode).
    pub(crate) fn next_on_line(&self) -> SyntaxKind {
        self.raw_kind(self.nth_pos(0) + 1)
    }

    /// For an unclosed `{` at `open` (its position in `tokens`), parsed up to the current
    /// token: the first `}` after it, before the current token, that closes a `{` by count but
    /// is indented less than that `{`'s line, with that `{`. Each pair is given
    /// once, so nested unclosed blocks point at different ones.
    pub(crate) fn take_misindented_close(&mut self, open: u32) -> Option<(u32, u32)> {
        // In the order of their `}`; the first whose `}` comes after the block's `{` is
        // found by a binary search, a pair taken is marked, and only a few are looked at from
        // there (what is skipped is taken by nested blocks or encloses the block, both bounded
        // by the nesting), so that a file of many unclosed blocks stays linear.
        const LOOK_AT: usize = 512;
        let end = self.nth_pos(0) as u32;
        let first = self
            .misindented_closes
            .partition_point(|&(_, closer, _)| closer <= open);
        let candidates = self.misindented_closes[first..].iter_mut().take(LOOK_AT);
        for (opener, closer, taken) in candidates {
            if *closer >= end {
                break;
            }
            if !*taken && *opener > open {
                *taken = true;
                return Some((*opener, *closer));
            }
        }
        None
    }

    /// When the `{` at `open` (a position in `tokens`) is closed by count by a `}` indented
    /// less than its line (see `misindented_closes`): that `}`, which belongs to an enclosing
    /// `{`. The `{`'s own `}` is then probably missing where the indentation returns to its
    /// line's, and its body ends there, before that `}` at the latest. The pair is taken, so
    /// no enclosing block reports it again.
    pub(crate) fn take_misindented_open(&mut self, open: u32) -> Option<u32> {
        if self.misindented_closes.is_empty() {
            return None;
        }
        // The pairs are in the order of their `}`; their `{`s are found through an index in
        // the order of the `{`s (a file of many misindented blocks stays linear).
        let at = self
            .misindented_by_opener
            .binary_search_by_key(&open, |&(opener, _)| opener)
            .ok()?;
        let pair = &mut self.misindented_closes[self.misindented_by_opener[at].1];
        if pair.2 {
            return None;
        }
        pair.2 = true;
        Some(pair.1)
    }

    /// The range of the last token before the current one that is not a line break.
    pub(crate) fn last_token_range(&self) -> (u32, u32) {
        let mut pos = self.nth_pos(0);
        while pos > 0 {
            pos -= 1;
            if self.raw_kind(pos) != NEWLINE {
                return self.range_at(pos);
            }
        }
        self.range_at(self.nth_pos(0))
    }

    /// The range of the token at a position in `tokens`.
    pub(crate) fn range_of(&self, pos: u32) -> (u32, u32) {
        self.range_at(pos as usize)
    }

    /// The end of the `"` that ends the current line, when the line's tokens from here end with
    /// a quote that opens a string with nothing after it (`web-server"`: a string whose opening
    /// quote is missing). Never on valid input: a quoted string ends on its own line. Looks at
    /// most 64 tokens ahead.
    pub(crate) fn line_ends_in_lone_quote(&self) -> Option<u32> {
        let mut pos = self.pos;
        for _ in 0..64 {
            match self.raw_kind(pos) {
                NEWLINE | EOF => {
                    return (pos > self.pos && self.raw_kind(pos - 1) == OQUOTE)
                        .then(|| self.range_at(pos - 1).1);
                }
                _ => pos += 1,
            }
        }
        None
    }

    /// From the line break at the current token, over the lines below indented deeper than
    /// `indent`: the first token of the first of them (none if there is none), and the first
    /// token of the first line indented no deeper, with that line's indentation. What the two
    /// rules for a missing opener (below) read: the lines between are the body whose `{` or
    /// `[` is missing. `None` at the end of input, or after 4,096 tokens.
    fn lines_below(&self, from: usize, indent: u32) -> Option<(Option<usize>, usize, u32)> {
        let mut pos = from;
        let mut first = None;
        let mut budget = 4096usize;
        loop {
            // At a line break: the next line's first token.
            while self.raw_kind(pos) == NEWLINE {
                pos += 1;
            }
            if self.raw_kind(pos) == EOF {
                return None;
            }
            let line_indent = self.indent_at(pos)?;
            if line_indent <= indent {
                return Some((first, pos, line_indent));
            }
            first.get_or_insert(pos);
            while !matches!(self.raw_kind(pos), NEWLINE | EOF) {
                pos += 1;
                budget = budget.checked_sub(1)?;
            }
        }
    }

    /// For an argument whose value is missing at the end of its line (`metadata =`), where the
    /// lines below are indented deeper than the argument's `indent` and the first line back at
    /// that indentation (not less) begins with `}` or `]`: the position and kind of that closer (the
    /// value's `{` or `[` is missing; for a `}`, the first line below must read as an object's
    /// item, `name =` or `name:`). Never on valid input: a value cannot be missing. Looks at
    /// most 4,096 tokens ahead.
    pub(crate) fn closer_of_missing_opener(&self, indent: u32) -> Option<(u32, SyntaxKind)> {
        if self.raw_kind(self.pos) != NEWLINE {
            return None;
        }
        let (first, back, back_indent) = self.lines_below(self.pos, indent)?;
        // A closer indented less is the enclosing block's or list's.
        let first = first.filter(|_| back_indent == indent)?;
        let kind = self.raw_kind(back);
        let fits = match kind {
            R_BRACK => true,
            R_BRACE => {
                matches!(self.raw_kind(first), IDENT | OQUOTE)
                    && matches!(self.raw_kind(first + 1), EQ | COLON)
            }
            _ => false,
        };
        fits.then_some((back as u32, kind))
    }

    /// For a block header that ends its line without a `{` (`resource bucket "t"`), starting
    /// at `header_start`: the position of the `}` that ends its body, when the lines below are
    /// indented deeper (the first beginning with a name), the first line back at the header's
    /// indentation (not less) begins with `}`, and the file has a `}` that closes nothing by
    /// count at or after that one (the block's `{` is missing): for a top-level block, that `}`
    /// is the first after the header that closes nothing; for a nested one, it closes the
    /// enclosing block by count, or was taken for one typed once too often. Never on valid
    /// input: every `}` closes something. Looks at most 4,096 tokens ahead.
    pub(crate) fn close_of_missing_block_open(&self, header_start: u32) -> Option<u32> {
        self.close_of_missing_block_open_from(header_start, self.pos)
    }

    /// [`Self::close_of_missing_block_open`] for a header whose line break is at `from` (a
    /// position in `tokens`), before its labels are read.
    pub(crate) fn close_of_missing_block_open_from(
        &self,
        header_start: u32,
        from: usize,
    ) -> Option<u32> {
        if self.raw_kind(from) != NEWLINE || !self.has_stray_closers() {
            return None;
        }
        // The first `}` after the header that closes nothing, or that was typed once too often.
        let after = |list: &[u32]| {
            list[list.partition_point(|&c| c < from as u32)..]
                .iter()
                .copied()
                .find(|&c| self.raw_kind(c as usize) == R_BRACE)
        };
        let first_lone = match (after(&self.lone_closers), after(&self.stray_closes)) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        // Only now (rare: a file with a closer that closes nothing), the header's indentation.
        let indent = self.line_indent(header_start);
        let (first, back, back_indent) = self.lines_below(from, indent)?;
        let first = first?;
        let fits = if indent == 0 {
            back as u32 == first_lone
        } else {
            back as u32 <= first_lone
        };
        (self.raw_kind(first) == IDENT
            && back_indent == indent
            && self.raw_kind(back) == R_BRACE
            && fits)
            .then_some(back as u32)
    }

    /// The `}` at `pos` ends the body of a block whose `{` is missing: when it was taken for one
    /// typed once too often, it is not that any more.
    pub(crate) fn take_stray_close(&mut self, pos: u32) {
        if self.stray_closes.binary_search(&pos).is_ok() {
            self.stray_taken.push(pos);
        }
    }

    /// Whether the current token begins a line that reads as the header of a top-level block
    /// of PCL (one of `BLOCK_KEYWORDS`, its labels, and a `{` that ends the line; `pulumi`
    /// takes no label, the others at least one). Such a line cannot be a nested block of a
    /// node's body. Looks at most 16 tokens ahead.
    pub(crate) fn at_top_level_block_header(&self) -> bool {
        let pos = self.nth_pos(0);
        if self.raw_kind(pos) != IDENT || self.indent_at(pos).is_none() {
            return false;
        }
        let keyword = self.token_text(pos);
        if !crate::BLOCK_KEYWORDS.contains(&keyword) {
            return false;
        }
        let mut at = pos + 1;
        let mut labels = 0;
        while labels < 8 {
            match self.raw_kind(at) {
                IDENT => at += 1,
                OQUOTE => {
                    // A quoted label: a plain string, `"` text `"`.
                    at += 1;
                    if self.raw_kind(at) == TEMPLATE_LITERAL {
                        at += 1;
                    }
                    if self.raw_kind(at) != CQUOTE {
                        return false;
                    }
                    at += 1;
                }
                _ => break,
            }
            labels += 1;
        }
        (labels > 0 || keyword == "pulumi")
            && self.raw_kind(at) == L_BRACE
            && matches!(self.raw_kind(at + 1), NEWLINE | EOF)
    }

    /// The indentation of the line of the token at `pos`, if it is the first on its line.
    fn indent_at(&self, pos: usize) -> Option<u32> {
        let raw = *self.tokens.get(pos)? as usize;
        match raw.checked_sub(1).map(|i| self.lexed.kind(i)) {
            None | Some(NEWLINE) => Some(0),
            Some(WHITESPACE) => {
                let before_ws = raw.checked_sub(2).map(|i| self.lexed.kind(i));
                matches!(before_ws, None | Some(NEWLINE))
                    .then(|| self.lexed.text(raw - 1).len() as u32)
            }
            _ => None,
        }
    }

    /// The text being parsed.
    pub(crate) fn source(&self) -> &'a str {
        self.lexed.source()
    }

    /// The 1-based line of `offset`, for messages that name another line. Counted from the
    /// last offset asked for (they mostly grow as the parse goes on), so a file with many such
    /// messages is scanned about once, not once per message.
    pub(crate) fn line_of(&self, offset: u32) -> usize {
        let (at, line) = self.line_cache.get();
        let src = self.lexed.source().as_bytes();
        let (at, offset) = (at as usize, (offset as usize).min(src.len()));
        let newlines =
            |from: usize, to: usize| src[from..to].iter().filter(|&&b| b == b'\n').count();
        let line = if offset >= at {
            line + newlines(at, offset)
        } else {
            line - newlines(offset, at)
        };
        self.line_cache.set((offset as u32, line));
        line
    }

    /// The position (in `tokens`) of the current token.
    pub(crate) fn current_pos(&self) -> u32 {
        self.nth_pos(0) as u32
    }

    /// For a `{` at `opener` left open until a `}` at `closer` (positions in `tokens`): the
    /// range of the first token after it that begins a line indented no deeper than the
    /// `{`'s line, where its `}` most likely belongs; the `}` at `closer` (which begins such a
    /// line) when none comes before. Looks at tokens of the structure only: a heredoc's lines
    /// are not indentation. Gives up after a long stretch (a hostile file) and returns `closer`.
    pub(crate) fn dedent_after(&self, opener: u32, closer: u32) -> (u32, u32) {
        const MAX_TOKENS: usize = 100_000;
        let indent = self.line_indent(self.range_at(opener as usize).0);
        let from = opener as usize + 1;
        let to = (closer as usize).min(from + MAX_TOKENS);
        for pos in from..to {
            let i = self.tokens[pos] as usize;
            let structural = matches!(
                self.lexed.kind(i),
                IDENT | NUMBER | L_BRACE | R_BRACE | L_BRACK | R_BRACK | L_PAREN | R_PAREN | OQUOTE
            );
            if structural && line_start_indent(self.lexed, i).is_some_and(|at| at <= indent) {
                return self.range_at(pos);
            }
        }
        self.range_at(closer as usize)
    }

    /// The indentation (in bytes of spaces and tabs) of the line holding `offset`.
    pub(crate) fn line_indent(&self, offset: u32) -> u32 {
        crate::lexer::line_indent_at(self.lexed.source(), offset as usize) as u32
    }

    /// The indentation of the current token's line, if the token is the first on its line.
    /// Looks only at the preceding raw tokens, so it costs O(1).
    pub(crate) fn current_line_indent(&self) -> Option<u32> {
        self.indent_at(self.nth_pos(0))
    }

    /// Emits ignored newlines as tokens so they land before, not inside, the next node.
    fn eat_ignored_newlines(&mut self) {
        if !self.newlines_significant() {
            while self.raw_kind(self.pos) == NEWLINE {
                self.events.push(Event::Token { kind: NEWLINE });
                self.pos += 1;
            }
        }
    }

    pub(crate) fn start(&mut self) -> Marker {
        self.eat_ignored_newlines();
        let pos = self.events.len() as u32;
        self.events.push(Event::Start {
            kind: ERROR,
            forward_parent: None,
        });
        Marker::new(pos)
    }

    /// Consumes the current token under its own kind.
    pub(crate) fn bump_any(&mut self) {
        let kind = self.current();
        if kind == EOF {
            return;
        }
        self.bump_remap(kind);
    }

    pub(crate) fn bump(&mut self, kind: SyntaxKind) {
        debug_assert_eq!(self.current(), kind);
        self.bump_any();
    }

    /// Consumes the current token under a different kind (contextual keywords).
    pub(crate) fn bump_remap(&mut self, kind: SyntaxKind) {
        self.eat_ignored_newlines();
        if self.raw_kind(self.pos) == EOF {
            return;
        }
        self.events.push(Event::Token { kind });
        self.pos += 1;
    }

    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if self.at(kind) {
            self.bump_any();
            true
        } else {
            false
        }
    }

    /// Reports an error at the current token.
    pub(crate) fn error(&mut self, kind: SyntaxErrorKind, message: impl Into<String>) {
        let (start, end) = self.current_range();
        self.error_at(kind, start, end, message);
    }

    /// Reports an error with an explicit range. An error at an `ERROR_TOKEN` is dropped: the lexer
    /// already said what is wrong there, and a second message would only repeat it.
    pub(crate) fn error_at(
        &mut self,
        kind: SyntaxErrorKind,
        start: u32,
        end: u32,
        message: impl Into<String>,
    ) {
        self.error_with_help(kind, start, end, message, None);
    }

    /// [`Parser::error_at`] with a suggestion shown after the message ("did you mean `if`?").
    pub(crate) fn error_with_help(
        &mut self,
        kind: SyntaxErrorKind,
        start: u32,
        end: u32,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        if self.current() == ERROR_TOKEN
            && self.current_range().0 == start
            && kind != SyntaxErrorKind::UnclosedBlock
        {
            return;
        }
        // A range must not split a character, whatever a caller computed.
        let text = self.lexed.source();
        let floor = |mut at: u32| {
            at = at.min(text.len() as u32);
            while !text.is_char_boundary(at as usize) {
                at -= 1;
            }
            at
        };
        let ceil = |mut at: u32| {
            at = at.min(text.len() as u32);
            while !text.is_char_boundary(at as usize) {
                at += 1;
            }
            at
        };
        // Outwards, so that a range inside a character still covers it.
        let (start, end) = (floor(start), ceil(end.max(start)));
        // One position, one message: later errors at the same spot are cascades. But each
        // unclosed block keeps its error, which may share its place (the last token) with an
        // inner block's or an item's: the formatter finds the blocks left open by them.
        if let Some(last) = self.errors.last() {
            if last.start == start && last.end == end && kind != SyntaxErrorKind::UnclosedBlock {
                return;
            }
        }
        self.errors.push(ParseError {
            kind,
            start,
            end,
            message: message.into(),
            help,
            related: Vec::new(),
        });
    }

    /// [`Parser::error_at`] with notes at other ranges of the file.
    pub(crate) fn error_with_related(
        &mut self,
        kind: SyntaxErrorKind,
        (start, end): (u32, u32),
        message: impl Into<String>,
        related: Vec<((u32, u32), String)>,
    ) {
        let before = self.errors.len();
        self.error_at(kind, start, end, message);
        if self.errors.len() > before {
            if let Some(error) = self.errors.last_mut() {
                error.related = related
                    .into_iter()
                    .map(|((start, end), note)| (start, end, note))
                    .collect();
            }
        }
    }

    /// Adds a help line to the last error reported.
    pub(crate) fn set_last_help(&mut self, help: String) {
        if let Some(error) = self.errors.last_mut() {
            error.help = Some(help);
        }
    }

    /// How many errors have been reported so far (to tell whether an item already failed).
    pub(crate) fn error_count(&self) -> usize {
        self.errors.len()
    }
}

pub(crate) struct Marker {
    pos: u32,
    completed: bool,
}

impl Marker {
    fn new(pos: u32) -> Marker {
        Marker {
            pos,
            completed: false,
        }
    }

    pub(crate) fn complete(mut self, p: &mut Parser<'_>, kind: SyntaxKind) -> CompletedMarker {
        self.completed = true;
        match &mut p.events[self.pos as usize] {
            Event::Start { kind: slot, .. } => *slot = kind,
            _ => unreachable!("a marker points at its Start event"),
        }
        p.events.push(Event::Finish);
        CompletedMarker { pos: self.pos }
    }

    pub(crate) fn abandon(mut self, p: &mut Parser<'_>) {
        self.completed = true;
        let idx = self.pos as usize;
        if idx == p.events.len() - 1 {
            p.events.pop();
        } else {
            p.events[idx] = Event::Tombstone;
        }
    }
}

impl Drop for Marker {
    fn drop(&mut self) {
        if !self.completed && !std::thread::panicking() {
            panic!("a marker must be completed or abandoned");
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) struct CompletedMarker {
    pos: u32,
}

impl CompletedMarker {
    /// Starts a node that will wrap this one (for left-recursive constructs).
    pub(crate) fn precede(self, p: &mut Parser<'_>) -> Marker {
        let new_pos = p.events.len() as u32;
        p.events.push(Event::Start {
            kind: ERROR,
            forward_parent: None,
        });
        match &mut p.events[self.pos as usize] {
            Event::Start { forward_parent, .. } => *forward_parent = Some(new_pos - self.pos),
            _ => unreachable!("a completed marker points at its Start event"),
        }
        Marker::new(new_pos)
    }
}

/// The indentation of the line a raw token begins, if it is the first token on its line.
fn line_start_indent(lexed: &Lexed<'_>, i: usize) -> Option<u32> {
    match i.checked_sub(1).map(|b| lexed.kind(b)) {
        None | Some(NEWLINE) => Some(0),
        Some(WHITESPACE)
            if matches!(
                i.checked_sub(2).map(|b| lexed.kind(b)),
                None | Some(NEWLINE)
            ) =>
        {
            Some(lexed.text(i - 1).len() as u32)
        }
        _ => None,
    }
}

/// What a pass over a file's braces finds (see [`braces`]).
struct Braces {
    /// `{` tokens (as positions in `tokens`) left open at the end of the file.
    unclosed: Vec<u32>,
    /// When any `{` is left open: see `Parser::misindented_closes`.
    misindented_closes: Vec<(u32, u32, bool)>,
    /// When some `}` has no `{` to close: see `Parser::stray_closes`.
    stray_closes: Vec<u32>,
    /// See `Parser::lone_closers`.
    lone_closers: Vec<u32>,
    /// See `Parser::missing_closers`.
    missing_closers: Vec<(u32, u32)>,
}

/// `{` tokens left open at the end of the file, and when there are any, the `{`/`}` pairs
/// whose `}` begins a line indented less than the `{`'s line (see
/// `Parser::misindented_closes`); when some `}` closes nothing, the `}` probably typed once too
/// often; closers of another kind than the innermost opener. Template sequences are balanced by
/// the lexer, so counting brackets alone is enough.
fn braces(lexed: &Lexed<'_>, tokens: &[u32]) -> Braces {
    // Every bracket, so that a closer of another kind than the innermost opener is noticed:
    // `}` and `{` are paired as they nest among `[`, `]`, `(` and `)`. Template sequences
    // (`${`, `%{` and their `}`) are the lexer's to pair, and left out.
    let mut open: Vec<(SyntaxKind, u32)> = Vec::new();
    let mut closes_nothing = Vec::new();
    let mut lone_closers = Vec::new();
    let mut missing_closers = Vec::new();
    for (pos, &i) in tokens.iter().enumerate() {
        let kind = lexed.kind(i as usize);
        let opener = match kind {
            L_BRACE | L_BRACK | L_PAREN => {
                open.push((kind, pos as u32));
                continue;
            }
            R_BRACE => L_BRACE,
            R_BRACK => L_BRACK,
            R_PAREN => L_PAREN,
            _ => continue,
        };
        if open.last().is_some_and(|&(k, _)| k == opener) {
            open.pop();
            continue;
        }
        // A closer of another kind than the innermost opener: it closes the nearest opener of
        // its kind, and those inside it lack their closers (`[{ ... ]`); with none open it
        // closes nothing (`"a"]`, `}}` after the last object of a list).
        match open.iter().rposition(|&(k, _)| k == opener) {
            Some(at) => {
                missing_closers.extend(open.drain(at + 1..).map(|(_, o)| (o, pos as u32)));
                open.pop();
            }
            None if kind == R_BRACE => closes_nothing.push(pos as u32),
            None => lone_closers.push(pos as u32),
        }
    }
    missing_closers.sort_unstable();
    let stray_closes = if closes_nothing.is_empty() {
        Vec::new()
    } else {
        let (stray, lone) = stray_closes(lexed, tokens, &closes_nothing);
        lone_closers.extend(lone);
        lone_closers.sort_unstable();
        stray
    };
    let unclosed: Vec<u32> = open
        .iter()
        .filter(|&&(k, _)| k == L_BRACE)
        .map(|&(_, pos)| pos)
        .collect();
    let misindented_closes = if unclosed.is_empty() {
        Vec::new()
    } else {
        misindented_closes(lexed, tokens)
    };
    Braces {
        unclosed,
        misindented_closes,
        stray_closes,
        lone_closers,
        missing_closers,
    }
}

/// Only for a file with an unclosed `{` (rare): a second pass with each line's indentation.
/// A `}` indented less than its `{`'s line is taken for one that belongs to an enclosing `{`,
/// unless the lines after it are still indented inside the enclosing block (then it closes
/// its own `{`, only misindented, and the `}` missing is the enclosing block's).
///
/// Brackets are paired by kind as in [`braces`]: a `{` whose `}` is missing before the closer
/// of an enclosing `[` or `(` (`[{ ... ]`) is dropped there, and pairs with no `}`.
fn misindented_closes(lexed: &Lexed<'_>, tokens: &[u32]) -> Vec<(u32, u32, bool)> {
    // The open `{`, `[` and `(`, with their positions and their lines' indentation.
    let mut stack: Vec<(SyntaxKind, u32, u32)> = Vec::new();
    let mut misindented = Vec::new();
    let mut line_indent = 0u32;
    // A misindented pair waiting for the first token of the next line, with the indentation
    // of the enclosing `{`'s line.
    let mut pending: Option<((u32, u32, bool), Option<u32>)> = None;
    for (pos, &i) in tokens.iter().enumerate() {
        let i = i as usize;
        let kind = lexed.kind(i);
        let first_indent = line_start_indent(lexed, i);
        if let (Some(indent), false) = (first_indent, kind == NEWLINE) {
            line_indent = indent;
            if let Some((pair, enclosing)) = pending.take() {
                let inside = kind != R_BRACE && enclosing.is_some_and(|e| indent > e);
                if !inside {
                    misindented.push(pair);
                }
            }
        }
        let opener_kind = match kind {
            L_BRACE | L_BRACK | L_PAREN => {
                stack.push((kind, pos as u32, line_indent));
                continue;
            }
            R_BRACE => L_BRACE,
            R_BRACK => L_BRACK,
            R_PAREN => L_PAREN,
            _ => continue,
        };
        // The nearest opener of its kind; those inside it lack their closers.
        let Some(at) = stack.iter().rposition(|&(k, _, _)| k == opener_kind) else {
            continue;
        };
        stack.truncate(at + 1);
        let Some((_, opener, opener_indent)) = stack.pop() else {
            continue;
        };
        if let (R_BRACE, Some(indent)) = (kind, first_indent) {
            if indent < opener_indent {
                if let Some((pair, _)) = pending.take() {
                    misindented.push(pair);
                }
                let enclosing = stack
                    .iter()
                    .rev()
                    .find(|&&(k, _, _)| k == L_BRACE)
                    .map(|&(_, _, e)| e);
                pending = Some(((opener, pos as u32, false), enclosing));
            }
        }
    }
    misindented.extend(pending.map(|(pair, _)| pair));
    misindented
}

/// Only for a file with a `}` that closes nothing (rare): for each such `}`, the `}` that was
/// probably typed once too often. That is the first `}` since the last such one that closes a
/// `{` of an earlier line by count while the next line is still indented deeper than that
/// `{`'s line: the block it closes goes on (an extra `}` after a nested block's own). When
/// none does, the `}` that closes nothing is the extra one (not listed: it is reported where it
/// is, as a `}` with no block to close).
fn stray_closes(lexed: &Lexed<'_>, tokens: &[u32], closes_nothing: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut stray = Vec::new();
    let mut lone = Vec::new();
    let mut stack: Vec<(u32, u32, usize)> = Vec::new();
    let mut line_indent = 0u32;
    let mut line = 0usize;
    let mut next_nothing = closes_nothing.iter().copied().peekable();
    // A `}` that closed a `{` of an earlier line, waiting for the first token of the next line:
    // (its position, the indentation of the `{`'s line).
    let mut pending: Option<(u32, u32)> = None;
    let mut candidate: Option<u32> = None;
    for (pos, &i) in tokens.iter().enumerate() {
        let i = i as usize;
        let kind = lexed.kind(i);
        if kind == NEWLINE {
            line += 1;
            continue;
        }
        if let Some(indent) = line_start_indent(lexed, i) {
            line_indent = indent;
            if let Some((close, opener_indent)) = pending.take() {
                if candidate.is_none() && kind != R_BRACE && indent > opener_indent {
                    candidate = Some(close);
                }
            }
        }
        match kind {
            L_BRACE => stack.push((pos as u32, line_indent, line)),
            R_BRACE => {
                if next_nothing.peek() == Some(&(pos as u32)) {
                    next_nothing.next();
                    match candidate.take() {
                        Some(extra) => stray.push(extra),
                        None => lone.push(pos as u32),
                    }
                    pending = None;
                } else if let Some((_, opener_indent, opener_line)) = stack.pop() {
                    pending = (opener_line < line).then_some((pos as u32, opener_indent));
                }
            }
            _ => {}
        }
    }
    stray.sort_unstable();
    (stray, lone)
}
