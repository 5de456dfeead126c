//! `pcl schema check` and `pcl schema show`, as library functions writing to any `Write`, so the
//! CLI stays a thin wrapper and the output is testable.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::check::{check_package, has_errors};
use crate::diagnostic::Severity;
use crate::display::readable_type;
use crate::package::{DefinitionKind, Found, Package};
use crate::registry::{load_schema_file, LoadError, SchemaRegistry};
use crate::spec::{PropertySpec, ReturnSpec, TypeDefSpec};
use crate::token::{closest_tokens, package_of_token};
use crate::types::{Shape, TypeMapper};

/// How a command ended, mapped to the exit status by the CLI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Ok,
    /// Exit 1: a schema has errors, or a token or package is unknown.
    Problems,
    /// Exit 2: usage or I/O error.
    UsageOrIo,
}

impl Outcome {
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Ok => 0,
            Outcome::Problems => 1,
            Outcome::UsageOrIo => 2,
        }
    }
}

/// `pcl schema check`: checks `files`, or every schema file of `dirs` if no file is named.
/// Writes each problem as `file: /json/path: message` to `out` and a summary to `err`.
pub fn run_check(
    dirs: &[PathBuf],
    files: &[PathBuf],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<Outcome> {
    if dirs.is_empty() && files.is_empty() {
        writeln!(
            err,
            "error: name schema files, or directories with --schemas"
        )?;
        return Ok(Outcome::UsageOrIo);
    }
    let registry = SchemaRegistry::from_dirs(dirs);
    let mut io_error = false;
    for d in registry.scan_diagnostics() {
        writeln!(out, "{d}")?;
        io_error = true;
    }
    let targets: Vec<PathBuf> = if files.is_empty() {
        registry.files().map(|f| f.path.clone()).collect()
    } else {
        files.to_vec()
    };
    let (mut errors, mut warnings, mut failed) = (0, 0, 0);
    for path in &targets {
        let diagnostics = match load_schema_file(path) {
            Ok(package) => check_package(&package, &registry),
            Err(diagnostics) => {
                if !path.is_file() {
                    io_error = true;
                }
                diagnostics
            }
        };
        for d in &diagnostics {
            writeln!(out, "{d}")?;
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
        }
        if has_errors(&diagnostics) {
            failed += 1;
        }
    }
    writeln!(
        err,
        "checked {} schema file{}: {failed} with errors ({errors} errors, {warnings} warnings)",
        targets.len(),
        if targets.len() == 1 { "" } else { "s" },
    )?;
    Ok(if io_error {
        Outcome::UsageOrIo
    } else if failed > 0 {
        Outcome::Problems
    } else {
        Outcome::Ok
    })
}

/// `pcl schema show TOKEN...`: describes each token as a program sees it.
pub fn run_show(
    registry: &SchemaRegistry,
    tokens: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<Outcome> {
    let mut outcome = Outcome::Ok;
    let mut shown = 0;
    for token in tokens {
        let Some(package) = load_package_for(registry, token, err)? else {
            outcome = Outcome::Problems;
            continue;
        };
        match package.lookup_any(token) {
            Ok(found) => {
                if shown > 0 {
                    writeln!(out)?;
                }
                shown += 1;
                show_found(registry, &package, &found, out)?
            }
            Err(unknown) => {
                writeln!(err, "error: {unknown}")?;
                outcome = Outcome::Problems;
            }
        }
    }
    Ok(outcome)
}

/// `pcl schema show --list PACKAGE`: every token of a package, as programs write them.
pub fn run_list(
    registry: &SchemaRegistry,
    package_name: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<Outcome> {
    let package = match registry.package(package_name, None) {
        Ok(p) => p,
        Err(e) => {
            report_load_error(registry, package_name, &e, err)?;
            return Ok(Outcome::Problems);
        }
    };
    header(&package, out)?;
    writeln!(out, "resources:")?;
    if package.has_provider() {
        writeln!(out, "  {}", package.provider_token())?;
    }
    for token in package.resource_tokens() {
        writeln!(out, "  {}", package.canonicalize(token))?;
    }
    writeln!(out, "functions:")?;
    for token in package.function_tokens() {
        writeln!(out, "  {}", package.canonicalize(token))?;
    }
    writeln!(out, "types:")?;
    for token in package.type_tokens() {
        writeln!(out, "  {}", package.canonicalize(token))?;
    }
    Ok(Outcome::Ok)
}

fn load_package_for(
    registry: &SchemaRegistry,
    token: &str,
    err: &mut dyn Write,
) -> io::Result<Option<std::sync::Arc<Package>>> {
    let Some(name) = package_of_token(token) else {
        writeln!(
            err,
            "error: malformed token '{token}': expected 'pkg:module:member' or 'pkg:member'"
        )?;
        return Ok(None);
    };
    match registry.package(name, None) {
        Ok(p) => Ok(Some(p)),
        Err(e) => {
            report_load_error(registry, name, &e, err)?;
            Ok(None)
        }
    }
}

fn report_load_error(
    registry: &SchemaRegistry,
    name: &str,
    error: &LoadError,
    err: &mut dyn Write,
) -> io::Result<()> {
    writeln!(err, "error: {error}")?;
    if let LoadError::NotFound { .. } = error {
        let mut names: Vec<&str> = registry.files().map(|f| f.name.as_str()).collect();
        names.dedup();
        let close = closest_tokens(&[name], names, 3);
        if !close.is_empty() {
            writeln!(err, "  packages with close names: {}", close.join(", "))?;
        }
    }
    Ok(())
}

fn header(package: &Package, out: &mut dyn Write) -> io::Result<()> {
    let version = package.version().unwrap_or("(no version)");
    writeln!(
        out,
        "package {} {version} ({})",
        package.name(),
        package.file()
    )
}

fn first_line(text: Option<&str>) -> &str {
    text.and_then(|t| t.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("")
}

fn show_found(
    registry: &SchemaRegistry,
    package: &Package,
    found: &Found,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mapper = TypeMapper::new(registry);
    let names = if found.schema_token == found.canonical_token {
        found.canonical_token.clone()
    } else {
        format!(
            "{} (schema token {})",
            found.canonical_token, found.schema_token
        )
    };
    match found.kind {
        DefinitionKind::Resource => {
            let spec = package.resource(found).spec.clone();
            let kind = if spec.is_provider {
                "provider resource"
            } else if spec.is_component {
                "component resource"
            } else {
                "resource"
            };
            writeln!(out, "{kind} {names}")?;
            description(
                spec.description.as_deref(),
                spec.deprecation.as_deref(),
                out,
            )?;
            writeln!(out, "inputs:")?;
            properties(
                &spec.inputs,
                |p| mapper.property_type(package, p, Shape::Input),
                out,
            )?;
            writeln!(out, "outputs:")?;
            let mut outputs = vec![
                (
                    "id".to_string(),
                    "output(string)".to_string(),
                    true,
                    String::new(),
                ),
                (
                    "urn".to_string(),
                    "output(string)".to_string(),
                    true,
                    String::new(),
                ),
            ];
            for p in &spec.outputs {
                let ty = pcl_types::Type::output(mapper.property_type(package, p, Shape::Plain));
                outputs.push((
                    p.name.clone(),
                    readable_type(ty),
                    p.required,
                    first_line(p.description.as_deref()).to_string(),
                ));
            }
            table(&outputs, out)?;
            if !spec.methods.is_empty() {
                writeln!(out, "methods:")?;
                for (name, function) in &spec.methods {
                    match mapper.method_signature(package, found, name) {
                        Ok(sig) => writeln!(
                            out,
                            "  {name}({}) -> {}",
                            readable_type(sig.args),
                            readable_type(sig.result)
                        )?,
                        Err(e) => writeln!(out, "  {name} ({function}): error: {e}")?,
                    }
                }
            }
        }
        DefinitionKind::Function => {
            let Some(decoded) = package.function(found) else {
                return Ok(());
            };
            let spec = decoded.spec.clone();
            writeln!(out, "function {names}")?;
            description(
                spec.description.as_deref(),
                spec.deprecation.as_deref(),
                out,
            )?;
            match &spec.multi_argument_inputs {
                Some(order) => writeln!(out, "arguments (positional: {}):", order.join(", "))?,
                None => writeln!(out, "arguments:")?,
            }
            let inputs = spec.inputs.as_deref().unwrap_or_default();
            properties(
                inputs,
                |p| mapper.property_type(package, p, Shape::Plain),
                out,
            )?;
            match &spec.outputs {
                ReturnSpec::None => writeln!(out, "returns: nothing")?,
                ReturnSpec::Object(props) => {
                    writeln!(out, "returns an object:")?;
                    properties(
                        props,
                        |p| mapper.property_type(package, p, Shape::Plain),
                        out,
                    )?;
                }
                ReturnSpec::Type(ty) => writeln!(
                    out,
                    "returns: {}",
                    readable_type(mapper.type_of_spec(package, ty, Shape::Plain))
                )?,
            }
            if let Some(sig) = mapper.function_signature(package, found) {
                writeln!(
                    out,
                    "invoke returns {} (or {} when given outputs)",
                    readable_type(sig.promise_result()),
                    readable_type(sig.output_result())
                )?;
            }
        }
        DefinitionKind::Type | DefinitionKind::Any => match package.type_def(found) {
            Some(TypeDefSpec::Enum(e)) => {
                writeln!(out, "enum {names} of {}", e.element.schema_name())?;
                description(e.description.as_deref(), None, out)?;
                writeln!(out, "values:")?;
                let rows: Vec<_> = e
                    .values
                    .iter()
                    .map(|v| {
                        let name = v.name.clone().unwrap_or_default();
                        (
                            v.value.to_string(),
                            name,
                            true,
                            first_line(v.description.as_deref()).to_string(),
                        )
                    })
                    .collect();
                enum_table(&rows, out)?;
            }
            Some(TypeDefSpec::Object(o)) => {
                writeln!(out, "object type {names}")?;
                description(o.description.as_deref(), None, out)?;
                writeln!(out, "properties:")?;
                properties(
                    &o.properties,
                    |p| mapper.property_type(package, p, Shape::Plain),
                    out,
                )?;
            }
            None => writeln!(out, "type {names}: malformed (run `pcl schema check`)")?,
        },
    }
    Ok(())
}

fn description(
    text: Option<&str>,
    deprecation: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let line = first_line(text);
    if !line.is_empty() {
        writeln!(out, "  {line}")?;
    }
    if let Some(d) = deprecation {
        writeln!(out, "  deprecated: {}", first_line(Some(d)))?;
    }
    Ok(())
}

fn properties(
    props: &[PropertySpec],
    ty: impl Fn(&PropertySpec) -> pcl_types::Type,
    out: &mut dyn Write,
) -> io::Result<()> {
    let rows: Vec<_> = props
        .iter()
        .map(|p| {
            let mut note = first_line(p.description.as_deref()).to_string();
            if p.deprecation.is_some() {
                note = format!("(deprecated) {note}");
            }
            (p.name.clone(), readable_type(ty(p)), p.required, note)
        })
        .collect();
    table(&rows, out)
}

/// Rows of name, type, required, note, in aligned columns.
fn table(rows: &[(String, String, bool, String)], out: &mut dyn Write) -> io::Result<()> {
    if rows.is_empty() {
        return writeln!(out, "  (none)");
    }
    let name_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let type_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).min(60);
    for (name, ty, required, note) in rows {
        let required = if *required { "required" } else { "optional" };
        let line = format!("  {name:name_width$}  {ty:type_width$}  {required}  {note}");
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

fn enum_table(rows: &[(String, String, bool, String)], out: &mut dyn Write) -> io::Result<()> {
    let value_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let name_width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    for (value, name, _, note) in rows {
        let line = format!("  {value:value_width$}  {name:name_width$}  {note}");
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}
