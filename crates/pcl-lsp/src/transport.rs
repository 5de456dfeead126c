//! JSON-RPC framing over a byte stream, robust to garbage.
//!
//! lsp-server's own stdio transport ends its reader thread on the first malformed message; this
//! one answers a body that is not JSON with a `ParseError` response (id `null`), a JSON value
//! that is not a message with `InvalidRequest`, skips headers it does not understand, and only
//! stops at the end of the input.

use std::io::{self, BufRead, Read, Write};
use std::thread;

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{ErrorCode, Message};
use serde_json::{json, Value};

use crate::log;

/// The largest message body read; larger bodies are skipped and answered with an error.
const MAX_BODY: usize = 256 << 20;

/// Sends framed messages to the writer thread. Cloneable, usable from any thread.
#[derive(Clone)]
pub(crate) struct Out(Sender<String>);

impl Out {
    pub(crate) fn send(&self, message: impl Into<Message>) {
        // lsp-server's `Message` serializes without the `jsonrpc` member (its own writer adds
        // it); add it here.
        match serde_json::to_value(message.into()) {
            Ok(Value::Object(members)) => {
                let mut object = serde_json::Map::with_capacity(members.len() + 1);
                object.insert("jsonrpc".to_owned(), Value::from("2.0"));
                object.extend(members);
                let _ = self.0.send(Value::Object(object).to_string());
            }
            Ok(other) => log(&format!("not a message: {other}")),
            Err(err) => log(&format!("cannot serialize a message: {err}")),
        }
    }

    /// A value that lsp-server's `Message` cannot express (a response with id `null`).
    pub(crate) fn send_raw(&self, value: Value) {
        let _ = self.0.send(value.to_string());
    }
}

/// Starts the writer thread; it ends when every `Out` is dropped, and then closes the returned
/// channel.
pub(crate) fn writer(mut output: impl Write + Send + 'static) -> (Out, Receiver<()>) {
    let (sender, receiver) = crossbeam_channel::unbounded::<String>();
    let (done_sender, done) = crossbeam_channel::bounded::<()>(0);
    thread::Builder::new()
        .name("pcl-lsp-writer".into())
        .spawn(move || {
            let _done = done_sender;
            for text in receiver {
                let framed = write!(output, "Content-Length: {}\r\n\r\n{}", text.len(), text)
                    .and_then(|()| output.flush());
                if let Err(err) = framed {
                    log(&format!("cannot write to the client: {err}"));
                    return;
                }
            }
        })
        .expect("spawn the writer thread");
    (Out(sender), done)
}

/// Starts the reader thread: every well-formed message goes to the returned channel, which is
/// closed at the end of the input (or after an `exit` notification).
pub(crate) fn reader(input: impl BufRead + Send + 'static, out: Out) -> Receiver<Message> {
    let (sender, receiver) = crossbeam_channel::unbounded();
    thread::Builder::new()
        .name("pcl-lsp-reader".into())
        .spawn(move || read_loop(input, &sender, &out))
        .expect("spawn the reader thread");
    receiver
}

fn read_loop(mut input: impl BufRead, sender: &Sender<Message>, out: &Out) {
    loop {
        let body = match read_body(&mut input) {
            Ok(Some(Ok(body))) => body,
            Ok(Some(Err(problem))) => {
                log(&problem);
                out.send_raw(error_response(Value::Null, ErrorCode::ParseError, &problem));
                continue;
            }
            Ok(None) => return,
            Err(err) => {
                log(&format!("cannot read from the client: {err}"));
                return;
            }
        };
        let value: Value = match serde_json::from_slice(&body) {
            Ok(value) => value,
            Err(err) => {
                let problem = format!("malformed JSON: {err}");
                log(&problem);
                out.send_raw(error_response(Value::Null, ErrorCode::ParseError, &problem));
                continue;
            }
        };
        let id = value.get("id").cloned();
        let is_request = value.get("method").is_some() && id.is_some();
        match serde_json::from_value::<Message>(value) {
            Ok(message) => {
                let is_exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if sender.send(message).is_err() || is_exit {
                    return;
                }
            }
            Err(err) => {
                let problem = format!("not a JSON-RPC message: {err}");
                log(&problem);
                // Answer requests (and anything with an id that is not a response of ours).
                if is_request || id.is_some() {
                    let id = id.unwrap_or(Value::Null);
                    let id = if id.is_string() || id.is_number() {
                        id
                    } else {
                        Value::Null
                    };
                    out.send_raw(error_response(id, ErrorCode::InvalidRequest, &problem));
                } else {
                    out.send_raw(error_response(
                        Value::Null,
                        ErrorCode::InvalidRequest,
                        &problem,
                    ));
                }
            }
        }
    }
}

fn error_response(id: Value, code: ErrorCode, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code as i32, "message": message } })
}

/// Reads one framed body. `Ok(None)` at the end of the input; `Ok(Some(Err(_)))` for a frame
/// that was consumed but cannot be used.
fn read_body(input: &mut impl BufRead) -> io::Result<Option<Result<Vec<u8>, String>>> {
    let mut length: Option<usize> = None;
    let mut bad_length = None;
    let mut line = Vec::new();
    let mut saw_header = false;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if saw_header {
                break;
            }
            continue; // stray blank lines between messages
        }
        saw_header = true;
        let Some((name, value)) = text.split_once(':') else {
            log(&format!("ignoring a malformed header line: {text:?}"));
            continue;
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            match value.trim().parse::<usize>() {
                Ok(n) => length = Some(n),
                Err(_) => bad_length = Some(value.trim().to_owned()),
            }
        }
    }
    let Some(length) = length else {
        let why = match bad_length {
            Some(value) => format!("invalid `Content-Length` `{value:?}`"),
            None => "a message without `Content-Length`".to_owned(),
        };
        return Ok(Some(Err(why)));
    };
    if length > MAX_BODY {
        io::copy(&mut Read::take(&mut *input, length as u64), &mut io::sink())?;
        return Ok(Some(Err(format!(
            "a message of {length} bytes is too large"
        ))));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(Ok(body)))
}
