//! The promises pcl keeps on every input, written as checks that panic with a description when
//! a promise is broken: no panic anywhere, lossless trees, every diagnostic inside its file,
//! schema problems located by a JSON pointer, idempotent formatting that loses no token, and
//! incremental results equal to a fresh database's.
//!
//! The fuzz targets (`fuzz/`), the property tests and the regression tests (`tests/`) all run
//! these same checks, so an input the fuzzer finds becomes a regression test by saving it under
//! `test_data/fuzz/<target>/`. [`hostile`] generates the hostile inputs of
//! `docs/reliability.md` for tests and benchmarks.

pub mod edits;
pub mod format;
pub mod hostile;
pub mod program;
pub mod schema;
pub mod syntax;
pub mod targets;

use pcl_diagnostics::{Diagnostic, TextRange};

/// Panics unless `range` lies inside `text` with both ends on character boundaries.
pub fn assert_range_inside(text: &str, range: TextRange, what: &str) {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    assert!(
        start <= end && end <= text.len(),
        "{what}: range {range:?} lies outside the input of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "{what}: range {range:?} splits a character"
    );
}

/// Panics unless the diagnostic, its related locations in the same file and its fix lie inside
/// `text`, and its message says something in the one voice of every message
/// (`pcl_diagnostics::style::check`: lowercase or quoted code first, no final period, no
/// single-quoted names, no suggestion in the message). `other_file` gives the text of files that
/// related locations name.
pub fn assert_diagnostic_inside<'t>(
    text: &str,
    diagnostic: &Diagnostic,
    other_file: &dyn Fn(&str) -> Option<&'t str>,
) {
    let what = format!("{} {:?}", diagnostic.code.as_str(), diagnostic.message);
    assert!(
        !diagnostic.message.trim().is_empty(),
        "a diagnostic without a message: {diagnostic:?}"
    );
    if let Err(broken) = pcl_diagnostics::style::check(&diagnostic.message) {
        panic!("{what}: the message breaks the style of docs/diagnostics.md: {broken}");
    }
    assert_range_inside(text, diagnostic.range, &what);
    for related in &diagnostic.related {
        let related_text = match &related.file {
            None => text,
            Some(file) => other_file(file)
                .unwrap_or_else(|| panic!("{what}: a related location names unknown file {file}")),
        };
        assert_range_inside(related_text, related.range, &format!("{what} (related)"));
    }
    for fix in &diagnostic.fixes {
        for edit in &fix.edits {
            assert_range_inside(text, edit.range, &format!("{what} (fix)"));
        }
    }
}

/// Bytes as the tools read them: valid UTF-8 as is, anything else with U+FFFD for each bad
/// sequence (what `pcl check` does after reporting the first bad byte).
pub fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
