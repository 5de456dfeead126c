//! `pcl check` end to end: rendering, `--emit-types`, programs of one file and of a
//! directory, and exit statuses (0 clean, 1 errors, 2 usage or I/O errors).

use std::path::Path;

use expect_test::expect;

mod common;

use common::example;

/// Runs `pcl check ARGS...` in `dir`: (exit status, stdout, stderr).
fn pcl_check(dir: &Path, args: &[&str]) -> (i32, String, String) {
    common::pcl(dir, "check", args)
}

fn temp_program(name: &str, files: &[(&str, &str)]) -> pcl_test_support::TempDir {
    common::temp_dir(&format!("check-{name}"), files)
}

#[test]
fn the_example_program_is_clean_and_prints_its_types() {
    let (status, out, err) = pcl_check(
        &example("static-website"),
        &["--schemas", "../schemas", "--emit-types", "."],
    );
    assert_eq!((status, err.as_str()), (0, ""));
    expect![[r#"
        siteName: string
        pages: list(string)
        caller: promise({ accountId: string, arn: string, id: string, userId: string })
        siteBucket: resource(aws:s3:Bucket)
        pageObjects: list(resource(aws:s3:BucketObject))
        commonTags: { owner: string, project: string }
        siteUrl: output(string)
        objectKeys: list(output(string))
    "#]]
    .assert_eq(&out);
}

#[test]
fn errors_are_rendered_rustc_style_and_exit_1() {
    let dir = temp_program(
        "errors",
        &[
            (
                "main.pp",
                "config port int {\n  default = \"eighty\"\n}\nsize = lenght(names)\n",
            ),
            (
                "names.pp",
                "names = [\"a\", \"b\"]\nnames = 1\nwarn = names.0\nresourse x \"t\" {}\n",
            ),
        ],
    );
    let (status, out, err) = pcl_check(&dir, &["."]);
    assert_eq!((status, out.as_str()), (1, ""));
    expect![[r#"
        ./main.pp:2:13: error[E0304]: the default value does not fit the config's type int: the string `"eighty"` is not a number
          |
        2 |   default = "eighty"
          |             ^^^^^^^^
        ./main.pp:4:8: error[E0302]: unknown function `lenght`
          |
        4 | size = lenght(names)
          |        ^^^^^^
        help: did you mean `length`?
        ./names.pp:2:1: error[E0025]: attribute redefined: `names` is already set in this body; each argument may be set only once
          |
        2 | names = 1
          | ^^^^^
        ./names.pp:1:1: note: `names` is first set here
          |
        1 | names = ["a", "b"]
          | ^^^^^
        ./names.pp:4:1: warning[W0202]: unknown block type `resourse`: the block is ignored
          |
        4 | resourse x "t" {}
          | ^^^^^^^^
        help: did you mean `resource`?
        3 errors, 1 warning
    "#]]
    .assert_eq(&err);
}

#[test]
fn a_single_file_is_a_program_and_warnings_alone_exit_0() {
    let dir = temp_program("warnings", &[("main.pp", "x = null.foo\n")]);
    let (status, out, err) = pcl_check(&dir, &["--emit-types", "main.pp"]);
    assert_eq!((status, out.as_str()), (0, "x: none\n"));
    expect![[r#"
        main.pp:1:9: warning[W0314]: cannot traverse a value of type none
          |
        1 | x = null.foo
          |         ^^^^
        1 warning
    "#]]
    .assert_eq(&err);
}

#[test]
fn missing_paths_and_empty_directories_exit_2() {
    let dir = temp_program("empty", &[]);
    let (status, _, err) = pcl_check(&dir, &["missing.pp"]);
    assert_eq!(status, 2);
    assert_eq!(
        err,
        "error: cannot read `missing.pp`: no such file or directory\n"
    );
    let (status, _, err) = pcl_check(&dir, &["."]);
    assert_eq!(status, 2);
    assert!(err.contains("holds no `.pp` files"), "{err}");
    let (status, _, _) = pcl_check(&dir, &[]);
    assert_eq!(status, 2);
}

fn binding_schemas() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../test_data/schemas/binding")
        .display()
        .to_string()
}

#[test]
fn json_format_prints_one_object_per_diagnostic() {
    let dir = temp_program(
        "json",
        &[(
            "main.pp",
            "resource b \"demo:storage/bucket:Bucket\" {\n  nmae = \"x\"\n}\nz = invoke(\"demo:network/getZone:getZone\", { name = \"a\", privat = true })\n",
        ), ("other.pp", "# 日本語\nz = 1\n")],
    );
    let schemas = binding_schemas();
    let (status, out, err) = pcl_check(&dir, &["--schemas", &schemas, "--format", "json", "."]);
    assert_eq!((status, err.as_str()), (1, ""));
    let lines: String = out
        .lines()
        .map(|l| {
            let value: serde_json::Value =
                serde_json::from_str(l).expect("one JSON object per line");
            serde_json::to_string_pretty(&value).expect("prints") + "\n"
        })
        .collect();
    expect![[r#"
        {
          "object": "diagnostic",
          "version": 1,
          "file": "./main.pp",
          "line": 2,
          "column": 3,
          "end_line": 2,
          "end_column": 7,
          "byte_start": 44,
          "byte_end": 48,
          "severity": "error",
          "code": "E0205",
          "message": "unsupported attribute `nmae` of resource type `demo:storage:Bucket`, whose required attribute `name` (string) is missing",
          "notes": [],
          "help": [
            "did you mean `name`?"
          ],
          "fixes": [
            {
              "title": "replace with `name`",
              "edits": [
                {
                  "file": "./main.pp",
                  "line": 2,
                  "column": 3,
                  "end_line": 2,
                  "end_column": 7,
                  "byte_start": 44,
                  "byte_end": 48,
                  "replacement": "name"
                }
              ]
            }
          ],
          "rendered": "./main.pp:2:3: error[E0205]: unsupported attribute `nmae` of resource type `demo:storage:Bucket`, whose required attribute `name` (string) is missing\n  |\n2 |   nmae = \"x\"\n  |   ^^^^\nhelp: did you mean `name`?\n"
        }
        {
          "object": "diagnostic",
          "version": 1,
          "file": "./main.pp",
          "line": 4,
          "column": 58,
          "end_line": 4,
          "end_column": 64,
          "byte_start": 114,
          "byte_end": 120,
          "severity": "warning",
          "code": "W0505",
          "message": "unknown property `privat` of { name: string, private: bool? }: it is ignored",
          "notes": [],
          "help": [
            "did you mean `private`?"
          ],
          "fixes": [
            {
              "title": "replace with `private`",
              "edits": [
                {
                  "file": "./main.pp",
                  "line": 4,
                  "column": 58,
                  "end_line": 4,
                  "end_column": 64,
                  "byte_start": 114,
                  "byte_end": 120,
                  "replacement": "private"
                }
              ]
            }
          ],
          "rendered": "./main.pp:4:58: warning[W0505]: unknown property `privat` of { name: string, private: bool? }: it is ignored\n  |\n4 | z = invoke(\"demo:network/getZone:getZone\", { name = \"a\", privat = true })\n  |                                                          ^^^^^^\nhelp: did you mean `private`?\n"
        }
        {
          "object": "diagnostic",
          "version": 1,
          "file": "./other.pp",
          "line": 2,
          "column": 1,
          "end_line": 2,
          "end_column": 2,
          "byte_start": 12,
          "byte_end": 13,
          "severity": "error",
          "code": "E0203",
          "message": "`z` is already declared",
          "notes": [
            {
              "file": "./main.pp",
              "line": 4,
              "column": 1,
              "end_line": 4,
              "end_column": 2,
              "byte_start": 57,
              "byte_end": 58,
              "message": "first declared here"
            }
          ],
          "help": [],
          "fixes": [],
          "rendered": "./other.pp:2:1: error[E0203]: `z` is already declared\n  |\n2 | z = 1\n  | ^\n./main.pp:4:1: note: first declared here\n  |\n4 | z = invoke(\"demo:network/getZone:getZone\", { name = \"a\", privat = true })\n  | ^\n"
        }
        {
          "object": "summary",
          "version": 1,
          "programs": 1,
          "files": 2,
          "errors": 2,
          "warnings": 1,
          "io_errors": 0
        }
    "#]]
    .assert_eq(&lines);
    // With --emit-types, every line is still one JSON object.
    let (_, out, _) = pcl_check(
        &dir,
        &[
            "--schemas",
            &schemas,
            "--format",
            "json",
            "--emit-types",
            ".",
        ],
    );
    let types: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON line"))
        .filter(|v| v.get("node").is_some())
        .map(|v| v.to_string())
        .collect();
    expect![[r#"
        [
            "{\"object\":\"node\",\"version\":1,\"node\":\"b\",\"kind\":\"resource\",\"type\":\"resource(demo:storage:Bucket)\"}",
            "{\"object\":\"node\",\"version\":1,\"node\":\"z\",\"kind\":\"local\",\"type\":\"promise({ id: string, nameServers: list(string) })\"}",
            "{\"object\":\"node\",\"version\":1,\"node\":\"z\",\"kind\":\"local\",\"type\":\"int\"}",
        ]
    "#]]
    .assert_debug_eq(&types);
}

#[test]
fn lenient_mode_turns_missing_schemas_into_warnings() {
    let dir = temp_program(
        "lenient",
        &[(
            "main.pp",
            "resource a \"aws:s3/bucket:Bucket\" {\n}\nresource b \"aws:s3/bucket:Bucket\" {\n  x = a.id\n}\n",
        )],
    );
    let (status, _, err) = pcl_check(&dir, &["main.pp"]);
    assert_eq!(status, 1);
    expect![[r#"
        main.pp:1:12: error[E0502]: unknown package `aws`: no schema for package `aws`; no schema directories are configured (set `$PCL_SCHEMA_PATH` or create `~/.pcl/schemas`)
          |
        1 | resource a "aws:s3/bucket:Bucket" {
          |            ^^^^^^^^^^^^^^^^^^^^^^
        help: add a schema file named `aws-VERSION.json` to a schema directory (`pulumi package get-schema aws > aws-VERSION.json` writes one)
        help: 1 other use of package `aws` is not reported
        help: to check the rest of the program without this schema, run with `--lenient` (its resources are then `dynamic`)
        1 error
    "#]]
    .assert_eq(&err);
    let (status, _, err) = pcl_check(&dir, &["--lenient", "main.pp"]);
    assert_eq!(status, 0);
    assert!(
        err.contains("warning[E0502]") && err.ends_with("1 warning\n"),
        "{err}"
    );
    // Schemas are also found through $PCL_SCHEMA_PATH.
    let schemas = binding_schemas();
    let (status, _, err) = common::pcl_with_env(
        &dir,
        "check",
        &["main.pp"],
        &[("PCL_SCHEMA_PATH", &schemas)],
    );
    assert_eq!(status, 1);
    assert!(err.contains(&format!("looked in `{schemas}`")), "{err}");
}

#[test]
fn components_and_pulumi_yaml_main_are_followed() {
    let dir = temp_program(
        "components",
        &[
            ("Pulumi.yaml", "name: site\nruntime: pcl\nmain: infra/\n"),
            (
                "infra/main.pp",
                "component web \"./web\" {\n  siteName = \"web\"\n  replicas = \"many\"\n}\noutput url {\n  value = web.url\n}\n",
            ),
            (
                "infra/web/main.pp",
                "config siteName string {\n}\nconfig replicas int {\n  default = 1\n}\nresource bucket \"demo:storage/bucket:Bucket\" {\n  name = siteName\n  sizeGb = \"big\"\n}\noutput url {\n  value = bucket.endpoint\n}\n",
            ),
        ],
    );
    let schemas = binding_schemas();
    let (status, out, err) = pcl_check(&dir, &["--schemas", &schemas, "--emit-types", "."]);
    assert_eq!(status, 1);
    expect![[r#"
        web: { url: output(string) }
        url: output(string)
        siteName: string
        replicas: int
        bucket: resource(demo:storage:Bucket)
        url: output(string)
    "#]]
    .assert_eq(&out);
    expect![[r#"
        ./infra/main.pp:3:14: error[E0304]: the attribute `replicas` of component `./web`: the string `"many"` is not a number
          |
        3 |   replicas = "many"
          |              ^^^^^^
        infra/web/main.pp:8:12: error[E0304]: the attribute `sizeGb` of resource type `demo:storage:Bucket`: the string `"big"` is not a number
          |
        8 |   sizeGb = "big"
          |            ^^^^^
        2 errors
    "#]]
    .assert_eq(&err);
}

#[test]
fn a_schema_directory_that_does_not_exist_is_a_usage_error() {
    let dir = temp_program("no-schemas", &[("main.pp", "x = 1\n")]);
    let (status, _, err) = pcl_check(&dir, &["--schemas", "nowhere", "main.pp"]);
    assert_eq!(status, 2);
    assert_eq!(err, "error: `--schemas nowhere`: not a directory\n");
}

/// The fields `docs/json.md` lists for an object kind: the backquoted names in the first cell
/// of each row of the table under the heading naming that kind.
fn documented_fields(doc: &str, kind: &str) -> Vec<String> {
    let heading = format!("## `\"object\": \"{kind}\"`");
    let section = doc
        .split("\n## ")
        .find(|s| format!("## {s}").starts_with(&heading))
        .unwrap_or_else(|| panic!("docs/json.md has no section {heading}"));
    let mut fields = Vec::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let cell = row.split('|').nth(1).unwrap_or_default();
        fields.extend(cell.split('`').skip(1).step_by(2).map(String::from));
    }
    fields
}

/// Every kind of JSON object has exactly the fields `docs/json.md` documents, in that order,
/// and every place has the fields of the doc's Places table.
#[test]
fn json_objects_have_the_documented_fields() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/json.md"))
            .expect("docs/json.md");
    let dir = temp_program(
        "json-fields",
        &[("main.pp", "a = 1\nb = { x = 1 }.y\na = 2\n")],
    );
    let (status, out, _) = pcl_check(&dir, &["--format", "json", "--emit-types", "."]);
    assert_eq!(status, 1);
    let mut seen = std::collections::BTreeSet::new();
    for line in out.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let object = value.as_object().expect("an object");
        let kind = object["object"].as_str().expect("an object field");
        let keys: Vec<String> = object.keys().cloned().collect();
        assert_eq!(keys, documented_fields(&doc, kind), "{kind}: {line}");
        assert_eq!(object["version"], 1);
        for note in object
            .get("notes")
            .and_then(|n| n.as_array())
            .into_iter()
            .flatten()
        {
            let keys: Vec<&str> = note
                .as_object()
                .expect("a note")
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(
                keys,
                [
                    "file",
                    "line",
                    "column",
                    "end_line",
                    "end_column",
                    "byte_start",
                    "byte_end",
                    "message"
                ]
            );
        }
        seen.insert(kind.to_string());
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["diagnostic", "node", "summary"]
    );
    assert!(out
        .lines()
        .last()
        .is_some_and(|l| l.contains("\"summary\"")));
}
