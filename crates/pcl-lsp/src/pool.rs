//! A few worker threads that run requests and diagnostics, each job with its own snapshot.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::thread;

use crossbeam_channel::Sender;

type Job = Box<dyn FnOnce() + Send>;

const WORKER_STACK: usize = 64 << 20;

pub(crate) struct Pool {
    sender: Sender<Job>,
}

impl Pool {
    pub(crate) fn new(threads: usize) -> Pool {
        let (sender, receiver) = crossbeam_channel::unbounded::<Job>();
        for i in 0..threads {
            let receiver = receiver.clone();
            thread::Builder::new()
                .name(format!("pcl-lsp-worker-{i}"))
                // Queries recurse through the types and references of a program; a large
                // stack (reserved, not committed, until used) keeps unusual programs safe.
                .stack_size(WORKER_STACK)
                .spawn(move || {
                    for job in receiver {
                        // Jobs catch their own panics; this keeps the worker alive regardless.
                        let _ = catch_unwind(AssertUnwindSafe(job));
                    }
                })
                .expect("spawn a worker thread");
        }
        Pool { sender }
    }

    pub(crate) fn spawn(&self, job: impl FnOnce() + Send + 'static) {
        let _ = self.sender.send(Box::new(job));
    }
}
