//! The Language Server Protocol for PCL over stdio, on top of `pcl_ide`'s analysis.
//!
//! The main loop owns the `AnalysisHost` and applies every change; requests run on a few worker
//! threads, each with an `Analysis` snapshot that an edit cancels (answered `ContentModified`).
//! Nothing is printed but the protocol on the output; logs go to standard error. See
//! `docs/lsp.md`.

mod capabilities;
mod diagnostics;
mod handlers;
pub mod line_index;
mod pool;
mod server;
mod transport;
pub mod uri;
mod workspace;

use std::io::{BufRead, BufReader, Read, Write};

pub use line_index::LineIndex;

/// Serves the protocol on standard input and output until `exit` or the end of the input.
/// Returns the process exit status: 0 after `shutdown` then `exit`, 1 otherwise.
pub fn run_stdio() -> i32 {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    run(stdin, stdout)
}

/// Serves the protocol on any byte streams (tests use in-memory pipes).
pub fn run(input: impl Read + Send + 'static, output: impl Write + Send + 'static) -> i32 {
    run_buffered(BufReader::new(input), output)
}

fn run_buffered(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) -> i32 {
    let (out, writer_done) = transport::writer(output);
    let receiver = transport::reader(input, out.clone());
    let exit = server::Server::new(out).run(receiver);
    // The writer ends once the reader and the workers have dropped their senders: wait a
    // little for it, so that the last responses reach the client.
    let _ = writer_done.recv_timeout(std::time::Duration::from_secs(2));
    match exit {
        server::Exit::Clean => 0,
        server::Exit::Unclean => 1,
    }
}

/// Logs a line to standard error.
pub(crate) fn log(message: &str) {
    eprintln!("pcl-lsp: {message}");
}
