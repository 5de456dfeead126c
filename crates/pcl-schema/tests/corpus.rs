//! Every schema of the shared corpus loads and checks; the deliberately broken fixtures give the
//! errors Pulumi's own tests expect.

use std::path::{Path, PathBuf};

use pcl_schema::{
    check_package, has_errors, load_schema_file, Package, SchemaRegistry, Shape, TypeMapper,
};

/// Every token of `package` resolves, by its schema spelling and its canonical form, and maps
/// to a PCL type. Returns what did not.
fn unresolved_tokens(package: &Package, registry: &SchemaRegistry) -> Vec<String> {
    let mapper = TypeMapper::new(registry);
    let mut missing = Vec::new();
    for token in package.resource_tokens() {
        for spelling in [token.clone(), package.canonicalize(token)] {
            match package.lookup_resource(&spelling) {
                Ok(found) => {
                    mapper.resource_input_type(package, &found);
                    mapper.resource_output_type(package, &found);
                }
                // Duplicate canonical forms (two modules collapsing to one) are allowed to
                // resolve to either; only a failure counts.
                Err(e) => missing.push(e.to_string()),
            }
        }
    }
    for token in package.function_tokens() {
        match package.lookup_function(token) {
            Ok(found) if mapper.function_signature(package, &found).is_some() => {}
            Ok(_) => missing.push(format!("function {token} has no signature")),
            Err(e) => missing.push(e.to_string()),
        }
    }
    for token in package.type_tokens() {
        match package.lookup_type(token) {
            Ok(found) if mapper.named_type(package, &found, Shape::Input).is_some() => {}
            Ok(_) => missing.push(format!("type {token} did not map")),
            Err(e) => missing.push(e.to_string()),
        }
    }
    missing
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// The expected error for each schema that is broken on purpose (a substring of the message).
const EXPECTED_ERRORS: &[(&str, &str)] = &[
    ("codegen-sdk/schema/bad-enum-1.json", "enum value `3` is not a valid string"),
    ("codegen-sdk/schema/bad-enum-2.json", "enum value `true` is not a valid string"),
    ("codegen-sdk/schema/bad-enum-3.json", "enum value `9.1` is not a valid integer"),
    ("codegen-sdk/schema/bad-enum-4.json", "enum value `\"marshmallow\"` is not a valid boolean"),
    ("codegen-sdk/schema/bad-methods-1.json", "unknown function `xyz:index:Foo/bar`"),
    ("codegen-sdk/schema/bad-methods-2.json", "function `xyz:index:Foo/bar` is already a method"),
    ("codegen-sdk/schema/bad-methods-3.json", "invalid function token format `xyz:index:Foo`"),
    ("codegen-sdk/schema/bad-methods-4.json", "invalid function token format `xyz:index:Baz/bar`"),
    ("codegen-sdk/schema/bad-methods-5.json", "function `xyz:index:Foo/bar` has no `__self__` parameter"),
    ("codegen-sdk/schema/bad-methods-6.json", "`xyz:index:Foo` already has a property named `bar`"),
    (
        "codegen-sdk/schema/bad-type-1.json",
        "invalid token `fake-provider:index:provider`: `provider` is a reserved word for the root module",
    ),
    (
        "codegen-sdk/schema/bad-type-2.json",
        "invalid token `fake-provider::provider`: `provider` is a reserved word for the root module",
    ),
    (
        "codegen-sdk/schema/bad-type-3.json",
        "invalid token `fake-provider:noModulePart`: a token has three parts",
    ),
    ("codegen-sdk/schema/bad-type-4.json", "invalid token `noParts`: a token has three parts"),
];

/// Schemas whose problems are warnings only, with one expected warning each.
const EXPECTED_WARNINGS: &[(&str, &str)] = &[
    (
        "codegen-utils/dangling-reference-bad-0.1.0.json",
        "warning: type `dangling-reference:a:b` not found in package `dangling-reference`",
    ),
    (
        "codegen-sdk/simple-schema-pyproject/example-0.0.1.json",
        "/readme: warning: unknown top-level key `readme`: it is ignored",
    ),
];

#[test]
fn every_corpus_schema_checks() {
    let Some(root) = pcl_test_support::corpus("corpus/pulumi/schemas") else {
        return;
    };
    let mut files = Vec::new();
    json_files(&root, &mut files);
    assert!(files.len() > 150, "found only {} schema files", files.len());
    // External references (`/goalias/v1.0.0/schema.json#...`) resolve against the PCL-facing
    // schema directories.
    let registry = SchemaRegistry::from_dirs(
        ["codegen-utils", "codegen-old", "codegen-new"].map(|d| root.join(d)),
    );
    // Every file that fails, not only the first; a panic is its file's failure.
    let mut failures = pcl_test_support::Failures::new();
    for path in &files {
        let relative = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        failures.check(&relative, || check_file(path, &relative, &registry));
    }
    failures.finish("schema files");
}

/// What is wrong with one schema file of the corpus.
fn check_file(path: &Path, relative: &str, registry: &SchemaRegistry) -> Vec<String> {
    let mut report = Vec::new();
    let diagnostics = match load_schema_file(path) {
        Ok(package) => {
            let diagnostics = check_package(&package, registry);
            // Malformed definitions (the bad-* fixtures) may fail to map; all others must.
            if !has_errors(&diagnostics) {
                for problem in unresolved_tokens(&package, registry) {
                    report.push(format!("{relative}: {problem}"));
                }
            }
            diagnostics
        }
        Err(diagnostics) => diagnostics,
    };
    let expected = EXPECTED_ERRORS.iter().find(|(file, _)| *file == relative);
    match expected {
        Some((_, message)) => {
            let errors: Vec<String> = diagnostics
                .iter()
                .filter(|d| d.severity == pcl_diagnostics::Severity::Error)
                .map(|d| d.to_string())
                .collect();
            if !errors.iter().any(|e| e.contains(message)) {
                report.push(format!(
                    "{relative}: expected error `{message}`, got {errors:#?}"
                ));
            }
        }
        None if has_errors(&diagnostics) => {
            report.extend(diagnostics.iter().map(|d| d.to_string()));
        }
        None => {}
    }
    if let Some((_, message)) = EXPECTED_WARNINGS.iter().find(|(file, _)| *file == relative) {
        if !diagnostics.iter().any(|d| d.to_string().contains(message)) {
            report.push(format!("{relative}: expected warning `{message}`"));
        }
    }
    report
}

/// A program that uses one kubernetes resource decodes that resource and the types it reaches,
/// not the whole 2.2 MB schema.
#[test]
fn kubernetes_resolves_lazily() {
    let Some(root) = pcl_test_support::corpus("corpus/pulumi/schemas") else {
        return;
    };
    let registry = SchemaRegistry::new();
    let package = load_schema_file(&root.join("codegen-old/kubernetes-3.7.0.json")).unwrap();
    let found = package
        .lookup_resource("kubernetes:apps/v1:Deployment")
        .unwrap();
    let mapper = TypeMapper::new(&registry);
    mapper.resource_input_type(&package, &found);
    mapper.resource_output_type(&package, &found);
    let (resources, functions, types) = package.decoded_counts();
    assert_eq!((resources, functions), (1, 0));
    assert!(
        types > 50 && types < package.type_tokens().len() / 4,
        "decoded {types} of {} types",
        package.type_tokens().len()
    );
}
