//! A Pulumi project file (`Pulumi.yaml` or `Pulumi.yml`) in a program's directory: its `main:`
//! names the directory (or file) the program is in, relative to the project file.

use std::path::{Path, PathBuf};

use yaml_rust2::parser::{Event, Parser};

use crate::error::{LoadError, ProjectFileError};

/// Project files are a few hundred bytes; anything bigger is not one.
const MAX_PROJECT_FILE: u64 = 1 << 20;

/// The program `main:` points to, if `dir` holds a project file that sets it. A project file
/// that cannot be read, is not a regular file, is too large or is not valid YAML is an error,
/// as is a `main:` naming something that does not exist: the program's location is unknown.
pub fn pulumi_yaml_main(dir: &Path) -> Result<Option<PathBuf>, LoadError> {
    for name in ["Pulumi.yaml", "Pulumi.yml"] {
        let path = dir.join(name);
        match std::fs::metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(LoadError::cannot_read(path, e)),
            Ok(_) => {}
        }
        let text = read_project_file(&path)?;
        let main = main_of(&text).map_err(|error| LoadError::InvalidProjectFile {
            path: path.clone(),
            error,
        })?;
        let Some(main) = main else {
            return Ok(None);
        };
        let target = dir.join(main.trim_end_matches('/'));
        if !target.exists() {
            return Err(LoadError::MissingMain {
                project: path,
                main,
                target,
            });
        }
        return Ok(Some(target));
    }
    Ok(None)
}

fn read_project_file(path: &Path) -> Result<String, LoadError> {
    pcl_fs::read_text(path, pcl_fs::FileKind::ProjectFile, MAX_PROJECT_FILE)
        .map_err(|reason| LoadError::cannot_read(path, reason))
}

/// The top-level `main:` of a project file's first document, if set and not empty. Read from
/// the parser's events (an iterative state machine) rather than a built document, so that
/// deeply nested values cost no stack.
fn main_of(text: &str) -> Result<Option<String>, ProjectFileError> {
    let mut parser = Parser::new_from_str(text);
    // Depth of the current node: 1 inside the top-level mapping.
    let mut depth = 0usize;
    // Inside the top-level mapping: whether the next node at depth 1 is a key.
    let mut at_key = true;
    let mut value_of_main = false;
    let mut main = None;
    loop {
        let (event, mark) = parser
            .next_token()
            .map_err(|e| ProjectFileError::InvalidYaml {
                line: e.marker().line(),
                column: e.marker().col() + 1,
                info: e.info().to_owned(),
            })?;
        let not_a_string = || ProjectFileError::MainNotAString { line: mark.line() };
        match event {
            Event::StreamEnd | Event::DocumentEnd => break,
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                if depth == 1 && value_of_main {
                    return Err(not_a_string());
                }
                depth += 1;
            }
            Event::MappingEnd | Event::SequenceEnd => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    at_key = !at_key;
                }
            }
            Event::Scalar(value, ..) if depth == 1 => {
                if value_of_main {
                    main = Some(value);
                    value_of_main = false;
                } else if at_key && value == "main" {
                    value_of_main = true;
                }
                at_key = !at_key;
            }
            Event::Alias(..) if depth == 1 => {
                if value_of_main {
                    return Err(not_a_string());
                }
                at_key = !at_key;
            }
            _ => {}
        }
    }
    Ok(main.filter(|m| !m.trim().is_empty()))
}

#[cfg(test)]
mod tests {
    use super::main_of;

    #[test]
    fn main_is_read_as_yaml() {
        let cases = [
            ("name: x\nruntime: pcl\nmain: src\n", Ok(Some("src"))),
            ("main: src # where the program lives\n", Ok(Some("src"))),
            ("main: \"src dir/\"\n", Ok(Some("src dir/"))),
            ("main: 'a''b'\n", Ok(Some("a'b"))),
            ("name: x\n", Ok(None)),
            ("main: ''\n", Ok(None)),
            // Only the top level counts.
            (
                "template:\n  main: nested\n  config: {a: [1, {main: x}]}\nmain: top\n",
                Ok(Some("top")),
            ),
            ("options: {main: nested}\n", Ok(None)),
            // A key that is itself a mapping does not shift keys and values.
            ("? {a: 1}\n: main\nmain: real\n", Ok(Some("real"))),
            (
                "main:\n  - a\n",
                Err("line 2: `main` must be a string (the program's directory)"),
            ),
            ("name: [\n", Err("invalid YAML")),
            ("", Ok(None)),
        ];
        for (text, expected) in cases {
            let got = main_of(text);
            match expected {
                Ok(want) => assert_eq!(got, Ok(want.map(str::to_owned)), "{text:?}"),
                Err(prefix) => assert!(
                    got.as_ref()
                        .is_err_and(|e| e.to_string().starts_with(prefix)),
                    "{text:?}: {got:?}"
                ),
            }
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = format!(
            "a: {}{}\nmain: src\n",
            "[".repeat(200_000),
            "]".repeat(200_000)
        );
        let got = main_of(&text);
        assert!(
            got.as_ref()
                .is_err_and(|e| e.to_string().contains("recursion limit")),
            "{got:?}"
        );
    }
}
