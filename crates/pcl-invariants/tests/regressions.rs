//! Every input a fuzz target ever failed on, replayed through the same checks: each file of
//! `test_data/fuzz/<target>/` goes through `pcl_invariants::targets::run(target, ..)`, which is
//! what the fuzz target runs. A new crash becomes a test by copying its input there under a
//! name that says what it was.

use std::path::PathBuf;

use pcl_invariants::edits::{decode_script, Edit, SNIPPETS};
use pcl_invariants::targets::{self, TARGETS};

#[test]
fn every_saved_fuzz_input_keeps_every_promise() {
    let root = pcl_test_support::workspace_root().join("test_data/fuzz");
    let mut replayed = 0;
    for target in TARGETS {
        let dir = root.join(target);
        let mut inputs: Vec<PathBuf> = match std::fs::read_dir(&dir) {
            Ok(entries) => entries.map(|e| e.expect("entry").path()).collect(),
            Err(_) => continue,
        };
        inputs.sort();
        for input in inputs {
            let data = std::fs::read(&input).expect("input");
            let outcome = std::panic::catch_unwind(|| targets::run(target, &data));
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
fn saved_inputs_name_known_targets() {
    let root = pcl_test_support::workspace_root().join("test_data/fuzz");
    for entry in std::fs::read_dir(&root).expect("test_data/fuzz") {
        let name = entry.expect("entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            TARGETS.contains(&name.as_ref()),
            "test_data/fuzz/{name}: no such target"
        );
    }
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
