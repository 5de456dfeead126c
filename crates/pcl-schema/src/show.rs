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
use crate::types::{FunctionSignature, Shape, TypeMapper};

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

/// The first line of a description's summary: its first paragraph line, skipping Pulumi doc
/// shortcodes (`{{% examples %}}` ... `{{% /examples %}}` blocks and lone `{{% ... %}}` lines)
/// and code fences. A description whose first content is a heading (`## Import`) has no summary.
fn first_line(text: Option<&str>) -> &str {
    let Some(text) = text else {
        return "";
    };
    // Shortcodes whose closing `{{% /name %}}` is still to come.
    let mut open: Vec<&str> = Vec::new();
    let mut in_fence = false;
    let mut rest = text;
    while !rest.is_empty() {
        let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
        rest = after;
        let line = line.trim();
        if let Some(code) = line
            .strip_prefix("{{%")
            .and_then(|l| l.split_once("%}}"))
            .map(|(code, _)| code.trim())
        {
            if let Some(name) = code.strip_prefix('/') {
                let name = name.split_whitespace().next().unwrap_or("");
                if let Some(at) = open.iter().rposition(|n| *n == name) {
                    open.truncate(at);
                }
            } else if let Some(name) = code.split_whitespace().next() {
                if rest.contains(&format!("{{{{% /{name} %}}}}")) {
                    open.push(name);
                }
            }
            continue;
        }
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !open.is_empty() || in_fence || line.is_empty() {
            continue;
        }
        if line.starts_with('#') {
            return "";
        }
        return line;
    }
    ""
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
    // Every table shows a property's plain type (`string`, `list(aws:s3:BucketRule)`), as a
    // program author thinks of it: whether it is required is the next column, and the section
    // heading says whether outputs are accepted (inputs) or produced (outputs).
    let rows = |props: &[PropertySpec], input: bool| -> Vec<Row> {
        props
            .iter()
            .map(|p| Row::property(&mapper, package, p, input))
            .collect()
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
            writeln!(
                out,
                "inputs (each also accepts an output of its type, unless marked (plain)):"
            )?;
            table(&rows(&spec.inputs, true), out)?;
            writeln!(out, "outputs (each is an output of its type):")?;
            let mut outputs = vec![Row::simple("id", "string"), Row::simple("urn", "string")];
            outputs.extend(rows(&spec.outputs, false));
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
            table(&rows(inputs, false), out)?;
            // The result as the invoke line names it: short types in full, an object as `R`.
            let result = match &spec.outputs {
                ReturnSpec::None => {
                    writeln!(out, "returns: nothing")?;
                    "{}".to_string()
                }
                ReturnSpec::Object(props) => {
                    writeln!(out, "returns an object R:")?;
                    table(&rows(props, false), out)?;
                    "R".to_string()
                }
                ReturnSpec::Type(ty) => {
                    let ty = readable_type(mapper.type_of_spec(package, ty, Shape::Plain));
                    writeln!(out, "returns: {ty}")?;
                    ty
                }
            };
            if let Some(sig) = mapper.function_signature(package, found) {
                invoke_forms(&sig, &result, out)?;
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
                writeln!(
                    out,
                    "properties (as inputs, each also accepts an output of its type, unless marked (plain)):"
                )?;
                table(&rows(&o.properties, true), out)?;
            }
            None => writeln!(out, "type {names}: malformed (run `pcl schema check`)")?,
        },
    }
    Ok(())
}

/// Which forms an `invoke` of the function has (`pcl-semantics.md` §4.4): the promise form
/// always; the output form only for a function with inputs and a return type that does not take
/// positional (multi-argument) inputs.
fn invoke_forms(sig: &FunctionSignature, result: &str, out: &mut dyn Write) -> io::Result<()> {
    let promise = format!("invoke returns promise({result})");
    if sig.positional.is_some() {
        writeln!(
            out,
            "{promise} (positional arguments; there is no output form)"
        )
    } else if !sig.has_result {
        writeln!(out, "{promise} (no return type, so no output form)")
    } else if !sig.has_inputs {
        writeln!(out, "{promise} (no inputs, so no output form)")
    } else {
        writeln!(
            out,
            "{promise}, or output({result}) when an argument is an output"
        )
    }
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

/// One line of a property table.
struct Row {
    name: String,
    ty: String,
    /// `required` or `optional`.
    flags: String,
    /// The first line of the description, after `(deprecated)` and, for an input that does not
    /// accept outputs, `(plain)`.
    note: String,
}

impl Row {
    fn simple(name: &str, ty: &str) -> Row {
        Row {
            name: name.to_string(),
            ty: ty.to_string(),
            flags: "required".to_string(),
            note: String::new(),
        }
    }

    /// A property with its plain type, without the `?` of an optional one (the flags say so).
    fn property(mapper: &TypeMapper, package: &Package, p: &PropertySpec, input: bool) -> Row {
        let as_required = PropertySpec {
            required: true,
            ..p.clone()
        };
        let ty = readable_type(mapper.property_type(package, &as_required, Shape::Plain));
        let flags = if p.required { "required" } else { "optional" }.to_string();
        let mut note = first_line(p.description.as_deref()).to_string();
        if p.deprecation.is_some() {
            note = format!("(deprecated) {note}");
        }
        if input && p.ty.plain {
            note = format!("(plain) {note}");
        }
        Row {
            name: p.name.clone(),
            ty,
            flags,
            note,
        }
    }
}

/// The widest type that stays on its row; a longer one gets a line of its own and the rest of
/// its row continues, aligned, on the next line.
const MAX_TYPE_WIDTH: usize = 40;

/// Rows of name, type, flags and note, in aligned columns.
fn table(rows: &[Row], out: &mut dyn Write) -> io::Result<()> {
    if rows.is_empty() {
        return writeln!(out, "  (none)");
    }
    let name_width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
    let type_width = rows
        .iter()
        .map(|r| r.ty.len())
        .filter(|&w| w <= MAX_TYPE_WIDTH)
        .max()
        .unwrap_or(0);
    let flags_width = rows.iter().map(|r| r.flags.len()).max().unwrap_or(0);
    for Row {
        name,
        ty,
        flags,
        note,
    } in rows
    {
        let rest = format!("{flags:flags_width$}  {note}");
        if ty.len() > type_width {
            writeln!(out, "  {name:name_width$}  {ty}")?;
            let indent = 2 + name_width + 2 + type_width + 2;
            writeln!(out, "{:indent$}{}", "", rest.trim_end())?;
        } else {
            let line = format!("  {name:name_width$}  {ty:type_width$}  {rest}");
            writeln!(out, "{}", line.trim_end())?;
        }
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

#[cfg(test)]
mod tests {
    use super::first_line;

    #[test]
    fn summaries_skip_doc_shortcodes() {
        let examples = "{{% examples %}}\n## Example Usage\n{{% example %}}\n```ts\nconst x = 1;\n```\n{{% /example %}}\n{{% /examples %}}\n";
        assert_eq!(first_line(Some(examples)), "");
        assert_eq!(
            first_line(Some(&format!("{examples}\nA password.\n\nMore."))),
            "A password."
        );
        assert_eq!(
            first_line(Some(&format!("{examples}\n## Import\n\nImport it with..."))),
            ""
        );
        assert_eq!(
            first_line(Some("\n  Identical to X.\n\n{{% examples %}}\n")),
            "Identical to X."
        );
        // A lone shortcode line, and one never closed, are skipped by themselves.
        assert_eq!(first_line(Some("{{% notice %}}\nSome text.")), "Some text.");
        assert_eq!(
            first_line(Some("```\ncode\n```\nAfter the code.")),
            "After the code."
        );
        assert_eq!(first_line(None), "");
    }
}
