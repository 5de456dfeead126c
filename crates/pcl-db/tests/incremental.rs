//! Incrementality: which queries run again after an edit, from salsa's own execution events.

use std::path::Path;

use expect_test::expect;
use pcl_db::{parse, QueryLog, QueryNames, RootDatabase, SourceFile};

/// Names the executed queries by the file they ran for, so the snapshot says *which* file.
fn executed(db: &RootDatabase, log: &QueryLog, files: &[SourceFile]) -> Vec<String> {
    let mut names = QueryNames::new();
    for &file in files {
        names.add(file, file.path(db).display().to_string());
    }
    log.take_executed(&names)
}

#[test]
fn editing_one_file_reparses_only_that_file() {
    let mut db = RootDatabase::with_query_hooks();
    let log = QueryLog::install(&db).unwrap();
    let main = db.set_file_text(Path::new("main.pp"), "a = 1\n".to_string());
    let other = db.set_file_text(Path::new("other.pp"), "b = 2\n".to_string());
    let files = [main, other];

    assert!(!parse(&db, main).has_errors());
    assert!(!parse(&db, other).has_errors());
    expect![[r#"
        [
            "parse(main.pp)",
            "parse(other.pp)",
        ]
    "#]]
    .assert_debug_eq(&executed(&db, &log, &files));

    // Edit other.pp only: main.pp's tree is reused.
    db.set_file_text(Path::new("other.pp"), "b = 3\n".to_string());
    parse(&db, main);
    let tree = parse(&db, other).syntax().to_string();
    assert_eq!(tree, "b = 3\n");
    expect![[r#"
        [
            "parse(other.pp)",
        ]
    "#]]
    .assert_debug_eq(&executed(&db, &log, &files));

    // Writing the same text again changes nothing, so nothing runs.
    db.set_file_text(Path::new("main.pp"), "a = 1\n".to_string());
    parse(&db, main);
    parse(&db, other);
    expect![[r#"
        []
    "#]]
    .assert_debug_eq(&executed(&db, &log, &files));
}
