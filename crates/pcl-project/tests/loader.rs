//! The loader on real directories: what it finds, what it reports, and reloading.

use std::path::{Path, PathBuf};

use pcl_db::RootDatabase;
use pcl_project::Loader;

/// A fresh directory for one test, holding `files`.
fn temp_dir(name: &str, files: &[(&str, &str)]) -> pcl_test_support::TempDir {
    let dir = pcl_test_support::TempDir::new(&format!("project-{name}"));
    for (file, text) in files {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("fixture directory");
        std::fs::write(path, text).expect("write fixture");
    }
    dir
}

fn roots(db: &RootDatabase, programs: &[pcl_db::Program]) -> Vec<PathBuf> {
    programs.iter().map(|p| p.root(db).clone()).collect()
}

fn file_names(db: &RootDatabase, program: pcl_db::Program) -> Vec<String> {
    program
        .files(db)
        .iter()
        .map(|f| {
            f.path(db)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

const WITH_COMPONENT: &[(&str, &str)] = &[
    ("a.pp", "component part \"./part\" {\n  size = 3\n}\n"),
    ("b.pp", "x = 1\n"),
    (
        "part/main.pp",
        "config size int {}\noutput out {\n  value = size\n}\n",
    ),
];

#[test]
fn a_directory_and_its_components_program_first() {
    let dir = temp_dir("components", WITH_COMPONENT);
    let mut db = RootDatabase::default();
    let loaded = Loader::new().load(&mut db, &dir);
    assert!(loaded.errors.is_empty() && loaded.warnings.is_empty());
    assert_eq!(
        roots(&db, &loaded.programs),
        [dir.to_path_buf(), dir.join("./part")]
    );
    assert_eq!(file_names(&db, loaded.programs[0]), ["a.pp", "b.pp"]);
    // One file is a program of its own.
    let loaded = Loader::new().load(&mut db, &dir.join("b.pp"));
    assert_eq!(roots(&db, &loaded.programs), [dir.join("b.pp")]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reloading_an_unchanged_directory_writes_nothing() {
    let dir = temp_dir("unchanged", WITH_COMPONENT);
    let mut db = RootDatabase::with_query_hooks();
    let loaded = Loader::new().load(&mut db, &dir);
    for &program in &loaded.programs {
        pcl_sema::check_program(&db, program);
    }
    let log = pcl_db::QueryLog::install(&db).unwrap();
    let again = Loader::new().load(&mut db, &dir);
    assert_eq!(again.programs, loaded.programs);
    for &program in &again.programs {
        pcl_sema::check_program(&db, program);
    }
    // Nothing was written, so nothing ran again.
    assert_eq!(log.take_counts().0, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reloading_sees_files_appear_and_disappear() {
    let dir = temp_dir("changes", WITH_COMPONENT);
    let mut db = RootDatabase::default();
    let program = Loader::new().load(&mut db, &dir).programs[0];
    std::fs::write(dir.join("c.pp"), "y = 2\n").expect("write");
    std::fs::remove_file(dir.join("b.pp")).expect("remove");
    let loaded = Loader::new().load(&mut db, &dir);
    assert_eq!(loaded.programs[0], program, "the same program input");
    assert_eq!(file_names(&db, program), ["a.pp", "c.pp"]);
    // A component directory that no longer holds a program is forgotten, as in a fresh load.
    std::fs::remove_file(dir.join("part/main.pp")).expect("remove");
    let loaded = Loader::new().load(&mut db, &dir);
    assert_eq!(roots(&db, &loaded.programs), [dir.to_path_buf()]);
    assert!(db.program(&dir.join("./part")).is_none());
    let registered: Vec<PathBuf> = pcl_db::workspace(&db)
        .programs(&db)
        .iter()
        .map(|(root, _)| root.clone())
        .collect();
    assert_eq!(registered, [dir.to_path_buf()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pulumi_yaml_main_names_the_program_directory() {
    let dir = temp_dir(
        "main",
        &[
            ("Pulumi.yaml", "name: demo\nruntime: pcl\nmain: src/\n"),
            ("src/main.pp", "x = 1\n"),
        ],
    );
    let mut db = RootDatabase::default();
    let loaded = Loader::new().load(&mut db, &dir);
    assert!(loaded.errors.is_empty());
    assert_eq!(roots(&db, &loaded.programs), [dir.join("src")]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn problems_are_returned_not_printed() {
    let dir = temp_dir("problems", &[("empty/readme.md", "")]);
    let mut db = RootDatabase::default();
    let loaded = Loader::new().load(&mut db, &dir.join("empty"));
    assert!(loaded.programs.is_empty());
    assert_eq!(
        loaded.errors,
        [format!(
            "no program in `{}`: the directory holds no `.pp` files",
            dir.join("empty").display()
        )]
    );
    let loaded = Loader::new().load(&mut db, &dir.join("missing.pp"));
    assert_eq!(loaded.errors.len(), 1);
    assert!(
        loaded.errors[0].starts_with(&format!(
            "cannot read `{}`: ",
            dir.join("missing.pp").display()
        )),
        "{:?}",
        loaded.errors
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn fifos_are_skipped_with_a_warning_and_links_are_aliases() {
    let dir = temp_dir(
        "links",
        &[
            (
                "main.pp",
                "component a \"./part\" {}\ncomponent b \"./alias\" {}\n",
            ),
            ("part/main.pp", "x = 1\n"),
        ],
    );
    std::os::unix::fs::symlink(dir.join("part"), dir.join("alias")).expect("symlink");
    let fifo = std::ffi::CString::new(dir.join("pipe.pp").display().to_string()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let mut db = RootDatabase::default();
    let loaded = Loader::new().load(&mut db, &dir);
    assert!(loaded.errors.is_empty());
    assert_eq!(loaded.warnings.len(), 1);
    assert!(
        loaded.warnings[0]
            == format!(
                "skipped `{}`: it is a FIFO (named pipe), not a regular file",
                dir.join("pipe.pp").display()
            ),
        "{:?}",
        loaded.warnings
    );
    // The linked directory is loaded once, under both names.
    assert_eq!(loaded.programs.len(), 2);
    let part = loaded.programs[1];
    let registered = pcl_db::workspace(&db).programs(&db).clone();
    let names: Vec<&Path> = registered
        .iter()
        .filter(|(_, p)| *p == part)
        .map(|(root, _)| root.as_path())
        .collect();
    assert_eq!(names.len(), 2, "{registered:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schema_files_are_read_by_the_installed_reader() {
    let dir = temp_dir(
        "schemas",
        &[
            ("demo-1.0.0.json", "{\"name\": \"demo\"}"),
            ("demo-2.0.0.json", "not json"),
            ("notes.txt", ""),
        ],
    );
    let specs = pcl_project::schema_files_in(std::slice::from_ref(&dir.to_path_buf()));
    let names: Vec<(String, Option<String>)> = specs
        .iter()
        .map(|s| (s.package.clone(), s.version.clone()))
        .collect();
    assert_eq!(
        names,
        [
            ("demo".into(), Some("1.0.0".into())),
            ("demo".into(), Some("2.0.0".into()))
        ]
    );
    assert_eq!(
        pcl_project::read_schema(&dir.join("demo-1.0.0.json")).unwrap(),
        "{\"name\": \"demo\"}"
    );
    assert!(pcl_project::read_schema(&dir).is_err_and(|e| e.to_string().contains("a directory")));
    // The search path: a given directory that is not one is an error for the host to word.
    let search = pcl_project::SchemaSearch::new(vec![dir.join("notes.txt")]);
    assert_eq!(
        search.dirs(),
        Err(pcl_project::NotADirectory(dir.join("notes.txt")))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
