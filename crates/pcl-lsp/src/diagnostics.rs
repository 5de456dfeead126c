//! Pushing diagnostics: after a change, every file of the workspace is checked (the edited
//! files first) and only the files whose diagnostics changed are published.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use lsp_server::Notification;
use lsp_types::notification::{Notification as _, PublishDiagnostics};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    PublishDiagnosticsParams,
};
use pcl_diagnostics::{Diagnostic, Severity};
use pcl_ide::{Analysis, Cancellable};

use crate::line_index::LineIndex;
use crate::transport::Out;
use crate::uri::path_to_uri;

/// What was last published for each file: the text it was computed on and the diagnostics.
#[derive(Default)]
pub(crate) struct DiagnosticsState {
    published: HashMap<PathBuf, (Arc<str>, Vec<Diagnostic>)>,
    /// Files opened or edited whose first answer (even an empty one) is not published yet; kept
    /// across runs, since a run can be cancelled before it gets to them.
    owed: std::collections::HashSet<PathBuf>,
}

/// Computes and publishes what changed. Stops early (`Err`) when a change cancels the snapshot;
/// the next change schedules another run.
pub(crate) fn publish_diagnostics(
    analysis: &Analysis,
    first: &[PathBuf],
    versions: &HashMap<PathBuf, i32>,
    state: &Mutex<DiagnosticsState>,
    out: &Out,
) -> Cancellable<()> {
    state
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .owed
        .extend(first.iter().cloned());
    let files = analysis.files()?;
    let first: Vec<&PathBuf> = first.iter().filter(|f| files.contains(f)).collect();
    let mut indexes = LineIndexes::new(analysis);
    let mut publish = |file: &Path, diagnostics: Vec<Diagnostic>| {
        publish_file(
            analysis,
            file,
            diagnostics,
            versions,
            state,
            out,
            &mut indexes,
        )
    };
    // The edited files first, each on its own, so that their answer does not wait for the
    // rest of the program.
    for &file in &first {
        publish(file, analysis.diagnostics(file)?)?;
    }
    // Every other file at once: after a keystroke that changed nothing the other files read,
    // that re-validates one memoized result, where asking file by file walked each file's
    // references again (3.2 s of a core after every keystroke at 100,000 resources, more than
    // a cold check); after a wider change it infers the program in dependency order, on all
    // cores.
    let mut rest: HashMap<PathBuf, Vec<Diagnostic>> =
        analysis.workspace_diagnostics()?.into_iter().collect();
    for file in &files {
        if first.contains(&file) {
            continue;
        }
        let diagnostics = match rest.remove(file) {
            Some(diagnostics) => diagnostics,
            None => analysis.diagnostics(file)?,
        };
        publish(file, diagnostics)?;
    }
    // Files no longer in any program: clear what was published for them.
    let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
    let gone: Vec<PathBuf> = state
        .published
        .keys()
        .filter(|f| !files.contains(f))
        .cloned()
        .collect();
    for file in gone {
        state.published.remove(&file);
        out.send(notification(&file, Vec::new(), None));
    }
    Ok(())
}

/// Publishes `diagnostics` of `file` unless they are what was last published for its text
/// (a file just opened or edited gets an answer even when clean).
fn publish_file(
    analysis: &Analysis,
    file: &Path,
    diagnostics: Vec<Diagnostic>,
    versions: &HashMap<PathBuf, i32>,
    state: &Mutex<DiagnosticsState>,
    out: &Out,
    indexes: &mut LineIndexes<'_>,
) -> Cancellable<()> {
    let text: Arc<str> = analysis.file_text(file)?.unwrap_or_else(|| Arc::from(""));
    let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
    let unchanged = match state.published.get(file) {
        Some((old_text, old)) => {
            *old == diagnostics && (Arc::ptr_eq(old_text, &text) || **old_text == *text)
        }
        None => diagnostics.is_empty() && !state.owed.contains(file),
    };
    if unchanged {
        return Ok(());
    }
    let index = LineIndex::new(text.clone());
    let mut converted = Vec::with_capacity(diagnostics.len());
    for diagnostic in &diagnostics {
        converted.push(to_lsp(diagnostic, file, &index, indexes)?);
    }
    out.send(notification(file, converted, versions.get(file).copied()));
    state.owed.remove(file);
    state.published.insert(file.to_owned(), (text, diagnostics));
    Ok(())
}

fn notification(
    file: &Path,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_owned(),
        PublishDiagnosticsParams {
            uri: path_to_uri(file),
            diagnostics,
            version,
        },
    )
}

fn to_lsp(
    diagnostic: &Diagnostic,
    file: &Path,
    index: &LineIndex,
    indexes: &mut LineIndexes<'_>,
) -> Cancellable<lsp_types::Diagnostic> {
    let range = index.range(
        diagnostic.range.start().into(),
        diagnostic.range.end().into(),
    );
    let mut related = Vec::new();
    for r in &diagnostic.related {
        let path = r
            .file
            .as_deref()
            .map_or_else(|| file.to_owned(), PathBuf::from);
        let range = if path == file {
            index.range(r.range.start().into(), r.range.end().into())
        } else {
            match indexes.get(&path)? {
                Some(other) => other.range(r.range.start().into(), r.range.end().into()),
                None => continue,
            }
        };
        related.push(DiagnosticRelatedInformation {
            location: Location::new(path_to_uri(&path), range),
            message: r.message.clone(),
        });
    }
    let mut message = diagnostic.message.clone();
    for help in &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    Ok(lsp_types::Diagnostic {
        range,
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(diagnostic.code.as_str().to_owned())),
        code_description: None,
        source: Some("pcl".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    })
}

/// Line indexes of files, built on demand from the snapshot's texts.
pub(crate) struct LineIndexes<'a> {
    analysis: &'a Analysis,
    map: HashMap<PathBuf, Option<LineIndex>>,
}

impl<'a> LineIndexes<'a> {
    pub(crate) fn new(analysis: &'a Analysis) -> LineIndexes<'a> {
        LineIndexes {
            analysis,
            map: HashMap::new(),
        }
    }

    pub(crate) fn get(&mut self, file: &Path) -> Cancellable<Option<&LineIndex>> {
        if !self.map.contains_key(file) {
            let index = self.analysis.file_text(file)?.map(LineIndex::new);
            self.map.insert(file.to_owned(), index);
        }
        Ok(self.map[file].as_ref())
    }
}
