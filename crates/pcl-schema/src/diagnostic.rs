//! Problems found in schema files, each located by file and JSON pointer.

use std::fmt;
use std::sync::Arc;

use pcl_diagnostics::Severity;

/// A location inside a JSON document, as an RFC 6901 JSON pointer (`/resources/aws:s3~1bucket:Bucket`).
///
/// Tokens often contain `/` (`aws:s3/bucket:Bucket`), which the pointer syntax escapes as `~1`, so a
/// path can always be split back into its keys.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct JsonPath(String);

impl JsonPath {
    /// The document root (printed as `/`).
    pub fn root() -> Self {
        JsonPath(String::new())
    }

    /// This path extended by one object key or array index.
    pub fn key(&self, key: &str) -> Self {
        let mut s = String::with_capacity(self.0.len() + key.len() + 1);
        s.push_str(&self.0);
        s.push('/');
        for c in key.chars() {
            match c {
                '~' => s.push_str("~0"),
                '/' => s.push_str("~1"),
                c => s.push(c),
            }
        }
        JsonPath(s)
    }

    pub fn index(&self, index: usize) -> Self {
        self.key(&index.to_string())
    }

    pub fn as_str(&self) -> &str {
        if self.0.is_empty() {
            "/"
        } else {
            &self.0
        }
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem in one schema file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SchemaDiagnostic {
    pub severity: Severity,
    /// The file as it was named when loaded (empty for schemas loaded from memory).
    pub file: Arc<str>,
    pub path: JsonPath,
    pub message: String,
}

impl fmt::Display for SchemaDiagnostic {
    /// `file: /json/path: message`, with `warning: ` before the message for warnings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.file.is_empty() {
            write!(f, "{}: ", self.file)?;
        }
        write!(f, "{}: ", self.path)?;
        if self.severity == Severity::Warning {
            f.write_str("warning: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Collects the diagnostics of one decoding step; the file is filled in by the package that owns it.
#[derive(Default, Debug, Clone)]
pub(crate) struct Problems {
    pub(crate) items: Vec<(Severity, JsonPath, String)>,
}

impl Problems {
    pub(crate) fn error(&mut self, path: &JsonPath, message: impl fmt::Display) {
        self.items
            .push((Severity::Error, path.clone(), message.to_string()));
    }

    pub(crate) fn warning(&mut self, path: &JsonPath, message: impl fmt::Display) {
        self.items
            .push((Severity::Warning, path.clone(), message.to_string()));
    }

    pub(crate) fn into_diagnostics(self, file: &Arc<str>) -> Vec<SchemaDiagnostic> {
        self.items
            .into_iter()
            .map(|(severity, path, message)| SchemaDiagnostic {
                severity,
                file: file.clone(),
                path,
                message,
            })
            .collect()
    }
}
