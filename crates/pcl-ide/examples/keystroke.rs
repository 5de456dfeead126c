//! What an editor's edit costs through the analysis API, on a program from `pcl-progen`,
//! for each kind of edit: a literal changed, a resource added then deleted, a resource renamed
//! (its declaration only, as typing does, so its uses break) then renamed back. Each edit is
//! applied to the first file (or the last: `--file last`), open in the editor (the host
//! publishes what changed for the rest of the program), then the edited file's diagnostics, a
//! hover, a completion, the file's inlay hints and the diagnostics of every file are asked
//! for, in that order, then each file's diagnostics in turn (as a language server asks for a
//! file's). Prints, per kind, the percentiles of each and their ratio to the cold check, and
//! how many queries executed and how many
//! memoized results salsa re-validated (counted on separate edits, through the database's
//! query hook, so that counting does not slow the timed ones); then the resident memory.
//! With `--requests edited`, only the edited file's diagnostics are asked after each edit (for
//! counting the instructions of that alone). Before the edits it prints what opening the file
//! cost (applied, its diagnostics, every file's, then the host's garbage collection, which a
//! language server does when idle; `--collect-garbage no` leaves it out, so that the first
//! edit pays for freeing what the open's check replaced).
//! A database reports query events only when made to (`AnalysisHost::with_query_hooks`), and
//! building them slows every query: time with `--counted 0`, count in another run.
//!
//! ```sh
//! cargo run --release -p pcl-ide --example keystroke -- \
//!     --resources 10000 --edits 200 --schemas SCHEMA_DIR
//! ```
//! (`SCHEMA_DIR` holds kubernetes-3.7.2.json and random-4.11.2.json from the
//! corpus, as in `docs/benchmarks.md`.)

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pcl_db::QueryEventKind;
use pcl_ide::{AnalysisHost, Change, FilePosition, TextSize};
use pcl_test_support::measure;

// The allocator of `pcl lsp`, which this stands for.
#[global_allocator]
static ALLOCATOR: pcl_alloc::Mimalloc = pcl_alloc::Mimalloc;

struct Args {
    resources: usize,
    /// Timed edits of each kind.
    edits: usize,
    /// Counted edits of each kind.
    counted: usize,
    /// A directory with kubernetes-3.7.2.json and random-4.11.2.json.
    schemas: Option<PathBuf>,
    /// Edit the last file of the main program instead of the first (`--file last`): the
    /// first uses only itself, the last much of the program.
    last_file: bool,
    /// The kinds of edit to measure (`literal,add,rename`).
    kinds: Vec<Kind>,
    /// Only the edited file's diagnostics after each edit (`--requests edited`), not every
    /// request: for counting the instructions of that alone.
    only_edited: bool,
    /// Whether to leave out the host's garbage collection after the file opens
    /// (`--collect-garbage no`): the first edit then frees what the open's check replaced.
    no_garbage_collection: bool,
}

fn parse_args() -> Args {
    let mut args = Args {
        resources: 10_000,
        edits: 40,
        counted: 4,
        schemas: None,
        last_file: false,
        kinds: vec![Kind::Literal, Kind::Typing, Kind::AddDelete, Kind::Rename],
        only_edited: false,
        no_garbage_collection: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--resources" => args.resources = value.parse().expect("a number"),
            "--edits" => args.edits = value.parse().expect("a number"),
            "--counted" => args.counted = value.parse().expect("a number"),
            "--schemas" => args.schemas = Some(PathBuf::from(value)),
            "--file" => {
                args.last_file = match value.as_str() {
                    "first" => false,
                    "last" => true,
                    _ => panic!("--file first or --file last"),
                }
            }
            "--requests" => {
                args.only_edited = match value.as_str() {
                    "all" => false,
                    "edited" => true,
                    _ => panic!("--requests all or --requests edited"),
                }
            }
            "--collect-garbage" => {
                args.no_garbage_collection = match value.as_str() {
                    "yes" => false,
                    "no" => true,
                    _ => panic!("--collect-garbage yes or --collect-garbage no"),
                }
            }
            "--kinds" => {
                args.kinds = value
                    .split(',')
                    .map(|k| match k {
                        "literal" => Kind::Literal,
                        "typing" => Kind::Typing,
                        "add" => Kind::AddDelete,
                        "rename" => Kind::Rename,
                        "moved" => Kind::Moved,
                        _ => panic!("unknown kind {k}: literal, typing, add, rename or moved"),
                    })
                    .collect()
            }
            _ => panic!("unknown flag {flag}"),
        }
    }
    pcl_test_support::measure::require_progen_schemas(&args.schemas);
    args
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Literal,
    /// A character typed into the literal, then deleted: everything after it moves.
    Typing,
    AddDelete,
    Rename,
    /// A literal of another item, edited after one edit of the first literal's item (the
    /// first edit of the run): what typing costs once the user has moved on from an item.
    Moved,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Literal => "literal",
            Kind::Typing => "a character typed into a literal, then deleted",
            Kind::AddDelete => "add/delete a resource",
            Kind::Rename => "rename a resource",
            Kind::Moved => "a literal of another item, after an edit of the first",
        }
    }
}

/// The edited file and the places the edits touch.
struct Editor {
    path: PathBuf,
    original: String,
    literal: usize,
    /// A literal of a later item (`Kind::Moved`).
    other_literal: usize,
    /// The first resource block, copied when a resource is added.
    resource_block: String,
    /// The first resource's name and where its declaration is.
    resource_name: String,
    resource_name_at: usize,
    hover_at: usize,
    complete_at: usize,
}

impl Editor {
    fn new(path: PathBuf) -> Editor {
        let text = std::fs::read_to_string(&path).unwrap();
        let literal = measure::progen_literal(&text).expect("a literal");
        // The first literal of an item that starts a few items later.
        let later = literal
            + text[literal..]
                .match_indices("\nresource ")
                .nth(3)
                .expect("later items")
                .0;
        let other_literal = later + measure::progen_literal(&text[later..]).expect("a literal");
        let resource = text.find("\nresource ").expect("a resource") + 1;
        let block_end = resource + text[resource..].find("\n}\n").expect("a block end") + 3;
        let resource_name_at = resource + "resource ".len();
        let name_end = resource_name_at + text[resource_name_at..].find(' ').unwrap();
        let hover_at = resource_name_at + 1;
        let first_attr = hover_at + text[hover_at..].find("\n  ").expect("an attribute") + 3;
        let complete_at = first_attr + text[first_attr..].find("= ").expect("a value") + 2;
        Editor {
            resource_block: text[resource..block_end].to_string(),
            resource_name: text[resource_name_at..name_end].to_string(),
            path,
            original: text,
            literal,
            other_literal,
            resource_name_at,
            hover_at,
            complete_at,
        }
    }

    /// The text after the `n`th edit of `kind` (odd edits undo the even ones, but for
    /// literals, which toggle one character).
    fn text(&self, kind: Kind, n: usize) -> String {
        let mut text = self.original.clone();
        match kind {
            Kind::Literal => {
                let c = if n.is_multiple_of(2) { "p" } else { "o" };
                text.replace_range(self.literal + 3..self.literal + 4, c);
            }
            Kind::Typing if n.is_multiple_of(2) => {
                text.insert(self.literal + 3, 'x');
            }
            Kind::AddDelete if n.is_multiple_of(2) => {
                let added = self.resource_block.replacen(
                    &format!("resource {} ", self.resource_name),
                    &format!("resource addedByKeystroke{n} "),
                    1,
                );
                text.push('\n');
                text.push_str(&added);
            }
            Kind::Moved => {
                text.replace_range(self.literal + 3..self.literal + 4, "p");
                if n > 0 {
                    let c = if n.is_multiple_of(2) { "p" } else { "o" };
                    text.replace_range(self.other_literal + 3..self.other_literal + 4, c);
                }
            }
            Kind::Rename if n.is_multiple_of(2) => {
                text.insert_str(self.resource_name_at + self.resource_name.len(), "Renamed");
            }
            _ => {}
        }
        text
    }

    /// A position of the original text in the text after the `n`th edit of `kind`.
    fn position(&self, kind: Kind, n: usize, offset: usize) -> FilePosition {
        let shift = match kind {
            Kind::Rename if n.is_multiple_of(2) && offset > self.resource_name_at => {
                "Renamed".len()
            }
            Kind::Typing if n.is_multiple_of(2) && offset > self.literal + 3 => 1,
            _ => 0,
        };
        FilePosition {
            file: self.path.clone(),
            offset: TextSize::from((offset + shift) as u32),
        }
    }
}

#[derive(Default)]
struct Samples {
    apply: Vec<Duration>,
    edited: Vec<Duration>,
    hover: Vec<Duration>,
    completion: Vec<Duration>,
    /// The edited file's inlay hints, all of them.
    hints: Vec<Duration>,
    all: Vec<Duration>,
    /// Then each file's diagnostics in turn, as a language server asks for them.
    each: Vec<Duration>,
    /// (executed, re-validated) from the edit to the edited file's diagnostics, then for the
    /// diagnostics of every file.
    edited_counts: Vec<(usize, usize)>,
    all_counts: Vec<(usize, usize)>,
}

fn main() {
    let args = parse_args();
    let dir = std::env::temp_dir().join(format!("pcl-keystroke-{}", args.resources));
    let program = pcl_progen::generate(&pcl_progen::Options {
        resources: args.resources,
        files: None,
        seed: 1,
    });
    program.write_to(&dir, true).expect("write the program");
    // Salsa reports query events only to a database made to report them, and building them
    // costs time on every query: the timed edits of a run that counts nothing (`--counted 0`)
    // are as fast as an editor's host; with counting, every query pays for the events.
    let mut host = if args.counted > 0 {
        AnalysisHost::with_query_hooks()
    } else {
        AnalysisHost::new()
    };
    host.set_schema_dirs(args.schemas.iter().cloned().collect());

    let start = Instant::now();
    let problems = host.load_program(&dir);
    assert!(problems.is_empty(), "{problems:?}");
    let all = host.analysis().workspace_diagnostics().unwrap();
    let cold = start.elapsed();
    let files = all.len();
    let errors: usize = all.iter().map(|(_, d)| d.len()).sum();
    println!(
        "program: {} resources, {files} files, {errors} diagnostics; cold load and check {:.0} ms; {:.0} MB",
        args.resources,
        ms(cold),
        measure::resident_mb(None)
    );

    // The file being edited, opened in the editor: the main program's first, or its last.
    let edited = if args.last_file {
        program.files.last()
    } else {
        program.files.first()
    }
    .expect("a file");
    let editor = Editor::new(dir.join(&edited.path));
    // Opening it: its text set as a buffer's (a wide change: the file's results run again at
    // the buffer's durability, and what the rest of the program reads of it is published).
    let t = Instant::now();
    let mut change = Change::new();
    change.set_file_text(editor.path.clone(), editor.original.clone());
    host.apply_change(change);
    let open_apply = t.elapsed();
    host.analysis().diagnostics(&editor.path).unwrap();
    let open_edited = t.elapsed();
    host.analysis().workspace_diagnostics().unwrap();
    let checked = t.elapsed();
    // As the language server does once the check after a wide change is published, when idle.
    if !args.no_garbage_collection {
        host.collect_garbage();
    }
    println!(
        "opening the edited file: applied {:.2} ms, its diagnostics {:.2} ms, every file's {:.2} ms, garbage collected {:.2} ms",
        ms(open_apply),
        ms(open_edited),
        ms(checked),
        ms(t.elapsed() - checked)
    );

    // Navigation from the first resource's name, once the file is open: references,
    // prepareRename, rename, highlights, selection ranges and type definition, and the file's
    // links (each computed again on every request; median of 5).
    {
        let analysis = host.analysis();
        let at = editor.position(Kind::Literal, 1, editor.hover_at);
        let median = |f: &dyn Fn()| {
            let mut times: Vec<Duration> = (0..5)
                .map(|_| {
                    let t = Instant::now();
                    f();
                    t.elapsed()
                })
                .collect();
            times.sort();
            ms(times[2])
        };
        let uses = analysis.find_references(&at, true).unwrap().len();
        let references = median(&|| {
            analysis.find_references(&at, true).unwrap();
        });
        let prepare = median(&|| {
            analysis.prepare_rename(&at).unwrap().expect("renamable");
        });
        let rename = median(&|| {
            analysis
                .rename(&at, "renamedByNavigation")
                .unwrap()
                .expect("a rename");
        });
        let highlighted = analysis.document_highlights(&at).unwrap().len();
        let type_targets = analysis.goto_type_definition(&at).unwrap().len();
        let highlights = median(&|| {
            analysis.document_highlights(&at).unwrap();
        });
        let selection = median(&|| {
            analysis.selection_ranges(&at).unwrap();
        });
        let types = median(&|| {
            analysis.goto_type_definition(&at).unwrap();
        });
        let links = median(&|| {
            analysis.document_links(&editor.path).unwrap();
        });
        println!(
            "navigation from `{}` ({uses} ranges): references {references:.2} ms, prepareRename {prepare:.2} ms, rename {rename:.2} ms, highlights {highlights:.2} ms ({highlighted} ranges), selection ranges {selection:.2} ms, type definition {types:.2} ms ({type_targets} targets), the file's links {links:.2} ms",
            editor.resource_name
        );
    }

    let executed = Arc::new(AtomicUsize::new(0));
    let validated = Arc::new(AtomicUsize::new(0));
    let hook: pcl_db::QueryHook = {
        let (executed, validated) = (executed.clone(), validated.clone());
        Arc::new(move |event| match event.kind {
            QueryEventKind::Executed => {
                executed.fetch_add(1, Ordering::Relaxed);
            }
            QueryEventKind::Validated => {
                validated.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    // PCL_KEYSTROKE_BREAKDOWN=1: which queries, per counted edit.
    let breakdown = std::env::var_os("PCL_KEYSTROKE_BREAKDOWN").is_some();
    let by_query: Arc<std::sync::Mutex<std::collections::BTreeMap<(String, bool), usize>>> =
        Arc::default();
    let hook: pcl_db::QueryHook = if breakdown {
        let by_query = by_query.clone();
        let inner = hook.clone();
        Arc::new(move |event| {
            inner(event);
            let key = (
                event.query_name().to_string(),
                event.kind == QueryEventKind::Executed,
            );
            *by_query.lock().unwrap().entry(key).or_default() += 1;
        })
    } else {
        hook
    };
    let report = |label: &str| {
        if breakdown {
            let mut map = by_query.lock().unwrap();
            eprintln!("    {label}: {:?}", *map);
            map.clear();
        }
    };
    let take = || {
        (
            executed.swap(0, Ordering::Relaxed),
            validated.swap(0, Ordering::Relaxed),
        )
    };

    let rss_before = measure::resident_mb(None);
    for &kind in &args.kinds {
        let mut samples = Samples::default();
        for n in 0..args.edits + args.counted {
            let counting = n >= args.edits;
            if counting {
                host.raw_database()
                    .set_query_hook(Some(hook.clone()))
                    .expect("made with hooks");
                take();
            }
            let mut change = Change::new();
            change.set_file_text(editor.path.clone(), editor.text(kind, n));
            let t = Instant::now();
            host.apply_change(change);
            let apply = t.elapsed();
            let analysis = host.analysis();
            let t = Instant::now();
            analysis.diagnostics(&editor.path).unwrap();
            let edited = apply + t.elapsed();
            let edited_counts = take();
            if counting {
                report("edit to the edited file's diagnostics (query, executed)");
            }
            if args.only_edited {
                if !counting {
                    samples.apply.push(apply);
                    samples.edited.push(edited);
                }
                continue;
            }
            let t = Instant::now();
            analysis
                .hover(&editor.position(kind, n, editor.hover_at))
                .unwrap();
            let hover = t.elapsed();
            let t = Instant::now();
            let items = analysis
                .completions(&editor.position(kind, n, editor.complete_at))
                .unwrap();
            let completion = t.elapsed();
            let t = Instant::now();
            analysis.inlay_hints(&editor.path, None).unwrap();
            let hints = t.elapsed();
            assert!(!items.items.is_empty(), "no completion");
            take();
            if counting {
                report("hover, completion and inlay hints");
            }
            let t = Instant::now();
            analysis.workspace_diagnostics().unwrap();
            let all = t.elapsed();
            let all_counts = take();
            if counting {
                report("every file's diagnostics (query, executed)");
            }
            let t = Instant::now();
            for file in analysis.files().unwrap() {
                analysis.diagnostics(&file).unwrap();
            }
            let each = t.elapsed();
            if counting {
                host.raw_database()
                    .set_query_hook(None)
                    .expect("made with hooks");
                samples.edited_counts.push(edited_counts);
                samples.all_counts.push(all_counts);
            } else {
                samples.apply.push(apply);
                samples.edited.push(edited);
                samples.hover.push(hover);
                samples.completion.push(completion);
                samples.hints.push(hints);
                samples.all.push(all);
                samples.each.push(each);
            }
        }
        println!("{}:", kind.name());
        for (name, values) in [
            (
                "edit applied (host's publication included)",
                &mut samples.apply,
            ),
            ("edit to the edited file's diagnostics", &mut samples.edited),
            ("hover", &mut samples.hover),
            ("completion", &mut samples.completion),
            ("the edited file's inlay hints", &mut samples.hints),
            ("every file's diagnostics", &mut samples.all),
            ("then each file's diagnostics in turn", &mut samples.each),
        ] {
            if values.is_empty() {
                continue; // not asked (`--requests edited`)
            }
            let p50 = measure::percentile_ms(values, 0.5);
            let p99 = measure::percentile_ms(values, 0.99);
            println!(
                "  {name}: p50 {p50:.2} ms, p99 {p99:.2} ms ({:.3}% of the cold check at p50)",
                100.0 * p50 / ms(cold)
            );
        }
        let show = |counts: &[(usize, usize)]| -> String {
            counts
                .iter()
                .map(|(e, v)| format!("{e}/{v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "  executed/re-validated, edit to the edited file's diagnostics: {}",
            show(&samples.edited_counts)
        );
        println!(
            "  executed/re-validated, every file's diagnostics: {}",
            show(&samples.all_counts)
        );
    }
    println!(
        "memory: {rss_before:.0} MB before the edits, {:.0} MB after",
        measure::resident_mb(None)
    );
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}
