//! Every input a fuzz target ever failed on, replayed through the same checks: each file of
//! `test_data/fuzz/<target>/` goes through what the fuzz target `<target>` runs (see
//! `fuzz/fuzz_targets/`). A new crash becomes a test by copying its input there under a name
//! that says what it was.

use std::path::PathBuf;
use std::sync::Arc;

use pcl_invariants::edits::{check_edit_script, decode_script, Edit, SNIPPETS};
use pcl_invariants::program::{check_program, ProgramInput};

const DEMO: &str = include_str!("../../../test_data/schemas/binding/demo-1.0.0.json");
const INPUTS: &str = include_str!("../../../test_data/programs/resource-inputs/main.pp");
const INVOKES: &str = include_str!("../../../test_data/programs/invokes/main.pp");

fn demo() -> Vec<(String, Option<String>, Arc<str>)> {
    vec![("demo".into(), Some("1.0.0".into()), Arc::from(DEMO))]
}

/// What each fuzz target does with its input bytes.
fn replay(target: &str, data: &[u8]) {
    let text = || pcl_invariants::text_of(data);
    match target {
        "syntax" => {
            pcl_invariants::syntax::check_syntax(&text());
        }
        "format" => pcl_invariants::format::check_format(&text()),
        "check" => {
            let files = data
                .split(|&b| b == 0xFF)
                .take(4)
                .enumerate()
                .map(|(i, part)| {
                    (
                        PathBuf::from(format!("f{i}.pp")),
                        pcl_invariants::text_of(part),
                    )
                })
                .collect();
            check_program(&ProgramInput {
                files,
                schemas: demo(),
                lenient: data.len() % 2 == 1,
            });
        }
        "edit_script" => {
            let (program, script) = match data.iter().position(|&b| b == 0xFF) {
                Some(i) => (&data[..i], &data[i + 1..]),
                None => (data, &[][..]),
            };
            let input = ProgramInput {
                schemas: demo(),
                ..ProgramInput::single(pcl_invariants::text_of(program))
            };
            check_edit_script(&input, &decode_script(script));
        }
        "schema" => pcl_invariants::schema::check_schema(&text()),
        "schema_mutations" => {
            let mut document: serde_json::Value = serde_json::from_str(DEMO).expect("demo");
            pcl_invariants::schema::mutate(&mut document, data);
            let text = document.to_string();
            pcl_invariants::schema::check_schema(&text);
            pcl_invariants::schema::check_bound_program(
                "demo",
                &text,
                &format!("{INPUTS}\n{INVOKES}"),
            );
        }
        other => panic!("test_data/fuzz/{other}: no fuzz target of that name"),
    }
}

#[test]
fn every_saved_fuzz_input_keeps_every_promise() {
    let root = pcl_test_support::workspace_root().join("test_data/fuzz");
    let mut replayed = 0;
    let mut targets: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("test_data/fuzz")
        .map(|e| e.expect("entry").path())
        .collect();
    targets.sort();
    for dir in targets {
        let target = dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("name")
            .to_string();
        let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("target directory")
            .map(|e| e.expect("entry").path())
            .collect();
        inputs.sort();
        for input in inputs {
            let data = std::fs::read(&input).expect("input");
            let outcome = std::panic::catch_unwind(|| replay(&target, &data));
            assert!(outcome.is_ok(), "{} broke a promise", input.display());
            replayed += 1;
        }
    }
    assert!(
        replayed > 0,
        "no saved inputs found under {}",
        root.display()
    );
    eprintln!("replayed {replayed} saved fuzz inputs");
}

#[test]
fn the_edit_script_decoder_covers_every_operation() {
    let edits = decode_script(&[0, 0, 4, 3, 1, 0, 0, 7, 2, 0, 1, 9, 3, 0, 0, 0]);
    assert!(matches!(edits[0], Edit::Delete { at: 4, len: 4, .. }));
    assert!(matches!(&edits[1], Edit::Insert { text, .. } if text == SNIPPETS[7]));
    assert!(matches!(
        edits[2],
        Edit::Copy {
            from: 72,
            len: 9,
            at: 1,
            ..
        }
    ));
    assert!(matches!(edits[3], Edit::Undo));
}
