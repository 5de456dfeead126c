//! Incremental equals fresh: an edit script applied to one long-lived database must report
//! exactly what a fresh database built from the same texts reports, after every edit.

use crate::program::{observe, ProgramInput};

/// Snippets that break or complete syntax, or change what names mean.
pub const SNIPPETS: &[&str] = &[
    "\"",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "=",
    "\n",
    " ",
    "x",
    " + 1",
    "${",
    "}\"",
    "\"a\"",
    "null",
    "# c\n",
    "for ",
    " in ",
    ":",
    "=>",
    "...",
    ",",
    "?",
    "-",
    "!",
    "1.5",
    "<<EOT\n",
    "EOT\n",
    "%{",
    "range",
    "output o {\n value = x\n}\n",
    "x = y\n",
    "y = x\n",
    "z = [for v in x : v]\n",
    "resource r \"t:m:T\" {\n}\n",
    "config c int {\n default = \"s\"\n}\n",
    "length(",
    "secret(",
    "resource b \"demo:storage/bucket:Bucket\" {\n  name = x\n}\n",
    "options {\n  range = 2\n}\n",
    "invoke(\"demo:network/getZone:getZone\", { name = \"z\" })",
];

/// One edit of one file of a program.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Delete `len` bytes at `at` (both clamped to the text and moved back to a character
    /// boundary).
    Delete { file: usize, at: usize, len: usize },
    /// Insert a text at `at`.
    Insert {
        file: usize,
        at: usize,
        text: String,
    },
    /// Copy `len` bytes from `from` to `at`.
    Copy {
        file: usize,
        from: usize,
        len: usize,
        at: usize,
    },
    /// Go back to the text before the previous edit (a repair).
    Undo,
}

fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Applies `edit` to `files`; returns which file changed and its previous text.
pub fn apply(files: &mut [(std::path::PathBuf, String)], edit: &Edit) -> Option<(usize, String)> {
    if files.is_empty() {
        return None;
    }
    let (file, new_text) = {
        let pick = |file: usize| file % files.len();
        match edit {
            Edit::Delete { file, at, len } => {
                let text = &files[pick(*file)].1;
                let start = floor_boundary(text, *at);
                let end = floor_boundary(text, start.saturating_add(*len)).max(start);
                (pick(*file), format!("{}{}", &text[..start], &text[end..]))
            }
            Edit::Insert {
                file,
                at,
                text: inserted,
            } => {
                let text = &files[pick(*file)].1;
                let at = floor_boundary(text, *at);
                (
                    pick(*file),
                    format!("{}{inserted}{}", &text[..at], &text[at..]),
                )
            }
            Edit::Copy {
                file,
                from,
                len,
                at,
            } => {
                let text = &files[pick(*file)].1;
                let from = floor_boundary(text, *from);
                let to = floor_boundary(text, from.saturating_add(*len)).max(from);
                let at = floor_boundary(text, *at);
                let piece = &text[from..to];
                (
                    pick(*file),
                    format!("{}{piece}{}", &text[..at], &text[at..]),
                )
            }
            Edit::Undo => return None,
        }
    };
    let previous = std::mem::replace(&mut files[file].1, new_text);
    Some((file, previous))
}

/// Decodes an edit script from bytes, four per edit (operation, position high and low byte,
/// length or snippet), at most 24 edits: the `edit_script` fuzz target's format.
pub fn decode_script(script: &[u8]) -> Vec<Edit> {
    script
        .chunks_exact(4)
        .take(24)
        .map(|c| {
            let at = usize::from(c[1]) << 8 | usize::from(c[2]);
            match c[0] % 4 {
                0 => Edit::Delete {
                    file: 0,
                    at,
                    len: usize::from(c[3] % 16) + 1,
                },
                1 => Edit::Insert {
                    file: 0,
                    at,
                    text: SNIPPETS[usize::from(c[3]) % SNIPPETS.len()].to_string(),
                },
                2 => Edit::Copy {
                    file: 0,
                    from: usize::from(c[3]) * 8,
                    len: usize::from(c[3] % 40),
                    at,
                },
                _ => Edit::Undo,
            }
        })
        .collect()
}

/// Applies the script edit by edit to one database, comparing after each edit what it reports
/// with what a fresh database reports. Panics on the first difference.
pub fn check_edit_script(input: &ProgramInput, script: &[Edit]) {
    let mut current = input.clone();
    let (mut db, program) = current.load();
    let mut undo: Option<(usize, String)> = None;
    observe(&db, program);
    for (step, edit) in script.iter().enumerate() {
        let changed = match edit {
            Edit::Undo => undo.take().map(|(file, previous)| {
                let now = std::mem::replace(&mut current.files[file].1, previous);
                (file, now)
            }),
            _ => {
                let changed = apply(&mut current.files, edit);
                undo = changed.clone();
                changed
            }
        };
        let Some((file, _)) = changed else { continue };
        let (path, text) = &current.files[file];
        db.set_file_text(path, text.clone());
        let incremental = observe(&db, program);
        let fresh = {
            let (db, program) = current.load();
            observe(&db, program)
        };
        assert_eq!(
            incremental, fresh,
            "step {step} ({edit:?}): the incremental result differs from a fresh one\n--- {} ---\n{text}",
            path.display()
        );
    }
}
