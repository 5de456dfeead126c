//! The repository's own schemas (`test_data/schemas`): token forms, version choice, type
//! mapping (enums, unions, plain, recursion, methods, multi-argument functions), laziness, and
//! malformed or missing files.

mod common;

use std::path::PathBuf;

use expect_test::{expect, Expect};
use pcl_schema::{
    check_package, load_schema_file, readable_type, LoadError, Package, SchemaRegistry, Shape,
    TypeMapper,
};

fn schemas(dir: &str) -> PathBuf {
    pcl_test_support::workspace_root()
        .join("test_data/schemas")
        .join(dir)
}

fn registry() -> SchemaRegistry {
    SchemaRegistry::from_dirs([schemas("registry")])
}

fn widgets(registry: &SchemaRegistry) -> std::sync::Arc<Package> {
    registry.package("widgets", None).expect("widgets loads")
}

/// The descriptions of `tokens`, as `pcl schema show` prints them.
fn show(registry: &SchemaRegistry, tokens: &[&str], expect: Expect) {
    expect.assert_eq(&common::describe_all(registry, tokens));
}

#[test]
fn token_forms_resolve_to_the_same_resource() {
    let registry = registry();
    let package = widgets(&registry);
    let mut wrong = Vec::new();
    for token in [
        "widgets:index/gadget:Gadget",
        "widgets:index:Gadget",
        "widgets::Gadget",
        "widgets:Gadget",
        "widgets:legacy:OldGadget",
        "widgets:index:Gizmo",
    ] {
        // Every token that does not resolve as expected, not only the first.
        match package.lookup_resource(token) {
            Ok(found)
                if found.schema_token == "widgets:index/gadget:Gadget"
                    && found.canonical_token == "widgets::Gadget" => {}
            Ok(found) => wrong.push(format!(
                "{token}: {} ({})",
                found.schema_token, found.canonical_token
            )),
            Err(e) => wrong.push(format!("{token}: {e}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let factory = package.lookup_resource("widgets:shapes:Factory").unwrap();
    assert_eq!(factory.schema_token, "widgets:shapes/factory:Factory");
    let provider = package.lookup_resource("pulumi:providers:widgets").unwrap();
    assert!(package.resource(&provider).spec.is_provider);
    let function = package.lookup_function("widgets:index:lookup").unwrap();
    assert_eq!(function.schema_token, "widgets:index/lookup:lookup");
    assert_eq!(
        package.lookup_type("widgets::Color").unwrap().schema_token,
        "widgets:index/color:Color"
    );
}

#[test]
fn unknown_tokens_name_the_closest_ones() {
    let registry = registry();
    let package = widgets(&registry);
    let messages: Vec<String> = [
        package.lookup_resource("widgets:index:gadget"),
        package.lookup_resource("widgets:shapes:Gadget"),
        package.lookup_resource("widgets:index:Gadgte"),
        package.lookup_resource("pulumi:providers:widget"),
        package.lookup_function("widgets::Lookup"),
        package.lookup_resource("widgets:index:Nothing"),
    ]
    .into_iter()
    .map(|r| r.unwrap_err().to_string())
    .collect();
    expect![[r#"
        unknown resource `widgets:index:gadget` in package `widgets`
        help: did you mean `widgets::Gadget`?
        unknown resource `widgets:shapes:Gadget` in package `widgets`
        help: did you mean `widgets::Gadget`?
        unknown resource `widgets:index:Gadgte` in package `widgets`
        help: did you mean `widgets::Gadget`?
        unknown resource `pulumi:providers:widget` in package `widgets`
        help: did you mean `pulumi:providers:widgets`?
        unknown function `widgets::Lookup` in package `widgets`
        help: did you mean `widgets::lookup`?
        unknown resource `widgets:index:Nothing` in package `widgets`"#]]
    .assert_eq(&messages.join("\n"));
}

#[test]
fn version_choice() {
    let registry = SchemaRegistry::from_dirs([schemas("versions")]);
    let input_names = |p: &Package| {
        let found = p.lookup_resource("widgets::Gadget").unwrap();
        p.resource(&found)
            .spec
            .inputs
            .iter()
            .map(|i| i.name.clone())
            .collect::<Vec<_>>()
    };
    // No version: the highest by semver precedence (a prerelease of 2.0.0 is above 1.2.0); the
    // 3.0.0 file declares another name, which is an error, not a silent substitution.
    let files: Vec<String> = registry
        .files()
        .map(|f| {
            format!(
                "{} {}",
                f.name,
                f.version
                    .as_ref()
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        files,
        [
            "widgets 1.0.0",
            "widgets 1.2.0",
            "widgets 2.0.0-beta.1",
            "widgets 3.0.0"
        ]
    );
    expect!["versions/widgets-3.0.0.json: /name: the schema declares package `other-name`, not `widgets`"]
        .assert_eq(&short(registry.package("widgets", None).unwrap_err()));
    assert_eq!(
        input_names(&registry.package("widgets", Some("1.0.0")).unwrap()),
        ["old"]
    );
    assert_eq!(
        input_names(&registry.package("widgets", Some("v1.2.0")).unwrap()),
        ["current"]
    );
    assert_eq!(
        input_names(&registry.package("widgets", Some("2.0.0-beta.1")).unwrap()),
        ["beta"]
    );
    expect!["no schema for package `widgets` version `1.1.0` (available: `3.0.0`, `2.0.0-beta.1`, `1.2.0` and `1.0.0`)"]
        .assert_eq(&registry.package("widgets", Some("1.1.0")).unwrap_err().to_string());
    expect!["no schema for package `gadgets`"]
        .assert_eq(&registry.package("gadgets", None).unwrap_err().to_string());
    // The same file is parsed once.
    let a = registry.package("widgets", Some("1.0.0")).unwrap();
    let b = registry.package("widgets", Some("1.0.0")).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
}

/// `text` with the test-data directory stripped from file names.
fn strip_dir(text: &str) -> String {
    let dir = pcl_test_support::workspace_root().join("test_data/schemas");
    text.replace(&format!("{}/", dir.display()), "")
}

/// A load error with the test-data directory stripped from file names.
fn short(error: LoadError) -> String {
    strip_dir(&error.to_string())
}

#[test]
fn builtin_pulumi_package() {
    let registry = SchemaRegistry::new();
    show(
        &registry,
        &["pulumi:pulumi:StackReference"],
        expect![[r#"
            resource pulumi:pulumi:StackReference
              Reads the outputs of another stack.
            inputs (each also accepts an output of its type, unless marked (plain)):
              name  string  required  The name of the stack to reference.
            outputs (each is an output of its type):
              id                 string        required
              urn                string        required
              name               string        required  The name of the referenced stack.
              outputs            map(dynamic)  required  The outputs of the referenced stack.
              secretOutputNames  list(string)  required  The names of the outputs that are secrets.
        "#]],
    );
}

#[test]
fn resource_types_as_a_program_sees_them() {
    let registry = registry();
    let package = widgets(&registry);
    let mapper = TypeMapper::new(&registry);
    let found = package.lookup_resource("widgets::Gadget").unwrap();
    let input = mapper.resource_input_type(&package, &found);
    let output = mapper.resource_output_type(&package, &found);
    // Memoized: the same interned handle every time.
    assert_eq!(input, mapper.resource_input_type(&package, &found));
    expect![[r#"
        {
          bundle: Archive | output(Archive)?,
          code: Archive | Asset | output(Archive | Asset)?,
          color: enum("red" | "blue" | "green") | output(enum("red" | "blue" | "green"))?,
          count: int | output(int) | output(string) | output(int | string) | string?,
          document: dynamic | output(dynamic)?,
          extra: dynamic | output(dynamic)?,
          label: output(string) | string?,
          name: output(string) | string,
          parts: list(widgets::Part | output(widgets::Part)) | output(list(widgets::Part))?,
          shape: widgets:shapes:Circle | widgets:shapes:Square | output(widgets:shapes:Circle) | output(widgets:shapes:Square) | output(widgets:shapes:Circle | widgets:shapes:Square)?,
          size: enum(1 | 2)?,
          tags: map(output(string) | string) | output(map(string))?,
        }"#]]
    .assert_eq(&input.display_readable());
    expect![[r#"
        {
          color: output(enum("red" | "blue" | "green")?),
          id: output(string),
          name: output(string),
          owner: output(widgets::Gadget?),
          secretKey: output(string),
          tree: output(widgets::Tree?),
          urn: output(string),
          version: output("v1"),
        }"#]]
    .assert_eq(&output.display_readable());
}

#[test]
fn types_print_readably_for_show() {
    let registry = registry();
    show(
        &registry,
        &[
            "widgets:index:Gadget",
            "widgets:index:lookup",
            "widgets:add",
            "widgets:Color",
            "widgets:Size",
            "widgets:Tree",
            "widgets:shapes:Square",
            "pulumi:providers:widgets",
            "widgets:ping",
        ],
        expect![[r#"
            resource widgets::Gadget (schema token widgets:index/gadget:Gadget)
              A gadget.
            inputs (each also accepts an output of its type, unless marked (plain)):
              name      string                required  The gadget's name.
              color     enum(widgets::Color)  optional
              size      enum(widgets::Size)   optional  (plain)
              tags      map(string)           optional
              parts     list(widgets::Part)   optional
              shape     widgets:shapes:Circle | widgets:shapes:Square
                                              optional
              code      Archive | Asset       optional
              bundle    Archive               optional
              extra     dynamic               optional
              document  dynamic               optional
              label     string                optional  (deprecated)
              count     int | string          optional
            outputs (each is an output of its type):
              id         string                required
              urn        string                required
              name       string                required
              color      enum(widgets::Color)  optional
              tree       widgets::Tree         optional
              owner      widgets::Gadget       optional
              secretKey  string                required
              version    "v1"                  optional
            methods:
              spin({ speed: number? }) -> output({ rpm: int })

            function widgets::lookup (schema token widgets:index/lookup:lookup)
              Finds a gadget.
            arguments:
              name   string                required
              color  enum(widgets::Color)  optional
            returns an object R:
              id    string         required
              tree  widgets::Tree  optional
            invoke returns promise(R), or output(R) when an argument is an output

            function widgets::add (schema token widgets:index/add:add)
            arguments (positional: a, b):
              a  int  required
              b  int  optional
            returns: int
            invoke returns promise(int) (positional arguments; there is no output form)

            enum widgets::Color (schema token widgets:index/color:Color) of string
              Gadget colors.
            values:
              "red"    Red    Like a fire truck.
              "blue"   Blue
              "green"  Green

            enum widgets::Size (schema token widgets:index/size:Size) of integer
            values:
              1  Small
              2  Large

            object type widgets::Tree (schema token widgets:index/tree:Tree)
            properties (as inputs, each also accepts an output of its type, unless marked (plain)):
              children  list(widgets::Tree)  optional
              forest    widgets::Forest      optional

            object type widgets:shapes:Square (schema token widgets:shapes/square:Square)
            properties (as inputs, each also accepts an output of its type, unless marked (plain)):
              kind   "square"       required
              side   number         required
              gizmo  gizmo::Spring  optional

            provider resource pulumi:providers:widgets
              The widgets provider.
            inputs (each also accepts an output of its type, unless marked (plain)):
              region  string  required  Where widgets live.
              token   string  optional
            outputs (each is an output of its type):
              id   string  required
              urn  string  required

            function widgets::ping (schema token widgets:index/ping:ping)
            arguments:
              (none)
            returns: nothing
            invoke returns promise({}) (no return type, so no output form)
        "#]],
    );
}

#[test]
fn recursive_types_terminate() {
    let registry = registry();
    let package = widgets(&registry);
    let mapper = TypeMapper::new(&registry);
    let tree = package.lookup_type("widgets::Tree").unwrap();
    let plain = mapper.named_type(&package, &tree, Shape::Plain).unwrap();
    let input = mapper.named_type(&package, &tree, Shape::Input).unwrap();
    assert_ne!(plain, input);
    assert_eq!(
        plain,
        mapper.named_type(&package, &tree, Shape::Plain).unwrap()
    );
    expect![[r#"
        object({children = union(list(...), none), forest = union(none, object({trees = union(list(...), none)}))})
        {
          children: list(widgets::Tree | output(widgets::Tree)) | output(list(widgets::Tree))?,
          forest: widgets::Forest | output(widgets::Forest)?,
        }"#]].assert_eq(&format!(
        "{}\n{}",
        plain.display_canonical(),
        input.display_readable()
    ));
    assert_eq!(readable_type(plain), "widgets::Tree");
}

#[test]
fn functions_and_methods() {
    let registry = registry();
    let package = widgets(&registry);
    let mapper = TypeMapper::new(&registry);
    let lookup = package.lookup_function("widgets::lookup").unwrap();
    let sig = mapper.function_signature(&package, &lookup).unwrap();
    let add = mapper
        .function_signature(&package, &package.lookup_function("widgets:add").unwrap())
        .unwrap();
    let ping = mapper
        .function_signature(&package, &package.lookup_function("widgets:ping").unwrap())
        .unwrap();
    let gadget = package.lookup_resource("widgets::Gadget").unwrap();
    let spin = mapper.method_signature(&package, &gadget, "spin").unwrap();
    let text = [
        format!("lookup plain args: {}", sig.plain_args.display_readable()),
        format!("lookup input args: {}", sig.input_args.display_readable()),
        format!(
            "lookup promise: {}",
            sig.promise_result().display_readable()
        ),
        format!("lookup output: {}", sig.output_result().display_readable()),
        format!(
            "add positional: {:?} -> {}",
            add.positional
                .as_ref()
                .unwrap()
                .iter()
                .map(|(n, t)| format!("{n}: {}", t.display_readable()))
                .collect::<Vec<_>>(),
            add.result.display_readable()
        ),
        format!(
            "ping: args {} has_inputs {} result {} has_result {}",
            ping.plain_args.display_readable(),
            ping.has_inputs,
            ping.result.display_readable(),
            ping.has_result
        ),
        format!(
            "spin: {} -> {}",
            spin.args.display_readable(),
            spin.result.display_readable()
        ),
        mapper
            .method_signature(&package, &gadget, "spun")
            .unwrap_err()
            .to_string(),
    ];
    expect![[r#"
        lookup plain args: { color: enum("red" | "blue" | "green")?, name: string }
        lookup input args: {
          color: enum("red" | "blue" | "green") | output(enum("red" | "blue" | "green"))?,
          name: output(string) | string,
        }
        lookup promise: promise({ id: string, tree: widgets::Tree? })
        lookup output: output({ id: string, tree: widgets::Tree? })
        add positional: ["a: int", "b: int?"] -> int
        ping: args {}? has_inputs false result {} has_result false
        spin: { speed: number? } -> output({ rpm: int })
        resource type `widgets::Gadget` has no method `spun` (methods: `spin`)"#]]
    .assert_eq(&text.join("\n"));
}

#[test]
fn the_whole_fixture_package_checks_clean() {
    let registry = registry();
    let diagnostics: Vec<_> = ["widgets", "gizmo"]
        .into_iter()
        .flat_map(|name| check_package(&registry.package(name, None).unwrap(), &registry))
        .collect();
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
}

#[test]
fn external_reference_to_a_missing_package_is_opaque() {
    // Without gizmo in the registry, the `/gizmo/v0.1.0/schema.json#/types/...` reference cannot be
    // followed: `check` warns, and the type is opaque.
    let registry = SchemaRegistry::new();
    let package = load_schema_file(&schemas("registry/widgets-1.2.0.json")).unwrap();
    let diagnostics: Vec<String> = check_package(&package, &registry)
        .iter()
        .map(|d| d.to_string())
        .collect();
    expect!["registry/widgets-1.2.0.json: /types/widgets:shapes~1square:Square/properties/gizmo/$ref: warning: cannot check the reference: no schema for package `gizmo` version `0.1.0`"].assert_eq(
        &strip_dir(&diagnostics.join("\n")),
    );
    let square = package.lookup_type("widgets:shapes:Square").unwrap();
    let ty = TypeMapper::new(&registry)
        .named_type(&package, &square, Shape::Plain)
        .unwrap();
    expect![[r#"{ gizmo: type(gizmo:index:Spring)?, kind: "square", side: number }"#]]
        .assert_eq(&ty.display_readable());
}

#[test]
fn definitions_are_decoded_lazily() {
    let registry = registry();
    // Named object types are shared by every `Package` parsed from the same text while one of
    // them is alive (their key is the text's hash), and other tests of this process map
    // `Tree` too: found built already, it would need no decoding here. A trailing newline
    // makes this package's text, and so its types, its own.
    let path = schemas("registry/widgets-1.2.0.json");
    let text = format!("{}\n", std::fs::read_to_string(&path).unwrap());
    let package = Package::parse(path.display().to_string(), text).unwrap();
    assert_eq!(package.decoded_counts(), (0, 0, 0));
    let found = package.lookup_function("widgets:add").unwrap();
    TypeMapper::new(&registry)
        .function_signature(&package, &found)
        .unwrap();
    // Only `add` is decoded: function lookups need no other definition.
    assert_eq!(package.decoded_counts(), (0, 1, 0));
    let found = package.lookup_type("widgets:index:Tree").unwrap();
    TypeMapper::new(&registry)
        .named_type(&package, &found, Shape::Plain)
        .unwrap();
    // Tree and Forest (which Tree refers to).
    assert_eq!(package.decoded_counts(), (0, 1, 2));
}

#[test]
fn malformed_and_missing_files_are_diagnostics() {
    let mut lines = Vec::new();
    for file in [
        "array-1.0.0.json",
        "noname-1.0.0.json",
        "truncated-1.0.0.json",
        "absent-1.0.0.json",
    ] {
        match load_schema_file(&schemas("broken").join(file)) {
            Ok(_) => lines.push(format!("{file}: loaded")),
            Err(diagnostics) => lines.extend(diagnostics.iter().map(|d| d.to_string())),
        }
    }
    let package = load_schema_file(&schemas("broken/wrongtypes-1.0.0.json")).unwrap();
    lines.extend(
        check_package(&package, &SchemaRegistry::new())
            .iter()
            .map(|d| d.to_string()),
    );
    let text = strip_dir(&lines.join("\n"));
    expect![[r#"
        broken/array-1.0.0.json: /: a package schema must be a JSON object: invalid type: sequence, expected a map at line 1 column 0
        broken/noname-1.0.0.json: /: a package schema needs a `name`
        broken/truncated-1.0.0.json: /: invalid JSON: EOF while parsing an object at line 6 column 0
        broken/absent-1.0.0.json: /: cannot read `broken/absent-1.0.0.json`: no such file or directory
        broken/wrongtypes-1.0.0.json: /functions: expected an object, found an array
        broken/wrongtypes-1.0.0.json: /meta/moduleFormat: invalid module format regex `(unclosed`: found open group without closing ')'
        broken/wrongtypes-1.0.0.json: /mystery: warning: unknown top-level key `mystery`: it is ignored
        broken/wrongtypes-1.0.0.json: /resources/wrongtypes:index:Other: expected an object, found a number
        broken/wrongtypes-1.0.0.json: /resources/wrongtypes:index:Thing/inputProperties/a/type: unknown type kind `strin`
        broken/wrongtypes-1.0.0.json: /resources/wrongtypes:index:Thing/inputProperties/b: an array type needs `items`
        broken/wrongtypes-1.0.0.json: /resources/wrongtypes:index:Thing/inputProperties/c/$ref: warning: type `wrongtypes:index:Missing` not found in package `wrongtypes`: it is treated as an opaque type
        broken/wrongtypes-1.0.0.json: /resources/wrongtypes:index:Thing/inputProperties/d/$ref: unknown builtin type `pulumi.json#/Nope`
        broken/wrongtypes-1.0.0.json: /resources/wrongtypes:index:Thing/inputProperties/e/oneOf: a union must have at least two members
        broken/wrongtypes-1.0.0.json: /resources/wrongtypes:index:Thing/inputProperties/f: expected an object, found a string
        broken/wrongtypes-1.0.0.json: /resources/wrongtypes:index:Thing/inputProperties/g/secret: expected a boolean, found a string
        broken/wrongtypes-1.0.0.json: /resources/wrongtypes:index:Thing/requiredInputs/1: required property `zzz` is not defined in `inputProperties`
        broken/wrongtypes-1.0.0.json: /types/wrongtypes:index:Enum/enum/0/value: enum value `1.5` is not a valid integer (the enum's type)
        broken/wrongtypes-1.0.0.json: /types/wrongtypes:index:Enum/enum/1: an enum value needs `value`
        broken/wrongtypes-1.0.0.json: /types/wrongtypes:index:NotAnObject/type: a named type must be an object or an enum, found type `"array"`
        broken/wrongtypes-1.0.0.json: /version: `one` is not a semantic version"#]].assert_eq(&text);
    // One bad schema does not stop the others.
    let mut registry = SchemaRegistry::from_dirs([schemas("broken")]);
    registry.add_dir(&schemas("registry"));
    assert!(registry.package("truncated", None).is_err());
    assert!(registry.package("widgets", None).is_ok());
}

/// Content Pulumi rejects that a JSON-shape check would accept: object types that do not say
/// `"type": "object"`, defaults that do not fit their property, and `replaceOnChanges` naming
/// no property.
#[test]
fn invalid_content_is_reported_with_its_path() {
    let package = load_schema_file(&schemas("broken/invalid-content-1.0.0.json")).unwrap();
    let diagnostics = check_package(&package, &SchemaRegistry::new());
    let lines: Vec<String> = diagnostics.iter().map(|d| d.to_string()).collect();
    expect![[r#"
        broken/invalid-content-1.0.0.json: /resources/invalid:index:Thing/inputProperties/big/default: invalid default value `4294967296` for integer property
        broken/invalid-content-1.0.0.json: /resources/invalid:index:Thing/inputProperties/color/default: invalid default value `3` for string property
        broken/invalid-content-1.0.0.json: /resources/invalid:index:Thing/inputProperties/count/default: invalid default value `"notanint"` for integer property
        broken/invalid-content-1.0.0.json: /resources/invalid:index:Thing/inputProperties/either/default: invalid default value `"neither"`: no member of the union accepts it
        broken/invalid-content-1.0.0.json: /resources/invalid:index:Thing/inputProperties/flag/default: invalid default value `"yes"` for boolean property
        broken/invalid-content-1.0.0.json: /resources/invalid:index:Thing/inputProperties/shape/default: object type `invalid:index:Shape` cannot have a default value: only booleans, integers, numbers, strings and enums may
        broken/invalid-content-1.0.0.json: /resources/invalid:index:Thing/inputProperties/size/default: warning: default value `"huge"` is not one of the values of enum `invalid:index:Size`
        broken/invalid-content-1.0.0.json: /resources/invalid:index:Thing/inputProperties/tags/default: an array property cannot have a default value: only booleans, integers, numbers, strings and enums may
        broken/invalid-content-1.0.0.json: /resources/invalid:index:Thing/replaceOnChanges/1: `replaceOnChanges` names `nope`, which is not a property of the resource
        broken/invalid-content-1.0.0.json: /types/invalid:index:OnlyRef: a named type needs `"type": "object"` (or `enum` and a primitive `type` for an enum)
        broken/invalid-content-1.0.0.json: /types/invalid:index:Shape: a named type needs `"type": "object"` (or `enum` and a primitive `type` for an enum)"#]]
    .assert_eq(&strip_dir(&lines.join("\n")));
}

/// `config` is modelled like a resource's inputs: checked with JSON paths and mapped to a type;
/// a `language` that is not an object is an error, as in Pulumi.
#[test]
fn config_is_checked_and_typed() {
    let package = load_schema_file(&schemas("broken/config-1.0.0.json")).unwrap();
    let registry = SchemaRegistry::new();
    let diagnostics = check_package(&package, &registry);
    let lines: Vec<String> = diagnostics.iter().map(|d| d.to_string()).collect();
    expect![[r#"
        broken/config-1.0.0.json: /config/defaults/1: required property `absent` is not defined in `variables`
        broken/config-1.0.0.json: /config/required: warning: unknown key `required` in `config`: it is ignored (Pulumi reads the required variables from `defaults`)
        broken/config-1.0.0.json: /config/variables/missing/$ref: warning: type `cfg:index:Nope` not found in package `cfg`: it is treated as an opaque type
        broken/config-1.0.0.json: /config/variables/odd/type: unknown type kind `frob`
        broken/config-1.0.0.json: /config/variables/retries/default: invalid default value `"three"` for integer property
        broken/config-1.0.0.json: /language: expected an object, found a number"#]]
    .assert_eq(&strip_dir(&lines.join("\n")));
    let mapper = TypeMapper::new(&registry);
    expect![[r#"
        { missing: cfg:index:Nope?, mode: enum(cfg::Mode)?, odd: dynamic?, region: string, retries: int? }
        { missing: output(cfg:index:Nope) | cfg:index:Nope?, mode: enum(cfg::Mode) | output(enum(cfg::Mode))?, odd: dynamic | output(dynamic)?, region: output(string) | string, retries: int | output(int)? }"#]]
    .assert_eq(&format!(
        "{}\n{}",
        readable_type(mapper.config_type(&package, Shape::Plain)),
        readable_type(mapper.config_type(&package, Shape::Input))
    ));
    let registry = self::registry();
    let mapper = TypeMapper::new(&registry);
    assert_eq!(
        readable_type(mapper.config_type(&widgets(&registry), Shape::Plain)),
        "{ region: string? }"
    );
    // A schema without config has an empty one.
    let empty = Package::parse("empty.json", r#"{"name": "empty"}"#).unwrap();
    assert!(empty.config().spec.variables.is_empty());
    assert_eq!(
        readable_type(mapper.config_type(&empty, Shape::Plain)),
        "{}"
    );
}

#[test]
fn unreadable_directory_is_a_diagnostic() {
    let registry = SchemaRegistry::from_dirs([schemas("no-such-dir")]);
    let text: Vec<String> = registry
        .scan_diagnostics()
        .iter()
        .map(|d| d.to_string())
        .collect();
    assert_eq!(text.len(), 1);
    assert!(
        text[0].contains("no-such-dir: /: cannot read `") && text[0].contains("no-such-dir`: "),
        "{text:?}"
    );
}
