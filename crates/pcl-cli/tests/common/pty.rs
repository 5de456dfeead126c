//! Running `pcl` the way a person at a shell does: standard input, output and error on a
//! pseudo-terminal, so that everything that only happens on a terminal (the progress bar and
//! its tick thread, terminal detection) is exercised. Unix only.

use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a run on a terminal left behind.
pub struct TerminalRun {
    /// The exit status, or `None` when the run was killed at the time limit.
    pub status: Option<i32>,
    /// Every byte written to the terminal (standard output and error interleaved, as a person
    /// sees them), with the line discipline's `\r\n`.
    pub bytes: Vec<u8>,
}

impl TerminalRun {
    /// The final screen contents as plain lines: escape sequences interpreted just enough to
    /// tell what stays visible (carriage returns and "erase line" overwrite, cursor-up moves
    /// back a line), so that a progress bar that was cleared leaves nothing.
    pub fn screen(&self) -> Vec<String> {
        let text = String::from_utf8_lossy(&self.bytes);
        let mut lines: Vec<String> = vec![String::new()];
        let mut row = 0;
        let mut col = 0;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' => col = 0,
                '\n' => {
                    row += 1;
                    col = 0;
                    if row == lines.len() {
                        lines.push(String::new());
                    }
                }
                '\u{1b}' => {
                    // CSI: ESC [ params final-byte.
                    if chars.peek() == Some(&'[') {
                        chars.next();
                        let mut params = String::new();
                        let mut last = ' ';
                        for c in chars.by_ref() {
                            if ('\u{40}'..='\u{7e}').contains(&c) {
                                last = c;
                                break;
                            }
                            params.push(c);
                        }
                        let n: usize = params.parse().unwrap_or(1);
                        match last {
                            // Erase in line: the cursor's line from the cursor (or whole).
                            'K' => {
                                let line = &mut lines[row];
                                let keep: String = if params == "2" {
                                    String::new()
                                } else {
                                    line.chars().take(col).collect()
                                };
                                *line = keep;
                            }
                            'A' => row = row.saturating_sub(n),
                            'G' => col = n.saturating_sub(1),
                            // Colours and other attributes change nothing visible here.
                            _ => {}
                        }
                    }
                }
                c => {
                    let line = &mut lines[row];
                    let mut cells: Vec<char> = line.chars().collect();
                    if col < cells.len() {
                        cells[col] = c;
                    } else {
                        cells.resize(col, ' ');
                        cells.push(c);
                    }
                    *line = cells.into_iter().collect();
                    col += 1;
                }
            }
        }
        let mut lines: Vec<String> = lines.into_iter().map(|l| l.trim_end().to_owned()).collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines
    }
}

fn check(ret: libc::c_int, what: &str) {
    assert!(ret >= 0, "{what}: {}", std::io::Error::last_os_error());
}

/// Runs `pcl ARGS...` in `dir` with a pseudo-terminal of 100 columns as its standard input,
/// output and error, killing it after `limit`.
pub fn pcl_on_terminal(dir: &Path, args: &[&str], limit: Duration) -> TerminalRun {
    pcl_on_terminal_typing(dir, args, b"", limit)
}

/// [`pcl_on_terminal`], with `typed` written to the terminal once the command has started, as
/// if typed on the keyboard (`\x04` is Ctrl-D: the end of input at the start of a line).
pub fn pcl_on_terminal_typing(
    dir: &Path,
    args: &[&str],
    typed: &[u8],
    limit: Duration,
) -> TerminalRun {
    pcl_on_terminal_with(dir, args, &[], typed, limit)
}

/// [`pcl_on_terminal`] with environment variables set (`NO_COLOR`, `CLICOLOR_FORCE`,
/// `CLICOLOR` and `TERM` are otherwise unset, and `TERM=xterm-256color`).
pub fn pcl_on_terminal_env(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    limit: Duration,
) -> TerminalRun {
    pcl_on_terminal_with(dir, args, env, b"", limit)
}

fn pcl_on_terminal_with(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    typed: &[u8],
    limit: Duration,
) -> TerminalRun {
    let mut master: libc::c_int = -1;
    let mut slave: libc::c_int = -1;
    let size = libc::winsize {
        ws_row: 40,
        ws_col: 100,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes two descriptors into the locals; the name and termios are null.
    let ret = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    check(ret, "openpty");
    // SAFETY: both descriptors were just opened and are owned by nothing else.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    // SAFETY: plain fcntl on descriptors we own; the child must not inherit the master.
    unsafe {
        check(
            libc::fcntl(master.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC),
            "fcntl",
        );
        check(
            libc::fcntl(slave.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC),
            "fcntl",
        );
    }
    let mut command = Command::new(env!("CARGO_BIN_EXE_pcl"));
    command
        .current_dir(dir)
        .env_remove("PCL_SCHEMA_PATH")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env_remove("CI")
        .env("HOME", dir)
        .env("TERM", "xterm-256color")
        .envs(env.iter().copied())
        .args(args)
        .stdin(Stdio::from(slave.try_clone().expect("dup")))
        .stdout(Stdio::from(slave.try_clone().expect("dup")))
        .stderr(Stdio::from(slave.try_clone().expect("dup")));
    let mut child = command.spawn().expect("pcl runs");
    // Only the child holds the terminal now, so reading the master ends when it exits.
    drop(command);
    drop(slave);
    if !typed.is_empty() {
        let mut keyboard = std::fs::File::from(master.try_clone().expect("dup"));
        std::io::Write::write_all(&mut keyboard, typed).expect("type on the terminal");
    }
    let reader = std::thread::spawn(move || {
        let mut file = std::fs::File::from(master);
        let mut bytes = Vec::new();
        let mut buffer = [0u8; 65536];
        loop {
            match file.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => bytes.extend_from_slice(&buffer[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                // EIO: every slave descriptor is closed.
                Err(_) => break,
            }
        }
        bytes
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let bytes = reader.join().expect("reader");
    TerminalRun { status, bytes }
}
