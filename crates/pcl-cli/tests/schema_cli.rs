//! `pcl schema check` and `pcl schema show` end to end: output shape and exit statuses
//! (0 ok, 1 problems or unknown token, 2 usage or I/O error).

use std::path::PathBuf;
use std::process::Command;

fn schemas(dir: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../test_data/schemas")
        .join(dir)
}

/// Runs `pcl schema ARGS...`: (exit status, stdout, stderr).
fn pcl_schema(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .arg("schema")
        .args(args)
        .output()
        .expect("pcl runs");
    (
        output.status.code().expect("exited normally"),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn path(dir: &str) -> String {
    schemas(dir).display().to_string()
}

#[test]
fn check_clean_directory_exits_0() {
    let (status, out, err) = pcl_schema(&["check", "--schemas", &path("registry")]);
    assert_eq!(status, 0, "{out}{err}");
    assert_eq!(out, "");
    assert_eq!(
        err,
        "checked 2 schema files: 0 with errors (0 errors, 0 warnings)\n"
    );
}

#[test]
fn check_reports_file_path_and_message_and_exits_1() {
    let file = schemas("broken/wrongtypes-1.0.0.json")
        .display()
        .to_string();
    let (status, out, err) = pcl_schema(&["check", &file]);
    assert_eq!((status, out.as_str()), (1, ""), "{err}");
    assert!(
        err.lines().any(|l| l
            == format!("{file}: /resources/wrongtypes:index:Thing/inputProperties/b: error: an array type needs `items`")),
        "{err}"
    );
    assert!(
        err.lines().any(|l| l
            == format!(
                "{file}: /mystery: warning: unknown top-level key `mystery`: it is ignored"
            )),
        "{err}"
    );
    assert!(err.contains("1 with errors"), "{err}");
}

#[test]
fn check_malformed_json_names_file_and_position() {
    let file = schemas("broken/truncated-1.0.0.json").display().to_string();
    let (status, out, err) = pcl_schema(&["check", &file]);
    assert_eq!((status, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!("{file}: /: error: invalid JSON: EOF while parsing an object at line 6 column 0\nchecked 1 schema file: 1 with errors (1 error, 0 warnings)\n")
    );
}

#[test]
fn check_missing_file_or_directory_exits_2() {
    let file = schemas("broken/absent-1.0.0.json").display().to_string();
    let (status, _, err) = pcl_schema(&["check", &file]);
    assert_eq!(status, 2);
    assert!(
        err.starts_with(&format!(
            "{file}: /: error: cannot read `{file}`: no such file or directory"
        )),
        "{err}"
    );
    let (status, _, err) = pcl_schema(&["check", "--schemas", &path("no-such-dir")]);
    assert_eq!(status, 2);
    assert!(
        err.contains(&format!(
            "no-such-dir: /: error: cannot read `{}`: no such file or directory",
            path("no-such-dir")
        )),
        "{err}"
    );
}

#[test]
fn check_without_arguments_is_a_usage_error() {
    let (status, _, err) = pcl_schema(&["check"]);
    assert_eq!(status, 2);
    assert!(err.contains("name schema files"), "{err}");
}

#[test]
fn check_with_directory_for_cross_package_references() {
    // widgets refers to gizmo; naming only the widgets file but giving the directory resolves it.
    let file = schemas("registry/widgets-1.2.0.json").display().to_string();
    let (status, _, err) = pcl_schema(&["check", &file]);
    assert_eq!(status, 0);
    assert!(
        err.contains("warning: cannot check the reference: no schema for package `gizmo`"),
        "{err}"
    );
    let (status, out, err) = pcl_schema(&["check", "--schemas", &path("registry"), &file]);
    assert_eq!((status, out.as_str()), (0, ""));
    assert_eq!(
        err,
        "checked 1 schema file: 0 with errors (0 errors, 0 warnings)\n"
    );
}

#[test]
fn show_resource_function_and_enum() {
    let (status, out, err) = pcl_schema(&[
        "show",
        "--schemas",
        &path("registry"),
        "widgets:index:Gadget",
        "widgets::lookup",
        "widgets:Color",
    ]);
    assert_eq!(status, 0, "{err}");
    assert!(out.starts_with("resource widgets::Gadget (schema token widgets:index/gadget:Gadget)\n  A gadget.\ninputs (each also accepts an output of its type, unless marked (plain)):\n"), "{out}");
    // Inputs print their plain type; the column says whether they are optional.
    assert!(
        out.contains("\n  name      string                required  The gadget's name.\n"),
        "{out}"
    );
    assert!(
        out.contains("\n  size      enum(widgets::Size)   optional  (plain)\n"),
        "{out}"
    );
    assert!(out.contains("\nfunction widgets::lookup"), "{out}");
    assert!(
        out.contains("\nenum widgets::Color (schema token widgets:index/color:Color) of string\n"),
        "{out}"
    );
    assert!(
        out.contains("  \"red\"    Red    Like a fire truck.\n"),
        "{out}"
    );
}

#[test]
fn show_unknown_token_exits_1_with_suggestion() {
    let (status, out, err) = pcl_schema(&[
        "show",
        "--schemas",
        &path("registry"),
        "widgets:index:gadget",
    ]);
    assert_eq!(status, 1);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: unknown token `widgets:index:gadget` in package `widgets`\nhelp: did you mean `widgets::Gadget`?\n"
    );
    let (status, _, err) = pcl_schema(&[
        "show",
        "--schemas",
        &path("registry"),
        "gizmos:index:Spring",
    ]);
    assert_eq!(status, 1);
    assert_eq!(
        err,
        "error: no schema for package `gizmos`\nhelp: packages with close names: `gizmo`\n"
    );
}

#[test]
fn show_provider_method_function() {
    // `pulumi:providers:lamp/dim` is the function of the lamp provider's method `dim`: it is
    // looked up in the package `lamp`, not a package named `lamp/dim`.
    let (status, out, err) = pcl_schema(&[
        "show",
        "--schemas",
        &path("methods"),
        "pulumi:providers:lamp/dim",
    ]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(err, "");
    assert!(
        out.starts_with("function pulumi:providers:lamp/dim\n  Dims every bulb.\narguments:\n"),
        "{out}"
    );
    assert!(
        out.ends_with(
            "a method of pulumi:providers:lamp, called as call(resource, \"dim\", args):\n  dim({ level: number }) -> output({ dimmed: int })\n"
        ),
        "{out}"
    );
    let (status, out, err) = pcl_schema(&[
        "show",
        "--schemas",
        &path("methods"),
        "pulumi:providers:lamp/dimm",
    ]);
    assert_eq!(status, 1);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: unknown token `pulumi:providers:lamp/dimm` in package `lamp`\nhelp: did you mean `pulumi:providers:lamp/dim`?\n"
    );
    let (status, _, err) = pcl_schema(&[
        "show",
        "--schemas",
        &path("methods"),
        "pulumi:providers:lump/dim",
    ]);
    assert_eq!(status, 1);
    assert_eq!(
        err,
        "error: no schema for package `lump`\nhelp: packages with close names: `lamp`\n"
    );
}

/// The schema bundled with the examples is clean and describes every aws token the example
/// programs name (resource types and invoke tokens, found as the quoted `aws:` strings).
#[test]
fn bundled_example_schema_describes_the_example_tokens() {
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let dir = examples.join("schemas").display().to_string();
    let (status, out, err) = pcl_schema(&["check", "--schemas", &dir]);
    assert_eq!(status, 0, "{out}{err}");
    assert_eq!(out, "");
    assert_eq!(
        err,
        "checked 1 schema file: 0 with errors (0 errors, 0 warnings)\n"
    );
    let mut tokens: Vec<String> = Vec::new();
    for program in ["static-website", "broken"] {
        let text = std::fs::read_to_string(examples.join(program).join("main.pp")).unwrap();
        // Line by line: the broken program has a string that never ends.
        for line in text.lines() {
            for (i, quoted) in line.split('"').enumerate() {
                if i % 2 == 1 && quoted.starts_with("aws:") && !tokens.iter().any(|t| t == quoted) {
                    tokens.push(quoted.to_string());
                }
            }
        }
    }
    tokens.sort();
    assert_eq!(
        tokens,
        [
            "aws:index/getCallerIdentity:getCallerIdentity",
            "aws:s3/bucket:Bucket",
            "aws:s3/bucketObject:BucketObject",
        ]
    );
    let mut args = vec!["show", "--schemas", &dir];
    args.extend(tokens.iter().map(String::as_str));
    let (status, out, err) = pcl_schema(&args);
    assert_eq!(status, 0, "{err}");
    assert_eq!(err, "");
    for heading in [
        "resource aws:s3:Bucket (schema token aws:s3/bucket:Bucket)\n",
        "resource aws:s3:BucketObject (schema token aws:s3/bucketObject:BucketObject)\n",
        "function aws::getCallerIdentity (schema token aws:index/getCallerIdentity:getCallerIdentity)\n",
    ] {
        assert!(out.contains(heading), "{out}");
    }
}

#[test]
fn show_list_package() {
    let (status, out, _) =
        pcl_schema(&["show", "--schemas", &path("registry"), "--list", "widgets"]);
    assert_eq!(status, 0);
    let tokens: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        tokens,
        [
            "resources:",
            "  pulumi:providers:widgets",
            "  widgets::Gadget",
            "  widgets:shapes:Factory",
            "functions:",
            "  widgets::add",
            "  widgets::Gadget/spin",
            "  widgets::lookup",
            "  widgets::ping",
            "types:",
            "  widgets::Color",
            "  widgets::Forest",
            "  widgets::Part",
            "  widgets::Size",
            "  widgets::Tree",
            "  widgets:shapes:Circle",
            "  widgets:shapes:Square",
        ]
    );
    let (status, _, _) = pcl_schema(&["show", "--list", "nothing"]);
    assert_eq!(status, 1);
}

#[test]
fn show_without_tokens_is_a_usage_error() {
    let (status, _, _) = pcl_schema(&["show", "--schemas", &path("registry")]);
    assert_eq!(status, 2);
}

/// `pcl schema ARGS...` with stdout (and, if `with_stderr`, stderr) on a pipe whose reader takes
/// one line and goes away, as `| head -1` does: (exit status, the line, what stderr got).
fn pcl_schema_into_closed_pipe(args: &[String], with_stderr: bool) -> (i32, String, String) {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let (reader, writer) = std::io::pipe().expect("a pipe");
    let mut command = Command::new(env!("CARGO_BIN_EXE_pcl"));
    command.arg("schema").args(args).stdin(Stdio::null());
    command.stdout(writer.try_clone().expect("clone the pipe"));
    if with_stderr {
        command.stderr(writer);
    } else {
        drop(writer);
        command.stderr(Stdio::piped());
    }
    let mut child = command.spawn().expect("pcl runs");
    // Our copies of the write end must be gone, or the reader never sees the end.
    drop(command);
    let mut line = String::new();
    BufReader::new(reader)
        .read_line(&mut line)
        .expect("one line");
    // The reader is dropped here: later writes find the pipe closed.
    let mut err = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        stderr.read_to_string(&mut err).unwrap();
    }
    let status = child.wait().expect("pcl exits");
    (
        status.code().expect("exited normally, not by a signal"),
        line,
        err,
    )
}

#[test]
fn closed_stdout_ends_quietly_with_the_commands_status() {
    // Far more output than a pipe buffers, so the writes after the first line fail.
    let mut args = vec![
        "show".to_string(),
        "--schemas".to_string(),
        path("registry"),
    ];
    args.extend(std::iter::repeat_n("widgets::Gadget".to_string(), 2000));
    let (status, line, err) = pcl_schema_into_closed_pipe(&args, false);
    assert_eq!(status, 0, "{err}");
    assert!(line.starts_with("resource widgets::Gadget"), "{line}");
    assert_eq!(err, "");

    // An unknown token still makes it exit 1, and its error still reaches stderr.
    args.push("widgets::Nope".to_string());
    let (status, _, err) = pcl_schema_into_closed_pipe(&args, false);
    assert_eq!(status, 1, "{err}");
    assert!(
        err.starts_with("error: unknown token `widgets::Nope`"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn closed_stdout_and_stderr_never_panic() {
    // `2>&1 | head -1`: the errors about unknown tokens are written to the closed pipe too.
    let mut args = vec![
        "show".to_string(),
        "--schemas".to_string(),
        path("registry"),
    ];
    for _ in 0..1000 {
        args.push("widgets::Gadget".to_string());
        args.push("widgets::Nope".to_string());
    }
    let (status, line, _) = pcl_schema_into_closed_pipe(&args, true);
    assert_eq!(status, 1);
    assert!(line.starts_with("resource widgets::Gadget"), "{line}");

    // `check` writes diagnostics to stdout and a summary to stderr; both closed.
    let file = schemas("broken/wrongtypes-1.0.0.json")
        .display()
        .to_string();
    let mut args = vec!["check".to_string()];
    args.extend(std::iter::repeat_n(file, 3000));
    let (status, line, _) = pcl_schema_into_closed_pipe(&args, true);
    assert_eq!(status, 1);
    assert!(line.contains("wrongtypes-1.0.0.json"), "{line}");
}
