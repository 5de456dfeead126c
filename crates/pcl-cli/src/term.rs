//! What the terminal gets: whether to colour standard error (`--color`, `NO_COLOR`,
//! `CLICOLOR_FORCE`, `CLICOLOR`, whether it is a terminal), the palette (rustc's), and the
//! `error:` / `warning:` lines the commands print about themselves.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::ValueEnum;

/// `--color`: when to colour what goes to standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when standard error is a terminal, unless `NO_COLOR` or `CLICOLOR=0` say not
    /// to (or `CLICOLOR_FORCE` says to colour anyway).
    #[default]
    Auto,
    Always,
    Never,
}

/// Whether to colour, from the flag, the environment and whether the stream is a terminal.
/// The flag wins; then `NO_COLOR` (no-color.org), `CLICOLOR_FORCE`, `CLICOLOR=0` (the
/// bixense.com/clicolors convention), and a terminal that is not `TERM=dumb`. The same order as
/// cargo's.
pub fn resolve(choice: ColorChoice, env: &dyn Fn(&str) -> Option<String>, terminal: bool) -> bool {
    let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            if set("NO_COLOR") {
                false
            } else if set("CLICOLOR_FORCE") && env("CLICOLOR_FORCE").as_deref() != Some("0") {
                true
            } else if env("CLICOLOR").as_deref() == Some("0") {
                false
            } else {
                terminal && env("TERM").as_deref() != Some("dumb")
            }
        }
    }
}

static STDERR_COLOR: AtomicBool = AtomicBool::new(false);

/// Decides, once, whether standard error is coloured.
pub fn init(choice: ColorChoice) {
    let env = |name: &str| std::env::var(name).ok();
    let color = resolve(choice, &env, std::io::stderr().is_terminal());
    STDERR_COLOR.store(color, Ordering::Relaxed);
}

/// The palette for standard error.
pub fn stderr_palette() -> Palette {
    Palette::new(STDERR_COLOR.load(Ordering::Relaxed))
}

/// ANSI styles, or empty strings when colour is off. rustc's choices: bold bright red errors,
/// bold bright yellow warnings, bold bright green notes, bold bright cyan help, bold bright
/// blue gutters, bold headers.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    pub error: &'static str,
    pub warning: &'static str,
    pub note: &'static str,
    pub help: &'static str,
    pub gutter: &'static str,
    pub bold: &'static str,
    pub reset: &'static str,
}

impl Palette {
    pub const PLAIN: Palette = Palette {
        error: "",
        warning: "",
        note: "",
        help: "",
        gutter: "",
        bold: "",
        reset: "",
    };

    pub const ANSI: Palette = Palette {
        error: "\x1b[1;91m",
        warning: "\x1b[1;93m",
        note: "\x1b[1;92m",
        help: "\x1b[1;96m",
        gutter: "\x1b[1;94m",
        bold: "\x1b[1m",
        reset: "\x1b[0m",
    };

    pub fn new(color: bool) -> Palette {
        if color {
            Palette::ANSI
        } else {
            Palette::PLAIN
        }
    }

    /// `text` in `style`, reset after.
    pub fn paint(&self, style: &'static str, text: impl std::fmt::Display) -> String {
        if style.is_empty() {
            text.to_string()
        } else {
            format!("{style}{text}{}", self.reset)
        }
    }
}

/// An `error: MESSAGE` line about the command itself (not a diagnostic of a file), for standard
/// error.
pub fn error_line(message: impl std::fmt::Display) -> String {
    let p = stderr_palette();
    format!(
        "{}{}\n",
        p.paint(p.error, "error:"),
        message_text(&p, message)
    )
}

/// A `warning: MESSAGE` line, for standard error.
pub fn warning_line(message: impl std::fmt::Display) -> String {
    let p = stderr_palette();
    format!(
        "{}{}\n",
        p.paint(p.warning, "warning:"),
        message_text(&p, message)
    )
}

/// A `help: MESSAGE` line, for standard error (after an `error:` line it belongs to).
pub fn help_line(message: impl std::fmt::Display) -> String {
    let p = stderr_palette();
    format!("{}: {message}\n", p.paint(p.help, "help"))
}

fn message_text(p: &Palette, message: impl std::fmt::Display) -> String {
    format!(" {}", p.paint(p.bold, message))
}

#[cfg(test)]
mod tests {
    use super::{resolve, ColorChoice};

    fn with<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_flag_then_the_environment_then_the_terminal() {
        use ColorChoice::*;
        /// The flag, the environment, whether it is a terminal, and whether to colour.
        type Case<'a> = (ColorChoice, &'a [(&'a str, &'a str)], bool, bool);
        let cases: &[Case] = &[
            (Auto, &[], true, true),
            (Auto, &[], false, false),
            (Auto, &[("TERM", "dumb")], true, false),
            (Auto, &[("NO_COLOR", "1")], true, false),
            // An empty NO_COLOR does not count (no-color.org).
            (Auto, &[("NO_COLOR", "")], true, true),
            (Auto, &[("CLICOLOR_FORCE", "1")], false, true),
            (Auto, &[("CLICOLOR_FORCE", "0")], false, false),
            (
                Auto,
                &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")],
                false,
                false,
            ),
            (Auto, &[("CLICOLOR", "0")], true, false),
            (Always, &[("NO_COLOR", "1")], false, true),
            (Never, &[("CLICOLOR_FORCE", "1")], true, false),
        ];
        for (choice, vars, terminal, expected) in cases {
            assert_eq!(
                resolve(*choice, &with(vars), *terminal),
                *expected,
                "{choice:?} {vars:?} terminal={terminal}"
            );
        }
    }
}
