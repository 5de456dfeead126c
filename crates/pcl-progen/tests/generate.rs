//! Generated programs are deterministic, parse without errors, define every name once, refer
//! only to defined names, and agree with the kubernetes 3.7.2 and random 4.11.2 schemas.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use pcl_progen::{generate, GeneratedFile, Options, Program, COMPONENT_INPUTS, COMPONENT_OUTPUTS};
use pcl_syntax::ast::{self, AstNode};
use pcl_syntax::{SyntaxKind, SyntaxNode};
use serde_json::Value;

fn program(resources: usize, files: Option<usize>, seed: u64) -> Program {
    generate(&Options {
        resources,
        files,
        seed,
    })
}

/// A few sizes and seeds, including the edge cases of one resource and more files than
/// resources.
fn samples() -> Vec<Program> {
    vec![
        program(1, None, 1),
        program(5, Some(8), 2),
        program(60, Some(3), 3),
        program(1200, None, 4),
        program(1500, Some(4), 5),
    ]
}

#[test]
fn generation_is_deterministic() {
    let a = program(1500, Some(3), 42);
    let b = program(1500, Some(3), 42);
    assert_eq!(a, b);
    let c = program(1500, Some(3), 43);
    assert_ne!(a.files, c.files, "another seed gives another program");

    // And on disk, byte for byte.
    let base = std::env::temp_dir().join(format!("pcl-progen-test-{}", std::process::id()));
    let dirs: Vec<PathBuf> = (0..2).map(|i| base.join(i.to_string())).collect();
    for dir in &dirs {
        let _ = std::fs::remove_dir_all(dir);
        program(1500, Some(3), 42).write_to(dir, false).unwrap();
    }
    for file in a.all_files() {
        let first = std::fs::read(dirs[0].join(&file.path)).unwrap();
        let second = std::fs::read(dirs[1].join(&file.path)).unwrap();
        assert_eq!(first, file.text.as_bytes(), "{}", file.path);
        assert_eq!(first, second, "{}", file.path);
    }
    // Writing again over an existing program needs `overwrite`.
    assert!(a.write_to(&dirs[0], false).is_err());
    a.write_to(&dirs[0], true).unwrap();
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn sizes_and_counts() {
    let p = program(1200, None, 7);
    assert_eq!(p.files.len(), 2, "max(1, 1200 / 500) files");
    assert_eq!(p.stats.resources, 1200);
    assert_eq!(p.stats.by_token.values().sum::<usize>(), 1200);
    assert_eq!(p.stats.components, 3);
    let blocks = |kind: &str| {
        p.files
            .iter()
            .map(|f| {
                top_level(&parse(f))
                    .iter()
                    .filter(|n| n.kind == kind)
                    .count()
            })
            .sum::<usize>()
    };
    assert_eq!(blocks("resource"), 1200);
    assert_eq!(blocks("component"), 3);
    assert_eq!(blocks("config"), p.stats.configs);
    assert_eq!(blocks("output"), p.stats.outputs);
    assert_eq!(blocks("local"), p.stats.locals);
    // About 70% of the nodes are resources.
    let nodes = p.symbols.len() as f64;
    let share = 1200.0 / nodes;
    assert!((0.6..0.8).contains(&share), "resource share {share}");
    assert!(p.stats.ranged_resources > 0);
    assert_eq!(
        p.stats.bytes,
        p.all_files().map(|f| f.text.len()).sum::<usize>()
    );

    assert_eq!(program(0, None, 1).files.len(), 1);
    assert_eq!(program(5, Some(8), 1).files.len(), 8);
}

#[test]
fn files_parse_without_errors() {
    for p in samples() {
        for file in p.all_files() {
            let parse = pcl_syntax::parse(&file.text);
            assert!(
                parse.errors().is_empty(),
                "{}: {:?}",
                file.path,
                &parse.errors()[..parse.errors().len().min(5)]
            );
        }
    }
}

#[test]
fn names_are_unique_and_references_resolve() {
    for p in samples() {
        p.verify().unwrap();
        check_names(&p.files, true);
        check_names(&p.component_files, false);
    }
}

#[test]
fn programs_agree_with_the_schemas() {
    let Some(dir) = pcl_test_support::corpus("corpus/pulumi/schemas/codegen-old") else {
        return;
    };
    let load = |name: &str| -> Value {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let schemas = Schemas {
        kubernetes: load("kubernetes-3.7.2.json"),
        random: load("random-4.11.2.json"),
    };
    for (name, version) in pcl_progen::SCHEMAS {
        let package = if *name == "kubernetes" {
            &schemas.kubernetes
        } else {
            &schemas.random
        };
        assert_eq!(package["version"].as_str(), Some(*version));
    }
    for token in pcl_progen::RESOURCE_TOKENS {
        assert!(schemas.resource(token).is_some(), "{token}");
    }
    // The documented list of output properties read is right too.
    let mut errors = Vec::new();
    for shape in pcl_progen::SHAPES {
        assert!(pcl_progen::RESOURCE_TOKENS.contains(&shape.token()));
        for path in shape.outputs_read() {
            let steps: Vec<Step> = path.split('.').map(|s| Step::Attr(s.to_string())).collect();
            schemas.check_read(shape.token(), &steps, &format!("{shape:?}"), &mut errors);
        }
    }
    assert!(errors.is_empty(), "{errors:#?}");
    for p in [program(3000, Some(3), 11), program(800, None, 12)] {
        let mut errors = Vec::new();
        schemas.check_program(&p.files, true, &mut errors);
        schemas.check_program(&p.component_files, false, &mut errors);
        errors.truncate(20);
        assert!(errors.is_empty(), "{errors:#?}");
    }
}

// ----- helpers: the top level of a program -----

fn parse(file: &GeneratedFile) -> pcl_syntax::Parse {
    let parse = pcl_syntax::parse(&file.text);
    assert!(parse.errors().is_empty(), "{}", file.path);
    parse
}

struct Node {
    /// `resource`, `config`, `output`, `component` or `local`.
    kind: String,
    name: String,
    /// The token of a resource.
    label: Option<String>,
    block: Option<ast::Block>,
}

fn top_level(parse: &pcl_syntax::Parse) -> Vec<Node> {
    let body = parse.tree().body().expect("body");
    body.items()
        .map(|item| match item {
            ast::BodyItem::Attribute(a) => Node {
                kind: "local".to_string(),
                name: a.name().unwrap().text().to_string(),
                label: None,
                block: None,
            },
            ast::BodyItem::Block(b) => {
                let labels: Vec<String> = b.labels().map(|l| l.value().unwrap()).collect();
                Node {
                    kind: b.type_name().unwrap().text().to_string(),
                    name: labels[0].clone(),
                    label: labels.get(1).cloned(),
                    block: Some(b),
                }
            }
        })
        .collect()
}

fn variables(root: &SyntaxNode) -> impl Iterator<Item = ast::VariableExpr> {
    root.descendants()
        .filter_map(ast::VariableExpr::cast)
        // A bare object key is a name, not a reference.
        .filter(|v| {
            v.syntax()
                .parent()
                .is_none_or(|p| p.kind() != SyntaxKind::OBJECT_KEY)
        })
}

fn block_attr(block: &ast::Block, name: &str) -> Option<ast::Attribute> {
    block
        .body()?
        .attributes()
        .find(|a| a.name().is_some_and(|n| n.text() == name))
}

fn options_block(block: &ast::Block) -> Option<ast::Block> {
    block
        .body()?
        .blocks()
        .find(|b| b.type_name().is_some_and(|t| t.text() == "options"))
}

/// Names are unique; every variable is a defined name, a `for` variable, or `range` inside
/// the body (not the options) of a ranged resource; component blocks set only inputs and all
/// required ones.
fn check_names(files: &[GeneratedFile], main: bool) {
    let parses: Vec<_> = files.iter().map(parse).collect();
    let mut defined = HashSet::new();
    let mut outputs = HashSet::new();
    for parse in &parses {
        for node in top_level(parse) {
            let fresh = if node.kind == "output" {
                outputs.insert(node.name.clone())
            } else {
                defined.insert(node.name.clone())
            };
            assert!(fresh, "`{}` defined twice", node.name);
        }
    }
    assert!(defined.is_disjoint(&outputs));
    for parse in &parses {
        let root = parse.syntax();
        let loop_vars: HashSet<String> = root
            .descendants()
            .filter_map(ast::ForIntro::cast)
            .flat_map(|intro| {
                let (k, v) = intro.variables();
                [k, v].into_iter().flatten().map(|t| t.text().to_string())
            })
            .collect();
        for var in variables(&root) {
            let name = var.name().unwrap().text().to_string();
            if name == "range" {
                let blocks: Vec<ast::Block> = var
                    .syntax()
                    .ancestors()
                    .filter_map(ast::Block::cast)
                    .collect();
                assert!(
                    blocks
                        .iter()
                        .all(|b| b.type_name().unwrap().text() != "options"),
                    "range used in options"
                );
                let resource = blocks.last().expect("range outside any block");
                let ranged = options_block(resource)
                    .and_then(|o| block_attr(&o, "range"))
                    .is_some();
                assert!(ranged, "range used in a resource that is not ranged");
                continue;
            }
            assert!(
                defined.contains(&name) || loop_vars.contains(&name),
                "undefined `{name}`"
            );
        }
        for node in top_level(parse) {
            if node.kind != "component" {
                continue;
            }
            assert!(main);
            let block = node.block.unwrap();
            let set: HashSet<String> = block
                .body()
                .unwrap()
                .attributes()
                .map(|a| a.name().unwrap().text().to_string())
                .collect();
            for input in &set {
                assert!(
                    COMPONENT_INPUTS.iter().any(|(n, _, _)| n == input),
                    "component input {input}"
                );
            }
            for (input, _, required) in COMPONENT_INPUTS {
                assert!(!required || set.contains(*input), "missing input {input}");
            }
        }
    }
    if !main {
        // The component's configs are exactly the declared inputs, and its outputs the
        // declared outputs.
        let mut configs = Vec::new();
        let mut outs = Vec::new();
        for parse in &parses {
            for node in top_level(parse) {
                match node.kind.as_str() {
                    "config" => {
                        let block = node.block.as_ref().unwrap();
                        let required = block_attr(block, "default").is_none();
                        configs.push((node.name.clone(), node.label.clone().unwrap(), required));
                    }
                    "output" => outs.push(node.name.clone()),
                    _ => {}
                }
            }
        }
        let expected: Vec<_> = COMPONENT_INPUTS
            .iter()
            .map(|(n, t, r)| (n.to_string(), t.to_string(), *r))
            .collect();
        assert_eq!(configs, expected);
        assert_eq!(outs, COMPONENT_OUTPUTS);
    }
}

// ----- helpers: the schema check -----

struct Schemas {
    kubernetes: Value,
    random: Value,
}

/// A traversal step after a variable.
enum Step {
    Attr(String),
    Index,
}

impl Schemas {
    fn package(&self, token: &str) -> &Value {
        if token.starts_with("kubernetes:") {
            &self.kubernetes
        } else {
            &self.random
        }
    }

    fn resource(&self, token: &str) -> Option<&Value> {
        self.package(token)["resources"].get(token)
    }

    /// `spec` with a `$ref` to a type of `package` replaced by that type.
    fn resolve<'a>(package: &'a Value, spec: &'a Value) -> &'a Value {
        match spec["$ref"].as_str() {
            Some(r) => {
                let token = r.strip_prefix("#/types/").expect("local type reference");
                package["types"].get(token).expect("referenced type exists")
            }
            None => spec,
        }
    }

    /// The alternatives of a type: the members of a `oneOf`, or the type itself.
    fn alternatives<'a>(package: &'a Value, spec: &'a Value) -> Vec<&'a Value> {
        match spec["oneOf"].as_array() {
            Some(members) => members.iter().map(|m| Self::resolve(package, m)).collect(),
            None => vec![Self::resolve(package, spec)],
        }
    }

    fn check_program(&self, files: &[GeneratedFile], main: bool, errors: &mut Vec<String>) {
        let parses: Vec<_> = files.iter().map(parse).collect();
        // Resource and component names → what they are.
        let mut resources: HashMap<String, String> = HashMap::new();
        let mut components = HashSet::new();
        for parse in &parses {
            for node in top_level(parse) {
                match node.kind.as_str() {
                    "resource" => {
                        resources.insert(node.name.clone(), node.label.clone().unwrap());
                    }
                    "component" => {
                        components.insert(node.name.clone());
                    }
                    _ => {}
                }
            }
        }
        assert!(main || components.is_empty());
        for parse in &parses {
            for node in top_level(parse) {
                if node.kind != "resource" {
                    continue;
                }
                let token = node.label.as_deref().unwrap();
                let Some(resource) = self.resource(token) else {
                    errors.push(format!("unknown resource {token}"));
                    continue;
                };
                let package = self.package(token);
                let block = node.block.unwrap();
                let mut set = HashSet::new();
                for attr in block.body().unwrap().attributes() {
                    let name = attr.name().unwrap().text().to_string();
                    let path = format!("{}.{name}", node.name);
                    match resource["inputProperties"].get(&name) {
                        None => errors.push(format!("{path}: not an input of {token}")),
                        Some(spec) => {
                            self.check_value(package, spec, &attr.expr().unwrap(), &path, errors)
                        }
                    }
                    set.insert(name);
                }
                for required in resource["requiredInputs"].as_array().into_iter().flatten() {
                    let required = required.as_str().unwrap();
                    if !set.contains(required) {
                        errors.push(format!("{}: missing required input {required}", node.name));
                    }
                }
            }
            // Every read of a resource's outputs names output properties.
            for var in variables(&parse.syntax()) {
                let name = var.name().unwrap().text().to_string();
                let steps = steps_after(&var);
                if let Some(token) = resources.get(&name) {
                    self.check_read(token, &steps, &name, errors);
                } else if components.contains(&name) {
                    match steps.first() {
                        Some(Step::Attr(out)) if COMPONENT_OUTPUTS.contains(&out.as_str()) => {}
                        _ => errors.push(format!("{name}: not a component output")),
                    }
                }
            }
        }
    }

    fn check_read(&self, token: &str, steps: &[Step], name: &str, errors: &mut Vec<String>) {
        let package = self.package(token);
        let resource = self.resource(token).unwrap();
        let mut steps = steps.iter().peekable();
        // A ranged resource is indexed first (or splatted).
        if let Some(Step::Index) = steps.peek() {
            steps.next();
        }
        let Some(Step::Attr(first)) = steps.next() else {
            return; // the resource itself (dependsOn)
        };
        if first == "id" || first == "urn" {
            return;
        }
        let Some(mut spec) = resource["properties"].get(first) else {
            errors.push(format!("{name}.{first}: not an output of {token}"));
            return;
        };
        let mut path = format!("{name}.{first}");
        for step in steps {
            let current = Self::resolve(package, spec);
            match step {
                Step::Index => match current["items"].as_object() {
                    Some(_) => spec = &current["items"],
                    None => {
                        errors.push(format!("{path}: indexed, not an array"));
                        return;
                    }
                },
                Step::Attr(attr) => {
                    path = format!("{path}.{attr}");
                    match current["properties"].get(attr) {
                        Some(next) => spec = next,
                        None => {
                            errors.push(format!("{path}: no such output property"));
                            return;
                        }
                    }
                }
            }
        }
    }

    fn check_value(
        &self,
        package: &Value,
        spec: &Value,
        expr: &ast::Expr,
        path: &str,
        errors: &mut Vec<String>,
    ) {
        let alternatives = Self::alternatives(package, spec);
        let has_type = |ty: &str| alternatives.iter().any(|a| a["type"].as_str() == Some(ty));
        match expr {
            ast::Expr::Object(object) => {
                if let Some(shape) = alternatives.iter().find(|a| a["properties"].is_object()) {
                    let mut keys = HashSet::new();
                    for item in object.items() {
                        let key = item.key().unwrap().literal_name().unwrap();
                        let value = item.value().unwrap();
                        let inner = format!("{path}.{key}");
                        match shape["properties"].get(&key) {
                            Some(prop) => self.check_value(package, prop, &value, &inner, errors),
                            None => errors.push(format!("{inner}: no such property")),
                        }
                        keys.insert(key);
                    }
                    for required in shape["required"].as_array().into_iter().flatten() {
                        let required = required.as_str().unwrap();
                        if !keys.contains(required) {
                            errors.push(format!("{path}: missing required {required}"));
                        }
                    }
                } else if has_type("object") {
                    // A map: every value has the element type (string by default).
                    let default = serde_json::json!({"type": "string"});
                    let map = alternatives.iter().find(|a| a["type"] == "object").unwrap();
                    let element = map.get("additionalProperties").unwrap_or(&default);
                    for item in object.items() {
                        let key = item.key().unwrap().literal_name().unwrap();
                        let value = item.value().unwrap();
                        self.check_value(
                            package,
                            element,
                            &value,
                            &format!("{path}.{key}"),
                            errors,
                        );
                    }
                } else {
                    errors.push(format!("{path}: object given, {spec} expected"));
                }
            }
            ast::Expr::Tuple(tuple) => match alternatives.iter().find(|a| a["type"] == "array") {
                Some(array) => {
                    for (i, element) in tuple.elements().enumerate() {
                        let inner = format!("{path}[{i}]");
                        self.check_value(package, &array["items"], &element, &inner, errors);
                    }
                }
                None => errors.push(format!("{path}: tuple given, {spec} expected")),
            },
            ast::Expr::Literal(literal) => {
                let ok = match literal.kind().unwrap() {
                    ast::LiteralKind::Number(_) => has_type("integer") || has_type("number"),
                    ast::LiteralKind::Bool(_) => has_type("boolean"),
                    ast::LiteralKind::Null => true,
                };
                if !ok {
                    errors.push(format!(
                        "{path}: {} given, {spec} expected",
                        literal.syntax()
                    ));
                }
            }
            // Strings: a quoted template, or `toJSON(...)`.
            ast::Expr::Template(_) | ast::Expr::FunctionCall(_) => {
                let is_string = match expr {
                    ast::Expr::FunctionCall(call) => call.name() == "toJSON",
                    _ => true,
                };
                if is_string && !has_type("string") {
                    errors.push(format!("{path}: string given, {spec} expected"));
                }
            }
            // References and other expressions: typed by the checker, not here.
            _ => {}
        }
    }
}

/// The traversal steps applied to a variable: `x[0].a.b` → `[Index, a, b]`.
fn steps_after(var: &ast::VariableExpr) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut node = var.syntax().clone();
    while let Some(parent) = node.parent() {
        let step = match parent.kind() {
            SyntaxKind::GET_ATTR_EXPR => {
                let get = ast::GetAttrExpr::cast(parent.clone()).unwrap();
                if get.receiver().map(|r| r.syntax().clone()) != Some(node.clone()) {
                    break;
                }
                Step::Attr(get.name().unwrap().text().to_string())
            }
            SyntaxKind::INDEX_EXPR => {
                let index = ast::IndexExpr::cast(parent.clone()).unwrap();
                if index.receiver().map(|r| r.syntax().clone()) != Some(node.clone()) {
                    break;
                }
                Step::Index
            }
            SyntaxKind::SPLAT_EXPR => Step::Index,
            _ => break,
        };
        steps.push(step);
        node = parent;
    }
    steps
}
