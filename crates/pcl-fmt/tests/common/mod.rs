//! Checks every formatting test applies to every output.

use pcl_parser::{Lexed, SyntaxKind};

/// The tokens without the whitespace between them, as (kind, text).
pub fn tokens(text: &str) -> Vec<(SyntaxKind, String)> {
    let lexed = Lexed::new(text);
    (0..lexed.len())
        .filter(|&i| lexed.kind(i) != SyntaxKind::WHITESPACE)
        .map(|i| (lexed.kind(i), lexed.text(i).to_string()))
        .collect()
}

/// The formatter's promises on one input: the same tokens, the same line breaks, the damaged
/// items byte for byte, the edits give the text, and a second run changes nothing. Returns a
/// description of the first broken promise.
pub fn broken_promise(input: &str, formatted: &pcl_fmt::Formatted) -> Option<String> {
    let output = &formatted.text;
    if tokens(input) != tokens(output) {
        return Some("the token sequence changed".into());
    }
    if input.matches('\n').count() != output.matches('\n').count() {
        return Some("the number of line breaks changed".into());
    }
    let mut applied = input.to_string();
    for edit in formatted.edits.iter().rev() {
        applied.replace_range(std::ops::Range::<usize>::from(edit.range), &edit.new_text);
    }
    if applied != *output {
        return Some("the edits do not give the formatted text".into());
    }
    for range in &formatted.damaged {
        let kept = &input[std::ops::Range::<usize>::from(*range)];
        if !output.contains(kept) {
            return Some(format!("the damaged item at {range:?} was changed"));
        }
    }
    let again = pcl_fmt::format(output).expect("formatted text formats");
    if again.text != *output {
        return Some("not idempotent: formatting the output changes it".into());
    }
    None
}
