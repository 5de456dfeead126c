//! The analysis API an editor stands on.
//!
//! This crate owns the IDE layer over the semantic queries, in the shape of rust-analyzer's
//! `ide` crate: an [`AnalysisHost`] owns the database and applies [`Change`]s; an [`Analysis`]
//! is a snapshot that answers requests (diagnostics, hover, definitions, references, document
//! highlights, links, rename, completion, symbols, highlighting, hints, folding, selection
//! ranges, formatting, quick fixes) on any thread.
//! When the host applies a change, every outstanding snapshot is cancelled: its requests
//! return `Err(Cancelled)` (salsa unwinds the query in progress; [`Analysis`] catches it).
//!
//! Positions are byte offsets into the file's text; the language server converts them to
//! the protocol's UTF-16 positions. Nothing here prints or talks to a client.

mod completion;
mod context;
mod diagnostics;
mod fixes;
mod folding;
mod format;
mod hints;
mod host;
mod hover;
mod navigation;
mod rename;
mod schema;
mod selection;
mod semantics;
mod signature;
mod snapshot;
mod symbols;
mod tokens;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use pcl_diagnostics::{Diagnostic, TextRange, TextSize};
pub use salsa::Cancelled;

pub use completion::{CompletionItem, CompletionKind, CompletionList, MAX_COMPLETIONS};
pub use fixes::{Assist, AssistKind};
pub use folding::{Fold, FoldKind};
pub use hints::{InlayHint, InlayKind};
pub use host::{AnalysisHost, Change};
pub use hover::HoverResult;
pub use rename::RenameError;
pub use signature::SignatureHelp;
pub use symbols::{DocumentSymbol, SymbolKind};
pub use tokens::{HighlightKind, HighlightModifier, SemanticToken};

/// The result of a request on a snapshot that a change may have cancelled.
pub type Cancellable<T> = Result<T, Cancelled>;

/// A position in a file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FilePosition {
    pub file: PathBuf,
    pub offset: TextSize,
}

/// A range in a file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileRange {
    pub file: PathBuf,
    pub range: TextRange,
}

impl FileRange {
    /// Files by path, then ranges by position.
    pub(crate) fn key(&self) -> (&Path, TextSize, TextSize) {
        (&self.file, self.range.start(), self.range.end())
    }
}

/// Replace `range` (bytes of the file's current text) with `insert`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextEdit {
    pub range: TextRange,
    pub insert: String,
}

/// Edits of several files; each file's edits are sorted and do not overlap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceChange {
    pub edits: Vec<(PathBuf, Vec<TextEdit>)>,
}

impl SourceChange {
    fn from_ranges(ranges: Vec<FileRange>, insert: &str) -> SourceChange {
        let mut by_file: std::collections::BTreeMap<PathBuf, Vec<TextEdit>> = Default::default();
        for FileRange { file, range } in ranges {
            by_file.entry(file).or_default().push(TextEdit {
                range,
                insert: insert.to_string(),
            });
        }
        let edits = by_file
            .into_iter()
            .map(|(file, mut edits)| {
                edits.sort_by_key(|e| (e.range.start(), e.range.end()));
                edits.dedup();
                (file, edits)
            })
            .collect();
        SourceChange { edits }
    }
}

/// A range that names the definition at the cursor, in the cursor's file
/// ([`Analysis::document_highlights`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HighlightedRange {
    pub range: TextRange,
    pub access: Access,
}

/// A range of a file that leads to another file ([`Analysis::document_links`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DocumentLink {
    pub range: TextRange,
    pub target: PathBuf,
}

/// Whether a highlighted range declares (or sets) what it names, or reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    Read,
    Write,
}

/// Where a definition is: the whole construct and the part to put the cursor on (its name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NavigationTarget {
    pub file: PathBuf,
    pub full_range: TextRange,
    pub focus_range: TextRange,
    pub name: String,
    pub kind: SymbolKind,
}

/// A snapshot of the database that answers requests. Cheap to create; `Send`, so requests
/// can run on other threads. Every method returns `Err(Cancelled)` once the host has applied
/// a change after this snapshot was taken.
pub struct Analysis {
    db: pcl_db::RootDatabase,
    generations: std::sync::Arc<host::Generations>,
    /// `generations.wide` when the snapshot was taken.
    wide: u64,
}

impl std::panic::UnwindSafe for Analysis {}

impl Analysis {
    /// Runs `f` on the snapshot, turning salsa's cancellation unwinding into `Err`. Any
    /// other panic is not caught here.
    fn with_db<T>(&self, f: impl FnOnce(&pcl_db::RootDatabase) -> T) -> Cancellable<T> {
        let db = &self.db;
        Cancelled::catch(std::panic::AssertUnwindSafe(|| f(db)))
    }

    /// A stable text rendering of every program: each diagnostic with its line and column
    /// range, then each top-level node's type; paths relative to `relative_to`. Meant for
    /// snapshot tests (`docs/embedding.md`).
    pub fn render_snapshot(&self, relative_to: &Path) -> Cancellable<String> {
        self.with_db(|db| snapshot::render(db, relative_to))
    }

    /// Every file of every loaded program.
    pub fn files(&self) -> Cancellable<Vec<PathBuf>> {
        self.with_db(semantics::all_files)
    }

    /// The text the analysis sees for `file` (an open buffer's, else the file's on disk; or a
    /// schema file's, where definitions can lead).
    pub fn file_text(&self, file: &Path) -> Cancellable<Option<Arc<str>>> {
        self.with_db(|db| {
            db.files()
                .get(file)
                .map(|f| f.text(db).clone())
                .or_else(|| {
                    // A schema file a definition leads into: the text its ranges are in.
                    let schema = db.schema_file(file)?;
                    let package = pcl_sema::packages::parsed_schema(db, schema)
                        .as_ref()
                        .ok()?;
                    Some(package.0.text().clone())
                })
        })
    }

    /// Whether every program was inferred in dependency order since the last change that
    /// could invalidate results of files nobody has open (only keystrokes in open files that
    /// published nothing came after): then those results are valid as they are, and what
    /// needs the nodes a node uses inferred first walks only the open files' nodes.
    fn ordered(&self) -> bool {
        use std::sync::atomic::Ordering;
        self.generations.ordered.load(Ordering::SeqCst) == self.wide
    }

    /// What [`ordered`](Self::ordered) lets a request take as done.
    fn settled(&self) -> pcl_sema::Settled {
        if self.ordered() {
            pcl_sema::Settled::ClosedFiles
        } else {
            pcl_sema::Settled::Nothing
        }
    }

    /// Every diagnostic of `file`: exactly what `pcl check` reports for it.
    pub fn diagnostics(&self, file: &Path) -> Cancellable<Vec<Diagnostic>> {
        let ordered = self.ordered();
        self.with_db(|db| diagnostics::file_diagnostics(db, file, ordered))
    }

    /// Every diagnostic of every file of every program, files sorted by path. Cold programs
    /// are inferred on all cores (and the work is cancelled like any other request).
    pub fn workspace_diagnostics(&self) -> Cancellable<Vec<(PathBuf, Vec<Diagnostic>)>> {
        use std::sync::atomic::Ordering;
        let ordered = self.ordered();
        let out =
            self.with_db(|db| diagnostics::workspace_diagnostics(db, ordered, &self.generations))?;
        self.generations
            .ordered
            .fetch_max(self.wide, Ordering::SeqCst);
        Ok(out)
    }

    pub fn hover(&self, position: &FilePosition) -> Cancellable<Option<HoverResult>> {
        self.with_db(|db| hover::hover(db, position, self.settled()))
    }

    pub fn goto_definition(&self, position: &FilePosition) -> Cancellable<Vec<NavigationTarget>> {
        self.with_db(|db| navigation::goto_definition(db, position))
    }

    /// Where the schema types of what is at `position` are defined (in schema files on disk).
    pub fn goto_type_definition(
        &self,
        position: &FilePosition,
    ) -> Cancellable<Vec<NavigationTarget>> {
        self.with_db(|db| navigation::goto_type_definition(db, position, self.settled()))
    }

    pub fn find_references(
        &self,
        position: &FilePosition,
        include_declaration: bool,
    ) -> Cancellable<Vec<FileRange>> {
        self.with_db(|db| navigation::find_references(db, position, include_declaration))
    }

    /// Every range in `position`'s file that names what the name at `position` names (an
    /// editor highlights them while the cursor rests there), in order.
    pub fn document_highlights(
        &self,
        position: &FilePosition,
    ) -> Cancellable<Vec<HighlightedRange>> {
        self.with_db(|db| navigation::document_highlights(db, position))
    }

    /// The links in `file`: each component block's source, to the entry file of the program
    /// it includes (where go to definition on it leads).
    pub fn document_links(&self, file: &Path) -> Cancellable<Vec<DocumentLink>> {
        self.with_db(|db| navigation::document_links(db, file))
    }

    /// The ranges an editor's "expand selection" steps through from `position`, innermost
    /// first, each containing the one before: the token, the inside and the whole of each
    /// construct around it, the whole file.
    pub fn selection_ranges(&self, position: &FilePosition) -> Cancellable<Vec<TextRange>> {
        self.with_db(|db| selection::selection_ranges(db, &position.file, position.offset))
    }

    /// The range of the name that would be renamed at `position`, or why nothing can be.
    pub fn prepare_rename(
        &self,
        position: &FilePosition,
    ) -> Cancellable<Result<TextRange, RenameError>> {
        self.with_db(|db| rename::prepare_rename(db, position))
    }

    pub fn rename(
        &self,
        position: &FilePosition,
        new_name: &str,
    ) -> Cancellable<Result<SourceChange, RenameError>> {
        self.with_db(|db| rename::rename(db, position, new_name))
    }

    /// What may be typed at `position`: the items matching the word being typed, best first,
    /// at most [`MAX_COMPLETIONS`].
    pub fn completions(&self, position: &FilePosition) -> Cancellable<CompletionList> {
        self.with_db(|db| completion::completions(db, position, self.settled()))
    }

    pub fn signature_help(&self, position: &FilePosition) -> Cancellable<Option<SignatureHelp>> {
        self.with_db(|db| signature::signature_help(db, position))
    }

    pub fn document_symbols(&self, file: &Path) -> Cancellable<Vec<DocumentSymbol>> {
        self.with_db(|db| symbols::document_symbols(db, file))
    }

    /// Top-level names of every program whose name contains `query` (case-insensitively).
    pub fn workspace_symbols(&self, query: &str) -> Cancellable<Vec<NavigationTarget>> {
        self.with_db(|db| symbols::workspace_symbols(db, query))
    }

    pub fn semantic_tokens(&self, file: &Path) -> Cancellable<Vec<SemanticToken>> {
        self.with_db(|db| tokens::semantic_tokens(db, file))
    }

    /// Inferred types of locals and `for` variables, in `range` (the whole file if `None`).
    pub fn inlay_hints(
        &self,
        file: &Path,
        range: Option<TextRange>,
    ) -> Cancellable<Vec<InlayHint>> {
        self.with_db(|db| hints::inlay_hints(db, file, range, self.settled()))
    }

    pub fn folding_ranges(&self, file: &Path) -> Cancellable<Vec<Fold>> {
        self.with_db(|db| folding::folding_ranges(db, file))
    }

    /// The edits that format `file` (`None`: unknown file, or it cannot be formatted).
    pub fn format(&self, file: &Path) -> Cancellable<Option<Vec<TextEdit>>> {
        self.with_db(|db| format::format(db, file, None))
    }

    /// The formatting edits on the lines `range` touches (also for on-type formatting).
    pub fn format_range(
        &self,
        file: &Path,
        range: TextRange,
    ) -> Cancellable<Option<Vec<TextEdit>>> {
        self.with_db(|db| format::format(db, file, Some(range)))
    }

    /// Quick fixes for the diagnostics that overlap `range`.
    pub fn code_actions(&self, file: &Path, range: TextRange) -> Cancellable<Vec<Assist>> {
        self.with_db(|db| fixes::code_actions(db, file, range))
    }
}

/// The embedding guide (`docs/embedding.md`), whose example runs as a doc test.
#[doc = include_str!("../../../docs/embedding.md")]
pub mod embedding {}
