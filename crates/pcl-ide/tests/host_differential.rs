//! The host as an editor drives it, against a fresh one, on real programs: each corpus
//! program is copied to a directory (with its components), loaded, one of its files opened,
//! and edited at random
//! (the edits of the `edit_script` fuzz target: deletions, snippets that break or complete
//! syntax, pieces copied; some undone), files opened and closed and others changed on disk
//! along the way. After every change, every file's diagnostics, and the open files' asked one
//! by one, must be what a host that loads the same files from disk reports. This drives what
//! the semantic layer's differential test does not: the host's publication rounds, what it
//! takes as settled after a keystroke, the walk of the open files and the reparse of each
//! keystroke from the last tree.
//!
//! `PCL_HOST_DIFF_EDITS` sets the number of changes per program (default 6), and
//! `PCL_HOST_DIFF_SEED` the random seed; `docs/testing.md` records long runs.
//!
//! A second test makes the edits that change what closed files read of an open file, on
//! programs whose files read each other's names (the multi-file binding cases, generated
//! programs, a long chain of locals): declarations renamed and renamed back, names other files
//! use or declare declared, declarations deleted, literals' types changed, cycles closed
//! through other files. After such a keystroke every file's diagnostics walk only the closed
//! nodes that read the names' slots written since the last wide change; each step asks for
//! them first (sometimes a closed file's diagnostics and a hover in it first), then each
//! file's, and compares them with a fresh host's. `PCL_DIFF_EDITS` sets its number of changes
//! per program (default 60; a fifth of it for the chain) and `PCL_DIFF_SEED` its seed.

use std::path::{Path, PathBuf};

use pcl_ide::{AnalysisHost, Change};
use pcl_test_support::{Failures, Rng};

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn host(dir: &Path, schemas: &Path) -> AnalysisHost {
    let mut host = AnalysisHost::new();
    host.set_schema_dirs(vec![schemas.to_path_buf()]);
    host.load_program(dir);
    host
}

/// A host that loads from disk the directories of the programs `host` has loaded (the program
/// at `dir`, its components, and those of component blocks typed since): a host keeps a
/// program it loaded whatever the edits do to the component blocks that named it, so the
/// fresh host loads them all too.
fn fresh_host(host: &AnalysisHost, dir: &Path, schemas: &Path) -> AnalysisHost {
    let mut roots: Vec<PathBuf> = host
        .analysis()
        .files()
        .unwrap()
        .iter()
        .filter_map(|f| f.parent().map(Path::to_path_buf))
        .filter(|root| root != dir)
        .collect();
    roots.sort();
    roots.dedup();
    let mut fresh = self::host(dir, schemas);
    for root in &roots {
        fresh.load_program(root);
    }
    fresh
}

/// Every file's diagnostics, rendered; and the open files' asked one by one must be the same.
fn observe(host: &AnalysisHost, open: &[PathBuf]) -> String {
    let analysis = host.analysis();
    let all = analysis.workspace_diagnostics().unwrap();
    for file in open {
        let each = analysis.diagnostics(file).unwrap();
        let listed = all.iter().find(|(path, _)| path == file).map(|(_, d)| d);
        assert_eq!(Some(&each), listed, "{} asked on its own", file.display());
    }
    format!("{all:#?}")
}

fn run(name: &str, source: &Path, schemas: &Path, changes: usize, seed: u64) {
    let scratch = pcl_test_support::TempDir::new(&format!(
        "host-diff-{}",
        source.file_name().unwrap().to_string_lossy()
    ));
    let dir = scratch.to_path_buf();
    // The program's files, then those of the directories below it (its components): edited,
    // opened and closed like the others.
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    copy_pp_files(source, &dir, &mut files);
    if files.is_empty() || files[0].0.parent() != Some(dir.as_path()) {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let mut rng = Rng(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut host = host(&dir, schemas);
    let mut open = vec![false; files.len()];
    open[0] = true;
    let mut change = Change::new();
    change.set_file_text(files[0].0.clone(), files[0].1.clone());
    host.apply_change(change);
    let mut undo: Option<(usize, String)> = None;
    for step in 0..changes {
        let mut change = Change::new();
        let what;
        if rng.below(8) == 0 {
            // Open or close a file (an open file closes with its text saved).
            let i = rng.below(files.len());
            open[i] = !open[i];
            if open[i] {
                change.set_file_text(files[i].0.clone(), files[i].1.clone());
            } else {
                change.close_file(files[i].0.clone());
            }
            what = format!("{} {}", if open[i] { "open" } else { "close" }, i);
        } else {
            let edit = match undo.take() {
                Some(previous) if rng.below(4) == 0 => Err(previous),
                _ => {
                    let bytes: Vec<u8> = (0..4).map(|_| rng.next_u64() as u8).collect();
                    let decoded = pcl_invariants::edits::decode_script(&bytes);
                    Ok(decoded.into_iter().next())
                }
            };
            let changed = match edit {
                Err((i, previous)) => {
                    files[i].1 = previous;
                    Some(i)
                }
                Ok(Some(edit)) => {
                    let changed = pcl_invariants::edits::apply(&mut files, &edit);
                    undo = changed.clone();
                    changed.map(|(i, _)| i)
                }
                Ok(None) => None,
            };
            let Some(i) = changed else { continue };
            std::fs::write(&files[i].0, &files[i].1).unwrap();
            if open[i] {
                change.set_file_text(files[i].0.clone(), files[i].1.clone());
            } else {
                change.file_changed_on_disk(files[i].0.clone());
            }
            what = format!(
                "edit of file {i} ({})",
                if open[i] { "open" } else { "closed" }
            );
        }
        host.apply_change(change);
        let open_files: Vec<PathBuf> = files
            .iter()
            .zip(&open)
            .filter(|(_, o)| **o)
            .map(|((p, _), _)| p.clone())
            .collect();
        let incremental = observe(&host, &open_files);
        let fresh = observe(&fresh_host(&host, &dir, schemas), &[]);
        assert!(
            incremental == fresh,
            "{name}: step {step} (seed {seed}): {what}: the host differs from a fresh one\n{}",
            files
                .iter()
                .map(|(p, t)| format!("--- {} ---\n{t}", p.display()))
                .collect::<String>()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Copies the `.pp` files of `from` into `to`, then those of each directory below, in path
/// order, adding each copy and its text to `files`.
fn copy_pp_files(from: &Path, to: &Path, files: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(from)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
    {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let copy = to.join(path.file_name().unwrap());
        std::fs::write(&copy, &text).unwrap();
        files.push((copy, text));
    }
    for path in entries.iter().filter(|p| p.is_dir()) {
        let below = to.join(path.file_name().unwrap());
        std::fs::create_dir_all(&below).unwrap();
        copy_pp_files(path, &below, files);
    }
}

#[test]
fn corpus_programs_edited_as_in_an_editor_report_what_a_fresh_host_reports() {
    let Some(root) = pcl_test_support::corpus("corpus/pulumi/programs") else {
        return;
    };
    let changes = setting("PCL_HOST_DIFF_EDITS", 6) as usize;
    let seed = setting("PCL_HOST_DIFF_SEED", 1);
    let schemas = root.join("../schemas/codegen-old");
    let dirs = pcl_test_support::edited_corpus_programs(&root);
    let mut failures = Failures::new();
    for (i, dir) in dirs.iter().enumerate() {
        let name = dir.display().to_string();
        failures.check(&name, || {
            run(&name, dir, &schemas, changes, seed + 1000 + i as u64);
            Vec::new()
        });
    }
    failures.finish("corpus programs");
}

/// Words of the language and of blocks: not names an edit declares.
const KEYWORDS: &[&str] = &[
    "output",
    "config",
    "resource",
    "component",
    "package",
    "value",
    "default",
    "options",
    "range",
    "true",
    "false",
    "null",
    "for",
    "in",
    "if",
    "string",
    "int",
    "bool",
    "number",
    "name",
    "tags",
    "demo",
];

/// A top-level declaration of a file, found by its first line.
struct Decl {
    name: String,
    /// Where the name is in the text.
    name_at: usize,
    /// Its lines, closing brace or bracket included.
    span: (usize, usize),
    /// `name = value` (a local); otherwise a block.
    local: bool,
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The name at the start of `text`, if any.
fn leading_name(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    if !bytes.first().copied().is_some_and(is_name_start) {
        return None;
    }
    let end = bytes
        .iter()
        .position(|&c| !is_name_char(c))
        .unwrap_or(bytes.len());
    Some(&text[..end])
}

/// The top-level declarations of `text`: lines `name = ...` and blocks `kind name ...` at
/// column 0, each up to the line that closes what its first line opened.
fn declarations(text: &str) -> Vec<Decl> {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        lines.push((at, line));
        at += line.len();
    }
    let mut out = Vec::new();
    for (i, &(start, line)) in lines.iter().enumerate() {
        let Some(first) = leading_name(line) else {
            continue;
        };
        let rest = &line[first.len()..];
        let (name, name_at, local) =
            if rest.trim_start().starts_with('=') && !rest.trim_start().starts_with("=>") {
                (first, start, true)
            } else if ["output", "config", "resource", "component"].contains(&first) {
                let after = rest.trim_start();
                let Some(name) = leading_name(after) else {
                    continue;
                };
                (name, start + line.len() - after.len(), false)
            } else {
                continue;
            };
        let opens = line.trim_end().ends_with('{') || line.trim_end().ends_with('[');
        let end = if opens {
            lines[i + 1..]
                .iter()
                .find(|(_, l)| l.starts_with('}') || l.starts_with(']'))
                .map_or(start + line.len(), |(s, l)| s + l.len())
        } else {
            start + line.len()
        };
        out.push(Decl {
            name: name.to_string(),
            name_at,
            span: (start, end),
            local,
        });
    }
    out
}

/// The names in `text`, keywords left out, with where each is.
fn names_in(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if is_name_start(bytes[i]) && (i == 0 || !is_name_char(bytes[i - 1])) {
            let end = (i..bytes.len())
                .find(|&j| !is_name_char(bytes[j]))
                .unwrap_or(bytes.len());
            let word = &text[i..end];
            if !KEYWORDS.contains(&word) {
                out.push((i, word));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The literals of `text` an edit can change the type of: numbers, `true`/`false`, and
/// strings without interpolations on one line.
fn literals(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let after_name = i > 0 && is_name_char(bytes[i - 1]);
        if c.is_ascii_digit() && !after_name {
            let end = (i..bytes.len())
                .find(|&j| !bytes[j].is_ascii_digit())
                .unwrap_or(bytes.len());
            out.push((i, end));
            i = end;
        } else if c == b'"' {
            let end = (i + 1..bytes.len()).find(|&j| bytes[j] == b'"' || bytes[j] == b'\n');
            match end {
                Some(end) if bytes[end] == b'"' => {
                    if !text[i..end].contains("${") && !text[i..end].contains("%{") {
                        out.push((i, end + 1));
                    }
                    i = end + 1;
                }
                _ => i += 1,
            }
        } else if !after_name
            && (bytes[i..].starts_with(b"true") || bytes[i..].starts_with(b"false"))
        {
            let end = i + if bytes[i..].starts_with(b"true") {
                4
            } else {
                5
            };
            if !bytes.get(end).copied().is_some_and(is_name_char) {
                out.push((i, end));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// Literals of each type, for an edit to swap one for another.
const LITERALS: &[&str] = &["1", "\"one\"", "true", "[1, 2]", "{ a = 1 }", "null", "2.5"];

/// A program being edited: its files (path and text, as on disk) and which are open.
struct Edited {
    files: Vec<(PathBuf, String)>,
    open: Vec<bool>,
    /// Declarations renamed in open files (file, old name, new name), to rename back.
    renamed: Vec<(usize, String, String)>,
    /// Per open file edited, the names most of its edits are about: up to two locals other
    /// files use, chosen at its first edit. A slot written at `MEDIUM` twice in a row is
    /// what makes the walk visit only the closed nodes that read it.
    focus: Vec<(usize, String)>,
    /// How often (in 8) an edit is of a focus name.
    focus_odds: usize,
}

impl Edited {
    /// The names declared in files other than `file`, and those used there.
    fn names_of_others(&self, file: usize) -> (Vec<String>, Vec<String>) {
        let mut declared = Vec::new();
        let mut used = Vec::new();
        for (i, (_, text)) in self.files.iter().enumerate() {
            if i == file {
                continue;
            }
            let decls = declarations(text);
            declared.extend(decls.iter().map(|d| d.name.clone()));
            used.extend(
                names_in(text)
                    .into_iter()
                    .filter(|(at, _)| !decls.iter().any(|d| d.name_at == *at))
                    .map(|(_, n)| n.to_string()),
            );
        }
        declared.sort();
        declared.dedup();
        used.sort();
        used.dedup();
        (declared, used)
    }

    /// One random edit of the open file `file`, mostly of names other files read: its new
    /// text and what it did; `None` when the edit found nothing to do.
    fn name_edit(&mut self, rng: &mut Rng, file: usize) -> Option<(String, String)> {
        if !self.focus.iter().any(|(f, _)| *f == file) {
            let (_, used) = self.names_of_others(file);
            let mut hot: Vec<String> = declarations(&self.files[file].1)
                .into_iter()
                .filter(|d| d.local && used.contains(&d.name))
                .map(|d| d.name)
                .collect();
            while hot.len() > 2 {
                hot.remove(rng.below(hot.len()));
            }
            // An empty name marks the file as looked at.
            hot.push(String::new());
            self.focus.extend(hot.into_iter().map(|name| (file, name)));
        }
        let hot: Vec<&String> = self
            .focus
            .iter()
            .filter(|(f, name)| *f == file && !name.is_empty())
            .map(|(_, name)| name)
            .collect();
        if !hot.is_empty() && rng.below(8) < self.focus_odds {
            let name = hot[rng.below(hot.len())].clone();
            return Some(self.focus_edit(rng, file, &name));
        }
        let text = &self.files[file].1;
        let decls = declarations(text);
        let (declared, used) = self.names_of_others(file);
        let pick = |rng: &mut Rng, from: &[String]| -> Option<String> {
            (!from.is_empty()).then(|| from[rng.below(from.len())].clone())
        };
        let splice = |(start, end): (usize, usize), with: &str| {
            format!("{}{with}{}", &text[..start], &text[end..])
        };
        match rng.below(20) {
            // Rename a declaration: to a fresh name, or to one another file declares or uses.
            0..=3 => {
                let decl = decls.get(rng.below(decls.len().max(1)))?;
                let to = match rng.below(3) {
                    0 => pick(rng, &declared)?,
                    1 => pick(rng, &used)?,
                    _ => format!("{}x", decl.name),
                };
                let new = splice((decl.name_at, decl.name_at + decl.name.len()), &to);
                self.renamed.push((file, decl.name.clone(), to.clone()));
                Some((new, format!("rename {} to {to}", decl.name)))
            }
            // Rename one back.
            4 | 5 => {
                let here: Vec<&(usize, String, String)> =
                    self.renamed.iter().filter(|(f, _, _)| *f == file).collect();
                let (_, from, to) = (*here.get(rng.below(here.len().max(1)))?).clone();
                let decl = decls.iter().find(|d| d.name == to)?;
                let new = splice((decl.name_at, decl.name_at + to.len()), &from);
                Some((new, format!("rename {to} back to {from}")))
            }
            // Declare a name another file uses or declares (first or last: both orders).
            6..=8 => {
                let name = if rng.below(2) == 0 {
                    pick(rng, &used)?
                } else {
                    pick(rng, &declared)?
                };
                let value = self.value(rng, file);
                let decl = match rng.below(4) {
                    0 => format!("output {name} {{\n  value = {value}\n}}\n"),
                    1 => format!("config {name} int {{\n  default = 3\n}}\n"),
                    _ => format!("{name} = {value}\n"),
                };
                let new = if rng.below(3) == 0 {
                    format!("{decl}{text}")
                } else if text.ends_with('\n') || text.is_empty() {
                    format!("{text}{decl}")
                } else {
                    format!("{text}\n{decl}")
                };
                Some((new, format!("declare {name}")))
            }
            // Delete a declaration.
            9 | 10 => {
                let decl = decls.get(rng.below(decls.len().max(1)))?;
                Some((splice(decl.span, ""), format!("delete {}", decl.name)))
            }
            // Change the type of a literal.
            11..=13 => {
                let all = literals(text);
                let at = *all.get(rng.below(all.len().max(1)))?;
                let old = &text[at.0..at.1];
                let to = LITERALS
                    .iter()
                    .copied()
                    .filter(|l| *l != old)
                    .nth(rng.below(LITERALS.len() - 1))?;
                Some((splice(at, to), format!("literal {old} to {to}")))
            }
            // Close a cycle through another file: a local of this file that a local there
            // uses now uses that local.
            14 | 15 => {
                let mut pairs: Vec<(usize, String)> = Vec::new();
                for (i, (_, other)) in self.files.iter().enumerate() {
                    if i == file {
                        continue;
                    }
                    for e in declarations(other).iter().filter(|d| d.local) {
                        for (_, word) in names_in(&other[e.span.0..e.span.1]).into_iter().skip(1) {
                            if let Some(u) = decls.iter().position(|d| d.local && d.name == word) {
                                pairs.push((u, e.name.clone()));
                            }
                        }
                    }
                }
                let (u, e) = pairs.get(rng.below(pairs.len().max(1)))?.clone();
                let decl = &decls[u];
                let new = splice(decl.span, &format!("{} = [{e}]\n", decl.name));
                Some((new, format!("cycle {} -> {e}", decl.name)))
            }
            // A keystroke no other file reads, as most keystrokes are.
            16 | 17 => {
                let fresh = format!("alone{}", rng.below(1000));
                let new = if rng.below(2) == 0 {
                    format!("{text}\n{fresh} = {}\n", rng.below(100))
                } else {
                    format!("# {fresh}\n{text}")
                };
                Some((new, format!("keystroke {fresh}")))
            }
            // A snippet anywhere (syntax broken or completed).
            _ => {
                let mut at = rng.below(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                let snippet = SNIPPETS[rng.below(SNIPPETS.len())];
                Some((
                    splice((at, at), snippet),
                    format!("snippet {snippet:?} at {at}"),
                ))
            }
        }
    }

    /// An edit of the declaration of `name` in `file`: its value's type changed, renamed or
    /// renamed back, deleted or declared again.
    fn focus_edit(&self, rng: &mut Rng, file: usize, name: &str) -> (String, String) {
        let text = &self.files[file].1;
        let renamed = format!("{name}x");
        let value = LITERALS[rng.below(LITERALS.len())];
        let (span, line) = match declarations(text)
            .iter()
            .find(|d| d.name == name || d.name == renamed)
        {
            None => ((text.len(), text.len()), format!("{name} = {value}\n")),
            Some(decl) => {
                let line = match rng.below(4) {
                    0 if decl.name == name => format!("{renamed} = {value}\n"),
                    1 => String::new(),
                    _ => format!("{name} = {value}\n"),
                };
                (decl.span, line)
            }
        };
        let new = format!("{}{line}{}", &text[..span.0], &text[span.1..]);
        let what = match line.trim_end() {
            "" => format!("delete {name}"),
            line => format!("make {name} `{line}`"),
        };
        (new, what)
    }

    /// A value for a new declaration in `file`: a literal or a use of names of other files.
    fn value(&self, rng: &mut Rng, file: usize) -> String {
        let (declared, _) = self.names_of_others(file);
        let name = |rng: &mut Rng| -> String {
            if declared.is_empty() {
                "1".to_string()
            } else {
                declared[rng.below(declared.len())].clone()
            }
        };
        match rng.below(5) {
            0 => LITERALS[rng.below(LITERALS.len())].to_string(),
            1 => format!("\"${{{}}}-s\"", name(rng)),
            2 => format!("{} + 1", name(rng)),
            3 => format!("[{}, {}]", name(rng), name(rng)),
            _ => name(rng),
        }
    }
}

use pcl_invariants::edits::SNIPPETS;

/// A program of `count` files (3 to 5) that read each other's names: a local every other file
/// uses (`shared`), a chain of locals across the files (`link0` to `linkN`), and in each file a
/// few locals, configs, resources (typed from their schema alone) and outputs using names of
/// any file, now and then a name another file declares too.
fn generated_program(rng: &mut Rng, count: usize) -> Vec<(String, String)> {
    const BASES: &[&str] = &["size", "label", "region", "prefix", "items", "total", "mid"];
    // (file, name, kind): kind 0 local, 1 config, 2 resource, 3 output.
    let mut decls: Vec<(usize, String, usize)> = Vec::new();
    for f in 0..count {
        decls.push((f, format!("link{f}"), 0));
        if f == 0 {
            decls.push((0, "shared".to_string(), rng.below(2)));
        }
        for _ in 0..1 + rng.below(3) {
            let name = format!("{}{f}", BASES[rng.below(BASES.len())]);
            if !decls.iter().any(|(_, n, _)| *n == name) {
                decls.push((f, name, [0, 0, 0, 1, 2, 3][rng.below(6)]));
            }
        }
    }
    if rng.below(2) == 0 {
        // A name declared twice, in two files.
        let (_, name, kind) = decls[rng.below(decls.len())].clone();
        decls.push((rng.below(count), name, kind));
    }
    let referable: Vec<(usize, String, usize)> =
        decls.iter().filter(|d| d.2 != 3).cloned().collect();
    let use_of = |rng: &mut Rng, f: usize| -> String {
        // Mostly names of earlier files (few cycles), sometimes any, sometimes none.
        let earlier: Vec<&(usize, String, usize)> = referable
            .iter()
            .filter(|d| d.0 < f || rng.below(5) == 0)
            .collect();
        match earlier.get(rng.below(earlier.len().max(1))) {
            _ if rng.below(12) == 0 => "undefinedName".to_string(),
            Some((_, name, 2)) => format!("{name}.name"),
            Some((_, name, _)) => name.clone(),
            None => "2".to_string(),
        }
    };
    let mut texts = vec![String::new(); count];
    for (f, name, kind) in &decls {
        let value = if let Some(i) = name.strip_prefix("link") {
            let i: usize = i.parse().unwrap_or(0);
            if i == 0 {
                "\"l\"".to_string()
            } else {
                format!("\"${{link{}}}-{i}\"", i - 1)
            }
        } else {
            match rng.below(5) {
                0 => LITERALS[rng.below(3)].to_string(),
                1 => format!("\"${{{}}}\"", use_of(rng, *f)),
                2 => format!("[{}, {}]", use_of(rng, *f), use_of(rng, *f)),
                _ => use_of(rng, *f),
            }
        };
        let decl = match kind {
            1 => format!("config {name} string {{\n  default = \"c\"\n}}\n"),
            2 => format!("resource {name} \"demo:storage/bucket:Bucket\" {{\n  name = \"${{{value}}}\"\n}}\n"),
            3 => format!("output {name} {{\n  value = {value}\n}}\n"),
            _ => format!("{name} = {value}\n"),
        };
        texts[*f].push_str(&decl);
    }
    for (f, text) in texts.iter_mut().enumerate().skip(1) {
        text.push_str(&format!("fromShared{f} = \"${{shared}}-{f}\"\n"));
    }
    texts
        .into_iter()
        .enumerate()
        .map(|(f, text)| (format!("f{f}.pp"), text))
        .collect()
}

/// The locals of the long chain of [`chain_program`]: enough that anything recursing
/// through the chain overflows a test thread's stack.
const CHAIN: usize = 3_000;

/// The stack of the thread that edits [`chain_program`]: enough for everything a host does
/// without recursing through a chain.
const CHAIN_STACK: usize = 512 << 10;

/// A closed file with a chain of [`CHAIN`] locals written from the top, whose bottom reads
/// the open file's `head`, and another closed file using the chain's top and `head`: after a
/// keystroke that changes what `head` is, the walk of every file must check the chain
/// bottom-up (anything else verifies it recursively).
fn chain_program() -> Vec<(String, String)> {
    let mut chain = String::new();
    for i in (1..=CHAIN).rev() {
        chain.push_str(&format!("l{i} = l{}\n", i - 1));
    }
    chain.push_str("l0 = head\n");
    vec![
        ("a.pp".to_string(), "head = 1\nalone = 2\n".to_string()),
        ("chain.pp".to_string(), chain),
        (
            "user.pp".to_string(),
            format!("top = l{CHAIN}\nother = head\n"),
        ),
    ]
}

/// Every file's diagnostics, each file's asked on its own, and (`early`) a closed file's
/// diagnostics and a hover in it asked before them, each compared with a fresh host loaded
/// from disk; what differs.
fn compare_with_fresh(
    host: &AnalysisHost,
    dir: &Path,
    schemas: &Path,
    early: Option<&Path>,
    rng: &mut Rng,
) -> Vec<String> {
    let analysis = host.analysis();
    let early = early.map(|file| {
        let text = std::fs::read_to_string(file).unwrap();
        let names = names_in(&text);
        let offset = names.get(rng.below(names.len().max(1))).map_or(0, |n| n.0);
        let at = pcl_ide::FilePosition {
            file: file.to_path_buf(),
            offset: (offset as u32).into(),
        };
        let diagnostics = analysis.diagnostics(file).unwrap();
        let hover = analysis.hover(&at).unwrap();
        (at, diagnostics, hover)
    });
    // The walk under test: first, unless a closed file was asked before it.
    let all = analysis.workspace_diagnostics().unwrap();
    let mut problems = Vec::new();
    let listed = |all: &[(PathBuf, Vec<pcl_diagnostics::Diagnostic>)], file: &Path| {
        all.iter()
            .find(|(path, _)| path == file)
            .map(|(_, d)| d.clone())
            .unwrap_or_default()
    };
    for file in analysis.files().unwrap() {
        let each = analysis.diagnostics(&file).unwrap();
        if each != listed(&all, &file) {
            problems.push(format!(
                "{} asked on its own: {each:#?}\nin every file's: {:#?}",
                file.display(),
                listed(&all, &file)
            ));
        }
    }
    let fresh = fresh_host(host, dir, schemas).analysis();
    let expected = fresh.workspace_diagnostics().unwrap();
    if all != expected {
        problems.push(format!(
            "every file's diagnostics: {all:#?}\na fresh host's: {expected:#?}"
        ));
    }
    if let Some((at, diagnostics, hover)) = early {
        if diagnostics != listed(&expected, &at.file) {
            problems.push(format!(
                "{} asked first: {diagnostics:#?}\na fresh host's: {:#?}",
                at.file.display(),
                listed(&expected, &at.file)
            ));
        }
        let fresh_hover = fresh.hover(&at).unwrap();
        if hover != fresh_hover {
            problems.push(format!(
                "hover at {} of {} asked first: {hover:#?}\na fresh host's: {fresh_hover:#?}",
                u32::from(at.offset),
                at.file.display()
            ));
        }
    }
    problems
}

impl Edited {
    /// `files`, the first `opened` of them open; `focus_odds` as the field.
    fn new(files: Vec<(PathBuf, String)>, opened: usize, focus_odds: usize) -> Edited {
        Edited {
            open: (0..files.len()).map(|i| i < opened).collect(),
            files,
            renamed: Vec::new(),
            focus: Vec::new(),
            focus_odds,
        }
    }
}

/// Loads the program written at `dir` (as `state` has it), opens its open files, checks
/// every file, then makes `edits` changes (edits of open files, files opened and closed),
/// each compared with a fresh host; panics at the first difference.
fn run_name_edits(
    name: &str,
    dir: &Path,
    mut state: Edited,
    schemas: &Path,
    edits: usize,
    seed: u64,
) {
    let mut rng = Rng(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut host = host(dir, schemas);
    let mut change = Change::new();
    for (i, (path, text)) in state.files.iter().enumerate() {
        if state.open[i] {
            change.set_file_text(path.clone(), text.clone());
        }
    }
    host.apply_change(change);
    host.analysis().workspace_diagnostics().unwrap();
    for step in 0..edits {
        let open: Vec<usize> = (0..state.files.len()).filter(|&i| state.open[i]).collect();
        let mut change = Change::new();
        let what = if open.is_empty() || rng.below(16) == 0 {
            // Open or close a file (an open file closes with its text saved).
            let i = rng.below(state.files.len());
            state.open[i] = !state.open[i];
            let (path, text) = &state.files[i];
            if state.open[i] {
                change.set_file_text(path.clone(), text.clone());
            } else {
                change.close_file(path.clone());
            }
            format!(
                "{} {}",
                if state.open[i] { "open" } else { "close" },
                path.display()
            )
        } else {
            let i = open[rng.below(open.len())];
            let Some((text, what)) = state.name_edit(&mut rng, i) else {
                continue;
            };
            state.files[i].1 = text.clone();
            let path = state.files[i].0.clone();
            std::fs::write(&path, &text).unwrap();
            let what = format!("{what} in {}", path.display());
            change.set_file_text(path, text);
            what
        };
        host.apply_change(change);
        // Sometimes a closed file is asked first, as a server asks file by file.
        let closed: Vec<&Path> = (0..state.files.len())
            .filter(|&i| !state.open[i])
            .map(|i| state.files[i].0.as_path())
            .collect();
        let early =
            (rng.below(4) == 0 && !closed.is_empty()).then(|| closed[rng.below(closed.len())]);
        let problems = compare_with_fresh(&host, dir, schemas, early, &mut rng);
        let open: Vec<String> = (0..state.files.len())
            .filter(|&i| state.open[i])
            .map(|i| state.files[i].0.display().to_string())
            .collect();
        assert!(
            problems.is_empty(),
            "{name}: step {step} (seed {seed}): {what} (open: {open:?}, {} first): the host \
             differs from a fresh one:\n{}\n{}",
            early.map_or("every file".to_string(), |f| f.display().to_string()),
            problems.join("\n"),
            state
                .files
                .iter()
                .map(|(p, t)| format!("--- {} ---\n{t}", p.display()))
                .collect::<String>()
        );
    }
}

/// Writes `files` (relative paths and texts) into `dir`.
fn write_program(dir: &Path, files: &[(String, String)]) -> Vec<(PathBuf, String)> {
    files
        .iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            (path, text.clone())
        })
        .collect()
}

/// Keystrokes in open files that other files read (declarations renamed and renamed back,
/// names other files use or declare declared, declarations deleted, literals' types changed,
/// cycles closed through other files), with files opened and closed: after each, every file's
/// diagnostics (the walk of only the closed nodes that read what changed), each file's on its
/// own, and sometimes a closed file's and a hover in it before them, are a fresh host's. On
/// the multi-file binding cases, generated programs of 3 to 5 files reading each other's
/// names, and a long chain of locals above a name of the open file.
#[test]
fn name_edits_of_open_files_report_what_a_fresh_host_reports() {
    let edits = setting("PCL_DIFF_EDITS", 60) as usize;
    let seed = setting("PCL_DIFF_SEED", 1);
    let root = pcl_test_support::workspace_root();
    let schemas = root.join("test_data/schemas/binding");
    let mut failures = Failures::new();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root.join("test_data/programs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    for (i, case) in cases.iter().enumerate() {
        let name = case.display().to_string();
        let scratch = pcl_test_support::TempDir::new(&format!("host-names-case-{i}"));
        let mut files = Vec::new();
        copy_pp_files(case, &scratch, &mut files);
        if files.len() < 2 {
            continue;
        }
        // The program's own files first: those opened.
        files.sort_by_key(|(p, _)| p.parent() != Some(scratch.path()));
        let opened = 1 + (seed as usize + i) % 2;
        failures.check(&name, || {
            let state = Edited::new(files, opened, 4);
            run_name_edits(&name, &scratch, state, &schemas, edits, seed + i as u64);
            Vec::new()
        });
    }
    let mut rng = Rng(seed ^ 0x5851_F42D_4C95_7F2D);
    for g in 0..12 {
        let program = generated_program(&mut rng, 3 + g % 3);
        let scratch = pcl_test_support::TempDir::new(&format!("host-names-gen-{g}"));
        let files = write_program(&scratch, &program);
        let name = format!("generated program {g}");
        failures.check(&name, || {
            let seed = seed + 100 + g as u64;
            let state = Edited::new(files, 1 + g % 2, 4);
            run_name_edits(&name, &scratch, state, &schemas, edits, seed);
            Vec::new()
        });
    }
    let scratch = pcl_test_support::TempDir::new("host-names-chain");
    let files = write_program(&scratch, &chain_program());
    failures.check("chain", || {
        let (dir, schemas) = (scratch.to_path_buf(), schemas.clone());
        let edits = (edits / 5).max(4);
        let state = Edited::new(files, 1, 7);
        let run = move || run_name_edits("chain", &dir, state, &schemas, edits, seed + 200);
        // A small stack: a recursion through the chain overflows it with a chain short
        // enough to check quickly.
        let thread = std::thread::Builder::new()
            .stack_size(CHAIN_STACK)
            .spawn(run)
            .unwrap();
        if let Err(panic) = thread.join() {
            std::panic::resume_unwind(panic);
        }
        Vec::new()
    });
    failures.finish("programs");
}
