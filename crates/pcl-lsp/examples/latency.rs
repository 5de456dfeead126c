//! Latency through the server, as an editor sees it: `pcl lsp` runs as a child process on a
//! program from `pcl-progen`; one file is opened and edited (one character of a literal per
//! edit, as typing does), and after each edit a hover and a completion are timed from request
//! to response, and the edited file's diagnostics from the edit to their publication. Prints
//! percentiles; the server's CPU time for checking every file after the open (the edits start
//! once it is idle, as a user reads before typing), per edit (after each edit the server checks
//! every file, the edited one first, until the next edit cancels that) and from the last edit's
//! diagnostics until it is idle again (every other file checked after a keystroke); and its
//! resident memory before and after the edits.
//!
//! ```sh
//! cargo build --release -p pcl-cli -p pcl-lsp --examples
//! target/release/examples/latency --pcl target/release/pcl --resources 10000 \
//!     --edits 300 --schemas SCHEMA_DIR
//! ```

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use pcl_test_support::measure;
use serde_json::{json, Value};

struct Args {
    pcl: PathBuf,
    resources: usize,
    edits: usize,
    /// A directory with kubernetes-3.7.2.json and random-4.11.2.json.
    schemas: Option<PathBuf>,
    /// Edit the last file of the main program instead of the first (`--file last`).
    last_file: bool,
}

fn parse_args() -> Args {
    let mut args = Args {
        pcl: PathBuf::from("target/release/pcl"),
        resources: 10_000,
        edits: 300,
        schemas: None,
        last_file: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--pcl" => args.pcl = PathBuf::from(value),
            "--resources" => args.resources = value.parse().expect("a number"),
            "--edits" => args.edits = value.parse().expect("a number"),
            "--schemas" => args.schemas = Some(PathBuf::from(value)),
            "--file" => {
                args.last_file = match value.as_str() {
                    "first" => false,
                    "last" => true,
                    _ => panic!("--file first or --file last"),
                }
            }
            _ => panic!("unknown flag {flag}"),
        }
    }
    pcl_test_support::measure::require_progen_schemas(&args.schemas);
    args
}

/// The server's messages, read on a thread.
fn reader(stdout: impl Read + Send + 'static) -> Receiver<Value> {
    let (send, receive) = channel();
    std::thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        loop {
            let mut length = None;
            loop {
                let mut line = String::new();
                if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse::<usize>().ok();
                }
            }
            let mut body = vec![0; length.expect("a Content-Length header")];
            if stdout.read_exact(&mut body).is_err() {
                return;
            }
            let message: Value = serde_json::from_slice(&body).expect("JSON from the server");
            if send.send(message).is_err() {
                return;
            }
        }
    });
    receive
}

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// Diagnostics published, by URI: (version, count, when).
    published: HashMap<String, (Option<i64>, usize, Instant)>,
}

impl Client {
    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response; returns the result and the latency.
    fn request(&mut self, method: &str, params: Value) -> (Value, Duration) {
        self.next_id += 1;
        let id = self.next_id;
        let start = Instant::now();
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.next_message();
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return (message["result"].clone(), start.elapsed());
            }
        }
    }

    fn next_message(&mut self) -> Value {
        let message = self
            .messages
            .recv_timeout(Duration::from_secs(600))
            .expect("the server answers");
        if message["method"] == "textDocument/publishDiagnostics" {
            let params = &message["params"];
            self.published.insert(
                params["uri"].as_str().unwrap_or_default().to_string(),
                (
                    params["version"].as_i64(),
                    params["diagnostics"].as_array().map_or(0, Vec::len),
                    Instant::now(),
                ),
            );
        } else if message.get("method").is_some() && message.get("id").is_some() {
            // A request from the server (a registration): accept it.
            let id = message["id"].clone();
            self.send(json!({ "jsonrpc": "2.0", "id": id, "result": null }));
        }
        message
    }

    /// Waits until diagnostics of `uri` for `version` are published; returns when they were.
    fn wait_diagnostics(&mut self, uri: &str, version: i64) -> Instant {
        loop {
            if let Some((Some(v), _, at)) = self.published.get(uri) {
                if *v >= version {
                    return *at;
                }
            }
            self.next_message();
        }
    }
}

/// Waits until the server has used no CPU for 200 ms (at most two minutes); returns the CPU
/// time it used meanwhile, in seconds.
fn settle(pid: u32) -> f64 {
    let from = measure::cpu_seconds(pid);
    let start = Instant::now();
    let (mut last, mut quiet_since) = (from, Instant::now());
    while quiet_since.elapsed() < Duration::from_millis(200)
        && start.elapsed() < Duration::from_secs(120)
    {
        std::thread::sleep(Duration::from_millis(10));
        let now = measure::cpu_seconds(pid);
        if now != last {
            (last, quiet_since) = (now, Instant::now());
        }
    }
    last - from
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The LSP position (line, UTF-16 column) of a byte offset in ASCII text.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let character = before.len() - before.rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": character })
}

fn main() {
    let args = parse_args();
    let dir = std::env::temp_dir().join(format!("pcl-latency-{}", args.resources));
    let program = pcl_progen::generate(&pcl_progen::Options {
        resources: args.resources,
        files: None,
        seed: 1,
    });
    program.write_to(&dir, true).expect("write the program");
    let edited = if args.last_file {
        program.files.last()
    } else {
        program.files.first()
    }
    .expect("a file");
    let path = dir.join(&edited.path);
    let mut text = std::fs::read_to_string(&path).expect("read");

    let mut child = Command::new(&args.pcl)
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pcl lsp");
    let stdin = child.stdin.take().expect("stdin");
    let messages = reader(child.stdout.take().expect("stdout"));
    let mut client = Client {
        child,
        stdin,
        messages,
        next_id: 0,
        published: HashMap::new(),
    };
    let start = Instant::now();
    client.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": uri(&dir),
            "workspaceFolders": [{ "uri": uri(&dir), "name": "bench" }],
            "capabilities": {},
            "initializationOptions": { "schemaPaths": [args.schemas] },
        }),
    );
    client.notify("initialized", json!({}));
    let file_uri = uri(&path);
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": file_uri, "languageId": "pcl", "version": 1, "text": text } }),
    );
    client.wait_diagnostics(&file_uri, 1);
    let cold = start.elapsed();
    let pid = client.child.id();
    println!(
        "program: {} resources; initialize, load, check and first diagnostics in {:.0} ms; server {:.0} MB",
        args.resources,
        cold.as_secs_f64() * 1e3,
        measure::resident_mb(Some(pid))
    );

    let literal = measure::progen_literal(&text).expect("a literal") + 3;
    let hover_at = text.find("resource ").expect("a resource") + "resource ".len() + 1;
    let first_attr = hover_at + text[hover_at..].find("\n  ").expect("an attribute") + 3;
    let complete_at = first_attr + text[first_attr..].find("= ").expect("a value") + 2;

    // A user reads before typing: the server first checks every file, undisturbed.
    let cpu_load = settle(pid);
    println!(
        "then every other file checked: {:.0} ms of server CPU",
        cpu_load * 1e3
    );
    let rss_before = measure::resident_mb(Some(pid));
    let cpu_before = measure::cpu_seconds(pid);
    let (mut hovers, mut completions, mut diagnostics) = (Vec::new(), Vec::new(), Vec::new());
    for edit in 0..args.edits {
        let version = edit as i64 + 2;
        let c = if edit % 2 == 0 { "p" } else { "o" };
        text.replace_range(literal..literal + 1, c);
        let range =
            json!({ "start": position(&text, literal), "end": position(&text, literal + 1) });
        let edited = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": file_uri, "version": version },
                    "contentChanges": [{ "range": range, "text": c }] }),
        );
        let (result, took) = client.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": file_uri }, "position": position(&text, hover_at) }),
        );
        assert!(!result.is_null(), "no hover");
        hovers.push(took);
        let (result, took) = client.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": file_uri }, "position": position(&text, complete_at) }),
        );
        assert!(!result.is_null(), "no completion");
        completions.push(took);
        if std::env::var_os("LATENCY_DEBUG").is_some() {
            let (again, took2) = client.request(
                "textDocument/completion",
                json!({ "textDocument": { "uri": file_uri }, "position": position(&text, complete_at) }),
            );
            eprintln!(
                "completion {took:?} then {took2:?}, {} bytes",
                again.to_string().len()
            );
        }
        let published = client.wait_diagnostics(&file_uri, version);
        diagnostics.push(published.duration_since(edited));
    }
    let cpu_edits = measure::cpu_seconds(pid) - cpu_before;
    let cpu_settle = settle(pid);
    let rss_after = measure::resident_mb(Some(pid));
    for (name, samples) in [
        ("hover after an edit", &mut hovers),
        ("completion after an edit", &mut completions),
        ("edited file's diagnostics published", &mut diagnostics),
    ] {
        let p50 = measure::percentile_ms(samples, 0.5);
        let p99 = measure::percentile_ms(samples, 0.99);
        println!("{name}: p50 {p50:.2} ms, p99 {p99:.2} ms");
    }
    println!(
        "server CPU: {:.2} ms per edit; {:.0} ms after the last edit's diagnostics until idle",
        cpu_edits * 1e3 / args.edits.max(1) as f64,
        cpu_settle * 1e3
    );
    println!(
        "server memory: {rss_before:.0} MB before {} edits, {rss_after:.0} MB after",
        args.edits
    );
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let _ = client.child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
