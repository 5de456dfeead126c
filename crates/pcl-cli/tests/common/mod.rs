//! Helpers shared by the end-to-end tests of the `pcl` binary.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[cfg(unix)]
pub mod pty;

/// `examples/NAME` of the repository.
pub fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
}

/// Runs `pcl SUBCOMMAND ARGS...` in `dir`: (exit status, stdout, stderr).
pub fn pcl(dir: &Path, subcommand: &str, args: &[&str]) -> (i32, String, String) {
    pcl_with_env(dir, subcommand, args, &[])
}

/// [`pcl`] with environment variables set. Schema locations of the machine
/// (`$PCL_SCHEMA_PATH`, `~/.pcl/schemas`) and colour settings (`CLICOLOR_FORCE` would colour
/// piped output) are hidden unless set here.
pub fn pcl_with_env(
    dir: &Path,
    subcommand: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pcl"));
    command
        .current_dir(dir)
        .env_remove("PCL_SCHEMA_PATH")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env_remove("NO_COLOR")
        .env("HOME", dir);
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command
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

/// [`pcl`] with `input` on standard input.
pub fn pcl_with_stdin(
    dir: &Path,
    subcommand: &str,
    args: &[&str],
    input: &[u8],
) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .current_dir(dir)
        .env_remove("PCL_SCHEMA_PATH")
        .env("HOME", dir)
        .arg(subcommand)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pcl runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // A command that fails before reading closes the pipe: that is not the test's failure.
    let _ = stdin.write_all(input);
    drop(stdin);
    let output = child.wait_with_output().expect("pcl exits");
    (
        output.status.code().expect("exited normally"),
        String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    )
}

/// A fresh directory for one test, holding `files`, removed when the test ends.
pub fn temp_dir(name: &str, files: &[(&str, &str)]) -> pcl_test_support::TempDir {
    let dir = pcl_test_support::TempDir::new(&format!("cli-{name}"));
    for (file, text) in files {
        let path = dir.join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("fixture directory");
        }
        std::fs::write(path, text).expect("write fixture");
    }
    dir
}
