//! One loaded package schema: the JSON parsed once into an index from token to the byte range of
//! its raw definition, and each definition decoded on first use (memoized, thread-safe).

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::diagnostic::{JsonPath, Problems, SchemaDiagnostic};
use crate::spec::{describe, ConfigSpec, Decoder, FunctionSpec, ResourceSpec, TypeDefSpec};
use crate::token::{closest_tokens, decompose_token, ModuleFormat};

/// Top-level keys of the package metaschema; anything else draws a warning.
const KNOWN_TOP_LEVEL_KEYS: &[&str] = &[
    "name",
    "displayName",
    "version",
    "description",
    "keywords",
    "homepage",
    "license",
    "attribution",
    "repository",
    "logoUrl",
    "pluginDownloadURL",
    "publisher",
    "namespace",
    "meta",
    "allowedPackageNames",
    "language",
    "config",
    "types",
    "provider",
    "resources",
    "functions",
    "parameterization",
    "dependencies",
    // Ignored by Pulumi's loader and common in test schemas.
    "$schema",
    "//",
];

/// A decoded definition and the problems its decoding found.
#[derive(Debug)]
pub struct Decoded<T> {
    pub spec: Arc<T>,
    pub diagnostics: Vec<SchemaDiagnostic>,
}

/// The definitions of one section (`resources`, `functions` or `types`), by token, decoded lazily.
struct Section<T> {
    /// Sorted tokens (the JSON object's keys).
    tokens: Vec<String>,
    spans: Vec<Range<usize>>,
    index: FxHashMap<String, usize>,
    decoded: Vec<OnceLock<Decoded<T>>>,
}

impl<T> Section<T> {
    fn new(entries: BTreeMap<String, Range<usize>>) -> Self {
        let mut tokens = Vec::with_capacity(entries.len());
        let mut spans = Vec::with_capacity(entries.len());
        let mut index = FxHashMap::default();
        for (i, (token, span)) in entries.into_iter().enumerate() {
            index.insert(token.clone(), i);
            tokens.push(token);
            spans.push(span);
        }
        let decoded = (0..tokens.len()).map(|_| OnceLock::new()).collect();
        Section {
            tokens,
            spans,
            index,
            decoded,
        }
    }
}

/// The package's parameterization (a parameterized provider such as a bridged Terraform provider).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameterization {
    pub base_provider_name: String,
    pub base_provider_version: String,
    /// The base64 `parameter`, as written.
    pub parameter: String,
}

/// Which kind of definition a token names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefinitionKind {
    Resource,
    Function,
    Type,
    /// Used in [`UnknownToken`] when any kind would have done.
    Any,
}

impl DefinitionKind {
    pub fn noun(self) -> &'static str {
        match self {
            DefinitionKind::Any => "token",
            DefinitionKind::Resource => "resource",
            DefinitionKind::Function => "function",
            DefinitionKind::Type => "type",
        }
    }
}

/// A token that names nothing in a package, with the closest existing tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownToken {
    pub kind: DefinitionKind,
    pub token: String,
    pub package: String,
    pub suggestions: Vec<String>,
}

impl UnknownToken {
    /// The message: "unknown resource `t` in package `p`".
    pub fn message(&self) -> String {
        format!(
            "unknown {} `{}` in package `{}`",
            self.kind.noun(),
            self.token,
            self.package
        )
    }

    /// The suggestions as a help line ("did you mean `a` or `b`?"), if there are any: never
    /// part of the message.
    pub fn help(&self) -> Option<String> {
        pcl_diagnostics::style::did_you_mean_any(&self.suggestions)
    }
}

impl std::fmt::Display for UnknownToken {
    /// The message, then the suggestions on a `help:` line of their own (as the command line
    /// shows them): a host that renders help its own way uses [`UnknownToken::message`] and
    /// [`UnknownToken::help`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())?;
        match self.help() {
            Some(help) => write!(f, "\nhelp: {help}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for UnknownToken {}

/// Where a definition was found: its index in its section and its tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub kind: DefinitionKind,
    /// The token as the schema spells it (`aws:s3/bucket:Bucket`), or `pulumi:providers:<pkg>`.
    pub schema_token: String,
    /// The token a program sees after binding (`aws:s3:Bucket`, `random::RandomPet`).
    pub canonical_token: String,
    /// `None` for the provider resource.
    pub(crate) index: Option<usize>,
}

/// A package schema, loaded from one JSON document.
pub struct Package {
    file: Arc<str>,
    text: Arc<str>,
    name: String,
    version: Option<String>,
    description: Option<String>,
    module_format: ModuleFormat,
    parameterization: Option<Parameterization>,
    allowed_package_names: Vec<String>,
    /// Raw spans of the other top-level sections, kept for tools.
    config: Option<Range<usize>>,
    language: Option<Range<usize>>,
    provider_span: Option<Range<usize>>,
    provider: OnceLock<Decoded<ResourceSpec>>,
    config_spec: OnceLock<Decoded<ConfigSpec>>,
    resources: Section<ResourceSpec>,
    functions: Section<FunctionSpec>,
    types: Section<Option<TypeDefSpec>>,
    /// Canonical token (and resource alias) → index; built on first lookup.
    resource_lookup: OnceLock<FxHashMap<String, usize>>,
    resource_aliases: OnceLock<FxHashMap<String, usize>>,
    function_lookup: OnceLock<FxHashMap<String, usize>>,
    type_lookup: OnceLock<FxHashMap<String, usize>>,
    load_diagnostics: Vec<SchemaDiagnostic>,
    /// See [`Package::namespace`].
    namespace: OnceLock<u64>,
    /// Memoized PCL types, filled by `crate::types`.
    pub(crate) type_cache: crate::types::TypeCache,
}

impl std::fmt::Debug for Package {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Package")
            .field("file", &self.file)
            .field("name", &self.name)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl Package {
    /// Parses a schema document. `file` names it in diagnostics. Only problems that leave nothing
    /// to work with (invalid JSON, not an object, no `name`) are fatal; anything else is recorded in
    /// [`Package::load_diagnostics`] and the rest of the schema stays usable.
    pub fn parse(
        file: impl Into<Arc<str>>,
        text: impl Into<Arc<str>>,
    ) -> Result<Package, Vec<SchemaDiagnostic>> {
        let file: Arc<str> = file.into();
        let text: Arc<str> = text.into();
        let mut problems = Problems::default();
        let root = JsonPath::root();
        let top: BTreeMap<String, &RawValue> = match serde_json::from_str(&text) {
            Ok(top) => top,
            Err(err) => {
                let message = if err.is_syntax() || err.is_eof() {
                    format!("invalid JSON: {err}")
                } else {
                    format!("a package schema must be a JSON object: {err}")
                };
                problems.error(&root, message);
                return Err(problems.into_diagnostics(&file));
            }
        };
        let span_of = |raw: &RawValue| -> Range<usize> {
            // `raw` borrows from `text`, so its offset is a pointer difference.
            let start = (raw.get().as_ptr() as usize).checked_sub(text.as_ptr() as usize);
            match start {
                Some(start) if start + raw.get().len() <= text.len() => {
                    start..start + raw.get().len()
                }
                // Cannot happen (the parser borrows from `text`); an empty span decodes to an
                // error diagnostic rather than a panic.
                _ => 0..0,
            }
        };
        for key in top.keys() {
            if !KNOWN_TOP_LEVEL_KEYS.contains(&key.as_str()) {
                problems.warning(
                    &root.key(key),
                    format!("unknown top-level key `{key}`: it is ignored"),
                );
            }
        }
        let small = |key: &str, problems: &mut Problems| -> Option<Value> {
            let raw = top.get(key)?;
            match serde_json::from_str::<Value>(raw.get()) {
                Ok(v) => Some(v),
                Err(err) => {
                    problems.error(&root.key(key), err.to_string());
                    None
                }
            }
        };
        let string_field = |key: &str, problems: &mut Problems| -> Option<String> {
            match small(key, problems)? {
                Value::String(s) => Some(s),
                Value::Null => None,
                other => {
                    problems.error(
                        &root.key(key),
                        format!("expected a string, found {}", describe(&other)),
                    );
                    None
                }
            }
        };
        let Some(name) = string_field("name", &mut problems).filter(|n| !n.is_empty()) else {
            problems.error(&root, "a package schema needs a `name`");
            return Err(problems.into_diagnostics(&file));
        };
        let version = string_field("version", &mut problems);
        if let Some(v) = &version {
            if semver::Version::parse(v).is_err() {
                problems.error(
                    &root.key("version"),
                    format!("`{v}` is not a semantic version"),
                );
            }
        }
        let description = string_field("description", &mut problems);

        let mut module_format = ModuleFormat::default();
        if let Some(meta) = small("meta", &mut problems) {
            let meta_path = root.key("meta");
            match &meta {
                Value::Object(m) => match m.get("moduleFormat") {
                    None => {}
                    Some(Value::String(pattern)) => match ModuleFormat::new(pattern) {
                        Ok(f) => module_format = f,
                        Err(e) => problems.error(
                            &meta_path.key("moduleFormat"),
                            format!("invalid module format regex `{pattern}`: {e}"),
                        ),
                    },
                    Some(other) => problems.error(
                        &meta_path.key("moduleFormat"),
                        format!("expected a string, found {}", describe(other)),
                    ),
                },
                other => problems.error(
                    &meta_path,
                    format!("expected an object, found {}", describe(other)),
                ),
            }
        }

        let parameterization = small("parameterization", &mut problems).and_then(|p| {
            let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
            let base = p.get("baseProvider");
            let parsed = (|| {
                Some(Parameterization {
                    base_provider_name: text(base?.get("name"))?,
                    base_provider_version: text(base?.get("version"))?,
                    parameter: text(p.get("parameter")).unwrap_or_default(),
                })
            })();
            if parsed.is_none() {
                problems.error(
                    &root.key("parameterization"),
                    "a parameterization needs `baseProvider.name` and `baseProvider.version` strings",
                );
            }
            parsed
        });

        let mut allowed_package_names = Vec::new();
        if let Some(list) = small("allowedPackageNames", &mut problems) {
            match list {
                Value::Array(items) => {
                    for (i, item) in items.into_iter().enumerate() {
                        match item {
                            Value::String(s) => allowed_package_names.push(s),
                            other => problems.error(
                                &root.key("allowedPackageNames").index(i),
                                format!("expected a string, found {}", describe(&other)),
                            ),
                        }
                    }
                }
                other => problems.error(
                    &root.key("allowedPackageNames"),
                    format!("expected an array, found {}", describe(&other)),
                ),
            }
        }

        let section = |key: &str, problems: &mut Problems| -> BTreeMap<String, Range<usize>> {
            let Some(raw) = top.get(key) else {
                return BTreeMap::new();
            };
            match serde_json::from_str::<Option<BTreeMap<String, &RawValue>>>(raw.get()) {
                Ok(entries) => entries
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(token, raw)| (token, span_of(raw)))
                    .collect(),
                Err(_) => {
                    let found = serde_json::from_str::<Value>(raw.get())
                        .map(|v| describe(&v))
                        .unwrap_or("invalid JSON");
                    problems.error(&root.key(key), format!("expected an object, found {found}"));
                    BTreeMap::new()
                }
            }
        };
        let resources = section("resources", &mut problems);
        let functions = section("functions", &mut problems);
        let types = section("types", &mut problems);
        // Pulumi decodes `language` into a map (language name → settings); anything but an
        // object (or null) fails to load there.
        if let Some(language) = small("language", &mut problems) {
            if !(language.is_object() || language.is_null()) {
                problems.error(
                    &root.key("language"),
                    format!("expected an object, found {}", describe(&language)),
                );
            }
        }
        let span = |key: &str| top.get(key).map(|raw| span_of(raw));
        let (config, language, provider_span) =
            (span("config"), span("language"), span("provider"));

        Ok(Package {
            load_diagnostics: problems.into_diagnostics(&file),
            file,
            name,
            version,
            description,
            module_format,
            parameterization,
            allowed_package_names,
            config,
            language,
            provider_span,
            provider: OnceLock::new(),
            config_spec: OnceLock::new(),
            resources: Section::new(resources),
            functions: Section::new(functions),
            types: Section::new(types),
            resource_lookup: OnceLock::new(),
            resource_aliases: OnceLock::new(),
            function_lookup: OnceLock::new(),
            type_lookup: OnceLock::new(),
            namespace: OnceLock::new(),
            type_cache: Default::default(),
            text,
        })
    }

    pub fn file(&self) -> &Arc<str> {
        &self.file
    }

    /// The JSON text the package was parsed from.
    pub fn text(&self) -> &Arc<str> {
        &self.text
    }

    /// The package name from the schema (`name`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The version from the schema (`version`), if any.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    pub fn module_format(&self) -> &ModuleFormat {
        &self.module_format
    }

    pub fn parameterization(&self) -> Option<&Parameterization> {
        self.parameterization.as_ref()
    }

    pub fn allowed_package_names(&self) -> &[String] {
        &self.allowed_package_names
    }

    /// The raw `config` section, for tools that want it.
    pub fn raw_config(&self) -> Option<&str> {
        self.config.clone().map(|r| &self.text[r])
    }

    /// The decoded `config` section (empty if the schema has none), with its problems.
    pub fn config(&self) -> &Decoded<ConfigSpec> {
        self.config_spec.get_or_init(|| {
            let path = JsonPath::root().key("config");
            let mut problems = Problems::default();
            let spec = match &self.config {
                Some(span) => {
                    let value = self.decode_value(span, &path, &mut problems);
                    Decoder {
                        problems: &mut problems,
                    }
                    .config(&value, &path)
                }
                None => ConfigSpec::default(),
            };
            Decoded {
                spec: Arc::new(spec),
                diagnostics: problems.into_diagnostics(&self.file),
            }
        })
    }

    /// The namespace of the deferred objects (recursive schema types) this package's types
    /// are built from (see [`pcl_types::DeferredKey`]): a hash of the package's name, version
    /// and whole text. Two `Package`s parsed from the same schema have the same namespace, so
    /// their types are the same (`==`) while either is alive; a changed schema has another
    /// one. Computed on first use.
    pub fn namespace(&self) -> u64 {
        *self.namespace.get_or_init(|| {
            let mut hasher = std::hash::DefaultHasher::new();
            "pcl-schema package".hash(&mut hasher);
            self.name.hash(&mut hasher);
            self.version.hash(&mut hasher);
            self.text.hash(&mut hasher);
            hasher.finish()
        })
    }

    /// The raw `language` section.
    pub fn raw_language(&self) -> Option<&str> {
        self.language.clone().map(|r| &self.text[r])
    }

    /// Problems found while indexing the document (not those inside definitions, which are found
    /// when each is decoded).
    pub fn load_diagnostics(&self) -> &[SchemaDiagnostic] {
        &self.load_diagnostics
    }

    /// The package's resource tokens as the schema spells them, sorted.
    pub fn resource_tokens(&self) -> &[String] {
        &self.resources.tokens
    }

    pub fn function_tokens(&self) -> &[String] {
        &self.functions.tokens
    }

    pub fn type_tokens(&self) -> &[String] {
        &self.types.tokens
    }

    pub fn has_provider(&self) -> bool {
        self.provider_span.is_some()
    }

    /// The token of the package's provider resource, `pulumi:providers:<name>`.
    pub fn provider_token(&self) -> String {
        format!("pulumi:providers:{}", self.name)
    }

    /// The canonical form of a token of this package (see [`ModuleFormat::canonicalize`]).
    /// `pulumi:` tokens keep their module (`pulumi:Stash` is `pulumi:index:Stash`).
    pub fn canonicalize(&self, token: &str) -> String {
        if let Some(parts) = decompose_token(token)
            .ok()
            .filter(|p| p.package == "pulumi")
        {
            return format!("pulumi:{}:{}", parts.module, parts.member);
        }
        self.module_format
            .canonicalize(&self.name, token)
            .unwrap_or_else(|| token.to_string())
    }

    /// The canonical form of a token as a program writes it: like [`Package::canonicalize`], but
    /// a module the module format does not match stays as written.
    pub fn canonicalize_program_token(&self, token: &str) -> String {
        if let Some(parts) = decompose_token(token)
            .ok()
            .filter(|p| p.package == "pulumi")
        {
            return format!("pulumi:{}:{}", parts.module, parts.member);
        }
        self.module_format
            .canonicalize_program_token(&self.name, token)
            .unwrap_or_else(|| token.to_string())
    }

    fn decode_value(&self, span: &Range<usize>, path: &JsonPath, problems: &mut Problems) -> Value {
        match serde_json::from_str::<Value>(&self.text[span.clone()]) {
            Ok(v) => v,
            Err(err) => {
                // The top-level parse only checks the syntax of definitions; decoding one
                // also limits its nesting (serde_json's 128 levels, which keeps the decoder's
                // recursion bounded). Any other error cannot happen for a span the parser
                // produced, and is reported rather than trusted.
                let message = if err.to_string().starts_with("recursion limit exceeded") {
                    // The error's line and column are relative to the span.
                    let before = &self.text[..span.start];
                    let base_line = before.matches('\n').count() + 1;
                    let base_column = before.len() - before.rfind('\n').map_or(0, |i| i + 1);
                    let (line, column) = match err.line() {
                        1 => (base_line, base_column + err.column()),
                        n => (base_line + n - 1, err.column()),
                    };
                    format!(
                        "this definition is nested too deeply: JSON values may nest at most 128 levels (at line {line} column {column})"
                    )
                } else {
                    err.to_string()
                };
                problems.error(path, message);
                Value::Null
            }
        }
    }

    /// The decoded definition of the resource at `index`.
    pub(crate) fn resource_at(&self, index: usize) -> &Decoded<ResourceSpec> {
        self.resources.decoded[index].get_or_init(|| {
            let token = &self.resources.tokens[index];
            let path = JsonPath::root().key("resources").key(token);
            let mut problems = Problems::default();
            let value = self.decode_value(&self.resources.spans[index], &path, &mut problems);
            let spec = Decoder {
                problems: &mut problems,
            }
            .resource(token, &value, &path, false);
            Decoded {
                spec: Arc::new(spec),
                diagnostics: problems.into_diagnostics(&self.file),
            }
        })
    }

    pub(crate) fn function_at(&self, index: usize) -> &Decoded<FunctionSpec> {
        self.functions.decoded[index].get_or_init(|| {
            let token = &self.functions.tokens[index];
            let path = JsonPath::root().key("functions").key(token);
            let mut problems = Problems::default();
            let value = self.decode_value(&self.functions.spans[index], &path, &mut problems);
            let spec = Decoder {
                problems: &mut problems,
            }
            .function(token, &value, &path);
            Decoded {
                spec: Arc::new(spec),
                diagnostics: problems.into_diagnostics(&self.file),
            }
        })
    }

    /// The decoded type at `index` (its spec is `None` if it is too malformed to be an object or
    /// an enum; the diagnostics say why).
    pub(crate) fn type_at(&self, index: usize) -> &Decoded<Option<TypeDefSpec>> {
        self.types.decoded[index].get_or_init(|| {
            let token = &self.types.tokens[index];
            let path = JsonPath::root().key("types").key(token);
            let mut problems = Problems::default();
            let value = self.decode_value(&self.types.spans[index], &path, &mut problems);
            let spec = Decoder {
                problems: &mut problems,
            }
            .type_def(token, &value, &path);
            Decoded {
                spec: Arc::new(spec),
                diagnostics: problems.into_diagnostics(&self.file),
            }
        })
    }

    /// The provider resource (`provider` section, or an empty one if the schema has none).
    pub fn provider(&self) -> &Decoded<ResourceSpec> {
        self.provider.get_or_init(|| {
            let path = JsonPath::root().key("provider");
            let mut problems = Problems::default();
            let value = match &self.provider_span {
                Some(span) => self.decode_value(span, &path, &mut problems),
                None => Value::Object(Default::default()),
            };
            let spec = Decoder {
                problems: &mut problems,
            }
            .resource(&self.provider_token(), &value, &path, true);
            Decoded {
                spec: Arc::new(spec),
                diagnostics: problems.into_diagnostics(&self.file),
            }
        })
    }

    /// Looks up a resource as a program names it: the schema token, its canonical form, an alias,
    /// or `pulumi:providers:<pkg>` for the provider.
    pub fn lookup_resource(&self, token: &str) -> Result<Found, UnknownToken> {
        if token == self.provider_token() {
            return Ok(Found {
                kind: DefinitionKind::Resource,
                schema_token: token.to_string(),
                canonical_token: token.to_string(),
                index: None,
            });
        }
        let map = self
            .resource_lookup
            .get_or_init(|| self.canonical_map(&self.resources.tokens));
        let result = self.lookup_in(map, &self.resources.tokens, DefinitionKind::Resource, token);
        if result.is_ok() {
            return result;
        }
        // Aliases are read from the definitions, so they are consulted only when the token is
        // not a real one: a program that names resources correctly decodes nothing else.
        let aliases = self.resource_aliases.get_or_init(|| self.alias_map());
        let alias = aliases
            .get(token)
            .or_else(|| aliases.get(&self.canonicalize_program_token(token)));
        match alias {
            Some(&index) => Ok(self.found(DefinitionKind::Resource, &self.resources.tokens, index)),
            None => result,
        }
    }

    /// Alias token (as written and canonical) → resource. An alias that names a real resource,
    /// or that two resources claim, is dropped.
    fn alias_map(&self) -> FxHashMap<String, usize> {
        let mut aliases: FxHashMap<String, Option<usize>> = FxHashMap::default();
        for index in 0..self.resources.tokens.len() {
            for alias in &self.resource_at(index).spec.aliases {
                for key in [alias.clone(), self.canonicalize(alias)] {
                    aliases
                        .entry(key)
                        .and_modify(|e| {
                            if *e != Some(index) {
                                *e = None
                            }
                        })
                        .or_insert(Some(index));
                }
            }
        }
        aliases
            .into_iter()
            .filter_map(|(alias, index)| Some((alias, index?)))
            .collect()
    }

    /// Looks up a function (invoke token) by schema token or canonical form.
    pub fn lookup_function(&self, token: &str) -> Result<Found, UnknownToken> {
        let map = self
            .function_lookup
            .get_or_init(|| self.canonical_map(&self.functions.tokens));
        self.lookup_in(map, &self.functions.tokens, DefinitionKind::Function, token)
    }

    /// Looks up a named type by its schema token or canonical form.
    pub fn lookup_type(&self, token: &str) -> Result<Found, UnknownToken> {
        let map = self
            .type_lookup
            .get_or_init(|| self.canonical_map(&self.types.tokens));
        self.lookup_in(map, &self.types.tokens, DefinitionKind::Type, token)
    }

    /// Looks a token up among resources, then functions, then types; on failure the suggestions
    /// come from all three.
    pub fn lookup_any(&self, token: &str) -> Result<Found, UnknownToken> {
        if let Ok(found) = self
            .lookup_resource(token)
            .or_else(|_| self.lookup_function(token))
            .or_else(|_| self.lookup_type(token))
        {
            return Ok(found);
        }
        let all: Vec<String> = self
            .resources
            .tokens
            .iter()
            .chain(&self.functions.tokens)
            .chain(&self.types.tokens)
            .cloned()
            .collect();
        Err(UnknownToken {
            kind: DefinitionKind::Any,
            ..self.unknown(DefinitionKind::Any, &all, token)
        })
    }

    fn canonical_map(&self, tokens: &[String]) -> FxHashMap<String, usize> {
        let mut map = FxHashMap::default();
        for (index, token) in tokens.iter().enumerate() {
            map.insert(self.canonicalize(token), index);
        }
        // Exact schema tokens win over another definition's canonical form.
        for (index, token) in tokens.iter().enumerate() {
            map.insert(token.clone(), index);
        }
        map
    }

    fn lookup_in(
        &self,
        map: &FxHashMap<String, usize>,
        tokens: &[String],
        kind: DefinitionKind,
        token: &str,
    ) -> Result<Found, UnknownToken> {
        let index = map.get(token).or_else(|| {
            let parts = decompose_token(token).ok()?;
            if parts.package != self.name {
                return None;
            }
            map.get(&self.canonicalize_program_token(token))
        });
        match index {
            Some(&index) => Ok(self.found(kind, tokens, index)),
            None => Err(self.unknown(kind, tokens, token)),
        }
    }

    fn found(&self, kind: DefinitionKind, tokens: &[String], index: usize) -> Found {
        Found {
            kind,
            schema_token: tokens[index].clone(),
            canonical_token: self.canonicalize(&tokens[index]),
            index: Some(index),
        }
    }

    /// Canonical and schema spellings of `tokens`, deduplicated, for suggestions.
    fn suggestion_candidates<'t>(&self, tokens: impl Iterator<Item = &'t String>) -> Vec<String> {
        let mut out = Vec::new();
        for token in tokens {
            let canonical = self.canonicalize(token);
            if &canonical != token {
                out.push(canonical);
            }
            out.push(token.clone());
        }
        out
    }

    fn unknown(&self, kind: DefinitionKind, tokens: &[String], token: &str) -> UnknownToken {
        let mut candidates = self.suggestion_candidates(tokens.iter());
        if kind == DefinitionKind::Resource {
            candidates.push(self.provider_token());
        }
        let canonical = self.canonicalize_program_token(token);
        let suggestions = closest_tokens(
            &[token, &canonical],
            candidates.iter().map(String::as_str),
            3,
        );
        // Both spellings of one definition may be close; keep the first of each.
        let mut seen = Vec::new();
        let suggestions = suggestions
            .into_iter()
            .filter(|s| {
                let key = self.canonicalize(s);
                let new = !seen.contains(&key);
                seen.push(key);
                new
            })
            .collect();
        UnknownToken {
            kind,
            token: token.to_string(),
            package: self.name.clone(),
            suggestions,
        }
    }

    /// How many resources, functions and types have been decoded so far (laziness checks and
    /// benchmarks).
    pub fn decoded_counts(&self) -> (usize, usize, usize) {
        fn count<T>(section: &Section<T>) -> usize {
            section.decoded.iter().filter(|d| d.get().is_some()).count()
        }
        (
            count(&self.resources),
            count(&self.functions),
            count(&self.types),
        )
    }

    /// The decoded resource a lookup found.
    pub fn resource(&self, found: &Found) -> &Decoded<ResourceSpec> {
        match found.index {
            Some(index) if found.kind == DefinitionKind::Resource => self.resource_at(index),
            _ => self.provider(),
        }
    }

    /// The decoded function a lookup found (`None` if `found` is not a function of this package).
    pub fn function(&self, found: &Found) -> Option<&Decoded<FunctionSpec>> {
        match (found.kind, found.index) {
            (DefinitionKind::Function, Some(index)) if index < self.functions.tokens.len() => {
                Some(self.function_at(index))
            }
            _ => None,
        }
    }

    /// The decoded type a lookup found (`None` if it is not a type or too malformed).
    pub fn type_def(&self, found: &Found) -> Option<&TypeDefSpec> {
        match (found.kind, found.index) {
            (DefinitionKind::Type, Some(index)) if index < self.types.tokens.len() => {
                self.type_at(index).spec.as_ref().as_ref()
            }
            _ => None,
        }
    }

    pub(crate) fn resource_index(&self, token: &str) -> Option<usize> {
        self.resources.index.get(token).copied()
    }

    pub(crate) fn function_index(&self, token: &str) -> Option<usize> {
        self.functions.index.get(token).copied()
    }

    pub(crate) fn type_index(&self, token: &str) -> Option<usize> {
        self.types.index.get(token).copied()
    }
}
