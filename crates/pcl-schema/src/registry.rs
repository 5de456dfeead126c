//! Finding and loading package schemas: directories of `NAME-VERSION.json` files, version choice,
//! the built-in `pulumi` package, and a cache so each file is parsed once.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use pcl_diagnostics::style::io_reason;

use pcl_diagnostics::Severity;

use crate::diagnostic::{JsonPath, SchemaDiagnostic};
use crate::package::Package;

/// The built-in `pulumi` package (Pulumi serves it from memory: `StackReference`, `Stash`).
const PULUMI_BUILTIN_SCHEMA: &str = include_str!("pulumi-builtin.json");
const PULUMI_BUILTIN_FILE: &str = "<builtin pulumi schema>";

/// A schema file found on disk, not yet read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaOnDisk {
    pub path: PathBuf,
    /// The package name from the file name.
    pub name: String,
    /// The version from the file name (`None` for `NAME.json`).
    pub version: Option<semver::Version>,
}

/// Splits a schema file name: `docker-4.0.0-alpha.0.json` → (`docker`, `4.0.0-alpha.0`),
/// `foo-bar-0.0.1.json` → (`foo-bar`, `0.0.1`), `kubernetes.json` → (`kubernetes`, none). The
/// version starts after the first `-` whose remainder is a semantic version.
pub fn parse_schema_file_name(file_name: &str) -> Option<(String, Option<semver::Version>)> {
    let stem = file_name.strip_suffix(".json")?;
    if stem.is_empty() {
        return None;
    }
    for (i, _) in stem.match_indices('-') {
        if let Ok(version) = semver::Version::parse(&stem[i + 1..]) {
            if i > 0 {
                return Some((stem[..i].to_string(), Some(version)));
            }
        }
    }
    Some((stem.to_string(), None))
}

/// Why a package could not be provided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// No schema file for this package (or this version of it).
    NotFound {
        name: String,
        version: Option<String>,
        /// The versions that are available, highest first.
        available: Vec<String>,
    },
    /// The file exists but could not be read or parsed; the diagnostics name it.
    Invalid(Vec<SchemaDiagnostic>),
    /// The file registered for the package declares another package name.
    NameMismatch {
        file: String,
        requested: String,
        declared: String,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NotFound {
                name,
                version,
                available,
            } => {
                match version {
                    Some(v) => write!(f, "no schema for package `{name}` version `{v}`")?,
                    None => write!(f, "no schema for package `{name}`")?,
                }
                if !available.is_empty() {
                    write!(
                        f,
                        " (available: {})",
                        pcl_diagnostics::style::quoted_list(available, "and")
                    )?;
                }
                Ok(())
            }
            LoadError::NameMismatch {
                file,
                requested,
                declared,
            } => write!(
                f,
                "{file}: /name: the schema declares package `{declared}`, not `{requested}`"
            ),
            LoadError::Invalid(diagnostics) => {
                for (i, d) in diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .enumerate()
                {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{d}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// The largest schema file read (512 MiB), refused before reading. The largest provider
/// schemas are a few hundred megabytes at most; a parse keeps the text and an index of it.
pub const MAX_SCHEMA_LEN: u64 = 512 << 20;

/// The text of a schema file: a regular file only (opened without blocking, so a FIFO named
/// `x-1.0.0.json` never hangs a check), refused before reading above [`MAX_SCHEMA_LEN`]. The
/// error names the file and says why: "cannot read `PATH`: REASON", the reason lowercase.
pub fn read_schema_text(path: &Path) -> Result<String, ReadSchemaError> {
    pcl_fs::read_text(path, pcl_fs::FileKind::Schema, MAX_SCHEMA_LEN).map_err(|reason| {
        ReadSchemaError {
            path: path.to_path_buf(),
            reason,
        }
    })
}

/// A schema file [`read_schema_text`] cannot read.
#[derive(Debug)]
pub struct ReadSchemaError {
    pub path: PathBuf,
    pub reason: pcl_fs::ReadError,
}

impl fmt::Display for ReadSchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read `{}`: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for ReadSchemaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.reason)
    }
}

/// Reads one schema file. I/O errors and fatal parse errors become diagnostics naming the file.
pub fn load_schema_file(path: &Path) -> Result<Package, Vec<SchemaDiagnostic>> {
    let label: Arc<str> = path.display().to_string().into();
    match read_schema_text(path) {
        Ok(text) => Package::parse(label, text),
        Err(error) => Err(vec![SchemaDiagnostic {
            severity: Severity::Error,
            file: label,
            path: JsonPath::root(),
            message: error.to_string(),
        }]),
    }
}

/// The built-in `pulumi` package.
pub fn pulumi_builtin_package() -> Package {
    Package::parse(PULUMI_BUILTIN_FILE, PULUMI_BUILTIN_SCHEMA)
        .unwrap_or_else(|_| unreachable!("the built-in pulumi schema is valid (tested)"))
}

type LoadResult = Result<Arc<Package>, LoadError>;

/// Provides packages by name and version: a [`SchemaRegistry`] over directories, or a host's
/// incremental database. Type mapping asks it for the packages external references name.
pub trait PackageLoader {
    /// The schema of package `name` at `version` (or the default version).
    fn package(&self, name: &str, version: Option<&str>) -> LoadResult;
}

impl PackageLoader for SchemaRegistry {
    fn package(&self, name: &str, version: Option<&str>) -> LoadResult {
        SchemaRegistry::package(self, name, version)
    }
}

/// Every schema file found in a set of directories, loaded on demand and cached. Shared by
/// all packages of a program so that cross-package references reuse the same loaded schemas.
#[derive(Default)]
pub struct SchemaRegistry {
    /// Package name → its files, lowest version first (`None` sorts first), files of one
    /// version in search order.
    files: BTreeMap<String, Vec<SchemaOnDisk>>,
    scan_diagnostics: Vec<SchemaDiagnostic>,
    loaded: Mutex<FxHashMap<PathBuf, LoadResult>>,
    builtin: std::sync::OnceLock<Arc<Package>>,
}

impl std::fmt::Debug for SchemaRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaRegistry")
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl SchemaRegistry {
    /// A registry with no files (only the built-in `pulumi` package).
    pub fn new() -> Self {
        Self::default()
    }

    /// Scans each directory (not recursively) for `*.json` schema files. An unreadable
    /// directory is a diagnostic, not a failure.
    pub fn from_dirs<P: AsRef<Path>>(dirs: impl IntoIterator<Item = P>) -> Self {
        let mut registry = Self::new();
        for dir in dirs {
            registry.add_dir(dir.as_ref());
        }
        registry
    }

    pub fn add_dir(&mut self, dir: &Path) {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) => {
                self.scan_diagnostics.push(SchemaDiagnostic {
                    severity: Severity::Error,
                    file: dir.display().to_string().into(),
                    path: JsonPath::root(),
                    message: format!("cannot read `{}`: {}", dir.display(), io_reason(&err)),
                });
                return;
            }
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        paths.sort();
        for path in paths {
            self.add_file(path);
        }
    }

    /// Registers one file under the name and version its file name gives; files not named
    /// `*.json` are ignored. Returns whether the file was registered.
    pub fn add_file(&mut self, path: PathBuf) -> bool {
        let Some((name, version)) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(parse_schema_file_name)
        else {
            return false;
        };
        let files = self.files.entry(name.clone()).or_default();
        files.push(SchemaOnDisk {
            path,
            name,
            version,
        });
        files.sort_by(|a, b| a.version.cmp(&b.version));
        true
    }

    /// Problems met while scanning directories.
    pub fn scan_diagnostics(&self) -> &[SchemaDiagnostic] {
        &self.scan_diagnostics
    }

    /// All registered files, by package name then version.
    pub fn files(&self) -> impl Iterator<Item = &SchemaOnDisk> {
        self.files.values().flatten()
    }

    /// The file that provides `name` at `version`, by [`choose_version`](crate::choose_version)'s
    /// rule: exactly the version asked for, or the highest when none is.
    pub fn choose_file(
        &self,
        name: &str,
        version: Option<&str>,
    ) -> Result<&SchemaOnDisk, LoadError> {
        let candidates = self.files.get(name).map(Vec::as_slice).unwrap_or_default();
        let versions: Vec<Option<semver::Version>> =
            candidates.iter().map(|f| f.version.clone()).collect();
        match crate::version::choose_version(&versions, version) {
            Ok(i) => Ok(&candidates[i]),
            Err(missing) => Err(LoadError::NotFound {
                name: name.to_string(),
                version: version.map(str::to_string),
                available: missing.available,
            }),
        }
    }

    /// The schema of package `name` (at `version`, or the highest available), loading it on first
    /// use. `pulumi` is the built-in package unless a file provides it.
    pub fn package(&self, name: &str, version: Option<&str>) -> LoadResult {
        if name == "pulumi" && !self.files.contains_key("pulumi") {
            return Ok(self.builtin().clone());
        }
        let file = self.choose_file(name, version)?;
        let package = self.load_path(&file.path)?;
        // The file name decides which package a file provides; its `name` must agree. (Its
        // `version` may not: Pulumi's own test schemas register files under other versions.)
        if package.name() != name {
            return Err(LoadError::NameMismatch {
                file: file.path.display().to_string(),
                requested: name.to_string(),
                declared: package.name().to_string(),
            });
        }
        Ok(package)
    }

    /// Loads (once) the schema at `path`, whether or not it was registered.
    pub fn load_path(&self, path: &Path) -> LoadResult {
        if let Some(result) = self.lock().get(path) {
            return result.clone();
        }
        // Parse outside the lock: another thread may load another file meanwhile; if two threads
        // race on the same file, the first insert wins and both see it.
        let result = load_schema_file(path)
            .map(Arc::new)
            .map_err(LoadError::Invalid);
        self.lock()
            .entry(path.to_path_buf())
            .or_insert(result)
            .clone()
    }

    fn builtin(&self) -> &Arc<Package> {
        self.builtin
            .get_or_init(|| Arc::new(pulumi_builtin_package()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FxHashMap<PathBuf, LoadResult>> {
        // A panic while holding the lock cannot leave the map inconsistent (single inserts).
        self.loaded
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names() {
        let parse =
            |n: &str| parse_schema_file_name(n).map(|(name, v)| (name, v.map(|v| v.to_string())));
        assert_eq!(
            parse("random-4.11.2.json"),
            Some(("random".into(), Some("4.11.2".into())))
        );
        assert_eq!(
            parse("docker-4.0.0-alpha.0.json"),
            Some(("docker".into(), Some("4.0.0-alpha.0".into())))
        );
        assert_eq!(
            parse("awsx-1.0.0-beta.5.json"),
            Some(("awsx".into(), Some("1.0.0-beta.5".into())))
        );
        assert_eq!(
            parse("foo-bar-0.0.1.json"),
            Some(("foo-bar".into(), Some("0.0.1".into())))
        );
        assert_eq!(parse("kubernetes.json"), Some(("kubernetes".into(), None)));
        assert_eq!(parse("bad-type-1.json"), Some(("bad-type-1".into(), None)));
        assert_eq!(parse("-1.0.0.json"), Some(("-1.0.0".into(), None)));
        assert_eq!(parse("README.md"), None);
        assert_eq!(parse(".json"), None);
    }

    #[test]
    fn builtin_pulumi_package_is_valid() {
        let package = pulumi_builtin_package();
        assert_eq!(package.name(), "pulumi");
        assert!(package.load_diagnostics().is_empty());
        assert!(package
            .lookup_resource("pulumi:pulumi:StackReference")
            .is_ok());
        assert!(package.lookup_resource("pulumi:index:Stash").is_ok());
        assert!(package.lookup_resource("pulumi:Stash").is_ok());
    }
}
