//! The library API as a language server uses it: whole-document edits, range edits, and on-type
//! formatting (the range of one line).

use expect_test::expect;
use pcl_fmt::{format, format_range, TextEdit, TextRange, TextSize};

const TEXT: &str = "a=1\nbb   =  2\nblock {\nc=3 # note\n}\n";

fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut out = text.to_string();
    for edit in edits.iter().rev() {
        out.replace_range(std::ops::Range::<usize>::from(edit.range), &edit.new_text);
    }
    out
}

fn range(start: usize, end: usize) -> TextRange {
    TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32))
}

#[test]
fn document_edits_touch_only_whitespace() {
    let formatted = format(TEXT).expect("formats");
    let edits: Vec<String> = formatted
        .edits
        .iter()
        .map(|e| {
            format!(
                "{:?} {:?} -> {:?}",
                e.range,
                &TEXT[std::ops::Range::<usize>::from(e.range)],
                e.new_text
            )
        })
        .collect();
    expect![[r#"
        1..1 "" -> "  "
        2..2 "" -> " "
        6..9 "   " -> " "
        10..12 "  " -> " "
        22..22 "" -> "  "
        23..23 "" -> " "
        24..24 "" -> " ""#]]
    .assert_eq(&edits.join("\n"));
    assert_eq!(apply(TEXT, &formatted.edits), formatted.text);
}

#[test]
fn range_edits_cover_the_lines_the_range_touches() {
    // The second line only: its `=` is aligned with the first line's, which is not edited.
    let line2 = TEXT.find("bb").expect("line 2");
    let edits = format_range(TEXT, range(line2 + 1, line2 + 2)).expect("formats");
    expect![[r#"
        a=1
        bb = 2
        block {
        c=3 # note
        }
    "#]]
    .assert_eq(&apply(TEXT, &edits));
    // Every line formatted on its own, in turn (as on-type formatting does), gives the document.
    let mut text = TEXT.to_string();
    let mut line_start = 0;
    while line_start < text.len() {
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |i| line_start + i);
        let edits = format_range(&text, range(line_start, line_end)).expect("formats");
        let before = text.len();
        text = apply(&text, &edits);
        let line_end = line_end + text.len() - before;
        line_start = line_end + 1;
    }
    assert_eq!(text, format(TEXT).expect("formats").text);
}

#[test]
fn an_empty_range_at_the_end_is_the_last_line() {
    let text = "a=1";
    let edits = format_range(text, range(3, 3)).expect("formats");
    assert_eq!(apply(text, &edits), "a = 1");
}
