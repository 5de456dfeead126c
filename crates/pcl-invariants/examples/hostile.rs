//! Times every hostile input of `docs/reliability.md`: through the library (parse, format, and
//! the whole check: lowering, inference, binding, the edge) and, given `--pcl PATH` (a release
//! build of the `pcl` binary), through `pcl check` as a process. Prints a Markdown table for
//! `docs/benchmarks.md`.
//!
//! ```text
//! cargo build --release -p pcl-cli
//! cargo run --release -p pcl-invariants --example hostile -- --pcl target/release/pcl
//! ```

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pcl_invariants::hostile::{self, Nesting};
use pcl_invariants::program::ProgramInput;

struct Case {
    name: String,
    input: ProgramInput,
}

fn demo(text: String) -> ProgramInput {
    ProgramInput {
        schemas: pcl_invariants::targets::demo_schemas(),
        ..ProgramInput::single(text)
    }
}

fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = Nesting::ALL
        .iter()
        .map(|&kind| Case {
            name: format!("100,000 nested {}", kind.name()),
            input: demo(hostile::nested(kind, 100_000)),
        })
        .collect();
    let schema = |name: &str, text: String| {
        (
            name.to_string(),
            Some("1.0.0".to_string()),
            Arc::<str>::from(text),
        )
    };
    cases.extend([
        Case {
            name: "a 10 MB line".into(),
            input: demo(hostile::long_line(10 << 20)),
        },
        Case {
            name: "an integer of 100,000 digits".into(),
            input: demo(hostile::huge_integer(100_000)),
        },
        Case {
            name: "100,000 attributes in one block".into(),
            input: demo(hostile::many_attributes(100_000)),
        },
        Case {
            name: "invalid UTF-8 and NUL bytes (1 MB)".into(),
            input: demo(pcl_invariants::text_of(
                &b"a = \"x\xff\"\nb = 1\0\n".repeat(60_000),
            )),
        },
        Case {
            name: "a chain of 100,000 locals".into(),
            input: demo(hostile::local_chain(100_000)),
        },
        Case {
            name: "a cycle of 100,000 locals".into(),
            input: demo(hostile::local_cycle(100_000)),
        },
        Case {
            name: "100,000 resources using one".into(),
            input: demo(hostile::fan_in(100_000)),
        },
        Case {
            name: "ranges over 10^12".into(),
            input: demo(hostile::huge_ranges()),
        },
        Case {
            name: "schema types in a cycle of 1,000".into(),
            input: ProgramInput {
                schemas: vec![schema("cyc", hostile::cyclic_schema(1_000))],
                ..ProgramInput::single(hostile::CYCLIC_SCHEMA_USER)
            },
        },
        Case {
            name: "a schema nested 100,000 deep".into(),
            input: ProgramInput {
                schemas: vec![schema("deep", hostile::deep_schema(100_000))],
                ..ProgramInput::single("resource r \"deep:index:R\" {\n  p = \"x\"\n}\n")
            },
        },
        Case {
            name: "types shared by reference, 64 levels".into(),
            input: demo(hostile::shared_types(64)),
        },
        Case {
            name: "a value 16,000 levels deep for a recursive schema type".into(),
            input: ProgramInput {
                schemas: vec![schema("cyc", hostile::cyclic_schema(1))],
                ..ProgramInput::single(hostile::deep_value_for_cyclic_schema(16_000))
            },
        },
        Case {
            name: "a schema property oneOf 10,000 object types (twice)".into(),
            input: ProgramInput {
                schemas: vec![schema("wide", hostile::one_of_schema(10_000))],
                ..ProgramInput::single(hostile::ONE_OF_SCHEMA_USER)
            },
        },
        Case {
            name: "conditional unions of lists nested 1,000 deep".into(),
            input: demo(hostile::nested_list_unions(1_000)),
        },
        Case {
            name: "a 100 MB schema".into(),
            input: ProgramInput {
                schemas: vec![schema("big", hostile::big_schema(100 << 20))],
                ..ProgramInput::single(hostile::BIG_SCHEMA_USER)
            },
        },
    ]);
    cases
}

fn seconds(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pcl = args
        .iter()
        .position(|a| a == "--pcl")
        .and_then(|i| args.get(i + 1))
        .map(|p| std::fs::canonicalize(p).expect("the pcl binary"));
    let scratch = std::env::temp_dir().join(format!("pcl-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch directory");

    println!("| input | bytes | parse (s) | format (s) | check, library (s) | diagnostics | `pcl check` (s) |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for case in cases() {
        let text = &case.input.files[0].1;
        let start = Instant::now();
        let parse = pcl_syntax::parse(text);
        let parse_time = start.elapsed();
        drop(parse);
        let start = Instant::now();
        let formatted = pcl_fmt::format(text).map(|f| f.text.len());
        let format_time = start.elapsed();
        let start = Instant::now();
        let (db, program) = case.input.load();
        let report = pcl_sema::check_program(&db, program);
        let check_time = start.elapsed();
        let diagnostics: usize = report.files.iter().map(|f| f.diagnostics.len()).sum();
        let format_cell = match formatted {
            Ok(_) => seconds(format_time),
            Err(_) => format!("refused ({})", seconds(format_time)),
        };
        let process = pcl.as_ref().map_or("".to_string(), |pcl| {
            let dir = scratch.join(case.name.replace([' ', ',', '^'], "-"));
            write_case(&dir, &case.input);
            time_check(pcl, &dir, &["main.pp"])
        });
        println!(
            "| {} | {} | {} | {format_cell} | {} | {diagnostics} | {process} |",
            case.name,
            text.len(),
            seconds(parse_time),
            seconds(check_time),
        );
    }
    if let Some(pcl) = &pcl {
        process_only_cases(pcl, &scratch);
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// Writes a case as `main.pp` and `schemas/` in `dir`.
fn write_case(dir: &Path, input: &ProgramInput) {
    std::fs::create_dir_all(dir.join("schemas")).expect("case directory");
    for (path, text) in &input.files {
        std::fs::write(dir.join(path), text).expect("write program");
    }
    for (name, version, text) in &input.schemas {
        let file = format!("{name}-{}.json", version.as_deref().unwrap_or("0.0.0"));
        std::fs::write(dir.join("schemas").join(file), text.as_bytes()).expect("write schema");
    }
}

/// Wall time of `pcl check --schemas schemas ARGS` in `dir`, and its exit status.
fn time_check(pcl: &Path, dir: &Path, args: &[&str]) -> String {
    let start = Instant::now();
    let status = std::process::Command::new(pcl)
        .current_dir(dir)
        .arg("check")
        .args(["--schemas", "schemas"])
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("pcl runs");
    format!(
        "{} (exit {})",
        seconds(start.elapsed()),
        status.code().unwrap_or(-1)
    )
}

/// The inputs that only exist on disk: a file over the size limit, components, symbolic
/// links, a directory of 10,000 files.
fn process_only_cases(pcl: &Path, scratch: &Path) {
    let dir = scratch.join("disk");
    std::fs::create_dir_all(dir.join("schemas")).expect("directory");
    std::fs::create_dir_all(dir.join("huge")).expect("directory");
    std::fs::File::create(dir.join("huge/huge.pp"))
        .and_then(|f| f.set_len(1 << 30))
        .expect("sparse file");
    println!();
    println!("| input (`pcl check` only) | time (s) |");
    println!("|---|---:|");
    println!(
        "| a 1 GiB file (refused before reading) | {} |",
        time_check(pcl, &dir, &["huge/huge.pp"])
    );
    std::fs::write(
        dir.join("main.pp"),
        "component me \".\" {\n}\ncomponent a \"./a\" {\n}\n",
    )
    .expect("write");
    std::fs::create_dir_all(dir.join("a")).expect("a");
    std::fs::create_dir_all(dir.join("b")).expect("b");
    std::fs::write(dir.join("a/main.pp"), "component b \"../b\" {\n}\n").expect("write");
    std::fs::write(dir.join("b/main.pp"), "component a \"../a\" {\n}\n").expect("write");
    #[cfg(unix)]
    {
        let _ = std::os::unix::fs::symlink(".", dir.join("loop"));
        let _ = std::os::unix::fs::symlink("self.pp", dir.join("self.pp"));
        std::fs::write(dir.join("links.pp"), "component l \"./loop\" {\n}\n").expect("write");
    }
    println!(
        "| components including themselves and each other, a symbolic link loop | {} |",
        time_check(pcl, &dir, &["."])
    );
    hostile::write_many_files(&dir.join("many"), 10_000).expect("many files");
    println!(
        "| a program directory of 10,000 files | {} |",
        time_check(pcl, &dir, &["many"])
    );
}
