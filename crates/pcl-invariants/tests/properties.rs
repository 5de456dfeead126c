//! Property tests with a fixed budget (`PCL_PROPTEST_CASES`, default 64 per property; more by
//! hand): random token soup and mutations of real programs through parse, lowering, inference
//! and binding; mutated schemas through loading and binding; random edit scripts through one
//! long-lived database against fresh ones. Every case runs the checks of `pcl_invariants`, the
//! same as the fuzz targets.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use pcl_invariants::edits::{check_edit_script, Edit, SNIPPETS};
use pcl_invariants::program::{check_program, check_program_parallel, ProgramInput};
use proptest::prelude::*;

use pcl_invariants::targets::DEMO_SCHEMA as DEMO;

/// Tokens of PCL, valid and broken, with the names the demo schema defines.
const TOKENS: &[&str] = &[
    "a",
    "b",
    "x",
    "range",
    "count",
    "\n",
    " ",
    "=",
    "==",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ",",
    ".",
    "...",
    "=>",
    ":",
    "?",
    "!",
    "-",
    "+",
    "*",
    "%",
    "&&",
    "1",
    "2.5",
    "1e400",
    "true",
    "null",
    "\"",
    "\"s\"",
    "\"${",
    "${",
    "}\"",
    "%{if x}",
    "%{endif}",
    "%{for v in x}",
    "%{endfor}",
    "<<EOT\n",
    "EOT\n",
    "# c\n",
    "/*",
    "*/",
    "\0",
    "\u{FFFD}",
    "é",
    "for",
    "in",
    "if",
    "resource",
    "component",
    "config",
    "output",
    "package",
    "options",
    "invoke(",
    "call(",
    "\"demo:storage/bucket:Bucket\"",
    "\"demo:network/getZone:getZone\"",
    "\"./sub\"",
    "string",
    "int",
    "list(",
    "map(",
    "object({",
    "secret(",
    "length(",
    "element(",
    "entries(",
    "toJSON(",
    "name",
    "acl",
    "website",
    "lifecycle",
    "tags",
    "[*]",
    ".*",
    "[0]",
    "[\"k\"]",
];

fn cases() -> u32 {
    pcl_test_support::proptest_cases(64)
}

fn demo() -> Vec<(String, Option<String>, Arc<str>)> {
    pcl_invariants::targets::demo_schemas()
}

/// The programs mutations start from: the repository's binding cases and inference fixtures,
/// and the corpus programs when the shared corpora are present.
fn programs() -> &'static [String] {
    static PROGRAMS: OnceLock<Vec<String>> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let root = pcl_test_support::workspace_root().join("test_data");
        let mut dirs = vec![root.join("programs"), root.join("infer")];
        // Without the corpora (a user's clone), the repository's programs only; said visibly,
        // and a failure under CI.
        if let Some(corpus) = pcl_test_support::corpus("corpus/pulumi/programs") {
            dirs.push(corpus);
        }
        let mut files = Vec::new();
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "pp") {
                    files.push(path);
                }
            }
        }
        files.sort();
        files
            .iter()
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .filter(|t| t.len() < 32 * 1024)
            .collect()
    })
}

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..80).prop_map(|t| t.concat())
}

/// A mutation of a text: deletions, insertions of tokens, copies of pieces.
#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, &'static str),
    Copy(usize, usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1..24usize).prop_map(|(at, len)| Mutation::Delete(at, len)),
        (any::<usize>(), prop::sample::select(TOKENS)).prop_map(|(at, t)| Mutation::Insert(at, t)),
        (any::<usize>(), 1..64usize, any::<usize>()).prop_map(|(f, l, a)| Mutation::Copy(f, l, a)),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut files = vec![(PathBuf::from("main.pp"), text.to_string())];
    for m in mutations {
        let len = files[0].1.len() + 1;
        let edit = match *m {
            Mutation::Delete(at, n) => Edit::Delete {
                file: 0,
                at: at % len,
                len: n,
            },
            Mutation::Insert(at, t) => Edit::Insert {
                file: 0,
                at: at % len,
                text: t.into(),
            },
            Mutation::Copy(from, n, at) => Edit::Copy {
                file: 0,
                from: from % len,
                len: n,
                at: at % len,
            },
        };
        pcl_invariants::edits::apply(&mut files, &edit);
    }
    files.pop().map(|(_, t)| t).unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn token_soup_keeps_every_promise(text in soup(), lenient: bool) {
        pcl_invariants::syntax::check_syntax(&text);
        pcl_invariants::format::check_format(&text);
        check_program(&ProgramInput { schemas: demo(), lenient, ..ProgramInput::single(text) });
    }

    #[test]
    fn mutated_programs_keep_every_promise(
        pick: prop::sample::Index,
        mutations in prop::collection::vec(mutation(), 1..8),
        lenient: bool,
    ) {
        let text = mutate(pick.get(programs()).as_str(), &mutations);
        pcl_invariants::syntax::check_syntax(&text);
        pcl_invariants::format::check_format(&text);
        let input = ProgramInput { schemas: demo(), lenient, ..ProgramInput::single(text) };
        // `pcl check` infers on all cores; the order of work must not change the result.
        prop_assert_eq!(check_program(&input), check_program_parallel(&input));
    }

    #[test]
    fn mutated_programs_split_in_files_keep_every_promise(
        pick: prop::sample::Index,
        mutations in prop::collection::vec(mutation(), 0..4),
        cut: prop::sample::Index,
    ) {
        let text = mutate(pick.get(programs()).as_str(), &mutations);
        let mut at = cut.index(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let files = vec![
            (PathBuf::from("a.pp"), text[..at].to_string()),
            (PathBuf::from("b.pp"), text[at..].to_string()),
        ];
        check_program(&ProgramInput { files, schemas: demo(), lenient: false });
    }

    #[test]
    fn mutated_schemas_load_and_bind(script in prop::collection::vec(any::<u8>(), 0..24)) {
        let mut document: serde_json::Value = serde_json::from_str(DEMO).expect("demo");
        pcl_invariants::schema::mutate(&mut document, &script);
        let text = document.to_string();
        pcl_invariants::schema::check_schema(&text);
        let program = &programs()[script.first().map_or(0, |&b| usize::from(b)) % programs().len()];
        pcl_invariants::schema::check_bound_program("demo", &text, program);
    }

    #[test]
    fn edit_scripts_give_what_a_fresh_database_gives(
        pick: prop::sample::Index,
        script in prop::collection::vec(
            prop_oneof![
                (any::<u16>(), 1..16usize).prop_map(|(at, len)| Edit::Delete { file: 0, at: at.into(), len }),
                (any::<u16>(), prop::sample::select(SNIPPETS))
                    .prop_map(|(at, t)| Edit::Insert { file: 0, at: at.into(), text: t.into() }),
                (any::<u16>(), 0..40usize, any::<u16>())
                    .prop_map(|(from, len, at)| Edit::Copy { file: 0, from: from.into(), len, at: at.into() }),
                Just(Edit::Undo),
            ],
            1..6,
        ),
    ) {
        let input = ProgramInput { schemas: demo(), ..ProgramInput::single(pick.get(programs()).clone()) };
        check_edit_script(&input, &script);
    }
}
