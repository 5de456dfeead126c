//! Incrementality: which queries run again after an edit, from salsa's own execution events.

use std::path::Path;

use expect_test::expect;
use pcl_db::{parse, RootDatabase, SourceFile};

/// Names the executed queries by the file they ran for, so the snapshot says *which* file.
fn executed(db: &RootDatabase, files: &[SourceFile]) -> Vec<String> {
    db.take_executed()
        .into_iter()
        .map(|key| {
            let mut name = key.clone();
            for file in files {
                let id = format!("{:?}", salsa::plumbing::AsId::as_id(file));
                if key.contains(&format!("({id})")) {
                    name = key.replace(&id, &file.path(db).display().to_string());
                }
            }
            name
        })
        .collect()
}

#[test]
fn editing_one_file_reparses_only_that_file() {
    let mut db = RootDatabase::default();
    db.start_logging();
    let main = db.set_file_text(Path::new("main.pp"), "a = 1\n".into());
    let other = db.set_file_text(Path::new("other.pp"), "b = 2\n".into());
    let files = [main, other];

    assert!(!parse(&db, main).has_errors());
    assert!(!parse(&db, other).has_errors());
    expect![[r#"
        [
            "parse(main.pp)",
            "parse(other.pp)",
        ]
    "#]]
    .assert_debug_eq(&executed(&db, &files));

    // Edit other.pp only: main.pp's tree is reused.
    db.set_file_text(Path::new("other.pp"), "b = 3\n".into());
    parse(&db, main);
    let tree = parse(&db, other).syntax().to_string();
    assert_eq!(tree, "b = 3\n");
    expect![[r#"
        [
            "parse(other.pp)",
        ]
    "#]]
    .assert_debug_eq(&executed(&db, &files));

    // Writing the same text again changes nothing, so nothing runs.
    db.set_file_text(Path::new("main.pp"), "a = 1\n".into());
    parse(&db, main);
    parse(&db, other);
    expect![[r#"
        []
    "#]]
    .assert_debug_eq(&executed(&db, &files));
}
