//! The commands as a person at a shell runs them: on a pseudo-terminal, where the progress
//! bar draws and stdin, stdout and stderr are terminals. Each run has a time limit, so a hang
//! is a failure, not a stuck test run, and the test reads what the terminal is left showing.
#![cfg(unix)]

use std::fmt::Write as _;
use std::time::Duration;

mod common;

use common::pty::pcl_on_terminal;
use common::temp_dir;

/// Far beyond what these runs take (under a second in release, a few in debug), far below
/// forever.
const LIMIT: Duration = Duration::from_secs(60);

/// A program of `n` attributes (well over the progress bar's threshold of 5,000 nodes for
/// n = 6,000) with one type error on its last line.
fn big_program(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        let _ = writeln!(text, "value{i} = {{ name = \"v{i}\", size = {i} }}");
    }
    let _ = writeln!(text, "broken = value{} ** 2", n - 1);
    text
}

#[test]
fn check_of_a_large_program_finishes_and_leaves_only_the_diagnostics_on_screen() {
    let dir = temp_dir("terminal-check", &[("main.pp", &big_program(6_000))]);
    let run = pcl_on_terminal(&dir, &["check", "."], LIMIT);
    let screen = run.screen();
    assert_eq!(
        run.status,
        Some(1),
        "pcl check on a terminal did not finish with status 1: {screen:#?}"
    );
    assert!(
        screen
            .iter()
            .any(|l| l.starts_with("./main.pp:6001:20: error[E0004]")),
        "{screen:#?}"
    );
    assert_eq!(screen.last().map(String::as_str), Some("1 error"));
    // The bar was drawn, then cleared: nothing of it stays on screen.
    let drawn = String::from_utf8_lossy(&run.bytes);
    assert!(drawn.contains("checking"), "no progress bar: {drawn:?}");
    assert!(
        !screen.iter().any(|l| l.contains("checking")),
        "{screen:#?}"
    );
}

#[test]
fn a_clean_large_program_leaves_an_empty_screen() {
    let mut text = big_program(6_000);
    text.truncate(text.rfind("broken").expect("the error line"));
    let dir = temp_dir("terminal-clean", &[("main.pp", &text)]);
    let run = pcl_on_terminal(&dir, &["check", "main.pp"], LIMIT);
    assert_eq!(run.status, Some(0), "{:#?}", run.screen());
    assert_eq!(run.screen(), Vec::<String>::new());
}

#[test]
fn fmt_and_parse_of_many_large_files_finish() {
    let mut files = Vec::new();
    for i in 0..20 {
        // Unformatted (`=` not aligned, odd spacing), so that every file is rewritten.
        files.push((
            format!("f{i:02}.pp"),
            big_program(500)
                .replace(" = {", "={")
                .replace("** 2", "+   2"),
        ));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let dir = temp_dir("terminal-fmt-parse", &files);

    let run = pcl_on_terminal(&dir, &["fmt", "--check", "."], LIMIT);
    assert_eq!(run.status, Some(1), "{:#?}", run.screen());
    assert_eq!(run.screen().len(), 20, "{:#?}", run.screen());

    let run = pcl_on_terminal(&dir, &["fmt", "."], LIMIT);
    assert_eq!(run.status, Some(0), "{:#?}", run.screen());
    let run = pcl_on_terminal(&dir, &["fmt", "--check", "."], LIMIT);
    assert_eq!(run.status, Some(0), "{:#?}", run.screen());

    let formatted = std::fs::read_to_string(dir.join("f00.pp")).expect("formatted");
    assert!(formatted.starts_with("value0   = { name = \"v0\", size = 0 }\n"));

    let run = pcl_on_terminal(&dir, &["parse", "."], LIMIT);
    assert_eq!(run.status, Some(0), "{:#?}", run.screen());
    std::fs::write(dir.join("f19.pp"), "a = (\n").expect("write");
    let run = pcl_on_terminal(&dir, &["parse", "."], LIMIT);
    assert_eq!(run.status, Some(1), "{:#?}", run.screen());
    assert!(
        run.screen()
            .iter()
            .any(|l| l.starts_with("./f19.pp:") && l.contains("error[")),
        "{:#?}",
        run.screen()
    );
}

/// `pcl lsp` started on a terminal by mistake waits for the protocol without printing
/// anything, and Ctrl-D ends it (status 1: no `shutdown` came) with one line on standard
/// error saying why: it neither hangs nor writes protocol output to the screen.
#[test]
fn lsp_on_a_terminal_ends_at_ctrl_d() {
    let dir = temp_dir("lsp-tty", &[]);
    let run = common::pty::pcl_on_terminal_typing(&dir, &["lsp"], b"\x04", LIMIT);
    assert_eq!(run.status, Some(1), "{:?}", run.screen());
    assert_eq!(
        run.screen(),
        ["pcl-lsp: the input ended without an exit notification"],
        "{:?}",
        String::from_utf8_lossy(&run.bytes)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The escape sequence of rustc's bold bright red, which `error[...]` is painted in.
const RED: &str = "\u{1b}[1;91m";

/// On a terminal, diagnostics are coloured the way rustc colours them, and what the screen
/// shows is the plain text. `NO_COLOR`, `CLICOLOR=0`, `TERM=dumb` and `--color never` turn
/// colour off; `--color always` beats `NO_COLOR`.
#[test]
fn diagnostics_are_coloured_on_a_terminal_unless_told_not_to() {
    let dir = temp_dir("terminal-colour", &[("main.pp", "x = 1 ** 2\n")]);
    let run = pcl_on_terminal(&dir, &["check", "main.pp"], LIMIT);
    let drawn = String::from_utf8_lossy(&run.bytes).into_owned();
    assert!(
        drawn.contains(&format!("{RED}error[E0004]")),
        "no colour on a terminal: {drawn:?}"
    );
    assert_eq!(run.status, Some(1));
    // The screen shows the plain text: the header, the excerpt with its carets, the summary.
    let screen = run.screen();
    assert!(
        screen[0].starts_with("main.pp:1:7: error[E0004]: "),
        "{screen:#?}"
    );
    assert_eq!(
        screen[1..],
        ["  |", "1 | x = 1 ** 2", "  |       ^^", "1 error"],
        "{screen:#?}"
    );
    for (env, args) in [
        (vec![("NO_COLOR", "1")], vec!["check", "main.pp"]),
        (vec![("CLICOLOR", "0")], vec!["check", "main.pp"]),
        (vec![("TERM", "dumb")], vec!["check", "main.pp"]),
        (vec![], vec!["--color", "never", "check", "main.pp"]),
        (vec![], vec!["check", "--color=never", "main.pp"]),
        (vec![], vec!["parse", "--color", "never", "main.pp"]),
    ] {
        let run = common::pty::pcl_on_terminal_env(&dir, &args, &env, LIMIT);
        let drawn = String::from_utf8_lossy(&run.bytes);
        assert!(
            !drawn.contains('\u{1b}'),
            "{env:?} {args:?} still coloured: {drawn:?}"
        );
        assert!(drawn.contains("error[E0004]"), "{drawn:?}");
    }
    let run = common::pty::pcl_on_terminal_env(
        &dir,
        &["check", "--color", "always", "main.pp"],
        &[("NO_COLOR", "1")],
        LIMIT,
    );
    assert!(String::from_utf8_lossy(&run.bytes).contains(RED));
    let _ = std::fs::remove_dir_all(&dir);
}
