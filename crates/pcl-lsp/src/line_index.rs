//! Byte offsets ↔ LSP positions (zero-based line, UTF-16 code units).
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as the protocol says. Every conversion is total:
//! positions past the end of a line clamp to the end of the line (before its terminator),
//! lines past the last clamp to the end of the text, a character inside a surrogate pair clamps
//! to the start of that character, and offsets past the end or inside a UTF-8 sequence clamp
//! down to the previous character boundary.

use std::sync::Arc;

use lsp_types::{Position, Range};

/// The line starts of one text, and the text itself (to count UTF-16 units within a line).
#[derive(Clone, Debug)]
pub struct LineIndex {
    text: Arc<str>,
    /// Byte offset of the start of each line; the first is 0.
    line_starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: Arc<str>) -> LineIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
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
                _ => {}
            }
            i += 1;
        }
        LineIndex { text, line_starts }
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

    /// The byte offset of an LSP position, clamped into the text.
    pub fn offset(&self, position: Position) -> u32 {
        let line = position.line as usize;
        if line >= self.line_starts.len() {
            return self.len();
        }
        let (start, end) = self.line_content(line);
        let mut units = 0u32;
        for (i, c) in self.text[start..end].char_indices() {
            let width = c.len_utf16() as u32;
            if units + width > position.character {
                return (start + i) as u32;
            }
            units += width;
        }
        end as u32
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
        let character = self.text[start..offset].encode_utf16().count() as u32;
        Position::new(line as u32, character)
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
/// positions, clamped) or, without a range, of the whole text.
pub fn apply_content_change(text: &mut String, range: Option<Range>, new_text: &str) {
    match range {
        Some(range) => {
            let index = LineIndex::new(Arc::from(text.as_str()));
            let (start, end) = index.byte_range(range);
            text.replace_range(start as usize..end as usize, new_text);
        }
        None => new_text.clone_into(text),
    }
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

    #[test]
    fn empty_text() {
        let idx = index("");
        assert_eq!(idx.line_count(), 1);
        assert_eq!(idx.position(0), pos(0, 0));
        assert_eq!(idx.offset(pos(3, 3)), 0);
    }
}
