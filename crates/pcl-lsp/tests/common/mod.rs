//! An in-process client: the server runs on a thread, speaking framed JSON-RPC over channels.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::Path;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use serde_json::{json, Value};

pub const TIMEOUT: Duration = Duration::from_secs(60);

struct ChannelReader {
    receiver: Receiver<Vec<u8>>,
    buffer: Vec<u8>,
    at: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.buffer.len() {
            match self.receiver.recv() {
                Ok(bytes) => {
                    self.buffer = bytes;
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buffer.len() - self.at);
        out[..n].copy_from_slice(&self.buffer[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

struct ChannelWriter {
    sender: Sender<Value>,
    buffer: Vec<u8>,
}

impl Write for ChannelWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        while let Some(end) = self.buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let header = std::str::from_utf8(&self.buffer[..end]).unwrap();
            let length: usize = header
                .strip_prefix("Content-Length: ")
                .expect("a Content-Length header")
                .parse()
                .unwrap();
            if self.buffer.len() < end + 4 + length {
                break;
            }
            let body: Vec<u8> = self
                .buffer
                .drain(..end + 4 + length)
                .skip(end + 4)
                .collect();
            let value: Value = serde_json::from_slice(&body).expect("the server writes JSON");
            let _ = self.sender.send(value);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub struct Client {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Value>,
    server: Option<JoinHandle<i32>>,
    next_id: i64,
    /// Notifications and requests from the server not yet looked at.
    pub inbox: Vec<Value>,
}

impl Client {
    pub fn start() -> Client {
        let (input, input_receiver) = crossbeam_channel::unbounded();
        let (output_sender, output) = crossbeam_channel::unbounded();
        let reader = ChannelReader {
            receiver: input_receiver,
            buffer: Vec::new(),
            at: 0,
        };
        let writer = ChannelWriter {
            sender: output_sender,
            buffer: Vec::new(),
        };
        let server = std::thread::spawn(move || pcl_lsp::run(reader, writer));
        Client {
            input: Some(input),
            output,
            server: Some(server),
            next_id: 1,
            inbox: Vec::new(),
        }
    }

    /// Starts a server, initializes it with `root` as the workspace folder.
    pub fn initialized(root: &Path) -> Client {
        Client::initialized_with(root, json!({ "schemaPaths": [] }))
    }

    /// [`Client::initialized`] with the server's initialization options.
    pub fn initialized_with(root: &Path, options: Value) -> Client {
        Client::initialized_as(root, options, json!({}))
    }

    /// [`Client::initialized_with`] for a client of these capabilities.
    pub fn initialized_as(root: &Path, options: Value, capabilities: Value) -> Client {
        let mut client = Client::start();
        let response = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "capabilities": capabilities,
                "workspaceFolders": [{ "uri": uri(root), "name": "fixture" }],
                "initializationOptions": options,
            }),
        );
        assert!(response.get("result").is_some(), "{response}");
        client.notify("initialized", json!({}));
        client
    }

    pub fn send_raw(&self, bytes: &[u8]) {
        let _ = self.input.as_ref().unwrap().send(bytes.to_vec());
    }

    pub fn send(&self, message: Value) {
        let text = message.to_string();
        let framed = format!("Content-Length: {}\r\n\r\n{}", text.len(), text);
        self.send_raw(framed.as_bytes());
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    /// The next message from the server.
    pub fn recv(&mut self) -> Value {
        self.output
            .recv_timeout(TIMEOUT)
            .expect("the server answers in time")
    }

    /// The response to request `id` (other messages go to the inbox).
    pub fn response(&mut self, id: &Value) -> Value {
        if let Some(i) = self
            .inbox
            .iter()
            .position(|m| m.get("id") == Some(id) && m.get("method").is_none())
        {
            return self.inbox.remove(i);
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            assert!(Instant::now() < deadline, "no response to {id}");
            let message = self.recv();
            if message.get("id") == Some(id) && message.get("method").is_none() {
                return message;
            }
            self.inbox.push(message);
        }
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(&json!(id))
    }

    pub fn result(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        match response.get("result") {
            Some(result) => result.clone(),
            None => panic!("{method} failed: {response}"),
        }
    }

    /// Waits for diagnostics of `file` that satisfy `accept`; returns them.
    pub fn diagnostics(&mut self, file: &Path, accept: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let uri = json!(uri(file));
        let deadline = Instant::now() + TIMEOUT;
        let mut last = None;
        let mut i = 0;
        loop {
            while i < self.inbox.len() {
                let m = &self.inbox[i];
                if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                    let diagnostics = m["params"]["diagnostics"].as_array().unwrap().clone();
                    self.inbox.remove(i);
                    if accept(&diagnostics) {
                        return diagnostics;
                    }
                    last = Some(diagnostics);
                    continue;
                }
                i += 1;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(m) => self.inbox.push(m),
                Err(_) => panic!(
                    "no acceptable diagnostics for {}; last: {last:?}",
                    file.display()
                ),
            }
        }
    }

    pub fn open(&self, file: &Path) {
        let text = std::fs::read_to_string(file).unwrap();
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri(file), "languageId": "pcl", "version": 1, "text": text } }),
        );
    }

    /// Ends the session the way the protocol says; returns the exit status.
    pub fn shutdown(mut self) -> i32 {
        let response = self.request("shutdown", Value::Null);
        assert_eq!(response["result"], Value::Null, "{response}");
        self.notify("exit", Value::Null);
        self.wait()
    }

    pub fn wait(&mut self) -> i32 {
        self.input.take();
        self.server
            .take()
            .unwrap()
            .join()
            .expect("the server thread")
    }
}

pub fn uri(path: &Path) -> String {
    pcl_lsp::uri::path_to_uri(path).as_str().to_owned()
}

/// A fresh copy of the fixture program (main.pp, other.pp and the component app/).
pub fn fixture() -> TempDir {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = TempDir::new(&format!("lsp-test-{n}"));
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixture");
    copy_dir(&source, &dir);
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

pub use pcl_test_support::TempDir;

/// The position (line, UTF-16 character) of the first occurrence of `needle` in `file`, plus
/// `delta` characters.
pub fn position_of(file: &Path, needle: &str, delta: u32) -> Value {
    let text = std::fs::read_to_string(file).unwrap();
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in {}", file.display()));
    let line = text[..at].matches('\n').count();
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let character = text[start..at].encode_utf16().count() as u32 + delta;
    json!({ "line": line, "character": character })
}

impl Client {
    /// The next message satisfying `accept` (others go to the inbox).
    pub fn recv_where(&mut self, accept: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.inbox.iter().position(&accept) {
            return self.inbox.remove(i);
        }
        loop {
            let message = self.recv();
            if accept(&message) {
                return message;
            }
            self.inbox.push(message);
        }
    }
}
