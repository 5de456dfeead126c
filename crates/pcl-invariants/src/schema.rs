//! Schema loading's promises: no panic on any bytes, and every problem located by a JSON
//! pointer into the document (the location itself, or the object that lacks a key).

use std::sync::Arc;

use pcl_schema::{check_package, Package, SchemaDiagnostic, SchemaRegistry, Shape, TypeMapper};
use serde_json::Value;

use crate::program::ProgramInput;

/// Parses `text` as a package schema, checks every definition (decoding each and mapping it
/// to types), builds on up to eight resources and eight named types the shapes a binder
/// builds (input and output types, conversions, unification, both printers), and panics on a
/// broken promise.
pub fn check_schema(text: &str) {
    let package = match Package::parse("fuzz.json", text) {
        Ok(package) => package,
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "a schema refused without a reason");
            for d in &diagnostics {
                assert_message(d);
            }
            return;
        }
    };
    let registry = SchemaRegistry::new();
    let checked = check_package(&package, &registry);
    let document: Option<Value> = serde_json::from_str(text).ok();
    for d in package.load_diagnostics().iter().chain(&checked) {
        assert_message(d);
        if let Some(document) = &document {
            assert_located(document, d);
        }
    }
    let mapper = TypeMapper::new(&registry);
    for token in package.resource_tokens().iter().take(8) {
        if let Ok(found) = package.lookup_resource(token) {
            let inputs = mapper.resource_input_type(&package, &found);
            let outputs = mapper.resource_output_type(&package, &found);
            let _ = inputs.display_readable();
            let _ = outputs.resolve_outputs().display_canonical().len();
            let _ = inputs.conversion_from(&outputs.resolve_outputs());
        }
    }
    for token in package.type_tokens().iter().take(8) {
        if let Ok(found) = package.lookup_type(token) {
            if let Some(plain) = mapper.named_type(&package, &found, Shape::Plain) {
                let input = plain.input_type();
                let _ = input.conversion_from(&plain);
                let _ = plain.unify(&input);
                let _ = input.display_readable();
            }
        }
    }
}

fn assert_message(d: &SchemaDiagnostic) {
    assert!(
        !d.message.trim().is_empty(),
        "a schema problem without a message at {}",
        d.path
    );
    assert!(
        d.path.as_str().starts_with('/'),
        "a schema problem without a JSON pointer: {d:?}"
    );
}

/// The pointer must name a value of the document, or a key of an object or array that is
/// there (a missing property is reported at the key it should have).
fn assert_located(document: &Value, d: &SchemaDiagnostic) {
    let path = d.path.as_str();
    if path == "/" || document.pointer(path).is_some() {
        return;
    }
    let parent = &path[..path.rfind('/').unwrap_or(0)];
    assert!(
        document.pointer(parent).is_some(),
        "the schema problem {:?} names {path}, which is not in the document",
        d.message
    );
}

/// Applies a mutation script to a schema document: each group of three bytes picks an
/// operation and a value of the document (in document order) and replaces, removes, copies,
/// nests or re-points it. Made to reach what arbitrary bytes rarely do: valid JSON with the
/// wrong kinds in the right places, `$ref`s to missing and to enclosing types (cycles), and
/// deep nesting.
pub fn mutate(document: &mut Value, script: &[u8]) {
    // Levels that nesting may add in all: deep enough to pass the decoder's limit of 128,
    // shallow enough for the harness's own recursive serializing and dropping of the document.
    let mut nesting_budget = 320usize;
    for chunk in script.chunks_exact(3) {
        let (op, pick) = (chunk[0], usize::from(chunk[1]) << 8 | usize::from(chunk[2]));
        let paths = value_paths(document, 20_000);
        let Some(target) = paths.get(pick % paths.len()).cloned() else {
            return;
        };
        let type_tokens: Vec<String> = document
            .get("types")
            .and_then(Value::as_object)
            .map(|types| types.keys().cloned().collect())
            .unwrap_or_default();
        let token = type_tokens
            .get(pick % type_tokens.len().max(1))
            .cloned()
            .unwrap_or_else(|| "pkg:index:Missing".into());
        let donor = paths
            .get((pick / 7) % paths.len())
            .and_then(|p| document.pointer(p).cloned())
            .unwrap_or(Value::Null);
        let replacement = match op % 16 {
            0 => Value::Null,
            1 => Value::Bool(pick % 2 == 0),
            2 => serde_json::json!(-1),
            3 => serde_json::json!(1.5e308),
            4 => serde_json::json!(u64::MAX),
            5 => Value::String(
                [
                    "string", "integer", "number", "boolean", "array", "object", "any", "",
                ][pick % 8]
                    .into(),
            ),
            6 => Value::Object(Default::default()),
            7 => Value::Array(Vec::new()),
            8 => serde_json::json!({ "$ref": format!("#/types/{token}") }),
            9 => serde_json::json!({ "$ref": format!("#/types/{token}x") }),
            10 => {
                serde_json::json!({ "$ref": format!("/other/v1.0.0/schema.json#/types/{token}") })
            }
            11 => {
                serde_json::json!({ "type": "array", "items": { "$ref": format!("#/types/{token}") } })
            }
            12 => donor,
            13 => {
                // Built by moving, not by `json!` (which copies its operands): linear in depth.
                let mut nested = document.pointer(&target).cloned().unwrap_or(Value::Null);
                let levels = (pick % 160).min(nesting_budget);
                nesting_budget -= levels;
                for _ in 0..levels {
                    let mut array = serde_json::Map::new();
                    array.insert("type".into(), "array".into());
                    array.insert("items".into(), nested);
                    nested = Value::Object(array);
                }
                nested
            }
            14 => {
                remove(document, &target);
                continue;
            }
            _ => serde_json::json!({
                "type": "object",
                "properties": { "self": { "$ref": format!("#/types/{token}") } },
                "required": ["self"]
            }),
        };
        if let Some(slot) = document.pointer_mut(&target) {
            *slot = replacement;
        }
    }
}

/// JSON pointers of the document's values, in document order, at most `limit`, and none
/// deeper than 64 levels (nesting is a mutation of its own; deeper targets would only make
/// every mutation quadratic in the depth).
fn value_paths(document: &Value, limit: usize) -> Vec<String> {
    let mut paths = Vec::new();
    let mut stack = vec![(String::new(), document, 0)];
    while let Some((path, value, depth)) = stack.pop() {
        if paths.len() >= limit {
            break;
        }
        if depth >= 64 {
            paths.push(path);
            continue;
        }
        match value {
            Value::Object(map) => {
                for (key, child) in map.iter().rev() {
                    let key = key.replace('~', "~0").replace('/', "~1");
                    stack.push((format!("{path}/{key}"), child, depth + 1));
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate().rev() {
                    stack.push((format!("{path}/{i}"), child, depth + 1));
                }
            }
            _ => {}
        }
        paths.push(path);
    }
    paths
}

fn remove(document: &mut Value, path: &str) {
    let Some(split) = path.rfind('/') else { return };
    let (parent, key) = (&path[..split], &path[split + 1..]);
    match document.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.shift_remove(&key.replace("~1", "/").replace("~0", "~"));
        }
        Some(Value::Array(items)) => {
            if let Ok(i) = key.parse::<usize>() {
                if i < items.len() {
                    items.remove(i);
                }
            }
        }
        _ => {}
    }
}

/// Binds `program` (one file) against the schema `text` as package `name`, strict, and checks
/// the pipeline's promises.
pub fn check_bound_program(name: &str, text: &str, program: &str) {
    let input = ProgramInput {
        schemas: vec![(name.to_string(), Some("1.0.0".into()), Arc::from(text))],
        ..ProgramInput::single(program)
    };
    crate::program::check_program(&input);
}
