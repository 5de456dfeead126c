//! `file:` URIs ↔ paths (percent-encoding of the path's bytes, as VS Code and Neovim write them).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;

/// The path of a `file:` URI, or `None` for other schemes and relative paths.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let rest = text
        .strip_prefix("file://")
        .or_else(|| text.strip_prefix("FILE://"))?;
    // An authority (`localhost`, or empty) before the path.
    let path = &rest[rest.find('/')?..];
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let bytes = decode(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        let text = String::from_utf8(bytes).ok()?;
        // `/c:/dir` on Windows.
        let text = text
            .strip_prefix('/')
            .filter(|t| t.get(1..2) == Some(":"))
            .unwrap_or(&text);
        Some(PathBuf::from(text))
    }
}

/// The `file:` URI of an absolute path.
pub fn path_to_uri(path: &Path) -> Uri {
    let mut text = String::from("file://");
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = {
        let s = path.to_string_lossy().replace('\\', "/");
        if s.starts_with('/') {
            s.into_bytes()
        } else {
            format!("/{s}").into_bytes()
        }
    };
    for &b in &bytes {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            text.push(b as char);
        } else {
            text.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&text).unwrap_or_else(|_| Uri::from_str("file:///").expect("a valid URI"))
}

fn decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for path in ["/ws/a b/main.pp", "/x/日本/ü.pp", "/p/100%/#x?.pp", "/"] {
            let uri = path_to_uri(Path::new(path));
            assert_eq!(
                uri_to_path(&uri).as_deref(),
                Some(Path::new(path)),
                "{}",
                uri.as_str()
            );
        }
    }

    #[test]
    fn decodes_client_spellings() {
        let uri = Uri::from_str("file://localhost/ws/a%20b/main.pp").unwrap();
        assert_eq!(uri_to_path(&uri), Some(PathBuf::from("/ws/a b/main.pp")));
        let uri = Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(uri_to_path(&uri), None);
        let uri = Uri::from_str("file:///ws/%zz").unwrap_or_else(|_| path_to_uri(Path::new("/")));
        // A `%` that starts no escape is kept as written (or the URI is refused): never a panic.
        let path = uri_to_path(&uri);
        assert!(
            path.as_deref()
                .is_none_or(|p| p == Path::new("/ws/%zz") || p == Path::new("/")),
            "{path:?}"
        );
    }
}
