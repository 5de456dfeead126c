//! Helpers shared by the end-to-end tests of the `pcl` binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `examples/NAME` of the repository.
pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
}

/// Runs `pcl SUBCOMMAND ARGS...` in `dir`: (exit status, stdout, stderr).
pub fn pcl(dir: &Path, subcommand: &str, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .current_dir(dir)
        .arg(subcommand)
        .args(args)
        .output()
        .expect("pcl runs");
    (
        output.status.code().expect("exited normally"),
        String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    )
}

/// A fresh directory for one test, holding `files`.
pub fn temp_dir(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pcl-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("write fixture");
    }
    dir
}
