//! `pcl check` end to end: rendering, `--emit-types`, programs of one file and of a
//! directory, and exit statuses (0 clean, 1 errors, 2 usage or I/O errors).

use std::path::{Path, PathBuf};

use expect_test::expect;

mod common;

use common::example;

/// Runs `pcl check ARGS...` in `dir`: (exit status, stdout, stderr).
fn pcl_check(dir: &Path, args: &[&str]) -> (i32, String, String) {
    common::pcl(dir, "check", args)
}

fn temp_program(name: &str, files: &[(&str, &str)]) -> PathBuf {
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
    assert!(
        err.contains("cannot read `missing.pp`: no such file or directory"),
        "{err}"
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
        )],
    );
    let schemas = binding_schemas();
    let (status, out, err) = pcl_check(&dir, &["--schemas", &schemas, "--format", "json", "."]);
    assert_eq!((status, err.as_str()), (1, ""));
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    expect![[r#"
        [
            Object {
                "file": String("./main.pp"),
                "line": Number(1),
                "column": Number(41),
                "end_line": Number(1),
                "end_column": Number(42),
                "severity": String("error"),
                "code": String("E0208"),
                "message": String("missing required attribute `name` of resource type `demo:storage:Bucket`"),
            },
            Object {
                "file": String("./main.pp"),
                "line": Number(2),
                "column": Number(3),
                "end_line": Number(2),
                "end_column": Number(7),
                "severity": String("error"),
                "code": String("E0205"),
                "message": String("unsupported attribute `nmae` of resource type `demo:storage:Bucket`"),
            },
            Object {
                "file": String("./main.pp"),
                "line": Number(4),
                "column": Number(58),
                "end_line": Number(4),
                "end_column": Number(64),
                "severity": String("warning"),
                "code": String("W0505"),
                "message": String("unknown property `privat` of { name: string, private: bool? }: it is ignored"),
            },
        ]
    "#]]
    .assert_debug_eq(&lines);
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
            "{\"node\":\"b\",\"kind\":\"resource\",\"type\":\"resource(demo:storage:Bucket)\"}",
            "{\"node\":\"z\",\"kind\":\"local\",\"type\":\"promise({ id: string, nameServers: list(string) })\"}",
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
    assert!(err.contains("--schemas nowhere: not a directory"), "{err}");
}
