//! Test helpers shared by the pcl crates.
//!
//! Owns one policy: where the external corpora (`shared/`, a sibling of the repository checkout) live,
//! and what a test does when they are absent. A user's clone has no `shared/`, so corpus tests skip
//! with a message; under `CI=true` a missing corpus is a failure, because CI always has it.

use std::path::{Path, PathBuf};

/// The `shared/` directory with the corpora, if it can be found.
///
/// Looked up, in order: `$PCL_SHARED_DIR`, then a `shared/` directory next to any ancestor of the
/// workspace root (the checkout usually sits at `<root>/main`, with `<root>/shared` beside it),
/// then the team machines' fixed location `/work/shared` (for checkouts made elsewhere, as CI's).
pub fn shared_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PCL_SHARED_DIR") {
        let dir = PathBuf::from(dir);
        return dir.is_dir().then_some(dir);
    }
    let workspace = workspace_root();
    workspace
        .ancestors()
        .map(|a| a.join("shared"))
        .chain([PathBuf::from("/work/shared")])
        .find(|candidate| candidate.join("corpus").is_dir())
}

/// The root of this Cargo workspace (the directory holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    // CARGO_MANIFEST_DIR of this crate is `<root>/crates/pcl-test-support`.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crate lives two levels below the workspace root")
        .to_path_buf()
}

/// The corpus directory `shared/<relative>`, or `None` after printing why the test is skipped.
///
/// Panics when the corpus is missing and `CI=true`: CI always has it, so a skip there would hide a
/// test that never ran.
pub fn corpus(relative: &str) -> Option<PathBuf> {
    let found = shared_dir()
        .map(|d| d.join(relative))
        .filter(|p| p.exists());
    match found {
        Some(path) => Some(path),
        None if is_ci() => panic!(
            "corpus `shared/{relative}` not found (set PCL_SHARED_DIR); it is required when CI=true"
        ),
        None => {
            eprintln!(
                "skipping: corpus `shared/{relative}` not found (set PCL_SHARED_DIR to run this test)"
            );
            None
        }
    }
}

fn is_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The number of cases each property test runs: `$PCL_PROPTEST_CASES`, or `default` (the
/// fixed budget of CI). Longer runs are made by hand with a larger number.
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PCL_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
