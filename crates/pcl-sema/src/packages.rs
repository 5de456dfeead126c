//! Package schemas as salsa queries: which file provides a package, the parsed schema, and the
//! types of each resource and function a program names.
//!
//! Each step is its own query, so that editing one schema file re-parses only that file and
//! re-binds only the nodes that use one of its definitions, and so that 100,000 resources of
//! ten types map ten schema definitions to types, not 100,000.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use pcl_db::{workspace, SchemaFile};
use pcl_schema::{
    FunctionSignature, JsonPath, LoadError, Package, PackageLoader, SchemaDiagnostic, TypeMapper,
    UnknownToken,
};
use pcl_types::Type;

/// A parsed schema, compared by identity: its namespace hashes its name, version and text.
#[derive(Clone)]
pub struct PackageRef(pub Arc<Package>);

impl PartialEq for PackageRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.namespace() == other.0.namespace()
    }
}

impl Eq for PackageRef {}

impl std::fmt::Debug for PackageRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PackageRef({})", self.0.name())
    }
}

/// Why a package is not available.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackageError {
    /// No schema file provides it (at that version).
    NotFound {
        name: String,
        version: Option<String>,
        /// The versions that are available, highest first.
        available: Vec<String>,
        /// Where schemas were looked for.
        dirs: Vec<PathBuf>,
    },
    /// Its schema file could not be read or is not a valid schema: the errors, each naming
    /// the file and the JSON pointer of the problem.
    Invalid {
        name: String,
        problems: Vec<SchemaDiagnostic>,
    },
}

impl PackageError {
    pub fn package(&self) -> &str {
        match self {
            PackageError::NotFound { name, .. } | PackageError::Invalid { name, .. } => name,
        }
    }
}

impl std::fmt::Display for PackageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PackageError::NotFound {
                name,
                version,
                available,
                dirs,
            } => {
                write!(f, "no schema for package `{name}`")?;
                if let Some(v) = version {
                    write!(f, " version `{v}`")?;
                }
                if !available.is_empty() {
                    write!(
                        f,
                        " (available: {})",
                        pcl_diagnostics::style::quoted_list(available, "and")
                    )?;
                }
                if dirs.is_empty() {
                    f.write_str(
                        "; no schema directories are configured (set `$PCL_SCHEMA_PATH` or create `~/.pcl/schemas`)",
                    )
                } else {
                    let dirs: Vec<String> =
                        dirs.iter().map(|d| format!("`{}`", d.display())).collect();
                    write!(f, "; looked in {}", dirs.join(", "))
                }
            }
            PackageError::Invalid { problems, .. } => {
                for (i, problem) in problems.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{problem}")?;
                }
                Ok(())
            }
        }
    }
}

/// The schema in one file, parsed once per text; or the errors that make it unusable.
#[salsa::tracked(returns(ref))]
pub fn parsed_schema(
    db: &dyn pcl_db::Db,
    file: SchemaFile,
) -> Result<PackageRef, Vec<SchemaDiagnostic>> {
    let _stamp = file.stamp(db);
    let label: Arc<str> = file.path(db).display().to_string().into();
    let text: Arc<str> = match file.text(db) {
        Some(text) => text.clone(),
        // Read by the host's reader: queries do no I/O of their own.
        None => match db.read_schema_file(file.path(db)) {
            Ok(text) => text.into(),
            Err(error) => {
                return Err(vec![SchemaDiagnostic {
                    severity: pcl_diagnostics::Severity::Error,
                    file: label,
                    path: JsonPath::root(),
                    message: error.to_string(),
                }])
            }
        },
    };
    match Package::parse(label, text) {
        Ok(package) => Ok(PackageRef(Arc::new(package))),
        Err(mut diagnostics) => {
            diagnostics.retain(|d| d.severity == pcl_diagnostics::Severity::Error);
            Err(diagnostics)
        }
    }
}

/// A package as a program asks for it: a name and, from a `package` block or a resource's
/// `version` option, a version.
#[salsa::interned(debug)]
pub struct PackageRequest<'db> {
    #[returns(ref)]
    pub name: String,
    #[returns(ref)]
    pub version: Option<String>,
}

fn builtin_pulumi() -> &'static PackageRef {
    static BUILTIN: OnceLock<PackageRef> = OnceLock::new();
    BUILTIN.get_or_init(|| PackageRef(Arc::new(pcl_schema::pulumi_builtin_package())))
}

/// The schema of a package, from the file [`pcl_schema::choose_version`] chooses (exactly the
/// version asked for, or the highest). `pulumi` is built in.
#[salsa::tracked(returns(ref))]
pub fn package_schema<'db>(
    db: &'db dyn pcl_db::Db,
    request: PackageRequest<'db>,
) -> Result<PackageRef, PackageError> {
    let name = request.name(db);
    let workspace = workspace(db);
    let files: Vec<SchemaFile> = workspace
        .schema_files(db)
        .iter()
        .copied()
        .filter(|file| file.package(db) == name)
        .collect();
    let versions: Vec<Option<semver::Version>> = files
        .iter()
        .map(|file| {
            file.version(db)
                .as_deref()
                .and_then(|v| semver::Version::parse(v).ok())
        })
        .collect();
    let file = match pcl_schema::choose_version(&versions, request.version(db).as_deref()) {
        Ok(i) => files[i],
        Err(_) if name == "pulumi" && request.version(db).is_none() => {
            return Ok(builtin_pulumi().clone());
        }
        Err(missing) => {
            return Err(PackageError::NotFound {
                name: name.clone(),
                version: request.version(db).clone(),
                available: missing.available,
                dirs: workspace.schema_dirs(db).clone(),
            })
        }
    };
    match parsed_schema(db, file) {
        Ok(package) if package.0.name() != name => Err(PackageError::Invalid {
            name: name.clone(),
            problems: vec![SchemaDiagnostic {
                severity: pcl_diagnostics::Severity::Error,
                file: file.path(db).display().to_string().into(),
                path: JsonPath::root().key("name"),
                message: format!(
                    "the schema declares package `{}`, not `{name}`",
                    package.0.name()
                ),
            }],
        }),
        Ok(package) => Ok(package.clone()),
        Err(problems) => Err(PackageError::Invalid {
            name: name.clone(),
            problems: problems.clone(),
        }),
    }
}

/// Gives type mapping the packages that external type references name, through the queries
/// above (so that the reading query depends on them).
pub(crate) struct DbLoader<'a> {
    pub(crate) db: &'a dyn pcl_db::Db,
}

impl PackageLoader for DbLoader<'_> {
    fn package(&self, name: &str, version: Option<&str>) -> Result<Arc<Package>, LoadError> {
        let request = PackageRequest::new(self.db, name.to_string(), version.map(str::to_string));
        match package_schema(self.db, request) {
            Ok(package) => Ok(package.0.clone()),
            Err(PackageError::NotFound {
                name,
                version,
                available,
                ..
            }) => Err(LoadError::NotFound {
                name: name.clone(),
                version: version.clone(),
                available: available.clone(),
            }),
            Err(PackageError::Invalid { problems, .. }) => {
                Err(LoadError::Invalid(problems.clone()))
            }
        }
    }
}

/// A resource or function token of a package, as a program writes it.
#[salsa::interned(debug)]
pub struct TokenRequest<'db> {
    #[returns(copy)]
    pub package: PackageRequest<'db>,
    #[returns(ref)]
    pub token: String,
}

/// Why a token names nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenError {
    Package(PackageError),
    Unknown(UnknownToken),
}

/// What binding needs of a resource type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceSchema {
    /// The token a program sees after binding (`aws:s3:Bucket`).
    pub canonical_token: String,
    /// The object a `resource` block's attributes are checked against.
    pub inputs: Type,
    /// The object a `read` block's attributes are checked against (`id` and the state inputs).
    pub read_inputs: Type,
    /// The resource variable's type: `id`, `urn` and every output, each an output.
    pub outputs: Type,
    pub is_provider: bool,
    pub is_component: bool,
    /// Why the schema's definition of this resource cannot be used at all (it is not an
    /// object, or it nests too deeply to decode), with its JSON pointer.
    pub unusable: Option<String>,
}

/// The schema of one resource type.
#[salsa::tracked(returns(ref))]
pub fn resource_schema<'db>(
    db: &'db dyn pcl_db::Db,
    request: TokenRequest<'db>,
) -> Result<ResourceSchema, TokenError> {
    let package = package_schema(db, request.package(db))
        .as_ref()
        .map_err(|e| TokenError::Package(e.clone()))?;
    let package = &package.0;
    let found = package
        .lookup_resource(request.token(db))
        .map_err(TokenError::Unknown)?;
    let loader = DbLoader { db };
    let mapper = TypeMapper::new(&loader);
    let decoded = package.resource(&found);
    let spec = decoded.spec.clone();
    let definition = pcl_schema::JsonPath::root()
        .key("resources")
        .key(&found.schema_token);
    let unusable = decoded
        .diagnostics
        .iter()
        .find(|d| d.severity == pcl_diagnostics::Severity::Error && d.path == definition)
        .map(|d| format!("{}: {}", d.path, d.message));
    Ok(ResourceSchema {
        unusable,
        canonical_token: found.canonical_token.clone(),
        inputs: mapper.resource_input_type(package, &found),
        read_inputs: mapper.resource_read_input_type(package, &found),
        outputs: mapper.resource_output_type(package, &found),
        is_provider: spec.is_provider || found.schema_token.starts_with("pulumi:providers:"),
        is_component: spec.is_component,
    })
}

/// What binding needs of a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionSchema {
    pub canonical_token: String,
    pub signature: Arc<FunctionSignature>,
}

/// The signature of one function (an `invoke` target).
#[salsa::tracked(returns(ref))]
pub fn function_schema<'db>(
    db: &'db dyn pcl_db::Db,
    request: TokenRequest<'db>,
) -> Result<FunctionSchema, TokenError> {
    let package = package_schema(db, request.package(db))
        .as_ref()
        .map_err(|e| TokenError::Package(e.clone()))?;
    let package = &package.0;
    let found = package
        .lookup_function(request.token(db))
        .map_err(TokenError::Unknown)?;
    let loader = DbLoader { db };
    let mapper = TypeMapper::new(&loader);
    let signature = mapper.function_signature(package, &found).ok_or_else(|| {
        TokenError::Unknown(UnknownToken {
            kind: pcl_schema::DefinitionKind::Function,
            token: request.token(db).clone(),
            package: package.name().to_string(),
            suggestions: Vec::new(),
        })
    })?;
    Ok(FunctionSchema {
        canonical_token: found.canonical_token.clone(),
        signature,
    })
}

/// A method of a resource (`call(resource, "method", {args})`), resolved per call: calls are
/// rare, and the resource's package query is memoized.
pub(crate) fn method_signature(
    db: &dyn pcl_db::Db,
    package: PackageRequest<'_>,
    resource_token: &str,
    method: &str,
) -> Result<pcl_schema::MethodSignature, MethodCallError> {
    let package = package_schema(db, package)
        .as_ref()
        .map_err(|e| MethodCallError::Package(e.clone()))?;
    let package = &package.0;
    let found = package
        .lookup_resource(resource_token)
        .map_err(MethodCallError::Unknown)?;
    let loader = DbLoader { db };
    TypeMapper::new(&loader)
        .method_signature(package, &found, method)
        .map_err(MethodCallError::Method)
}

/// Why `call(resource, "method", ...)` names no method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MethodCallError {
    Package(PackageError),
    Unknown(UnknownToken),
    Method(pcl_schema::MethodError),
}

impl std::fmt::Display for MethodCallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MethodCallError::Package(e) => e.fmt(f),
            MethodCallError::Unknown(e) => e.fmt(f),
            MethodCallError::Method(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MethodCallError {}

/// The package request a `resource` or `read` block makes for its token's package `name`:
/// at the version a `package` block declares, else at the version a literal `version` option
/// of the block names when that version is available. What the binder checks the block
/// against, and what an editor describes.
pub fn resource_package_request<'db>(
    db: &'db dyn pcl_db::Db,
    program: pcl_db::Program,
    body: &pcl_hir::Body,
    name: &str,
) -> PackageRequest<'db> {
    let request = package_request(db, program, name);
    if request.version(db).is_some() {
        return request;
    }
    let version = body
        .blocks_in(None)
        .find(|(_, b)| b.type_name.as_str() == "options")
        .and_then(|(options, _)| body.find_attr(Some(options), "version"))
        .and_then(|(_, attr)| match body.expr(attr.value) {
            pcl_hir::Expr::Literal(pcl_types::ConstValue::String(s)) => Some(s.to_string()),
            _ => None,
        });
    if let Some(version) = version {
        let versioned = PackageRequest::new(db, name.to_string(), Some(version));
        if package_schema(db, versioned).is_ok() {
            return versioned;
        }
    }
    request
}

/// The package request for `name` in `program`: at the version a `package` block declares.
pub fn package_request<'db>(
    db: &'db dyn pcl_db::Db,
    program: pcl_db::Program,
    name: &str,
) -> PackageRequest<'db> {
    let version = crate::declared_packages(db, program)
        .iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, v)| v.clone());
    PackageRequest::new(db, name, version)
}
