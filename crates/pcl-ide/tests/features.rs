//! Every IDE feature on `$0` fixtures, snapshot-tested.

mod common;

use common::{fixture, relative, render_diagnostics, span, Fixture};
use expect_test::{expect, Expect};
use pcl_ide::{FileRange, TextRange};

const PROGRAM: &str = r#"
#- main.pp
config prefix string {
  default = "site"
  description = "Prefix of every name"
}

bucket_name = "${prefix}-bucket"

resource bucket "aws:s3/bucket:Bucket" {
  bucket = bucket_name
  acl    = "private"
}

resource files "aws:s3/bucketObject:BucketObject" {
  bucket = bucket.bucket
  key    = "index-${range.value}.html"
  options {
    range = ["a", "b"]
  }
}

names = [for name in ["x", "y"] : "${name}!"]

component web "./web" {
  title = bucket_name
}

output url {
  value = web.endpoint
}
#- web/main.pp
config title string {
}

output endpoint {
  value = "https://${title}"
}
"#;

/// `PROGRAM` with `$0` placed at the first occurrence of `needle` (shifted by `delta`
/// bytes) in `file`.
fn at(file: &str, needle: &str, delta: usize) -> Fixture {
    let mut out = String::new();
    let mut in_file = false;
    let mut placed = false;
    for line in PROGRAM.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix("#- ") {
            in_file = name.trim() == file;
            out.push_str(line);
            continue;
        }
        if in_file && !placed {
            if let Some(i) = line.find(needle) {
                out.push_str(&line[..i + delta]);
                out.push_str("$0");
                out.push_str(&line[i + delta..]);
                placed = true;
                continue;
            }
        }
        out.push_str(line);
    }
    assert!(placed, "{needle} not found in {file}");
    fixture(&out)
}

fn check_hover(file: &str, needle: &str, delta: usize, expect: Expect) {
    let f = at(file, needle, delta);
    let hover = f.analysis().hover(&f.position()).unwrap();
    let actual = match hover {
        Some(h) => format!(
            "{}\n{}\n",
            f.show(&FileRange {
                file: f.position().file,
                range: h.range
            }),
            h.markdown
        ),
        None => "no hover\n".to_string(),
    };
    expect.assert_eq(&actual);
}

#[test]
fn hover_invoke_argument_shows_its_input() {
    let f = fixture("zone = invoke(\"demo:index:getZone\", {\n  na$0me = \"example.com\"\n})\n");
    let hover = f.analysis().hover(&f.position()).unwrap().expect("a hover");
    expect![[r#"
        ```pcl
        name: string (required)
        ```

        The zone's domain name."#]]
    .assert_eq(&hover.markdown);
}

#[test]
fn hover_local_shows_its_type() {
    check_hover(
        "main.pp",
        "bucket_name\n",
        2,
        expect![[r#"
            main.pp:9:12-9:23 "bucket_name"
            ```pcl
            bucket_name: string
            ```
        "#]],
    );
}

#[test]
fn hover_config_shows_default_and_description() {
    check_hover(
        "main.pp",
        "prefix}",
        1,
        expect![[r#"
            main.pp:6:18-6:24 "prefix"
            ```pcl
            config prefix: string
            ```

            default: `"site"`

            Prefix of every name
        "#]],
    );
}

#[test]
fn hover_resource_token_shows_schema_description() {
    check_hover(
        "main.pp",
        "aws:s3/bucket:Bucket",
        3,
        expect![[r#"
            main.pp:8:17-8:39 "\"aws:s3/bucket:Bucket\""
            ```pcl
            resource "aws:s3:Bucket"
            ```

            Provides a S3 bucket resource.
        "#]],
    );
}

#[test]
fn hover_property_shows_type_and_description() {
    check_hover(
        "main.pp",
        "acl ",
        1,
        expect![[r#"
            main.pp:10:3-10:6 "acl"
            ```pcl
            acl: enum("private" | "public-read" | "public-read-write" | "aws-exec-read" | "authenticated-read" | "log-delivery-write")?
            ```

            The canned ACL to apply. Defaults to `private`.
        "#]],
    );
}

#[test]
fn hover_output_property_read() {
    check_hover(
        "main.pp",
        "bucket.bucket",
        9,
        expect![[r#"
            main.pp:14:19-14:25 "bucket"
            ```pcl
            bucket: output(string)
            ```

            The name of the bucket.
        "#]],
    );
}

#[test]
fn hover_for_variable_and_builtin() {
    check_hover(
        "main.pp",
        "name in",
        1,
        expect![[r#"
            main.pp:21:14-21:18 "name"
            ```pcl
            name: "x" | "y"
            ```
        "#]],
    );
    check_hover(
        "main.pp",
        "range = [",
        2,
        expect![[r#"
            main.pp:17:5-17:10 "range"
            ```pcl
            option range
            ```

            Creates one resource per element: a number (count), a list or a map; the body reads `range.key` and `range.value`.
        "#]],
    );
}

fn check_definition(file: &str, needle: &str, delta: usize, expect: Expect) {
    let f = at(file, needle, delta);
    let targets = f.analysis().goto_definition(&f.position()).unwrap();
    let actual: String = targets
        .iter()
        .map(|t| {
            let text = f.text(&t.file);
            let focus = &text[usize::from(t.focus_range.start())..usize::from(t.focus_range.end())];
            format!(
                "{} {:?} {:?} {}\n",
                relative(&t.file),
                t.kind,
                focus,
                span(text, t.full_range)
            )
        })
        .collect();
    expect.assert_eq(&actual);
}

#[test]
fn definition_of_names_across_the_program() {
    check_definition(
        "main.pp",
        "bucket_name\n",
        0,
        expect![[r#"
            main.pp Local "bucket_name" 6:1-6:33
        "#]],
    );
    check_definition(
        "main.pp",
        "bucket.bucket",
        2,
        expect![[r#"
            main.pp Resource "bucket" 8:1-11:2
        "#]],
    );
    check_definition(
        "main.pp",
        "name}!",
        1,
        expect![[r#"
            main.pp Variable "name" 21:14-21:18
        "#]],
    );
}

#[test]
fn definition_of_range_is_the_range_option() {
    check_definition(
        "main.pp",
        "range.value",
        1,
        expect![[r#"
            main.pp Variable "range" 17:5-17:23
        "#]],
    );
}

#[test]
fn definition_across_a_component() {
    // The component's source label: its program.
    check_definition(
        "main.pp",
        "./web",
        2,
        expect![[r#"
            web/main.pp Component "" 1:1-7:1
        "#]],
    );
    // An attribute of the component block: the config it sets.
    check_definition(
        "main.pp",
        "title =",
        1,
        expect![[r#"
            web/main.pp Config "title" 1:1-2:2
        "#]],
    );
    // An attribute read from the component: its output.
    check_definition(
        "main.pp",
        "web.endpoint",
        6,
        expect![[r#"
            web/main.pp Output "endpoint" 4:1-6:2
        "#]],
    );
}

fn check_references(file: &str, needle: &str, delta: usize, expect: Expect) {
    let f = at(file, needle, delta);
    let refs = f.analysis().find_references(&f.position(), true).unwrap();
    let actual: String = refs.iter().map(|r| format!("{}\n", f.show(r))).collect();
    expect.assert_eq(&actual);
}

#[test]
fn references_of_a_local_and_of_a_component_config() {
    check_references(
        "main.pp",
        "bucket_name =",
        1,
        expect![[r#"
            main.pp:6:1-6:12 "bucket_name"
            main.pp:9:12-9:23 "bucket_name"
            main.pp:24:11-24:22 "bucket_name"
        "#]],
    );
    check_references(
        "web/main.pp",
        "title string",
        1,
        expect![[r#"
            main.pp:24:3-24:8 "title"
            web/main.pp:1:8-1:13 "title"
            web/main.pp:5:22-5:27 "title"
        "#]],
    );
    check_references(
        "web/main.pp",
        "endpoint {",
        1,
        expect![[r#"
            main.pp:28:15-28:23 "endpoint"
            web/main.pp:4:8-4:16 "endpoint"
        "#]],
    );
}

fn check_highlights(file: &str, needle: &str, delta: usize, expect: Expect) {
    let f = at(file, needle, delta);
    let position = f.position();
    let ranges = f.analysis().document_highlights(&position).unwrap();
    let actual: String = ranges
        .iter()
        .map(|h| {
            let range = FileRange {
                file: position.file.clone(),
                range: h.range,
            };
            format!("{} {:?}\n", f.show(&range), h.access)
        })
        .collect();
    expect.assert_eq(&actual);
}

#[test]
fn highlights_are_the_uses_in_the_cursor_file() {
    // From a use: the declaration is written, the uses read; the use in `web/main.pp`'s
    // component block is in another file.
    check_highlights(
        "main.pp",
        "bucket = bucket_name",
        10,
        expect![[r#"
            main.pp:6:1-6:12 "bucket_name" Write
            main.pp:9:12-9:23 "bucket_name" Read
            main.pp:24:11-24:22 "bucket_name" Read
        "#]],
    );
    // From a declaration in a file whose uses are all elsewhere but one.
    check_highlights(
        "web/main.pp",
        "title string",
        1,
        expect![[r#"
            web/main.pp:1:8-1:13 "title" Write
            web/main.pp:5:22-5:27 "title" Read
        "#]],
    );
    // A `for` variable.
    check_highlights(
        "main.pp",
        "name in",
        0,
        expect![[r#"
            main.pp:21:14-21:18 "name" Write
            main.pp:21:38-21:42 "name" Read
        "#]],
    );
    // Nothing names a string's text.
    check_highlights("main.pp", "private", 2, expect![[""]]);
}

fn check_selection(text: &str, expect: Expect) {
    let f = fixture(text);
    let position = f.position();
    let source = f.text(&position.file);
    let ranges = f.analysis().selection_ranges(&position).unwrap();
    let actual: String = ranges
        .iter()
        .map(|r| {
            format!(
                "{:?}\n",
                &source[usize::from(r.start())..usize::from(r.end())]
            )
        })
        .collect();
    expect.assert_eq(&actual);
}

#[test]
fn selection_grows_from_the_word_to_the_file() {
    check_selection(
        r#"
#- main.pp
resource web "aws:s3/bucket:Bucket" {
  tags = {
    Name = "site-${pre$0fix}"
  }
}
"#,
        expect![[r#"
            "prefix"
            "${prefix}"
            "site-${prefix}"
            "\"site-${prefix}\""
            "Name = \"site-${prefix}\""
            "{\n    Name = \"site-${prefix}\"\n  }"
            "tags = {\n    Name = \"site-${prefix}\"\n  }"
            "resource web \"aws:s3/bucket:Bucket\" {\n  tags = {\n    Name = \"site-${prefix}\"\n  }\n}"
        "#]],
    );
    // At the end of a name, the name; in a call, its arguments, then the call.
    check_selection(
        "#- main.pp\nx = max(1, two$0)\ntwo = 2\n",
        expect![[r#"
            "two"
            "1, two"
            "(1, two)"
            "max(1, two)"
            "x = max(1, two)"
            "x = max(1, two)\ntwo = 2"
        "#]],
    );
    // A comment, then what holds it; a line between items; an empty file.
    check_selection(
        "#- main.pp\n# the $0prefix\nx = 1\n",
        expect![[r##"
            "# the prefix"
            "# the prefix\nx = 1"
        "##]],
    );
    check_selection(
        "#- main.pp\nx = 1\n$0\ny = 2\n",
        expect![[r#"
        "x = 1\n\ny = 2"
    "#]],
    );
    check_selection(
        "#- main.pp\n$0",
        expect![[r#"
        ""
    "#]],
    );
    // A chain of operators as long as a file can hold: the steps nearest the cursor, then the
    // whole file.
    let long = format!("#- main.pp\nx = 1$0{}\n", " + 1".repeat(100_000));
    let f = fixture(&long);
    let ranges = f.analysis().selection_ranges(&f.position()).unwrap();
    assert_eq!(ranges.len(), 100);
    assert_eq!(usize::from(ranges[0].len()), 1);
    assert_eq!(usize::from(ranges[1].len()), "1 + 1".len());
    let file = "x = 1".len() + " + 1".len() * 100_000;
    assert_eq!(usize::from(ranges[99].len()), file);
}

#[test]
fn component_sources_link_to_their_programs() {
    let f = fixture(
        r#"
#- main.pp
component web "./web" {
}
component gone "./missing" {
}
#- web/main.pp
output url {
  value = "x"
}
"#,
    );
    let main = std::path::Path::new(common::ROOT).join("main.pp");
    let links = f.analysis().document_links(&main).unwrap();
    let actual: String = links
        .iter()
        .map(|l| {
            let range = FileRange {
                file: main.clone(),
                range: l.range,
            };
            format!("{} -> {}\n", f.show(&range), relative(&l.target))
        })
        .collect();
    expect![[r#"
        main.pp:1:16-1:21 "./web" -> web/main.pp
    "#]]
    .assert_eq(&actual);
}

fn check_rename(file: &str, needle: &str, delta: usize, new_name: &str, expect: Expect) {
    let f = at(file, needle, delta);
    let actual = match f.analysis().rename(&f.position(), new_name).unwrap() {
        Ok(change) => {
            let mut out = String::new();
            for (path, edits) in &change.edits {
                // Apply the edits back to front and show the changed lines.
                let mut text = f.text(path).to_string();
                for edit in edits.iter().rev() {
                    text.replace_range(
                        usize::from(edit.range.start())..usize::from(edit.range.end()),
                        &edit.insert,
                    );
                }
                out.push_str(&format!("--- {}\n", relative(path)));
                for (old, new) in f.text(path).lines().zip(text.lines()) {
                    if old != new {
                        out.push_str(new);
                        out.push('\n');
                    }
                }
            }
            out
        }
        Err(e) => format!("error: {e}\n"),
    };
    expect.assert_eq(&actual);
}

#[test]
fn rename_a_resource_across_files() {
    check_rename(
        "main.pp",
        "bucket \"aws",
        0,
        "site",
        expect![[r#"
            --- main.pp
            resource site "aws:s3/bucket:Bucket" {
              bucket = site.bucket
        "#]],
    );
}

#[test]
fn rename_a_component_config_renames_the_attributes_that_set_it() {
    check_rename(
        "web/main.pp",
        "title}",
        0,
        "heading",
        expect![[r#"
            --- main.pp
              heading = bucket_name
            --- web/main.pp
            config heading string {
              value = "https://${heading}"
        "#]],
    );
}

#[test]
fn rename_refuses_bad_names_and_collisions() {
    check_rename(
        "main.pp",
        "bucket_name =",
        0,
        "2fast",
        expect![[r#"
            error: `2fast` is not a valid name: a name starts with a letter or `_` and goes on with letters, digits, `_` or `-`
        "#]],
    );
    check_rename(
        "main.pp",
        "bucket_name =",
        0,
        "bucket",
        expect![[r#"
            error: the program already has a `resource` named `bucket`
        "#]],
    );
    check_rename(
        "main.pp",
        "\"private\"",
        1,
        "x",
        expect![[r#"
            error: no name to rename here
        "#]],
    );
    // `files` uses `bucket` and sets `range`: there the new name would mean the element.
    check_rename(
        "main.pp",
        "resource bucket",
        9,
        "range",
        expect![[r#"
            error: the element `range` in `files` would hide the renamed `resource`
        "#]],
    );
}

fn check_completions(text: &str, expect: Expect) {
    let f = fixture(text);
    let list = f.analysis().completions(&f.position()).unwrap();
    let actual: String = list
        .items
        .iter()
        .take(12)
        .map(|i| {
            format!(
                "{:?} {} {}\n",
                i.kind,
                i.label,
                i.detail.as_deref().unwrap_or("")
            )
        })
        .collect();
    expect.assert_eq(&actual);
}

#[test]
fn complete_invoke_arguments_and_results() {
    // The function's arguments, on one line and on several, with a prefix typed.
    check_completions(
        "zone = invoke(\"demo:index:getZone\", { $0 })\n",
        expect![[r#"
            Property name string (required)
            Property private bool?
        "#]],
    );
    check_completions(
        "zone = invoke(\"demo:index:getZone\", {\n  private = true\n  na$0\n})\n",
        expect![[r#"
            Property name string (required)
        "#]],
    );
    // The members of its result.
    check_completions(
        "servers = invoke(\"demo:index:getZone\", { name = \"a\" }).$0\n",
        expect![[r#"
            Property id string
            Property nameServers list(string)
        "#]],
    );
}

#[test]
fn complete_config_types_and_logical_names() {
    // A type label not quoted yet: a type that is no identifier is inserted quoted.
    let f = fixture("config hostname li$0\n");
    let list = f.analysis().completions(&f.position()).unwrap();
    let items: Vec<(&str, &str)> = list
        .items
        .iter()
        .map(|i| (i.label.as_str(), i.edit.insert.as_str()))
        .collect();
    expect![[
        r#"[("list(string)", "\"list(string)\""), ("list(map(string))", "\"list(map(string))\"")]"#
    ]]
    .assert_eq(&format!("{items:?}"));
    check_completions(
        "x = [for k, v i$0\n",
        expect![[r#"
        Keyword in the collection a `for` expression iterates
    "#]],
    );
    check_completions(
        "config a string {\n  _$0\n}\n",
        expect![[r#"
        Property __logicalName string: the name Pulumi gives it, if not its name here
    "#]],
    );
}

#[test]
fn complete_the_attribute_under_the_cursor() {
    // Its own name is offered, though it is set (by itself).
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  bucket$0 = "x"
  acl    = "private"
}
"#,
        expect![[r#"
            Property bucket string?
        "#]],
    );
}

#[test]
fn complete_resource_tokens() {
    check_completions(
        r#"resource b "aws:s3$0" {
}
"#,
        expect![[r#"
            ResourceType aws:s3/bucket:Bucket resource of aws
            ResourceType aws:s3/bucketObject:BucketObject resource of aws
        "#]],
    );
}

#[test]
fn complete_input_properties_required_first() {
    check_completions(
        r#"resource o "aws:s3/bucketObject:BucketObject" {
  key = "a"
  $0
}
"#,
        expect![[r#"
            Property bucket string (required)
            Property cacheControl string?
            Property content string?
            Property contentType string?
            Property source Archive | Asset?
            Property tags map(string)?
            Keyword options resource options block
            Property __logicalName string: the name Pulumi gives it, if not its name here
        "#]],
    );
}

#[test]
fn complete_options() {
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  options {
    prot$0
  }
}
"#,
        expect![[r#"
            Option protect bool
        "#]],
    );
}

#[test]
fn complete_members_of_a_resource_and_of_range() {
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
}
x = b.$0
"#,
        expect![[r#"
            Property acl output(enum("private" | "public-read" | "public-read-write" | "aws-exec-read" | "authenticated-read" | "log-delivery-write")?)
            Property arn output(string)
            Property bucket output(string)
            Property bucketDomainName output(string)
            Property bucketRegionalDomainName output(string)
            Property corsRules output(list(aws:s3:BucketCorsRule)?)
            Property forceDestroy output(bool?)
            Property hostedZoneId output(string)
            Property id output(string)
            Property region output(string)
            Property tags output(map(string)?)
            Property tagsAll output(map(string))
        "#]],
    );
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  bucket = range.$0
  options {
    range = 2
  }
}
"#,
        expect![[r#"
            Property value the element's value
        "#]],
    );
}

#[test]
fn complete_names_and_builtins_in_expressions_and_templates() {
    check_completions(
        r#"config region string {
}
x = "${reg$0}"
"#,
        expect![[r#"
            Variable region config
        "#]],
    );
}

#[test]
fn complete_enum_values() {
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  acl = "$0"
}
"#,
        expect![[r#"
            EnumValue authenticated-read value of acl
            EnumValue aws-exec-read value of acl
            EnumValue log-delivery-write value of acl
            EnumValue private value of acl
            EnumValue public-read value of acl
            EnumValue public-read-write value of acl
        "#]],
    );
}

/// The signature help at `$0`: its label, its parameters' labels and the active one.
fn signature_help(text: &str) -> String {
    let f = fixture(text);
    let help = f.analysis().signature_help(&f.position()).unwrap().unwrap();
    let params: Vec<&str> = help
        .parameters
        .iter()
        .map(|(s, e)| &help.label[*s as usize..*e as usize])
        .collect();
    format!(
        "{}\n{params:?}\nactive: {:?}\n",
        help.label, help.active_parameter
    )
}

#[test]
fn signature_help_of_builtins() {
    expect![[r#"
        join(separator: string, strings: list(string)) -> string
        ["separator: string", "strings: list(string)"]
        active: Some(1)
    "#]]
    .assert_eq(&signature_help("x = join(\",\", $0)\n"));
    // A return type with parentheses of its own: the last parameter ends at the `)` that
    // closes the parameters.
    expect![[r#"
        split(separator: string, string: string) -> list(string)
        ["separator: string", "string: string"]
        active: Some(1)
    "#]]
    .assert_eq(&signature_help("x = split(\",\", $0)\n"));
}

#[test]
fn document_symbols_outline_a_file() {
    let f = fixture(PROGRAM);
    let symbols = f.analysis().document_symbols(&f.files[0].0).unwrap();
    let actual: String = symbols
        .iter()
        .map(|s| {
            format!(
                "{:?} {} {:?} [{}]\n",
                s.kind,
                s.name,
                s.detail,
                s.children
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    expect![[r#"
        Config prefix Some("string") [default, description]
        Local bucket_name None []
        Resource bucket Some("aws:s3/bucket:Bucket") [bucket, acl]
        Resource files Some("aws:s3/bucketObject:BucketObject") [bucket, key]
        Local names None []
        Component web Some("./web") [title]
        Output url None [value]
    "#]]
    .assert_eq(&actual);
    let found = f.analysis().workspace_symbols("END").unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].name, "endpoint");
}

#[test]
fn inlay_hints_show_inferred_types() {
    let f = fixture(PROGRAM);
    let path = &f.files[0].0;
    let text = f.text(path);
    let hints = f.analysis().inlay_hints(path, None).unwrap();
    let actual: String = hints
        .iter()
        .map(|h| {
            let (line, col) = common::line_col(text, h.offset.into());
            format!("{line}:{col} {}\n", h.label)
        })
        .collect();
    expect![[r#"
        6:12 : string
        21:6 : list(string)
        21:18 : "x" | "y"
    "#]]
    .assert_eq(&actual);
}

#[test]
fn folding_ranges_of_blocks_and_comments() {
    let f = fixture(
        "# one\n# two\nresource b \"aws:s3/bucket:Bucket\" {\n  tags = {\n    a = \"b\"\n  }\n}\n",
    );
    let path = &f.files[0].0;
    let folds = f.analysis().folding_ranges(path).unwrap();
    let actual: String = folds
        .iter()
        .map(|fold| format!("{:?} {}\n", fold.kind, span(f.text(path), fold.range)))
        .collect();
    expect![[r#"
        Comment 1:1-2:6
        Region 3:1-7:2
        Region 4:10-6:4
    "#]]
    .assert_eq(&actual);
}

#[test]
fn semantic_tokens_classify_names() {
    let f = fixture("config c string {\n}\nresource b \"aws:s3/bucket:Bucket\" {\n  bucket = join(\"-\", [c])\n  website = { indexDocument = c }\n}\n");
    let path = &f.files[0].0;
    let text = f.text(path);
    let tokens = f.analysis().semantic_tokens(path).unwrap();
    let actual: String = tokens
        .iter()
        .map(|t| {
            format!(
                "{:?} {:?} {}\n",
                &text[usize::from(t.range.start())..usize::from(t.range.end())],
                t.kind,
                t.modifiers
            )
        })
        .collect();
    expect![[r#"
        "config" Keyword 0
        "c" Parameter 3
        "string" Type 0
        "resource" Keyword 0
        "b" Variable 3
        "\"" Type 0
        "aws:s3/bucket:Bucket" Type 0
        "\"" Type 0
        "bucket" Property 0
        "join" Function 4
        "\"" String 0
        "-" String 0
        "\"" String 0
        "c" Parameter 2
        "website" Property 0
        "indexDocument" Property 0
        "c" Parameter 2
    "#]]
    .assert_eq(&actual);
}

#[test]
fn formatting_returns_edits() {
    let f = fixture("x   =  1\nyy = 2\n");
    let path = &f.files[0].0;
    let edits = f.analysis().format(path).unwrap().unwrap();
    let mut text = f.text(path).to_string();
    for edit in edits.iter().rev() {
        text.replace_range(
            usize::from(edit.range.start())..usize::from(edit.range.end()),
            &edit.insert,
        );
    }
    expect![[r#"
        x  = 1
        yy = 2
    "#]]
    .assert_eq(&text);
    let range = f
        .analysis()
        .format_range(path, TextRange::new(0.into(), 3.into()))
        .unwrap()
        .unwrap();
    assert!(!range.is_empty());
}

fn check_fixes(text: &str, expect: Expect) {
    let f = fixture(text);
    let range = f
        .range
        .clone()
        .map(|r| r.range)
        .unwrap_or_else(|| TextRange::empty(f.position().offset));
    let path = f.position().file;
    let assists = f.analysis().code_actions(&path, range).unwrap();
    let mut out = String::new();
    for assist in assists {
        out.push_str(&format!("{}\n", assist.label));
        for (file, edits) in &assist.edit.edits {
            let mut text = f.text(file).to_string();
            for edit in edits.iter().rev() {
                text.replace_range(
                    usize::from(edit.range.start())..usize::from(edit.range.end()),
                    &edit.insert,
                );
            }
            out.push_str(&text);
        }
    }
    // A carriage return shown as `\r`, so that line ends are seen in the snapshot.
    expect.assert_eq(&out.replace('\r', "\\r"));
}

#[test]
fn quick_fix_did_you_mean() {
    check_fixes(
        r#"resource b "aws:s3/bucket:Bucket" {
  $0buckt = "x"
}
"#,
        expect![[r#"
            replace with `bucket`
            resource b "aws:s3/bucket:Bucket" {
              bucket = "x"
            }
        "#]],
    );
}

#[test]
fn quick_fix_adds_missing_required_attributes() {
    // A block on one line holds one attribute: its body is opened onto lines.
    for text in [
        "resource o \"aws:s3/bucketObject:BucketObject\" $0{\n  key = \"a\"\n}\n",
        "resource o \"aws:s3/bucketObject:BucketObject\" $0{ key = \"a\" }\n",
    ] {
        check_fixes(
            text,
            expect![[r#"
                add the required attribute `bucket`
                resource o "aws:s3/bucketObject:BucketObject" {
                  key = "a"
                  bucket = ""
                }
            "#]],
        );
    }
    check_fixes(
        "resource o \"aws:s3/bucketObject:BucketObject\" $0{}\n",
        expect![[r#"
            add the required attribute `bucket`
            resource o "aws:s3/bucketObject:BucketObject" {
              bucket = ""
            }
        "#]],
    );
    // Tabs and CRLF line ends, as the file has them.
    check_fixes(
        "resource o \"aws:s3/bucketObject:BucketObject\" $0{\r\n\tkey = \"a\"\r\n}\r\n",
        expect![[r#"
            add the required attribute `bucket`
            resource o "aws:s3/bucketObject:BucketObject" {\r
            	key = "a"\r
            	bucket = ""\r
            }\r
        "#]],
    );
    // An object's own required properties, a discriminator's value among them.
    check_fixes(
        r#"resource c "demo:index:Probe" $0{
}
"#,
        expect![[r#"
            add the required attribute `check`
            resource c "demo:index:Probe" {
              check = { kind = "http", path = "" }
            }
        "#]],
    );
}

#[test]
fn quick_fix_wraps_json_in_to_json() {
    check_fixes(
        r#"resource b "aws:s3/bucket:Bucket" {
  bucket = $0{ a = 1 }
}
"#,
        expect![[r#"
            wrap the value of `bucket` in `toJSON(...)`
            resource b "aws:s3/bucket:Bucket" {
              bucket = toJSON({ a = 1 })
            }
        "#]],
    );
}

#[test]
fn diagnostics_of_every_file() {
    let f = fixture(
        r#"#- main.pp
x = undefined_name
#- other.pp
resource b "aws:s3/bucket:Bucket" {
  acl = "nope"
}
"#,
    );
    expect![[r#"
        main.pp:1:5-1:19 error[E0301] undefined variable `undefined_name`
        other.pp:2:9-2:15 error[E0304] the attribute `acl` of resource type `aws:s3:Bucket`: `"nope"` is not a valid value of the enum aws:s3:CannedAcl: valid values are `"private"`, `"public-read"`, `"public-read-write"`, `"aws-exec-read"`, `"authenticated-read"`, `"log-delivery-write"`
    "#]].assert_eq(&render_diagnostics(&f));
    let all = f.analysis().workspace_diagnostics().unwrap();
    let count: usize = all.iter().map(|(_, d)| d.len()).sum();
    assert_eq!(count, render_diagnostics(&f).lines().count());
}

#[test]
fn unknown_files_and_positions_out_of_range_answer_nothing() {
    let f = fixture("x = 1\n");
    let analysis = f.analysis();
    let nowhere = pcl_ide::FilePosition {
        file: "/nowhere.pp".into(),
        offset: 0.into(),
    };
    assert!(analysis.hover(&nowhere).unwrap().is_none());
    assert!(analysis.completions(&nowhere).unwrap().items.is_empty());
    assert!(analysis.diagnostics(&nowhere.file).unwrap().is_empty());
    let past_end = pcl_ide::FilePosition {
        file: f.files[0].0.clone(),
        offset: 10_000.into(),
    };
    assert!(analysis.hover(&past_end).unwrap().is_none());
    assert!(analysis.goto_definition(&past_end).unwrap().is_empty());
    analysis.completions(&past_end).unwrap();
    assert!(analysis.signature_help(&past_end).unwrap().is_none());
}

#[test]
fn quick_fix_unknown_name_and_token() {
    check_fixes(
        r#"bucket_name = "a"
x = $0bucket_nme
"#,
        expect![[r#"
            replace with `bucket_name`
            bucket_name = "a"
            x = bucket_name
        "#]],
    );
    check_fixes(
        r#"resource b $0"aws:s3/bucket:Buckt" {
}
"#,
        expect![[r#"
            replace with `"aws:s3/bucket:Bucket"`
            resource b "aws:s3/bucket:Bucket" {
            }
            replace with `"aws:s3:Bucket"`
            resource b "aws:s3:Bucket" {
            }
        "#]],
    );
}

#[test]
fn hover_enum_value_shows_its_description() {
    check_hover(
        "main.pp",
        "\"private\"",
        2,
        expect![[r#"
            main.pp:10:12-10:21 "\"private\""
            ```pcl
            aws:s3:CannedAcl.Private = "private"
            ```

            Owner gets FULL_CONTROL. No one else has access rights.
        "#]],
    );
}

#[test]
fn quick_fix_wraps_a_secret_input_in_secret() {
    check_fixes(
        r#"resource db "demo:index:Database" {
  password = $0"hunter2"
}
"#,
        expect![[r#"
            wrap the value of `password` in `secret(...)`
            resource db "demo:index:Database" {
              password = secret("hunter2")
            }
        "#]],
    );
}

#[test]
fn completion_lists_are_capped_and_say_so() {
    let mut text: String = (0..300).map(|i| format!("name{i} = {i}\n")).collect();
    text.push_str("x = $0\n");
    let f = fixture(&text);
    let list = f.analysis().completions(&f.position()).unwrap();
    assert_eq!(list.items.len(), pcl_ide::MAX_COMPLETIONS);
    assert!(list.is_incomplete);
    // Typing narrows the list: the names it starts (`name29`, `name290`..`name299`) first,
    // then those that hold its characters in order (`name129`, `name209`, ...).
    let f = fixture(&text.replace("x = $0", "x = name29$0"));
    let list = f.analysis().completions(&f.position()).unwrap();
    let labels: Vec<&str> = list.items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels.len(), 21, "{labels:?}");
    assert_eq!(labels[0], "name29");
    assert!(
        labels[..11].iter().all(|l| l.starts_with("name29")),
        "{labels:?}"
    );
    assert!(
        labels[11..].iter().all(|l| !l.starts_with("name29")),
        "{labels:?}"
    );
    assert!(!list.is_incomplete);
}

#[test]
fn references_leave_out_property_paths_of_options() {
    // `ignoreChanges` names properties of the resource, not the node `tags`: renaming the
    // node must not rewrite them.
    let f = fixture(
        r#"
#- main.pp
resource $0tags "aws:s3/bucket:Bucket" {
  bucket = "tags"
}

resource other "aws:s3/bucket:Bucket" {
  bucket = tags.bucket
  options {
    ignoreChanges = [tags]
    dependsOn = [tags]
  }
}
"#,
    );
    let refs = f.analysis().find_references(&f.position(), true).unwrap();
    let actual: String = refs.iter().map(|r| format!("{}\n", f.show(r))).collect();
    expect![[r#"
        main.pp:1:10-1:14 "tags"
        main.pp:6:12-6:16 "tags"
        main.pp:9:18-9:22 "tags"
    "#]]
    .assert_eq(&actual);
    let change = f
        .analysis()
        .rename(&f.position(), "labels")
        .unwrap()
        .unwrap();
    let (path, edits) = change.edits.first().unwrap();
    let mut text = f.text(path).to_string();
    for edit in edits.iter().rev() {
        let range = usize::from(edit.range.start())..usize::from(edit.range.end());
        text.replace_range(range, &edit.insert);
    }
    expect![[r#"
        resource labels "aws:s3/bucket:Bucket" {
          bucket = "tags"
        }

        resource other "aws:s3/bucket:Bucket" {
          bucket = labels.bucket
          options {
            ignoreChanges = [tags]
            dependsOn = [labels]
          }
        }
    "#]]
    .assert_eq(&text);
}

#[test]
fn rename_a_component_output_from_a_read_in_another_file() {
    // The read is in a file of the including program other than the component block's
    // (found by review: prepareRename looked for the block in the cursor's file).
    let f = fixture(
        r#"
#- main.pp
component web "./web" {
}
#- other.pp
url = web.$0endpoint
#- web/main.pp
output endpoint {
  value = "x"
}
"#,
    );
    let here = f.analysis().prepare_rename(&f.position()).unwrap().unwrap();
    let change = f
        .analysis()
        .rename(&f.position(), "address")
        .unwrap()
        .unwrap();
    let mut actual = format!(
        "{}\n",
        f.show(&FileRange {
            file: f.position().file,
            range: here
        })
    );
    for (path, edits) in &change.edits {
        for edit in edits {
            let range = FileRange {
                file: path.clone(),
                range: edit.range,
            };
            actual.push_str(&format!("{} -> {}\n", f.show(&range), edit.insert));
        }
    }
    expect![[r#"
        other.pp:1:11-1:19 "endpoint"
        other.pp:1:11-1:19 "endpoint" -> address
        web/main.pp:1:8-1:16 "endpoint" -> address
    "#]]
    .assert_eq(&actual);
}

#[test]
fn hover_on_a_literal_a_check_settles_shows_its_type() {
    // The check settles this literal without typing it; hover types the node fully.
    let f = fixture(
        r#"
#- main.pp
resource bucket "aws:s3/bucket:Bucket" {
  tags = $0{ team = "web", tier = "backend" }
}
"#,
    );
    let hover = f.analysis().hover(&f.position()).unwrap().expect("a hover");
    expect![[r#"
        ```pcl
        { team: "web", tier: "backend" }
        ```"#]]
    .assert_eq(&hover.markdown);
}

#[test]
fn complete_keys_of_nested_objects() {
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  corsRules = [{
    $0
  }]
}
"#,
        expect![[r#"
            Property allowedMethods list(string) (required)
            Property allowedOrigins list(string) (required)
            Property allowedHeaders list(string)?
            Property maxAgeSeconds int?
        "#]],
    );
    // On one line, with a key already set.
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  corsRules = [{ allowedMethods = ["GET"], allowed$0 }]
}
"#,
        expect![[r#"
            Property allowedOrigins list(string) (required)
            Property allowedHeaders list(string)?
        "#]],
    );
    // An object an option takes, and a one-line options block.
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  options {
    customTimeouts = {
      $0
    }
  }
}
"#,
        expect![[r#"
            Property create string?
            Property delete string?
            Property read string?
            Property update string?
        "#]],
    );
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  options { prot$0 }
}
"#,
        expect![[r#"
            Option protect bool
        "#]],
    );
    // Brackets in comments do not make the body a value.
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  # see (the docs
  /* [draft */
  forc$0
}
"#,
        expect![[r#"
            Property forceDestroy bool?
        "#]],
    );
    // A body not indented yet, not closed yet, at the end of the file.
    check_completions(
        "resource b \"aws:s3/bucket:Bucket\" {\nacl = \"private\"\nforc$0",
        expect![[r#"
            Property forceDestroy bool?
        "#]],
    );
    // ... and an object's keys in it, whose attribute was read as a top-level local.
    check_completions(
        "resource b \"aws:s3/bucket:Bucket\" {\nacl = \"private\"\nwebsite = {\n$0",
        expect![[r#"
            Property errorDocument string?
            Property indexDocument string?
            Property redirectAllRequestsTo string?
        "#]],
    );
    // An enum's values before any quote is typed.
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  acl = $0
}
"#,
        expect![[r#"
            EnumValue authenticated-read value of acl
            EnumValue aws-exec-read value of acl
            EnumValue log-delivery-write value of acl
            EnumValue private value of acl
            EnumValue public-read value of acl
            EnumValue public-read-write value of acl
            Function assetArchive assetArchive(assets: map(Asset | Archive)) -> Archive
            Function call call(self: resource, method: string, args: object) -> output(T)
            Function can can(value) -> bool
            Function cwd cwd() -> string
            Function element element(list: list(T), index: int) -> T
            Function entries entries(collection: list(T) | map(T)) -> list({key, value})
        "#]],
    );
    // Nothing in a heredoc's text or in a comment.
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  bucket = <<EOT
port: $0
EOT
}
"#,
        expect![[r#""#]],
    );
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  # see b.$0
}
"#,
        expect![[r#""#]],
    );
    // The inputs a property path of `ignoreChanges` starts with.
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  options {
    ignoreChanges = ["t$0"]
  }
}
"#,
        expect![[r#"
            Property tags map(string)?
        "#]],
    );
    // A string the line leaves unterminated ends with it.
    check_completions(
        "resource b \"aws:s3/bucket:Bucket\" {\n  bucket = \"abc\n  forc$0\n}\n",
        expect![[r#"
            Property forceDestroy bool?
        "#]],
    );
    // After a value with brackets, the key is still known; a map's keys are free.
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  corsRules = true ? [] : [{ allowedH$0 }]
}
"#,
        expect![[r#"
            Property allowedHeaders list(string)?
            Property allowedMethods list(string) (required)
        "#]],
    );
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  tags = { fo$0 }
}
"#,
        expect![[r#"
            Keyword for 
            Function fromBase64 fromBase64(value: string) -> string
        "#]],
    );
    // An enum's value begun without its quote.
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  acl = pri$0
}
"#,
        expect![[r#"
            EnumValue private value of acl
            EnumValue public-read-write value of acl
        "#]],
    );
    // `range` only where the options set it.
    check_completions(
        r#"resource b "aws:s3/bucket:Bucket" {
  bucket = rang$0
}
"#,
        expect![[r#"
            Function range range(fromOrTo: int, to?: int) -> list(int)
        "#]],
    );
    // A config's type.
    check_completions(
        r#"config region "$0" {
}
"#,
        expect![[r#"
            Keyword string string
            Keyword int int
            Keyword number number
            Keyword bool bool
            Keyword list(string) a list
            Keyword map(string) a map with string keys
            Keyword list(map(string)) a list of maps
            Keyword object({}) an object with named attributes
        "#]],
    );
}

#[test]
fn hover_keys_of_nested_objects() {
    let f = fixture(
        r#"resource b "aws:s3/bucket:Bucket" {
  corsRules = [{
    allowed$0Methods = ["GET"]
    allowedOrigins = ["*"]
  }]
  website = { indexDocument = "index.html" }
}
"#,
    );
    let hover = f.analysis().hover(&f.position()).unwrap().expect("a hover");
    expect![[r#"
        ```pcl
        allowedMethods: list(string) (required)
        ```

        Specifies which methods are allowed. Can be `GET`, `PUT`, `POST`, `DELETE` or `HEAD`."#]]
    .assert_eq(&hover.markdown);
    let f = fixture(
        r#"resource b "aws:s3/bucket:Bucket" {
  website = { index$0Document = "index.html" }
}
"#,
    );
    let hover = f.analysis().hover(&f.position()).unwrap().expect("a hover");
    expect![[r#"
        ```pcl
        indexDocument: string?
        ```

        Amazon S3 returns this index document when requests are made to the root domain or any of the subfolders."#]].assert_eq(&hover.markdown);
}

#[test]
fn complete_attributes_of_other_blocks() {
    check_completions(
        r#"package {
  baseProviderName = "terraform-provider"
  $0
}
"#,
        expect![[r#"
            Property baseProviderDownloadUrl string
            Property baseProviderVersion string
            Keyword parameterization the package's parameterization block
        "#]],
    );
    check_completions(
        r#"package {
  parameterization {
    na$0
  }
}
"#,
        expect![[r#"
            Property name string
        "#]],
    );
    check_completions(
        r#"config c "int" {
  def$0
}
"#,
        expect![[r#"
            Property default 
        "#]],
    );
}
