//! The command's own surface: `--help` (examples, exit statuses), `--version` (with the
//! commit), `pcl completions SHELL`, and `--color` / `CLICOLOR_FORCE` through a pipe. (Colour on
//! a terminal is tested in `terminal.rs`.)

mod common;

use common::{pcl, pcl_with_env, temp_dir};

#[test]
fn help_shows_examples_and_exit_statuses() {
    let dir = temp_dir("surface-help", &[]);
    let (status, out, err) = pcl(&dir, "--help", &[]);
    assert_eq!((status, err.as_str()), (0, ""));
    for expected in [
        "Usage: pcl [OPTIONS] <COMMAND>",
        "completions",
        "--color <WHEN>",
        "Examples:\n  pcl check .",
        "pcl fmt --check .",
        "pcl parse - < main.pp",
        "Exit status:\n  0  no errors\n  1  problems found",
        "  2  usage or I/O errors",
    ] {
        assert!(out.contains(expected), "no {expected:?} in:\n{out}");
    }
}

/// `pcl --version` names the commit and its date when built from a git checkout (as CI and
/// this test are), so that a bug report says exactly what was run.
#[test]
fn version_names_the_commit() {
    let dir = temp_dir("surface-version", &[]);
    let (status, out, _) = pcl(&dir, "--version", &[]);
    assert_eq!(status, 0);
    let version = env!("CARGO_PKG_VERSION");
    let rest = out
        .strip_prefix(&format!("pcl {version}"))
        .unwrap_or_else(|| panic!("{out:?}"));
    let in_git = std::process::Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match in_git {
        Some(hash) => {
            let inner = rest
                .trim()
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .unwrap_or_else(|| panic!("no (commit date) in {out:?}"));
            let (commit, date) = inner.split_once(' ').expect("commit and date");
            // The binary may be a commit behind HEAD only if it was not rebuilt; cargo rebuilds
            // it when HEAD moves, so they agree.
            assert_eq!(commit, hash, "{out:?}");
            assert_eq!(date.len(), "2026-01-01".len(), "{out:?}");
        }
        None => eprintln!("note: not a git checkout; the version is {out:?}"),
    }
}

#[test]
fn completions_for_every_shell() {
    let dir = temp_dir("surface-completions", &[]);
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (status, out, err) = pcl(&dir, "completions", &[shell]);
        assert_eq!((status, err.as_str()), (0, ""), "{shell}");
        for word in ["check", "fmt", "parse", "schema", "lsp", "color"] {
            assert!(out.contains(word), "{shell}: no {word}");
        }
    }
    let (status, _, err) = pcl(&dir, "completions", &["tcsh"]);
    assert_eq!(status, 2, "{err}");
    // bash accepts the script and registers it.
    let (_, script, _) = pcl(&dir, "completions", &["bash"]);
    let script_path = dir.join("pcl.bash");
    std::fs::write(&script_path, script).expect("write");
    let output = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {} && complete -p pcl",
            script_path.display()
        ))
        .output();
    match output {
        Ok(output) => {
            assert!(output.status.success(), "{output:?}");
            assert!(
                String::from_utf8_lossy(&output.stdout).contains("pcl"),
                "{output:?}"
            );
        }
        Err(e) => eprintln!("note: bash is not available ({e}); the bash script is not loaded"),
    }
}

/// Through a pipe there is no colour, unless `CLICOLOR_FORCE` or `--color always` ask for it;
/// `NO_COLOR` beats `CLICOLOR_FORCE`, and `--color never` beats both.
#[test]
fn colour_through_a_pipe_only_when_forced() {
    let dir = temp_dir("surface-colour", &[("main.pp", "x = 1 ** 2\n")]);
    let coloured = |env: &[(&str, &str)], args: &[&str]| {
        let (status, _, err) = pcl_with_env(&dir, "check", args, env);
        assert_eq!(status, 1, "{err}");
        assert!(
            err.contains("error[E0004]") || err.contains("E0004"),
            "{err}"
        );
        err.contains('\u{1b}')
    };
    assert!(!coloured(&[], &["main.pp"]));
    assert!(coloured(&[("CLICOLOR_FORCE", "1")], &["main.pp"]));
    assert!(!coloured(
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
        &["main.pp"]
    ));
    assert!(coloured(&[], &["--color", "always", "main.pp"]));
    assert!(!coloured(
        &[("CLICOLOR_FORCE", "1")],
        &["--color=never", "main.pp"]
    ));
    // JSON is never coloured, whatever is asked.
    let (_, out, _) = pcl_with_env(
        &dir,
        "check",
        &["--color", "always", "--format", "json", "main.pp"],
        &[],
    );
    assert!(!out.contains('\u{1b}'), "{out}");
    // Errors of the command itself are coloured too.
    let (status, _, err) = pcl(&dir, "check", &["--color", "always", "missing.pp"]);
    assert_eq!(status, 2);
    assert!(err.starts_with("\u{1b}[1;91merror:\u{1b}[0m"), "{err:?}");
}
