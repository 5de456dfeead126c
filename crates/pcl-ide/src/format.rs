//! Formatting a document or the lines of a range (`pcl-fmt`'s whitespace edits).

use std::path::Path;

use pcl_db::RootDatabase;
use pcl_diagnostics::TextRange;

use crate::TextEdit;

/// `None` when the file is unknown or cannot be formatted (it would grow past the formatter's
/// output limit); an empty list when it is formatted already.
pub(crate) fn format(
    db: &RootDatabase,
    path: &Path,
    range: Option<TextRange>,
) -> Option<Vec<TextEdit>> {
    let file = db.files().get(path)?;
    let text = file.text(db);
    let edits = match range {
        None => pcl_fmt::format(text).ok()?.edits,
        Some(range) => pcl_fmt::format_range(text, range).ok()?,
    };
    Some(
        edits
            .into_iter()
            .map(|e| TextEdit {
                range: e.range,
                insert: e.new_text,
            })
            .collect(),
    )
}
