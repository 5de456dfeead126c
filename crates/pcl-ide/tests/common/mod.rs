//! Fixtures in the style of rust-analyzer's `ide` tests: files separated by `#- path` lines,
//! the cursor marked `$0` (a range by two `$0`s), loaded into an [`AnalysisHost`] with the
//! bundled example schema (`examples/schemas/aws-6.0.0.json`). Every directory of the
//! fixture is a program, under `/ws`. Also the text of a host's diagnostics, every file at
//! once or each in turn, for the tests that compare hosts.
#![allow(dead_code)]

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_ide::{Analysis, AnalysisHost, Change, FilePosition, FileRange, TextRange, TextSize};

pub const ROOT: &str = "/ws";
const SCHEMA: &str = include_str!("../../../../examples/schemas/aws-6.0.0.json");
/// A package with what the example schema lacks: a secret input.
const DEMO_SCHEMA: &str = r##"{
  "name": "demo",
  "version": "1.0.0",
  "resources": {
    "demo:index:Database": {
      "description": "A database.",
      "inputProperties": {
        "password": {"type": "string", "secret": true, "description": "The administrator's password."},
        "size": {"type": "integer"}
      },
      "requiredInputs": ["password"],
      "properties": {
        "endpoint": {"type": "string"}
      }
    },
    "demo:index:Probe": {
      "inputProperties": {
        "check": {"$ref": "#/types/demo:index:HttpCheck"}
      },
      "requiredInputs": ["check"]
    }
  },
  "functions": {
    "demo:index:getZone": {
      "inputs": {
        "properties": {
          "name": {"type": "string", "description": "The zone's domain name."},
          "private": {"type": "boolean"}
        },
        "required": ["name"]
      },
      "outputs": {
        "properties": {
          "id": {"type": "string"},
          "nameServers": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["id", "nameServers"]
      }
    }
  },
  "types": {
    "demo:index:HttpCheck": {
      "type": "object",
      "properties": {
        "kind": {"type": "string", "const": "http"},
        "path": {"type": "string"},
        "port": {"type": "integer"}
      },
      "required": ["kind", "path"]
    }
  }
}"##;

pub struct Fixture {
    pub host: AnalysisHost,
    /// The files as written, without the cursor marks.
    pub files: Vec<(PathBuf, String)>,
    /// Where `$0` was.
    pub position: Option<FilePosition>,
    /// Between two `$0`s.
    pub range: Option<FileRange>,
}

impl Fixture {
    pub fn analysis(&self) -> Analysis {
        self.host.analysis()
    }

    pub fn position(&self) -> FilePosition {
        self.position.clone().expect("the fixture has no $0")
    }

    pub fn text(&self, path: &Path) -> &str {
        &self
            .files
            .iter()
            .find(|(p, _)| p == path)
            .unwrap_or_else(|| panic!("no file {}", path.display()))
            .1
    }

    /// `file:line:col-line:col "text"` (paths relative to the fixture root).
    pub fn show(&self, range: &FileRange) -> String {
        let text = self.text(&range.file);
        let start = usize::from(range.range.start());
        let end = usize::from(range.range.end());
        format!(
            "{}:{} {:?}",
            relative(&range.file),
            span(text, range.range),
            &text[start..end]
        )
    }
}

pub fn relative(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap_or(path)
        .display()
        .to_string()
}

pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

pub fn span(text: &str, range: TextRange) -> String {
    let (l1, c1) = line_col(text, range.start().into());
    let (l2, c2) = line_col(text, range.end().into());
    format!("{l1}:{c1}-{l2}:{c2}")
}

/// Loads a fixture.
pub fn fixture(text: &str) -> Fixture {
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    let mut current: Option<(PathBuf, String)> = None;
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix("#- ") {
            // Blank lines before the first file are not a file.
            files.extend(current.take().filter(|(_, t)| !t.trim().is_empty()));
            current = Some((Path::new(ROOT).join(name.trim()), String::new()));
        } else {
            current
                .get_or_insert_with(|| (Path::new(ROOT).join("main.pp"), String::new()))
                .1
                .push_str(line);
        }
    }
    files.extend(current);
    let mut position = None;
    let mut range = None;
    for (path, text) in &mut files {
        let marks: Vec<usize> = text.match_indices("$0").map(|(i, _)| i).collect();
        match marks.as_slice() {
            [] => {}
            [at] => {
                position = Some(FilePosition {
                    file: path.clone(),
                    offset: TextSize::from(*at as u32),
                });
            }
            [start, end] => {
                let end = end - 2;
                position = Some(FilePosition {
                    file: path.clone(),
                    offset: TextSize::from(*start as u32),
                });
                range = Some(FileRange {
                    file: path.clone(),
                    range: TextRange::new(
                        TextSize::from(*start as u32),
                        TextSize::from(end as u32),
                    ),
                });
            }
            _ => panic!("more than two $0 in {}", path.display()),
        }
        *text = text.replace("$0", "");
    }
    let mut host = AnalysisHost::new();
    let mut change = Change::new();
    change.set_schema_files(
        vec![PathBuf::from("/schemas")],
        vec![
            pcl_db::SchemaFileSpec {
                path: PathBuf::from("/schemas/aws-6.0.0.json"),
                package: "aws".to_string(),
                version: Some("6.0.0".to_string()),
                text: Some(Arc::from(SCHEMA)),
            },
            pcl_db::SchemaFileSpec {
                path: PathBuf::from("/schemas/demo-1.0.0.json"),
                package: "demo".to_string(),
                version: Some("1.0.0".to_string()),
                text: Some(Arc::from(DEMO_SCHEMA)),
            },
        ],
    );
    let mut programs: std::collections::BTreeMap<PathBuf, Vec<PathBuf>> = Default::default();
    for (path, text) in &files {
        change.set_file_text(path.clone(), text.clone());
        programs
            .entry(path.parent().unwrap().to_path_buf())
            .or_default()
            .push(path.clone());
    }
    for (root, files) in programs {
        change.set_program(root, files);
    }
    host.apply_change(change);
    Fixture {
        host,
        files,
        position,
        range,
    }
}

/// Diagnostics of every file, one per line.
pub fn render_diagnostics(fixture: &Fixture) -> String {
    let analysis = fixture.analysis();
    let mut out = String::new();
    for (path, text) in &fixture.files {
        for d in analysis.diagnostics(path).unwrap() {
            let _ = writeln!(
                out,
                "{}:{} {}[{}] {}",
                relative(path),
                span(text, d.range),
                d.severity,
                d.code.as_str(),
                d.message
            );
        }
    }
    out
}

/// Every file's diagnostics of a host, as text.
pub fn workspace(host: &AnalysisHost) -> String {
    host.analysis()
        .workspace_diagnostics()
        .unwrap()
        .iter()
        .map(|(path, diagnostics)| format!("{}: {diagnostics:#?}\n", path.display()))
        .collect()
}

/// Each file's diagnostics asked for in turn, as a language server does after the check of
/// every file (files nobody has open then answer without ordering their nodes again), in the
/// format of [`workspace`].
pub fn each_file(host: &AnalysisHost) -> String {
    let analysis = host.analysis();
    let mut files = analysis.files().unwrap();
    files.sort();
    files
        .iter()
        .map(|path| {
            let diagnostics = analysis.diagnostics(path).unwrap();
            format!("{}: {diagnostics:#?}\n", path.display())
        })
        .collect()
}
