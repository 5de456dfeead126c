//! Checks every formatting test applies to every output: the formatter's promises, shared with
//! the fuzz targets (`pcl_invariants::format`).
#![allow(unused_imports)]

pub use pcl_invariants::format::{broken_promise, tokens};
