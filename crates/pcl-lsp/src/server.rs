//! The main loop: owns the `AnalysisHost`, applies changes, hands requests to worker threads
//! with an `Analysis` snapshot each, and schedules diagnostics.

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use crossbeam_channel::Receiver;
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{notification as n, request as r};
use lsp_types::{
    ClientCapabilities, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidChangeWatchedFilesRegistrationOptions, DidChangeWorkspaceFoldersParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, FileSystemWatcher, GlobPattern,
    InitializeParams, InitializeResult, Registration, RegistrationParams, ServerInfo,
};
use pcl_ide::{Analysis, AnalysisHost, Change};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::diagnostics::{publish_diagnostics, DiagnosticsState};
use crate::handlers::{self, HandlerError};
use crate::line_index::apply_content_change;
use crate::transport::Out;
use crate::uri::uri_to_path;
use crate::{capabilities, log, workspace};

/// `ContentModified`: the request's snapshot was cancelled by an edit.
const CONTENT_MODIFIED: i32 = -32801;
/// `RequestCancelled`: the client cancelled the request.
const REQUEST_CANCELLED: i32 = -32800;
/// `RequestFailed`: the request was understood but cannot be done (rename errors).
const REQUEST_FAILED: i32 = -32803;

/// An open document: the text the client edits, and its version.
struct Document {
    text: String,
    version: i32,
}

/// Requests in flight, and whether the client cancelled each.
type InFlight = Arc<Mutex<HashMap<RequestId, bool>>>;

pub(crate) struct Server {
    host: AnalysisHost,
    out: Out,
    pool: crate::pool::Pool,
    documents: HashMap<PathBuf, Document>,
    /// Documents edited since the pending change last took their text ([`Server::change`]).
    edited: Vec<PathBuf>,
    /// Program directories loaded into the host.
    loaded: HashSet<PathBuf>,
    folders: Vec<PathBuf>,
    schema_dirs: Vec<PathBuf>,
    capabilities: ClientCapabilities,
    initialized: bool,
    shutdown: bool,
    in_flight: InFlight,
    diagnostics: Arc<Mutex<DiagnosticsState>>,
    /// A change not yet applied (consecutive edits are applied together).
    pending: Option<Change>,
    /// Files edited since diagnostics were last scheduled, in order; `Some` when they must be.
    dirty: Option<Vec<PathBuf>>,
    /// Whether diagnostics were scheduled (for a change) since the host last collected its
    /// garbage.
    garbage: bool,
    /// Diagnostics runs scheduled, and the last of them that finished (not cancelled).
    diagnostics_runs: u64,
    diagnostics_finished: Arc<AtomicU64>,
}

/// How long the server waits without a message, after the diagnostics of a change are
/// published, before the host frees what the change's check replaced
/// ([`AnalysisHost::collect_garbage`]): otherwise the next keystroke would (after a file is
/// opened, at 100,000 resources, 60 ms of it).
const IDLE_BEFORE_COLLECTING: std::time::Duration = std::time::Duration::from_millis(300);

/// How the loop ended.
pub(crate) enum Exit {
    /// `exit` after `shutdown`.
    Clean,
    /// `exit` without `shutdown`, or the end of the input.
    Unclean,
}

impl Server {
    pub(crate) fn new(out: Out) -> Server {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4));
        Server {
            host: AnalysisHost::new(),
            out,
            pool: crate::pool::Pool::new(threads),
            documents: HashMap::new(),
            edited: Vec::new(),
            loaded: HashSet::new(),
            folders: Vec::new(),
            schema_dirs: Vec::new(),
            capabilities: ClientCapabilities::default(),
            initialized: false,
            shutdown: false,
            in_flight: Arc::default(),
            diagnostics: Arc::default(),
            pending: None,
            dirty: None,
            garbage: false,
            diagnostics_runs: 0,
            diagnostics_finished: Arc::default(),
        }
    }

    pub(crate) fn run(mut self, receiver: Receiver<Message>) -> Exit {
        loop {
            let message = match receiver.recv_timeout(IDLE_BEFORE_COLLECTING) {
                Ok(message) => message,
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                    self.collect_garbage_when_idle();
                    continue;
                }
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                    log("the input ended without an exit notification");
                    return Exit::Unclean;
                }
            };
            let outcome = catch_unwind(AssertUnwindSafe(|| self.handle(message)));
            match outcome {
                Ok(Some(exit)) => return exit,
                Ok(None) => {}
                Err(panic) => log(&format!(
                    "a panic in the main loop (kept serving): {}",
                    panic_message(&*panic)
                )),
            }
            if receiver.is_empty() {
                self.flush();
                self.schedule_diagnostics();
            }
        }
    }

    fn handle(&mut self, message: Message) -> Option<Exit> {
        match message {
            Message::Request(request) => self.on_request(request),
            Message::Notification(notification) => return self.on_notification(notification),
            Message::Response(_) => {} // answers to our registrations
        }
        None
    }

    fn on_request(&mut self, request: Request) {
        if !self.initialized {
            if request.method == r::Initialize::METHOD {
                self.initialize(request);
            } else {
                self.error(
                    request.id,
                    ErrorCode::ServerNotInitialized as i32,
                    "not initialized",
                );
            }
            return;
        }
        if self.shutdown {
            self.error(
                request.id,
                ErrorCode::InvalidRequest as i32,
                "shutdown was requested",
            );
            return;
        }
        match request.method.as_str() {
            r::Initialize::METHOD => {
                self.error(
                    request.id,
                    ErrorCode::InvalidRequest as i32,
                    "initialized twice",
                );
            }
            r::Shutdown::METHOD => {
                self.shutdown = true;
                self.out.send(Response::new_ok(request.id, Value::Null));
            }
            r::HoverRequest::METHOD => self.spawn(request, handlers::hover),
            // PCL declares each name once, where it is defined.
            r::GotoDefinition::METHOD | r::GotoDeclaration::METHOD => {
                self.spawn(request, handlers::definition)
            }
            r::GotoTypeDefinition::METHOD => self.spawn(request, handlers::type_definition),
            r::References::METHOD => self.spawn(request, handlers::references),
            r::DocumentHighlightRequest::METHOD => {
                self.spawn(request, handlers::document_highlights)
            }
            r::SelectionRangeRequest::METHOD => self.spawn(request, handlers::selection_ranges),
            r::DocumentLinkRequest::METHOD => self.spawn(request, handlers::document_links),
            r::PrepareRenameRequest::METHOD => self.spawn(request, handlers::prepare_rename),
            r::Rename::METHOD => self.spawn(request, handlers::rename),
            r::Completion::METHOD => self.spawn(request, handlers::completion),
            r::SignatureHelpRequest::METHOD => self.spawn(request, handlers::signature_help),
            r::DocumentSymbolRequest::METHOD => self.spawn(request, handlers::document_symbols),
            r::WorkspaceSymbolRequest::METHOD => self.spawn(request, handlers::workspace_symbols),
            r::SemanticTokensFullRequest::METHOD => self.spawn(request, handlers::semantic_tokens),
            r::InlayHintRequest::METHOD => self.spawn(request, handlers::inlay_hints),
            r::FoldingRangeRequest::METHOD => {
                let line_folding_only = self
                    .capabilities
                    .text_document
                    .as_ref()
                    .and_then(|t| t.folding_range.as_ref())
                    .and_then(|f| f.line_folding_only)
                    .unwrap_or(false);
                self.spawn(request, move |analysis, params| {
                    handlers::folding_ranges(analysis, params, line_folding_only)
                })
            }
            r::Formatting::METHOD => self.spawn(request, handlers::formatting),
            r::RangeFormatting::METHOD => self.spawn(request, handlers::range_formatting),
            r::CodeActionRequest::METHOD => self.spawn(request, handlers::code_actions),
            // For tests of the panic guard: a request whose handler panics.
            "pcl/panic" => self.spawn(request, |_: &Analysis, _: Value| -> handlers::Result<()> {
                panic!("pcl/panic was requested")
            }),
            _ => self.error(
                request.id,
                ErrorCode::MethodNotFound as i32,
                &format!("unknown method `{}`", request.method),
            ),
        }
    }

    fn on_notification(&mut self, notification: Notification) -> Option<Exit> {
        if notification.method == n::Exit::METHOD {
            return Some(if self.shutdown {
                Exit::Clean
            } else {
                Exit::Unclean
            });
        }
        if !self.initialized {
            return None;
        }
        let method = notification.method.clone();
        let params = notification.params;
        match method.as_str() {
            n::Initialized::METHOD => self.register_watchers(),
            n::DidOpenTextDocument::METHOD => self.with_params(params, Self::did_open),
            n::DidChangeTextDocument::METHOD => self.with_params(params, Self::did_change),
            n::DidCloseTextDocument::METHOD => self.with_params(params, Self::did_close),
            n::DidSaveTextDocument::METHOD => {}
            n::DidChangeWatchedFiles::METHOD => self.with_params(params, Self::watched_files),
            n::DidChangeWorkspaceFolders::METHOD => self.with_params(params, Self::folders_changed),
            n::DidChangeConfiguration::METHOD => self.configuration_changed(params),
            n::Cancel::METHOD => {
                if let Some(id) = params
                    .get("id")
                    .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok())
                {
                    if let Some(cancelled) = self.lock_in_flight().get_mut(&id) {
                        *cancelled = true;
                    }
                }
            }
            _ => {} // `$/setTrace`, `$/progress`, and anything unknown: ignored
        }
        None
    }

    fn with_params<P: DeserializeOwned>(&mut self, params: Value, f: fn(&mut Server, P)) {
        match serde_json::from_value::<P>(params) {
            Ok(params) => f(self, params),
            Err(err) => log(&format!(
                "ignoring a notification with invalid params: {err}"
            )),
        }
    }

    fn lock_in_flight(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, bool>> {
        self.in_flight.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn error(&self, id: RequestId, code: i32, message: &str) {
        self.out
            .send(Response::new_err(id, code, message.to_owned()));
    }

    // ---- lifecycle ----

    fn initialize(&mut self, request: Request) {
        let params: InitializeParams = match serde_json::from_value(request.params) {
            Ok(params) => params,
            Err(err) => {
                let message = format!("invalid initialize params: {err}");
                return self.error(request.id, ErrorCode::InvalidParams as i32, &message);
            }
        };
        self.capabilities = params.capabilities;
        let mut folders: Vec<PathBuf> = params
            .workspace_folders
            .unwrap_or_default()
            .iter()
            .filter_map(|folder| uri_to_path(&folder.uri))
            .collect();
        #[allow(deprecated)]
        if folders.is_empty() {
            if let Some(root) = params.root_uri.as_ref().and_then(uri_to_path) {
                folders.push(root);
            } else if let Some(root) = params.root_path {
                folders.push(PathBuf::from(root));
            }
        }
        self.folders = folders;
        self.schema_dirs =
            schema_paths(params.initialization_options.as_ref(), &self.folders).unwrap_or_default();
        let result = InitializeResult {
            capabilities: capabilities::server_capabilities(),
            server_info: Some(ServerInfo {
                name: "pcl".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
        };
        self.out.send(Response::new_ok(request.id, result));
        self.initialized = true;
        if !self.schema_dirs.is_empty() {
            self.host.set_schema_dirs(self.schema_dirs.clone());
        }
        for folder in self.folders.clone() {
            self.load_folder(&folder);
        }
        self.dirty.get_or_insert_with(Vec::new);
    }

    fn register_watchers(&mut self) {
        let dynamic = self
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false);
        if !dynamic {
            return;
        }
        let watchers = ["**/*.pp", "**/Pulumi.yaml", "**/*.json"]
            .into_iter()
            .map(|glob| FileSystemWatcher {
                glob_pattern: GlobPattern::String(glob.to_owned()),
                kind: None,
            })
            .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let params = RegistrationParams {
            registrations: vec![Registration {
                id: "pcl-watched-files".to_owned(),
                method: n::DidChangeWatchedFiles::METHOD.to_owned(),
                register_options: serde_json::to_value(options).ok(),
            }],
        };
        self.out.send(Request::new(
            RequestId::from("pcl/register-watchers".to_owned()),
            r::RegisterCapability::METHOD.to_owned(),
            params,
        ));
    }

    // ---- programs and changes ----

    fn load_folder(&mut self, folder: &Path) {
        for dir in workspace::program_dirs(folder) {
            self.load_program(&dir);
        }
    }

    fn load_program(&mut self, dir: &Path) {
        self.flush();
        for problem in self.host.load_program(dir) {
            log(&format!("{}: {problem}", dir.display()));
        }
        self.loaded.insert(dir.to_owned());
        self.dirty.get_or_insert_with(Vec::new);
    }

    /// The pending change, with the texts of the documents edited since it was last read in
    /// it (anything said of a file after an edit then comes after its text, in order).
    fn change(&mut self) -> &mut Change {
        let edited = std::mem::take(&mut self.edited);
        let change = self.pending.get_or_insert_with(Change::default);
        for path in edited {
            if let Some(document) = self.documents.get(&path) {
                // One copy per batch of edits, shared by the host's buffer, the database
                // and the parse cache.
                change.set_file_text(path, document.text.as_str());
            }
        }
        change
    }

    /// Applies the pending change (cancelling every snapshot in flight).
    fn flush(&mut self) {
        if !self.edited.is_empty() {
            self.change();
        }
        if let Some(change) = self.pending.take() {
            self.host.apply_change(change);
        }
    }

    /// Lets the host free what the last changes replaced, once nothing is left to do for
    /// them: no change pending, the diagnostics of the last one published, no request in
    /// flight (collecting, like a change, cancels every snapshot).
    fn collect_garbage_when_idle(&mut self) {
        use std::sync::atomic::Ordering;
        let idle = self.garbage
            && self.pending.is_none()
            && self.edited.is_empty()
            && self.dirty.is_none()
            && self.diagnostics_finished.load(Ordering::SeqCst) == self.diagnostics_runs
            && self
                .in_flight
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_empty();
        if idle {
            self.host.collect_garbage();
            self.garbage = false;
        }
    }

    fn mark_dirty(&mut self, file: &Path) {
        let dirty = self.dirty.get_or_insert_with(Vec::new);
        if !dirty.iter().any(|f| f == file) {
            dirty.push(file.to_owned());
        }
    }

    fn did_open(&mut self, params: DidOpenTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        let text = params.text_document.text;
        self.change().set_file_text(path.clone(), text.as_str());
        self.documents.insert(
            path.clone(),
            Document {
                text,
                version: params.text_document.version,
            },
        );
        if let Some(dir) = path.parent() {
            if !self.loaded.contains(dir) {
                self.load_program(dir);
            }
        }
        self.mark_dirty(&path);
    }

    fn did_change(&mut self, params: DidChangeTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        if !self.documents.contains_key(&path) {
            log(&format!(
                "`didChange` of a document not open: `{}`",
                path.display()
            ));
            // Start from what the host has (a full-text change needs nothing).
            self.flush();
            let text = self
                .host
                .analysis()
                .file_text(&path)
                .ok()
                .flatten()
                .map(|t| t.to_string())
                .unwrap_or_default();
            self.documents.insert(
                path.clone(),
                Document {
                    text,
                    version: params.text_document.version,
                },
            );
        }
        let document = self.documents.get_mut(&path).expect("inserted above");
        for change in params.content_changes {
            apply_content_change(&mut document.text, change.range, &change.text);
        }
        document.version = params.text_document.version;
        // Its text joins the pending change when that is read: a burst of edits queued
        // behind a long request copied the whole text once per edit and kept every copy
        // until the change was applied (2,000 edits of a 4.7 MB file: 8.9 GB).
        if !self.edited.contains(&path) {
            self.edited.push(path.clone());
        }
        self.mark_dirty(&path);
    }

    fn did_close(&mut self, params: DidCloseTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        self.documents.remove(&path);
        self.change().close_file(path.clone());
        self.mark_dirty(&path);
        // The last document of a directory outside every folder, loaded for it: its program
        // goes (with its diagnostics), as the editor leaves it.
        if let Some(dir) = path.parent() {
            if self.loaded.contains(dir)
                && !self.under_a_folder(dir)
                && !self.has_open_document(dir)
            {
                self.unload(vec![dir.to_path_buf()]);
            }
        }
    }

    fn watched_files(&mut self, params: DidChangeWatchedFilesParams) {
        let mut reload = Vec::new();
        for event in params.changes {
            let Some(path) = uri_to_path(&event.uri) else {
                continue;
            };
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let is_pp = name.ends_with(".pp");
            if !(is_pp || name.ends_with(".json") || name == "Pulumi.yaml") {
                continue;
            }
            self.change().file_changed_on_disk(path.clone());
            if let Some(dir) = path.parent() {
                let new_program = is_pp && !self.loaded.contains(dir);
                if (new_program && self.in_workspace(dir)) || name == "Pulumi.yaml" {
                    reload.push(dir.to_owned());
                }
            }
            self.mark_dirty(&path);
        }
        for dir in reload {
            self.load_program(&dir);
        }
    }

    fn in_workspace(&self, dir: &Path) -> bool {
        self.folders.iter().any(|folder| dir.starts_with(folder))
    }

    fn folders_changed(&mut self, params: DidChangeWorkspaceFoldersParams) {
        for folder in params.event.added {
            if let Some(path) = uri_to_path(&folder.uri) {
                self.folders.push(path.clone());
                self.load_folder(&path);
            }
        }
        for folder in params.event.removed {
            if let Some(path) = uri_to_path(&folder.uri) {
                self.folders.retain(|f| *f != path);
            }
        }
        // The programs of the folders removed go (with their diagnostics), but those under a
        // folder that stays and those with an open document.
        let gone: Vec<PathBuf> = self
            .loaded
            .iter()
            .filter(|dir| !self.under_a_folder(dir) && !self.has_open_document(dir))
            .cloned()
            .collect();
        self.unload(gone);
    }

    fn under_a_folder(&self, dir: &Path) -> bool {
        self.folders.iter().any(|f| dir.starts_with(f))
    }

    fn has_open_document(&self, dir: &Path) -> bool {
        self.documents.keys().any(|p| p.parent() == Some(dir))
    }

    /// Unloads the programs of `dirs`; the next diagnostics clear their files'.
    fn unload(&mut self, dirs: Vec<PathBuf>) {
        if dirs.is_empty() {
            return;
        }
        self.flush();
        for dir in dirs {
            self.host.unload_program(&dir);
            self.loaded.remove(&dir);
        }
        self.dirty.get_or_insert_with(Vec::new);
    }

    fn configuration_changed(&mut self, params: Value) {
        let settings = params.get("settings");
        let section = settings.and_then(|s| s.get("pcl")).or(settings);
        if let Some(dirs) = schema_paths(section, &self.folders) {
            if dirs != self.schema_dirs {
                self.flush();
                self.schema_dirs = dirs.clone();
                self.host.set_schema_dirs(dirs);
                self.dirty.get_or_insert_with(Vec::new);
            }
        }
    }

    // ---- requests and diagnostics on workers ----

    fn spawn<P, R, H>(&mut self, request: Request, handler: H)
    where
        H: FnOnce(&Analysis, P) -> handlers::Result<R> + Send + 'static,
        P: DeserializeOwned + Send + 'static,
        R: Serialize + 'static,
    {
        let params: P = match serde_json::from_value(request.params) {
            Ok(params) => params,
            Err(err) => {
                let message = format!("invalid params for `{}`: {err}", request.method);
                return self.error(request.id, ErrorCode::InvalidParams as i32, &message);
            }
        };
        self.flush();
        let id = request.id;
        self.lock_in_flight().insert(id.clone(), false);
        let analysis = self.host.analysis();
        let out = self.out.clone();
        let in_flight = self.in_flight.clone();
        self.pool.spawn(move || {
            let cancelled = || {
                let map = in_flight.lock().unwrap_or_else(|e| e.into_inner());
                map.get(&id).copied().unwrap_or(false)
            };
            let response = if cancelled() {
                drop(analysis);
                Response::new_err(id.clone(), REQUEST_CANCELLED, "cancelled".to_owned())
            } else {
                let result = catch_unwind(AssertUnwindSafe(|| handler(&analysis, params)));
                drop(analysis);
                match result {
                    Ok(Ok(value)) => match serde_json::to_value(value) {
                        Ok(value) => Response::new_ok(id.clone(), value),
                        Err(err) => Response::new_err(
                            id.clone(),
                            ErrorCode::InternalError as i32,
                            err.to_string(),
                        ),
                    },
                    Ok(Err(HandlerError::Cancelled)) => {
                        let code = if cancelled() {
                            REQUEST_CANCELLED
                        } else {
                            CONTENT_MODIFIED
                        };
                        Response::new_err(id.clone(), code, "content modified".to_owned())
                    }
                    Ok(Err(HandlerError::Failed(message))) => {
                        Response::new_err(id.clone(), REQUEST_FAILED, message)
                    }
                    Err(panic) => {
                        if panic.downcast_ref::<pcl_ide::Cancelled>().is_some() {
                            Response::new_err(
                                id.clone(),
                                CONTENT_MODIFIED,
                                "content modified".into(),
                            )
                        } else {
                            let message = panic_message(&*panic);
                            log(&format!("a request handler panicked: {message}"));
                            Response::new_err(
                                id.clone(),
                                ErrorCode::InternalError as i32,
                                format!("internal error: {message}"),
                            )
                        }
                    }
                }
            };
            in_flight
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&id);
            out.send(response);
        });
    }

    fn schedule_diagnostics(&mut self) {
        let Some(first) = self.dirty.take() else {
            return;
        };
        // Every change of the host (edits, programs loaded or unloaded, schemas) schedules a
        // run: what its check replaces is collected once the run is done.
        self.garbage = true;
        let analysis = self.host.analysis();
        let versions: HashMap<PathBuf, i32> = self
            .documents
            .iter()
            .map(|(path, doc)| (path.clone(), doc.version))
            .collect();
        let state = self.diagnostics.clone();
        let out = self.out.clone();
        self.diagnostics_runs += 1;
        let run = self.diagnostics_runs;
        let finished = self.diagnostics_finished.clone();
        self.pool.spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| {
                publish_diagnostics(&analysis, &first, &versions, &state, &out)
            }));
            drop(analysis);
            match result {
                Ok(Ok(())) => {
                    finished.fetch_max(run, std::sync::atomic::Ordering::SeqCst);
                }
                Ok(Err(_cancelled)) => {}
                Err(panic) => {
                    if panic.downcast_ref::<pcl_ide::Cancelled>().is_none() {
                        log(&format!("diagnostics panicked: {}", panic_message(&*panic)));
                    }
                }
            }
        });
    }
}

/// `schemaPaths` of initialization options or settings: an array of strings, relative ones
/// resolved against the first workspace folder.
fn schema_paths(options: Option<&Value>, folders: &[PathBuf]) -> Option<Vec<PathBuf>> {
    let paths = options?.get("schemaPaths")?.as_array()?;
    Some(
        paths
            .iter()
            .filter_map(Value::as_str)
            .map(|p| {
                let p = PathBuf::from(p);
                match folders.first() {
                    Some(folder) if p.is_relative() => folder.join(p),
                    _ => p,
                }
            })
            .collect(),
    )
}

pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_owned()
    }
}

impl From<pcl_ide::Cancelled> for HandlerError {
    fn from(_: pcl_ide::Cancelled) -> HandlerError {
        HandlerError::Cancelled
    }
}

#[allow(dead_code)]
fn _assert_send() {
    fn is_send<T: Send>() {}
    is_send::<Analysis>();
}
