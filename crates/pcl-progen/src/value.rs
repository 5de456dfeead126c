//! A small tree of HCL values (objects, tuples, raw expressions) and its printer, so resource
//! bodies are built as data and printed with consistent layout.

use std::fmt::Write as _;

/// An attribute value: an expression written out already, an object constructor or a tuple.
pub(crate) enum V {
    Raw(String),
    Obj(Vec<(String, V)>),
    List(Vec<V>),
    /// A function call whose arguments may span lines: `f(a, {...})`.
    Call(&'static str, Vec<V>),
}

impl V {
    pub(crate) fn raw(text: impl Into<String>) -> V {
        V::Raw(text.into())
    }

    /// A string literal.
    pub(crate) fn str(text: &str) -> V {
        V::Raw(lit(text))
    }

    pub(crate) fn int(value: i64) -> V {
        V::Raw(value.to_string())
    }

    pub(crate) fn bool(value: bool) -> V {
        V::Raw(value.to_string())
    }

    /// A tuple of string literals.
    pub(crate) fn strs(items: &[&str]) -> V {
        V::List(items.iter().map(|s| V::str(s)).collect())
    }
}

/// An object constructor from `(key, value)` pairs.
pub(crate) fn obj<const N: usize>(items: [(&str, V); N]) -> V {
    V::Obj(items.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// `text` as an HCL quoted string: quotes and backslashes escaped, and `${` / `%{` doubled so
/// they stay literal.
pub(crate) fn lit(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether `key` can be written bare (an HCL identifier).
fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

/// `key = value` lines at `level`.
pub(crate) fn write_attrs(out: &mut String, attrs: &[(String, V)], level: usize) {
    for (key, value) in attrs {
        indent(out, level);
        write_key(out, key);
        out.push_str(" = ");
        write_value(out, value, level);
        out.push('\n');
    }
}

fn write_key(out: &mut String, key: &str) {
    if is_identifier(key) {
        out.push_str(key);
    } else {
        out.push_str(&lit(key));
    }
}

/// Writes `value` whose first line continues a line already at `level`.
pub(crate) fn write_value(out: &mut String, value: &V, level: usize) {
    match value {
        V::Raw(text) => out.push_str(text),
        V::Call(name, args) => {
            out.push_str(name);
            out.push('(');
            for (i, arg) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, arg, level);
            }
            out.push(')');
        }
        V::Obj(items) if items.is_empty() => out.push_str("{}"),
        V::Obj(items) => {
            out.push_str("{\n");
            write_attrs(out, items, level + 1);
            indent(out, level);
            out.push('}');
        }
        V::List(items) => {
            let short: Option<Vec<&str>> = items
                .iter()
                .map(|v| match v {
                    V::Raw(t) => Some(t.as_str()),
                    _ => None,
                })
                .collect();
            match short {
                Some(parts) if parts.iter().map(|p| p.len() + 2).sum::<usize>() <= 80 => {
                    let _ = write!(out, "[{}]", parts.join(", "));
                }
                _ => {
                    out.push_str("[\n");
                    for item in items {
                        indent(out, level + 1);
                        write_value(out, item, level + 1);
                        out.push_str(",\n");
                    }
                    indent(out, level);
                    out.push(']');
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_escape_template_sequences() {
        assert_eq!(lit(r#"a"b\c ${x} %{y} $z"#), r#""a\"b\\c $${x} %%{y} $z""#);
    }

    #[test]
    fn nested_layout() {
        let value = obj([
            ("name", V::str("web")),
            ("ports", V::List(vec![obj([("containerPort", V::int(80))])])),
            ("args", V::strs(&["a", "b"])),
            ("app.kubernetes.io/name", V::str("x")),
            ("empty", V::Obj(Vec::new())),
            ("json", V::Call("toJSON", vec![obj([("a", V::int(1))])])),
        ]);
        let mut out = String::new();
        write_attrs(&mut out, &[("spec".to_string(), value)], 0);
        assert_eq!(
            out,
            "spec = {\n  name = \"web\"\n  ports = [\n    {\n      containerPort = 80\n    },\n  ]\n  args = [\"a\", \"b\"]\n  \"app.kubernetes.io/name\" = \"x\"\n  empty = {}\n  json = toJSON({\n    a = 1\n  })\n}\n"
        );
    }
}
