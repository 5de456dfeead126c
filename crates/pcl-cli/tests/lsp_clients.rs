//! Real language clients against the freshly built `pcl lsp`: Neovim (headless, a Lua script)
//! and pytest-lsp. A missing client is skipped with a note outside CI and fails under CI=true
//! (`.ci/run` installs both).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn skip(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("lsp_clients: {why} (CI=true: .ci/run installs the language clients)");
    }
    eprintln!("note: lsp_clients: skipped: {why}");
}

/// A fresh copy of the language-server fixture program.
fn fixture(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pcl-lsp-clients-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&workspace_root().join("crates/pcl-lsp/tests/fixture"), &dir);
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

fn runs(program: &Path, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn report(client: &str, started: Instant, output: &std::process::Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    eprintln!("{stdout}{stderr}");
    assert!(
        output.status.success(),
        "{client} failed ({})",
        output.status
    );
    eprintln!("lsp_clients: {client} passed in {:.1?}", started.elapsed());
}

#[test]
fn neovim() {
    let nvim = PathBuf::from("nvim");
    if !runs(&nvim, &["--version"]) {
        return skip("nvim not found");
    }
    let dir = fixture("nvim");
    let script = workspace_root().join("editors/tests/nvim/check.lua");
    let started = Instant::now();
    let output = Command::new(&nvim)
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("PCL_BIN", env!("CARGO_BIN_EXE_pcl"))
        .env("PCL_FIXTURE", &dir)
        .env("XDG_STATE_HOME", dir.join(".state"))
        .env("XDG_DATA_HOME", dir.join(".data"))
        .output()
        .expect("run nvim");
    let _ = std::fs::remove_dir_all(&dir);
    report("neovim", started, &output);
}

#[test]
fn pytest_lsp() {
    // The venv `.ci/run` makes, then $PCL_PYTHON, then python3 from PATH.
    let candidates = [
        workspace_root().join("target/lsp-venv/bin/python"),
        std::env::var_os("PCL_PYTHON").map_or_else(PathBuf::new, PathBuf::from),
        PathBuf::from("python3"),
    ];
    let Some(python) = candidates
        .iter()
        .find(|p| !p.as_os_str().is_empty() && runs(p, &["-c", "import pytest_lsp"]))
    else {
        return skip("pytest-lsp not found (python3 -m pip install pytest-lsp)");
    };
    let started = Instant::now();
    let tests = workspace_root().join("editors/tests/pytest");
    let output = Command::new(python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(&tests)
        .current_dir(&tests)
        .env("PCL_BIN", env!("CARGO_BIN_EXE_pcl"))
        .output()
        .expect("run pytest");
    report("pytest-lsp", started, &output);
}
