//! Descriptions of resources, functions and types as a program sees them: the text of
//! `pcl schema show`, as a pure function of the registry and the definition.

use std::fmt::{self, Write};

use pcl_types::{NamedObjects, ReadableStyle, Tokens, Type};

use crate::package::{DefinitionKind, Found, Package};
use crate::registry::SchemaRegistry;
use crate::spec::{PropertySpec, ReturnSpec, TypeDefSpec};
use crate::types::{FunctionSignature, Shape, TypeMapper};

/// How `pcl schema show` writes a type: on one line (it is a table cell), with named schema
/// objects, resources, enums and references to definitions of unavailable packages as their
/// tokens, which a reader can show in turn.
const STYLE: ReadableStyle = ReadableStyle {
    named: NamedObjects::Never,
    one_line: true,
    tokens: Tokens::Schema,
    resource_references: false,
};

/// `string | output(string)`, `list(kubernetes:core/v1:Container)?`, `enum(aws:s3:CannedAcl)`.
pub fn readable_type(ty: impl std::borrow::Borrow<Type>) -> String {
    ty.borrow().display_readable_with(STYLE)
}

/// Describes a resource, function or type of `package` (found by one of its lookups): its kind
/// and canonical token, the first line of its description, and its inputs and outputs, arguments
/// and result, or values, in aligned tables. Every line ends with a newline.
pub fn describe(registry: &SchemaRegistry, package: &Package, found: &Found) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = show_found(registry, package, found, &mut out);
    out
}

/// A schema description as an editor shows it: Pulumi's doc shortcodes left out, with the
/// `{{% examples %}}` ... `{{% /examples %}}` blocks they wrap (code in the SDKs' languages,
/// not PCL; a few kilobytes of a resource's hover) and lone `{{% ... %}}` lines.
pub fn description_markdown(text: &str) -> String {
    let kept: Vec<&str> = content_lines(text).collect();
    kept.join("\n").trim().to_string()
}

/// The lines of a description outside Pulumi's doc shortcodes: a shortcode's line is left out,
/// and so is everything between a shortcode and its closing `{{% /name %}}` (a shortcode never
/// closed is left out by itself). Lines keep their indentation.
fn content_lines(text: &str) -> impl Iterator<Item = &str> {
    // Shortcodes whose closing `{{% /name %}}` is still to come.
    let mut open: Vec<&str> = Vec::new();
    let mut rest = text;
    std::iter::from_fn(move || {
        while !rest.is_empty() {
            let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
            rest = after;
            if let Some(code) = line
                .trim()
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
            if open.is_empty() {
                return Some(line);
            }
        }
        None
    })
}

/// The first line of a description's summary: its first paragraph line outside Pulumi doc
/// shortcodes ([`content_lines`]) and code fences. A description whose first content is a
/// heading (`## Import`) has no summary.
fn first_line(text: Option<&str>) -> &str {
    let Some(text) = text else {
        return "";
    };
    let mut in_fence = false;
    for line in content_lines(text) {
        let line = line.trim();
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || line.is_empty() {
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
    out: &mut String,
) -> fmt::Result {
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
            method_form(&mapper, package, found, out)?;
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
fn invoke_forms(sig: &FunctionSignature, result: &str, out: &mut String) -> fmt::Result {
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

/// For the function of a method (`pulumi:providers:aws/terraformConfig`,
/// `aws:s3/bucket:Bucket/policy`), the resource it belongs to and how `call` sees it. Nothing for
/// another function, or one whose resource does not list it among its methods.
fn method_form(
    mapper: &TypeMapper,
    package: &Package,
    found: &Found,
    out: &mut String,
) -> fmt::Result {
    let token = found.schema_token.as_str();
    let member = token.rsplit(':').next().unwrap_or(token);
    if !member.contains('/') {
        return Ok(());
    }
    let Some((owner_token, _)) = token.rsplit_once('/') else {
        return Ok(());
    };
    let Ok(owner) = package.lookup_resource(owner_token) else {
        return Ok(());
    };
    let spec = package.resource(&owner).spec.clone();
    let Some((name, _)) = spec.methods.iter().find(|(_, function)| function == token) else {
        return Ok(());
    };
    writeln!(
        out,
        "a method of {}, called as call(resource, \"{name}\", args):",
        owner.canonical_token
    )?;
    match mapper.method_signature(package, &owner, name) {
        Ok(sig) => writeln!(
            out,
            "  {name}({}) -> {}",
            readable_type(sig.args),
            readable_type(sig.result)
        ),
        Err(e) => writeln!(out, "  {name}: error: {e}"),
    }
}

fn description(text: Option<&str>, deprecation: Option<&str>, out: &mut String) -> fmt::Result {
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
fn table(rows: &[Row], out: &mut String) -> fmt::Result {
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

fn enum_table(rows: &[(String, String, bool, String)], out: &mut String) -> fmt::Result {
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
    use super::{description_markdown, first_line};

    #[test]
    fn descriptions_leave_out_doc_shortcodes_and_examples() {
        let text = "Manages a bucket.\n\n{{% examples %}}\n## Example Usage\n{{% example %}}\n```ts\nconst x = 1;\n```\n{{% /example %}}\n{{% /examples %}}\n\n## Import\n\n  indented\n{{% notice %}}\nlast";
        assert_eq!(
            description_markdown(text),
            "Manages a bucket.\n\n\n## Import\n\n  indented\nlast"
        );
        assert_eq!(description_markdown("plain"), "plain");
    }

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
