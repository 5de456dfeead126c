//! The server in-process, spoken to over framed JSON-RPC: the lifecycle, diagnostics, the
//! main requests on a two-file program with a component, edits, and hostile input.

mod common;

use common::{fixture, position_of, uri, Client};
use serde_json::{json, Value};

fn has_error(diagnostics: &[Value]) -> bool {
    diagnostics.iter().any(|d| d["severity"] == 1)
}

#[test]
fn open_diagnose_hover_define_edit() {
    let dir = fixture();
    let main = dir.path().join("main.pp");
    let other = dir.path().join("other.pp");
    let app = dir.path().join("app/main.pp");
    let mut client = Client::initialized(dir.path());
    client.open(&main);
    client.open(&other);
    assert_eq!(client.diagnostics(&main, |_| true), Vec::<Value>::new());
    assert_eq!(client.diagnostics(&other, |_| true), Vec::<Value>::new());

    // Hover over `greeting` where the component uses it.
    let hover = client.result(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "= greeting", 3) }),
    );
    let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(markdown.contains("string"), "{hover}");

    // Definition of `greeting` from the other file.
    let definition = client.result(
        "textDocument/definition",
        json!({ "textDocument": { "uri": uri(&other) }, "position": position_of(&other, "greeting", 2) }),
    );
    let locations = definition.as_array().expect("locations");
    assert_eq!(locations.len(), 1, "{definition}");
    assert_eq!(locations[0]["uri"], uri(&main));
    assert_eq!(
        locations[0]["range"]["start"],
        position_of(&main, "greeting =", 0)
    );

    // Definition of the component's output `url` goes into the component program.
    let definition = client.result(
        "textDocument/definition",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "web.url", 5) }),
    );
    assert!(definition.to_string().contains(&uri(&app)), "{definition}");

    // References of `greeting`, with the declaration: in both files.
    let references = client.result(
        "textDocument/references",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "greeting =", 1),
                "context": { "includeDeclaration": true } }),
    );
    let text = references.to_string();
    assert!(
        text.contains(&uri(&main)) && text.contains(&uri(&other)),
        "{references}"
    );

    // An edit that breaks the other file: `greeting` → `greetin`, an unknown name.
    let at = position_of(&other, "greeting", 7);
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri(&other), "version": 2 },
                "contentChanges": [{ "range": { "start": at, "end": { "line": at["line"], "character": at["character"].as_u64().unwrap() + 1 } }, "text": "" }] }),
    );
    let diagnostics = client.diagnostics(&other, has_error);
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("greetin"),
        "{diagnostics:?}"
    );
    assert_eq!(
        diagnostics[0]["code"].as_str().unwrap().chars().next(),
        Some('E')
    );
    // And the repair clears it.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri(&other), "version": 3 },
                "contentChanges": [{ "range": { "start": at, "end": at }, "text": "g" }] }),
    );
    client.diagnostics(&other, |d| d.is_empty());
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn highlights_selection_ranges_and_links() {
    let dir = fixture();
    let main = dir.path().join("main.pp");
    let mut client = Client::initialized(dir.path());
    client.open(&main);
    client.diagnostics(&main, |_| true);

    // `prefix`: declared (written) in the config, read in the template.
    let highlights = client.result(
        "textDocument/documentHighlight",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "${prefix}", 4) }),
    );
    let highlights = highlights.as_array().expect("highlights");
    assert_eq!(highlights.len(), 2, "{highlights:?}");
    assert_eq!(
        highlights[0]["range"]["start"],
        position_of(&main, "prefix string", 0)
    );
    assert_eq!(highlights[0]["kind"], 3, "write");
    assert_eq!(
        highlights[1]["range"]["start"],
        position_of(&main, "prefix}", 0)
    );
    assert_eq!(highlights[1]["kind"], 2, "read");

    // Two positions, one chain each, growing outwards: the name, the interpolation, ...
    let ranges = client.result(
        "textDocument/selectionRange",
        json!({ "textDocument": { "uri": uri(&main) },
                "positions": [position_of(&main, "${prefix}", 3), position_of(&main, "siteName", 2)] }),
    );
    let ranges = ranges.as_array().expect("selection ranges");
    assert_eq!(ranges.len(), 2, "{ranges:?}");
    let first = &ranges[0];
    assert_eq!(first["range"]["start"], position_of(&main, "prefix}", 0));
    assert_eq!(
        first["parent"]["range"]["start"],
        position_of(&main, "${prefix}", 0)
    );
    let mut depth = 0;
    let mut link = first;
    while let Some(parent) = link.get("parent") {
        depth += 1;
        link = parent;
    }
    assert!(depth >= 4, "{first}");
    assert_eq!(
        ranges[1]["range"]["start"],
        position_of(&main, "siteName", 0)
    );

    // The component's source links to its program's file.
    let links = client.result(
        "textDocument/documentLink",
        json!({ "textDocument": { "uri": uri(&main) } }),
    );
    let links = links.as_array().expect("links");
    assert_eq!(links.len(), 1, "{links:?}");
    assert_eq!(links[0]["target"], uri(&dir.path().join("app/main.pp")));
    assert_eq!(links[0]["range"]["start"], position_of(&main, "./app", 0));
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn editing_a_component_updates_its_users() {
    let dir = fixture();
    let main = dir.path().join("main.pp");
    let app = dir.path().join("app/main.pp");
    let mut client = Client::initialized(dir.path());
    client.open(&main);
    client.open(&app);
    client.diagnostics(&main, |d| d.is_empty());
    // Rename the component's output `url` → `link`: `web.url` in main.pp no longer exists.
    let at = position_of(&app, "output url", 7);
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri(&app), "version": 2 },
                "contentChanges": [{ "range": { "start": at, "end": { "line": at["line"], "character": at["character"].as_u64().unwrap() + 3 } }, "text": "link" }] }),
    );
    let diagnostics = client.diagnostics(&main, has_error);
    assert!(
        diagnostics
            .iter()
            .any(|d| d["message"].as_str().unwrap().contains("url")),
        "{diagnostics:?}"
    );
    assert_eq!(client.shutdown(), 0);
}

/// Renames the declaration `greeting` of the fixture's `main`, open in `client`, to `to` (as an
/// editor replaces a name; the file on disk keeps `greeting`): version `version` of the buffer.
fn rename_greeting(client: &mut Client, main: &std::path::Path, version: i64, to: &str) {
    let at = position_of(main, "greeting =", 0);
    let end = json!({ "line": at["line"], "character": at["character"].as_u64().unwrap() + 8 });
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri(main), "version": version },
                "contentChanges": [{ "range": { "start": at, "end": end }, "text": to }] }),
    );
}

/// A client of the fixture in `dir` with `main.pp` open and its diagnostics (none) received;
/// and the paths of `main.pp` and `other.pp`.
fn with_main_open(dir: &std::path::Path) -> (Client, std::path::PathBuf, std::path::PathBuf) {
    let main = dir.join("main.pp");
    let other = dir.join("other.pp");
    let mut client = Client::initialized(dir);
    client.open(&main);
    client.diagnostics(&main, |d| d.is_empty());
    (client, main, other)
}

#[test]
fn an_edit_of_an_open_file_reaches_the_files_nobody_has_open() {
    // other.pp stays closed: its diagnostics come from the check of every other file that
    // follows the edited file's.
    let dir = fixture();
    let (mut client, main, other) = with_main_open(dir.path());
    // `greeting`, which other.pp uses, renamed: other.pp now has an error.
    rename_greeting(&mut client, &main, 2, "greetinx");
    let diagnostics = client.diagnostics(&other, has_error);
    assert!(
        diagnostics
            .iter()
            .any(|d| d["message"].as_str().unwrap().contains("greeting")),
        "{diagnostics:?}"
    );
    // And back: the error goes.
    rename_greeting(&mut client, &main, 3, "greeting");
    client.diagnostics(&other, |d| d.is_empty());
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn answers_stay_right_across_the_collections_of_an_idle_server() {
    // After each change's diagnostics are published and nothing arrives for a while, the
    // server lets the host free what the change's check replaced: the answers after it are
    // those of a server that never collects.
    let dir = fixture();
    let (mut client, main, other) = with_main_open(dir.path());
    let idle = || std::thread::sleep(std::time::Duration::from_millis(700));
    idle();
    for (version, name) in [
        (2, "greetinx"),
        (3, "greeting"),
        (4, "greetinx"),
        (5, "greeting"),
    ] {
        rename_greeting(&mut client, &main, version, name);
        if name == "greeting" {
            client.diagnostics(&other, |d| d.is_empty());
        } else {
            client.diagnostics(&other, has_error);
        }
        idle();
        let hover = client.result(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "siteName = greeting", 12) }),
        );
        // The use of the name: a string while it is declared, `dynamic` while it is not.
        let shown = hover["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let expected = if name == "greeting" {
            "string"
        } else {
            "dynamic"
        };
        assert!(shown.contains(expected), "{name}: {hover}");
    }
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn hostile_input_never_kills_the_server() {
    let dir = fixture();
    let main = dir.path().join("main.pp");
    let mut client = Client::initialized(dir.path());
    client.open(&main);

    // A body that is not JSON: a ParseError response with id null.
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    let response = client.recv_where(|m| m["error"]["code"] == -32700);
    assert_eq!(response["id"], Value::Null);
    // A header line without a colon, then a frame without Content-Length.
    client.send_raw(b"garbage header\r\nX-Other: 1\r\n\r\n");
    client.recv_where(|m| m["error"]["code"] == -32700);
    // JSON that is not a message.
    client.send(json!([1, 2, 3]));
    client.recv_where(|m| m["error"]["code"] == -32600);
    // Every message the server writes is JSON-RPC 2.0.
    let response = client.request("pcl/noSuchMethod", json!({}));
    assert_eq!(response["jsonrpc"], "2.0", "{response}");
    // An unknown method.
    let response = client.request("pcl/noSuchMethod", json!({}));
    assert_eq!(response["error"]["code"], -32601, "{response}");
    // Params of the wrong shape.
    let response = client.request("textDocument/hover", json!({ "textDocument": 3 }));
    assert_eq!(response["error"]["code"], -32602, "{response}");
    // A file nobody knows: an empty answer.
    let response = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///no/such/file.pp" }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(response["result"], Value::Null, "{response}");
    let response = client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": "untitled:Untitled-1" } }),
    );
    assert!(response.get("result").is_some(), "{response}");
    // Positions out of range are clamped.
    for position in [
        json!({ "line": 9999, "character": 0 }),
        json!({ "line": 0, "character": 99999 }),
    ] {
        let response = client.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri(&main) }, "position": position }),
        );
        assert!(response.get("result").is_some(), "{response}");
    }
    // A panicking handler: InternalError, and the server goes on.
    let response = client.request("pcl/panic", json!({}));
    assert_eq!(response["error"]["code"], -32603, "{response}");
    let hover = client.result(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "greeting =", 1) }),
    );
    assert!(!hover.is_null());
    // Notifications with bad params are ignored; a change of an unopened file too.
    client.notify("textDocument/didChange", json!({ "bogus": true }));
    client.notify("textDocument/didOpen", json!(null));
    let response = client.request("workspace/symbol", json!({ "query": "greet" }));
    assert!(response.to_string().contains("greeting"), "{response}");
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn two_thousand_rapid_edits() {
    let dir = fixture();
    let other = dir.path().join("other.pp");
    let mut client = Client::initialized(dir.path());
    client.open(&other);
    client.diagnostics(&other, |d| d.is_empty());
    // Append and remove a character at the end of the first line, 1,000 times each, the
    // last edit leaving a broken reference.
    let end = position_of(&other, "nameLength = length(greeting)", 29);
    let line = end["line"].as_u64().unwrap();
    for version in 0..2000 {
        let change = if version % 2 == 0 {
            json!({ "range": { "start": end, "end": end }, "text": "x" })
        } else {
            json!({ "range": { "start": end, "end": { "line": line, "character": 30 } }, "text": "" })
        };
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri(&other), "version": version + 2 }, "contentChanges": [change] }),
        );
    }
    // `length(greeting)` → `length(greetingz)`.
    let at = position_of(&other, "greeting)", 8);
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri(&other), "version": 3000 },
                "contentChanges": [{ "range": { "start": at, "end": at }, "text": "z" }] }),
    );
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&other) }, "position": { "line": 0, "character": 2 } }),
    );
    assert!(hover.get("result").is_some(), "{hover}");
    // Intermediate states may be published on the way; the last one names `greetingz` only.
    let diagnostics = client.diagnostics(&other, |d| {
        d.len() == 1 && d[0]["message"].as_str().unwrap().contains("greetingz")
    });
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("greetingz"),
        "{diagnostics:?}"
    );
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn lifecycle_exit_statuses() {
    // Requests before initialize are refused.
    let mut client = Client::start();
    let response = client.request("textDocument/hover", json!({}));
    assert_eq!(response["error"]["code"], -32002, "{response}");
    client.notify("exit", Value::Null);
    assert_eq!(client.wait(), 1);

    // The end of the input without exit.
    let mut client = Client::start();
    assert_eq!(client.wait(), 1);

    // Requests after shutdown are invalid; exit is then clean.
    let dir = fixture();
    let mut client = Client::initialized(dir.path());
    let response = client.request("shutdown", Value::Null);
    assert_eq!(response["result"], Value::Null);
    let response = client.request("textDocument/hover", json!({}));
    assert_eq!(response["error"]["code"], -32600, "{response}");
    client.notify("exit", Value::Null);
    assert_eq!(client.wait(), 0);
}

/// A workspace folder removed takes its programs' diagnostics with it, and so does closing the
/// last document of a directory outside every folder.
#[test]
fn programs_leave_with_their_folder_or_last_document() {
    let dir = fixture();
    let other = dir.path().join("other.pp");
    // A directory outside the fixture's folder.
    let outside = common::TempDir::new("lsp-outside");
    let lone = outside.join("lone.pp");
    std::fs::write(&lone, "w = zz\n").unwrap();
    std::fs::write(&other, "bad = nope\n").unwrap();
    let mut client = Client::initialized(dir.path());
    assert!(has_error(&client.diagnostics(&other, |d| !d.is_empty())));
    client.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({ "event": { "added": [], "removed": [{ "uri": uri(dir.path()), "name": "fixture" }] } }),
    );
    client.diagnostics(&other, |d| d.is_empty());

    client.open(&lone);
    assert!(has_error(&client.diagnostics(&lone, |d| !d.is_empty())));
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri(&lone) } }),
    );
    client.diagnostics(&lone, |d| d.is_empty());
    assert_eq!(client.shutdown(), 0);
}

/// Definitions lead into schema files (the location is in the schema's text, which is not a
/// program file), completion inside a nested object offers its keys and its discriminator's
/// constants, and inlay hints show one `: ` before the type (found by a review with a real
/// client: definitions were lost and colons doubled in the protocol layer, and a nested
/// object was completed as the resource's body).
#[test]
fn definitions_into_schemas_nested_completion_and_inlay_hints() {
    let text = "resource site \"demo:storage/bucket:Bucket\" {\n  name = \"site\"\n}\n\nnames = [site.name]\n\nresource hc \"demo:network/healthCheck:HealthCheck\" {\n  check = {\n    kind = \"http\"\n    path = \"/\"\n  }\n}\n\nlink = call(site, \"presign\", { key = \"k\" })\n\nzone = invoke(\"demo:network/getZone:getZone\", { name = \"z\" })\n";
    let (dir, program, main) = demo_program("schema", text);
    let schemas = dir.path().join("schemas");
    let schema = schemas.join("demo-1.0.0.json");
    let mut client = Client::initialized_with(
        &program,
        json!({ "schemaPaths": [schemas.to_string_lossy()] }),
    );
    client.open(&main);
    assert_eq!(client.diagnostics(&main, |_| true), Vec::<Value>::new());

    let definition = client.result(
        "textDocument/definition",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "demo:storage", 3) }),
    );
    let locations = definition.as_array().expect("locations");
    assert_eq!(locations.len(), 1, "{definition}");
    assert_eq!(locations[0]["uri"], uri(&schema));
    let text = std::fs::read_to_string(&schema).unwrap();
    let line = locations[0]["range"]["start"]["line"].as_u64().unwrap() as usize;
    assert!(
        text.lines().nth(line).unwrap().contains("demo:storage"),
        "{definition}"
    );

    // An output of a resource, an invoke's function and its argument: their schema entries.
    for (needle, delta, key) in [
        ("site.name", 6, "\"name\""),
        (
            "demo:network/getZone",
            3,
            "\"demo:network/getZone:getZone\"",
        ),
        ("{ name = \"z", 3, "\"name\""),
    ] {
        let definition = client.result(
            "textDocument/definition",
            json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, needle, delta) }),
        );
        let locations = definition.as_array().expect("locations");
        assert_eq!(locations.len(), 1, "{needle}: {definition}");
        assert_eq!(locations[0]["uri"], uri(&schema));
        let line = locations[0]["range"]["start"]["line"].as_u64().unwrap() as usize;
        assert!(
            text.lines().nth(line).unwrap().contains(key),
            "{needle}: {definition}"
        );
    }

    // The type of `names` holds the bucket's outputs: its type definition is the resource's
    // entry; the declaration of `site` is where it is defined.
    let types = client.result(
        "textDocument/typeDefinition",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "[site.", 2) }),
    );
    let locations = types.as_array().expect("locations");
    assert_eq!(locations.len(), 1, "{types}");
    assert_eq!(locations[0]["uri"], uri(&schema));
    let line = locations[0]["range"]["start"]["line"].as_u64().unwrap() as usize;
    assert!(
        text.lines()
            .nth(line)
            .unwrap()
            .contains("\"demo:storage/bucket:Bucket\""),
        "{types}"
    );
    let declaration = client.result(
        "textDocument/declaration",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "[site.", 2) }),
    );
    assert_eq!(
        declaration[0]["range"]["start"],
        position_of(&main, "site \"demo", 0),
        "{declaration}"
    );

    // In a nested object: its keys, and the constants of a union's discriminator.
    let completion = client.result(
        "textDocument/completion",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "kind = \"http", 8) }),
    );
    let labels = completion.to_string();
    assert!(
        labels.contains("\"label\":\"http\"") && labels.contains("\"label\":\"tcp\""),
        "{completion}"
    );
    let completion = client.result(
        "textDocument/completion",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "    path", 4) }),
    );
    assert!(
        completion.to_string().contains("\"label\":\"port\""),
        "{completion}"
    );
    // The methods of the resource `call` names.
    let completion = client.result(
        "textDocument/completion",
        json!({ "textDocument": { "uri": uri(&main) }, "position": position_of(&main, "call(site, \"", 12) }),
    );
    assert!(
        completion.to_string().contains("\"label\":\"presign\""),
        "{completion}"
    );

    let hints = client.result(
        "textDocument/inlayHint",
        json!({ "textDocument": { "uri": uri(&main) },
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 5, "character": 0 } } }),
    );
    let labels: Vec<&str> = hints
        .as_array()
        .expect("hints")
        .iter()
        .filter_map(|h| h["label"].as_str())
        .collect();
    assert!(!labels.is_empty(), "{hints}");
    assert!(
        labels
            .iter()
            .all(|l| l.starts_with(": ") && !l.starts_with(": :")),
        "{labels:?}"
    );
    assert_eq!(client.shutdown(), 0);
}

/// The fixes of the diagnostics a client names in its request, wherever the cursor is: Neovim
/// asks with the cursor's position and its line's diagnostics, and a missing attribute is
/// reported at the block's `{` (found by an editor review: "No code actions available").
#[test]
fn quick_fixes_for_the_diagnostics_the_client_names() {
    let (dir, program, main) = demo_program(
        "fix",
        "resource site \"demo:storage/bucket:Bucket\" { acl = \"private\" }\n",
    );
    let schemas = dir.path().join("schemas");
    let mut client = Client::initialized_with(
        &program,
        json!({ "schemaPaths": [schemas.to_string_lossy()] }),
    );
    client.open(&main);
    let diagnostics = client.diagnostics(&main, |d| !d.is_empty());
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let actions = client.result(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri(&main) },
                "range": { "start": { "line": 0, "character": 2 }, "end": { "line": 0, "character": 2 } },
                "context": { "diagnostics": diagnostics } }),
    );
    let actions = actions.as_array().expect("actions");
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["title"], "add the required attribute `name`");
    // The one-line block is opened onto lines: the result parses and sets `name`.
    let edits = actions[0]["edit"]["changes"][uri(&main).as_str()]
        .as_array()
        .expect("edits")
        .clone();
    assert_eq!(edits.len(), 2, "{edits:?}");
    assert_eq!(client.shutdown(), 0);
}

/// A client that folds whole lines only keeps a block's closing line visible: the fold ends on
/// the line before it (found by an editor review: Neovim hid the `}` with the body).
#[test]
fn folds_end_before_the_closing_line_for_line_folding_clients() {
    let dir = common::TempDir::new("lsp-fold-test");
    let main = dir.path().join("main.pp");
    std::fs::write(&main, "config a string {\n  default = \"x\"\n}\n").unwrap();
    for (line_folding_only, end_line) in [(false, 2), (true, 1)] {
        let mut client = Client::initialized_as(
            dir.path(),
            json!({ "schemaPaths": [] }),
            json!({ "textDocument": { "foldingRange": { "lineFoldingOnly": line_folding_only } } }),
        );
        client.open(&main);
        let folds = client.result(
            "textDocument/foldingRange",
            json!({ "textDocument": { "uri": uri(&main) } }),
        );
        let folds = folds.as_array().expect("folds");
        assert_eq!(folds.len(), 1, "{folds:?}");
        assert_eq!(folds[0]["startLine"], 0);
        assert_eq!(folds[0]["endLine"], end_line, "{folds:?}");
        assert_eq!(client.shutdown(), 0);
    }
}

/// A program of one file, `main.pp`, beside a schema directory holding the demo schema (a file
/// on disk, as definitions into schemas need): the directory (removed when dropped), the
/// program's directory and the file.
fn demo_program(
    name: &str,
    text: &str,
) -> (common::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = common::TempDir::new(&format!("lsp-{name}-test"));
    let schemas = dir.path().join("schemas");
    let program = dir.path().join("prog");
    std::fs::create_dir_all(&schemas).unwrap();
    std::fs::create_dir_all(&program).unwrap();
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../test_data/schemas/binding/demo-1.0.0.json"),
        schemas.join("demo-1.0.0.json"),
    )
    .unwrap();
    let main = program.join("main.pp");
    std::fs::write(&main, text).unwrap();
    (dir, program, main)
}
