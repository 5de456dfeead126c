//! Byte offsets ↔ LSP positions (zero-based line, UTF-16 code units).
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as the protocol says. Every conversion is total:
//! positions past the end of a line clamp to the end of the line (before its terminator),
//! lines past the last clamp to the end of the text, a character inside a surrogate pair clamps
//! to the start of that character, and offsets past the end or inside a UTF-8 sequence clamp
//! down to the previous character boundary.

use std::sync::Arc;

use lsp_types::{Position, Range};

/// The line starts of one text, where its UTF-16 columns part from its byte columns, and the
/// text itself. Every conversion costs a binary search, not a walk of its line: a result with
/// many positions on one long line (the semantic tokens of a 400 KB line, the references to a
/// name used 40,000 times on it) was quadratic and held the server for seconds.
#[derive(Clone, Debug)]
pub struct LineIndex {
    text: Arc<str>,
    /// Byte offset of the start of each line; the first is 0.
    line_starts: Vec<u32>,
    /// The characters outside ASCII, in order.
    wide: Vec<Wide>,
    /// `shrink[k]`: the UTF-8 bytes minus the UTF-16 units of `wide[..k]`.
    shrink: Vec<u32>,
}

/// A character outside ASCII: where it starts and how long it is in UTF-8 and in UTF-16.
#[derive(Clone, Copy, Debug)]
struct Wide {
    offset: u32,
    len8: u8,
    len16: u8,
}

impl LineIndex {
    pub fn new(text: Arc<str>) -> LineIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        let mut wide = Vec::new();
        let mut shrink = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => line_starts.push(i as u32 + 1),
                b'\r' => {
                    if bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    line_starts.push(i as u32 + 1);
                }
                b if b >= 0x80 => {
                    // A lead byte (the text is UTF-8): its length from its high bits.
                    let len8: u8 = match b {
                        0xF0.. => 4,
                        0xE0.. => 3,
                        _ => 2,
                    };
                    let len16: u8 = if len8 == 4 { 2 } else { 1 };
                    wide.push(Wide {
                        offset: i as u32,
                        len8,
                        len16,
                    });
                    shrink.push(shrink.last().copied().unwrap_or(0) + u32::from(len8 - len16));
                    i += usize::from(len8);
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        LineIndex {
            text,
            line_starts,
            wide,
            shrink,
        }
    }

    pub fn text(&self) -> &Arc<str> {
        &self.text
    }

    pub fn len(&self) -> u32 {
        self.text.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The number of lines (a text ending with a line break has an empty last line).
    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }

    /// The byte range of line `line`'s content, without its terminator.
    fn line_content(&self, line: usize) -> (usize, usize) {
        let start = self.line_starts[line] as usize;
        let mut end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&next| next as usize);
        let bytes = self.text.as_bytes();
        if end > start && bytes[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        (start, end)
    }

    /// How many of the wide characters start before byte `offset`.
    fn wide_before(&self, offset: usize) -> usize {
        self.wide.partition_point(|w| (w.offset as usize) < offset)
    }

    /// The byte offset of an LSP position, clamped into the text.
    pub fn offset(&self, position: Position) -> u32 {
        let line = position.line as usize;
        if line >= self.line_starts.len() {
            return self.len();
        }
        let (start, end) = self.line_content(line);
        let target = u64::from(position.character);
        let (mut byte, mut units) = (start as u64, 0u64);
        let last = self.wide_before(end);
        for w in &self.wide[self.wide_before(start)..last] {
            // The ASCII run before the character, then the character itself.
            let run = u64::from(w.offset) - byte;
            if units + run > target {
                return (byte + (target - units)) as u32;
            }
            units += run;
            byte = u64::from(w.offset);
            if units + u64::from(w.len16) > target {
                // Inside a surrogate pair: the start of the character.
                return byte as u32;
            }
            units += u64::from(w.len16);
            byte += u64::from(w.len8);
        }
        (byte + (target - units)).min(end as u64) as u32
    }

    /// The LSP position of a byte offset, clamped into the text.
    pub fn position(&self, offset: u32) -> Position {
        let mut offset = (offset as usize).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let (start, end) = self.line_content(line);
        let offset = offset.min(end);
        let shrunk = self.shrink[self.wide_before(offset)] - self.shrink[self.wide_before(start)];
        Position::new(line as u32, (offset - start) as u32 - shrunk)
    }

    pub fn range(&self, start: u32, end: u32) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The byte range of an LSP range; an inverted range is made empty at its start.
    pub fn byte_range(&self, range: Range) -> (u32, u32) {
        let start = self.offset(range.start);
        let end = self.offset(range.end);
        (start, end.max(start))
    }
}

/// Applies one `contentChanges` entry of `didChange`: a replacement of an LSP range (UTF-16
/// positions, clamped) or, without a range, of the whole text. The positions are found by
/// walking the text once, without an index (or a copy of the text) per edit.
pub fn apply_content_change(text: &mut String, range: Option<Range>, new_text: &str) {
    match range {
        Some(range) => {
            let start = offset_in(text, range.start);
            let end = offset_in(text, range.end).max(start);
            text.replace_range(start..end, new_text);
        }
        None => new_text.clone_into(text),
    }
}

/// [`LineIndex::offset`] of `text`, by a walk to the position.
fn offset_in(text: &str, position: Position) -> usize {
    let bytes = text.as_bytes();
    // The start of the line.
    let mut start = 0;
    let mut line = 0;
    while line < position.line {
        let Some(at) = bytes[start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
        else {
            return text.len();
        };
        let mut next = start + at + 1;
        if bytes[start + at] == b'\r' && bytes.get(next) == Some(&b'\n') {
            next += 1;
        }
        start = next;
        line += 1;
    }
    let mut units = 0u64;
    for (i, c) in text[start..].char_indices() {
        if c == '\n' || c == '\r' {
            return start + i;
        }
        let width = c.len_utf16() as u64;
        if units + width > u64::from(position.character) {
            return start + i;
        }
        units += width;
    }
    text.len()
}

/// Converts a byte range inside `label` to UTF-16 offsets in it (for signature parameters).
pub fn utf16_span(label: &str, start: u32, end: u32) -> [u32; 2] {
    let clamp = |mut at: usize| {
        at = at.min(label.len());
        while !label.is_char_boundary(at) {
            at -= 1;
        }
        label[..at].encode_utf16().count() as u32
    };
    [clamp(start as usize), clamp(end as usize)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(text: &str) -> LineIndex {
        LineIndex::new(Arc::from(text))
    }

    fn pos(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    #[test]
    fn ascii_round_trip() {
        let idx = index("ab\ncd\n");
        assert_eq!(idx.line_count(), 3);
        for offset in 0..=6 {
            assert_eq!(idx.offset(idx.position(offset)), offset);
        }
        assert_eq!(idx.position(4), pos(1, 1));
        assert_eq!(idx.offset(pos(1, 1)), 4);
        assert_eq!(idx.position(6), pos(2, 0));
    }

    #[test]
    fn cjk_counts_one_unit_per_character() {
        // 日本 are three bytes each and one UTF-16 unit each.
        let idx = index("x = \"日本\"\ny");
        assert_eq!(idx.position(5), pos(0, 5));
        assert_eq!(idx.position(8), pos(0, 6));
        assert_eq!(idx.offset(pos(0, 6)), 8);
        assert_eq!(idx.offset(pos(0, 7)), 11);
        // Inside a UTF-8 sequence: down to the character's start.
        assert_eq!(idx.position(6), pos(0, 5));
        assert_eq!(idx.position(13), pos(1, 0));
    }

    #[test]
    fn emoji_is_a_surrogate_pair() {
        // 😀 is four bytes and two UTF-16 units.
        let idx = index("a😀b");
        assert_eq!(idx.position(1), pos(0, 1));
        assert_eq!(idx.position(5), pos(0, 3));
        assert_eq!(idx.offset(pos(0, 3)), 5);
        assert_eq!(idx.offset(pos(0, 4)), 6);
        // The middle of the pair clamps to the start of the emoji.
        assert_eq!(idx.offset(pos(0, 2)), 1);
        assert_eq!(utf16_span("f(😀, b)", 2, 6), [2, 4]);
        assert_eq!(utf16_span("f(😀, b)", 8, 9), [6, 7]);
    }

    #[test]
    fn crlf_and_lone_cr_end_lines() {
        let idx = index("ab\r\ncd\ref\n");
        assert_eq!(idx.line_count(), 4);
        assert_eq!(idx.position(4), pos(1, 0));
        assert_eq!(idx.position(7), pos(2, 0));
        assert_eq!(idx.offset(pos(1, 1)), 5);
        assert_eq!(idx.offset(pos(2, 2)), 9);
        // Past the end of a CRLF line: before the `\r`.
        assert_eq!(idx.offset(pos(0, 10)), 2);
        // Between `\r` and `\n`: the end of the line's content.
        assert_eq!(idx.position(3), pos(0, 2));
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let idx = index("ab\ncd");
        assert_eq!(idx.offset(pos(0, 99)), 2);
        assert_eq!(idx.offset(pos(1, 99)), 5);
        assert_eq!(idx.offset(pos(2, 0)), 5);
        assert_eq!(idx.offset(pos(u32::MAX, u32::MAX)), 5);
        assert_eq!(idx.position(99), pos(1, 2));
        let (start, end) = idx.byte_range(Range::new(pos(1, 1), pos(0, 0)));
        assert_eq!((start, end), (4, 4));
    }

    #[test]
    fn content_changes_apply_in_utf16() {
        let mut text = "a = \"😀\"\r\nb = 日本\r\n".to_owned();
        // Insert after the emoji (character 6 on line 0: `a = "` is 5, the emoji 2).
        apply_content_change(&mut text, Some(Range::new(pos(0, 7), pos(0, 7))), "x");
        assert_eq!(text, "a = \"😀x\"\r\nb = 日本\r\n");
        // Replace 本 and the line break up to the start of the next (empty) line.
        apply_content_change(&mut text, Some(Range::new(pos(1, 5), pos(2, 0))), "!");
        assert_eq!(text, "a = \"😀x\"\r\nb = 日!");
        // A range past the end appends.
        apply_content_change(&mut text, Some(Range::new(pos(9, 0), pos(9, 9))), "\n");
        assert_eq!(text, "a = \"😀x\"\r\nb = 日!\n");
        apply_content_change(&mut text, None, "all new");
        assert_eq!(text, "all new");
    }

    /// The conversions by walking the line, as they were before the table of wide characters.
    fn walked_offset(text: &str, position: Position) -> u32 {
        offset_in(text, position) as u32
    }

    fn walked_position(text: &str, offset: u32) -> Position {
        let mut offset = (offset as usize).min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let (mut line, mut start) = (0u32, 0usize);
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < offset {
            match bytes[i] {
                b'\n' => {
                    line += 1;
                    start = i + 1;
                }
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    if i + 1 == offset {
                        break;
                    }
                    line += 1;
                    i += 1;
                    start = i + 1;
                }
                b'\r' => {
                    line += 1;
                    start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        // Between the `\r` and the `\n` of a line break: the end of the line's content.
        let mut end = offset;
        if end > start && bytes[end - 1] == b'\r' && bytes.get(end) == Some(&b'\n') {
            end -= 1;
        }
        Position::new(line, text[start..end].encode_utf16().count() as u32)
    }

    /// The table agrees with walks of the text, at every offset and at positions in and past
    /// every line, on texts of ASCII, two-, three- and four-byte characters and all three line
    /// breaks.
    #[test]
    fn the_table_agrees_with_walking_the_text() {
        let pieces = ["a", "bc", "é", "日本", "😀", "\n", "\r\n", "\r", " ", "𝔘x"];
        let mut rng = pcl_progen::SplitMix64::new(1);
        for _ in 0..300 {
            let length = rng.below(24);
            let text: String = (0..length).map(|_| *rng.pick(&pieces)).collect();
            let idx = index(&text);
            for offset in 0..=text.len() as u32 + 2 {
                assert_eq!(
                    idx.position(offset),
                    walked_position(&text, offset),
                    "{text:?} at {offset}"
                );
            }
            for line in 0..idx.line_count() + 2 {
                for character in (0..40).chain([u32::MAX]) {
                    let at = pos(line, character);
                    assert_eq!(
                        idx.offset(at),
                        walked_offset(&text, at),
                        "{text:?} at {at:?}"
                    );
                }
            }
        }
    }

    /// A line of 200,000 tokens, one position each: a walk of the line per position took
    /// seconds.
    #[test]
    fn positions_on_a_long_line_cost_a_search() {
        let text: String = (0..200_000)
            .map(|i| if i % 7 == 0 { "é," } else { "1," })
            .collect();
        let idx = index(&text);
        let mut last = pos(0, 0);
        for offset in (0..text.len() as u32).step_by(2) {
            let at = idx.position(offset);
            assert!(at.character >= last.character);
            last = at;
        }
        assert_eq!(idx.position(text.len() as u32).character, 400_000);
    }

    #[test]
    fn empty_text() {
        let idx = index("");
        assert_eq!(idx.line_count(), 1);
        assert_eq!(idx.position(0), pos(0, 0));
        assert_eq!(idx.offset(pos(3, 3)), 0);
    }
}
