//! The diagnostic model shared by every layer of pcl: syntax, types, binding, the command line
//! and the language server.
//!
//! This crate owns:
//!
//! * [`Code`]: one stable code per kind of problem (`E0203`), with its default [`Severity`]. The
//!   registry is the single list that `docs/diagnostics.md` documents (a test keeps them equal).
//! * [`Diagnostic`]: a code, a severity, a message, a primary range, related ranges ("first
//!   defined here"), help lines and [`Fix`]es (text edits a quick fix applies; several when there
//!   are several candidates, the likeliest first).
//! * [`suggest`]: the one edit-distance "did you mean" helper every layer uses.
//! * [`style`]: the one voice of messages (quoted lists, counts, and the check tests apply).
//!
//! Ranges are byte ranges in one file. Layers that must stay position-free (inference, binding)
//! store their own position-free problems and build [`Diagnostic`]s only at the edge.

mod codes;
pub mod style;
pub mod suggest;

use std::fmt;
use std::sync::Arc;

pub use codes::Code;
pub use text_size::{TextRange, TextSize};

/// How bad a problem is. Errors make a check fail; warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A secondary location: "first defined here", "declared here".
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Related {
    /// The file, when it is not the diagnostic's own file.
    pub file: Option<Arc<str>>,
    pub range: TextRange,
    pub message: String,
}

/// A replacement of one range of the diagnostic's file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextEdit {
    pub range: TextRange,
    pub replacement: String,
}

/// A fix a quick fix can apply: a title and the edits, which do not overlap.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

/// One problem in one file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// The primary range, in the file the diagnostic belongs to.
    pub range: TextRange,
    pub related: Vec<Related>,
    /// Extra lines shown after the source excerpt (`help: ...`).
    pub help: Vec<String>,
    /// Quick fixes, the likeliest first (a did-you-mean with several candidates has one each).
    pub fixes: Vec<Fix>,
}

/// `range` moved by `delta` bytes (saturating at 0, which a caller that moves a range it
/// found at or after an edit never reaches).
pub fn move_range(range: TextRange, delta: i64) -> TextRange {
    let at = |size: TextSize| {
        TextSize::from(
            u32::try_from((i64::from(u32::from(size)) + delta).max(0)).unwrap_or(u32::MAX),
        )
    };
    TextRange::new(at(range.start()), at(range.end()))
}

impl Diagnostic {
    /// This diagnostic with every range in its own file moved by `delta` bytes: the text
    /// before it grew or shrank (a tool that keeps a diagnostic of an unchanged part of a
    /// file across an edit elsewhere).
    pub fn moved(&self, delta: i64) -> Diagnostic {
        let mut moved = self.clone();
        moved.range = move_range(moved.range, delta);
        for related in &mut moved.related {
            if related.file.is_none() {
                related.range = move_range(related.range, delta);
            }
        }
        for fix in &mut moved.fixes {
            for edit in &mut fix.edits {
                edit.range = move_range(edit.range, delta);
            }
        }
        moved
    }

    /// A diagnostic with the code's default severity.
    pub fn new(code: Code, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message: message.into(),
            range,
            related: Vec::new(),
            help: Vec::new(),
            fixes: Vec::new(),
        }
    }

    pub fn with_severity(mut self, severity: Severity) -> Diagnostic {
        self.severity = severity;
        self
    }

    /// Adds a related location in the same file.
    pub fn with_related(mut self, range: TextRange, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            file: None,
            range,
            message: message.into(),
        });
        self
    }

    /// Adds a related location in another file.
    pub fn with_related_in(
        mut self,
        file: Arc<str>,
        range: TextRange,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.related.push(Related {
            file: Some(file),
            range,
            message: message.into(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help.push(help.into());
        self
    }

    /// A fix that replaces `range` with `replacement` (after any fix it already has).
    pub fn with_fix(
        mut self,
        title: impl Into<String>,
        range: TextRange,
        replacement: impl Into<String>,
    ) -> Diagnostic {
        self.fixes.push(Fix {
            title: title.into(),
            edits: vec![TextEdit {
                range,
                replacement: replacement.into(),
            }],
        });
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Orders diagnostics for output: by position, then code, then message.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.range.start(), a.range.end(), a.code, &a.message).cmp(&(
            b.range.start(),
            b.range.end(),
            b.code,
            &b.message,
        ))
    });
}
