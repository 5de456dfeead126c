//! The one voice of every message (`docs/diagnostics.md`, "Message style"): helpers that word
//! lists and counts the same way in every layer, and [`check`], the mechanical part of the style
//! that tests apply to every message they see.

/// Names quoted as code and joined as a sentence: `` `a`, `b` or `c` `` (with `conjunction`
/// "or" or "and"). Empty for no names.
pub fn quoted_list<S: AsRef<str>>(names: &[S], conjunction: &str) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{}`", n.as_ref())).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {conjunction} {last}", init.join(", ")),
    }
}

/// The help line that suggests one name: "did you mean `x`?".
pub fn did_you_mean(candidate: &str) -> String {
    format!("did you mean `{candidate}`?")
}

/// The help line that suggests names: none for no names, [`did_you_mean`] for one, "did you
/// mean one of `a`, `b` or `c`?" for several.
pub fn did_you_mean_any<S: AsRef<str>>(candidates: &[S]) -> Option<String> {
    match candidates {
        [] => None,
        [one] => Some(did_you_mean(one.as_ref())),
        many => Some(format!("did you mean one of {}?", quoted_list(many, "or"))),
    }
}

/// A count with its noun in agreement: `1 error`, `2 errors`. `noun` is the singular; the
/// plural adds an `s`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// An I/O error as the end of a message ("cannot read `PATH`: REASON"): "no such file or
/// directory", lowercase, without the operating system's error number.
pub fn io_reason(error: &std::io::Error) -> String {
    let text = error.to_string();
    let text = match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => &text[..at],
        _ => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => text.to_owned(),
    }
}

/// Whether `message` keeps the mechanical rules of the style: it starts with a lowercase letter,
/// a digit or a backtick (quoted code); it does not end with a period; it quotes nothing in single
/// quotes; and it holds no suggestion ("did you mean" belongs in a help line). Returns the rule
/// broken.
pub fn check(message: &str) -> Result<(), StyleViolation> {
    let broken = |rule| {
        Err(StyleViolation {
            rule,
            message: message.to_owned(),
        })
    };
    let first = message.chars().next();
    match first {
        None => return broken(StyleRule::NotEmpty),
        Some(c) if c.is_uppercase() => return broken(StyleRule::NoCapital),
        Some(c) if !(c.is_lowercase() || c.is_ascii_digit() || c == '`') => {
            return broken(StyleRule::LowercaseOrCode)
        }
        _ => {}
    }
    if message.ends_with('.') && !message.ends_with("...") && !message.ends_with("…") {
        return broken(StyleRule::NoPeriod);
    }
    // What the user wrote is quoted as code, and may hold anything: the rules below read only
    // the message's own words.
    let prose = outside_code(message);
    if prose.to_lowercase().contains("did you mean") {
        return broken(StyleRule::NoSuggestion);
    }
    if let Some(quoted) = single_quoted(&prose) {
        return broken(StyleRule::NoSingleQuotes(quoted.to_owned()));
    }
    Ok(())
}

/// [`check`] for a help line, which may hold a suggestion ("did you mean `name`?").
pub fn check_help(help: &str) -> Result<(), StyleViolation> {
    match check(help) {
        Err(broken) if broken.rule == StyleRule::NoSuggestion => Ok(()),
        other => other,
    }
}

/// A message that breaks a rule of the style, as [`check`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StyleViolation {
    pub rule: StyleRule,
    pub message: String,
}

/// The mechanical rules of the message style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StyleRule {
    NotEmpty,
    NoCapital,
    /// It starts with a lowercase letter, a digit or quoted code.
    LowercaseOrCode,
    NoPeriod,
    /// No "did you mean" outside help lines.
    NoSuggestion,
    /// Code is quoted with backticks; the text quoted in single quotes.
    NoSingleQuotes(String),
}

impl std::fmt::Display for StyleViolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rule = match &self.rule {
            StyleRule::NotEmpty => return f.write_str("the message is empty"),
            StyleRule::NoCapital => "the message starts with a capital letter".to_owned(),
            StyleRule::LowercaseOrCode => {
                "the message starts with neither a lowercase letter nor quoted code".to_owned()
            }
            StyleRule::NoPeriod => "the message ends with a period".to_owned(),
            StyleRule::NoSuggestion => {
                "the message holds a suggestion (it belongs in a help line)".to_owned()
            }
            StyleRule::NoSingleQuotes(quoted) => format!(
                "the message quotes `{quoted}` in single quotes (quote code with backticks)"
            ),
        };
        write!(f, "{rule}: {}", self.message)
    }
}

impl std::error::Error for StyleViolation {}

/// `text` without its code spans (each run between a pair of backticks becomes one backtick).
fn outside_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            out.push_str(part);
        } else {
            out.push('`');
        }
    }
    out
}

/// The first `'word'` of `text`: a single quote that opens after a space or an opening bracket
/// and closes before a space, punctuation or the end, with no space inside. An apostrophe
/// (`program's`) is not one.
fn single_quoted(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' if i == 0 || matches!(bytes[i - 1], b' ' | b'(' | b'[' | b'{') => {
                let rest = &text[i + 1..];
                if let Some(end) = rest.find('\'') {
                    let inner = &rest[..end];
                    let after = rest[end + 1..].chars().next();
                    if !inner.is_empty()
                        && !inner.contains(' ')
                        && after.is_none_or(|c| !c.is_alphanumeric())
                    {
                        return Some(inner);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_counts() {
        assert_eq!(quoted_list(&["a"], "or"), "`a`");
        assert_eq!(quoted_list(&["a", "b", "c"], "or"), "`a`, `b` or `c`");
        assert_eq!(quoted_list::<&str>(&[], "and"), "");
        assert_eq!(count(1, "error"), "1 error");
        assert_eq!(count(2, "warning"), "2 warnings");
        assert_eq!(count(0, "error"), "0 errors");
    }

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("name"), "did you mean `name`?");
        assert_eq!(did_you_mean_any::<&str>(&[]), None);
        assert_eq!(
            did_you_mean_any(&["a"]).as_deref(),
            Some("did you mean `a`?")
        );
        let many = did_you_mean_any(&["a", "b", "c"]).unwrap();
        assert_eq!(many, "did you mean one of `a`, `b` or `c`?");
        assert!(check_help(&many).is_ok());
    }

    #[test]
    fn the_mechanical_rules() {
        assert!(check("unknown function `lenght`").is_ok());
        assert!(check("`a` is already declared").is_ok());
        assert!(check("the program's own directory `.` cannot be a component").is_ok());
        assert!(check("invalid character `'`: single quotes are not valid").is_ok());
        assert!(check("Unknown function `x`").is_err());
        assert!(check("unknown function `x`.").is_err());
        assert!(check("unknown function 'x'").is_err());
        assert!(check("unknown function `x`; did you mean `y`?").is_err());
        assert!(check("").is_err());
    }
}
