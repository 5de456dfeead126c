//! The formatter against hclwrite.Format (the oracle, Debian's hcl v2 build of it) on the shared
//! corpora: every file of `corpus/hcl` and `corpus/hcl-tricky` that hclsyntax accepts, and every
//! PCL program of `corpus/pulumi`. `test_data/fmt/oracle.tsv` holds a hash of hclwrite's output for each file it
//! changes (a file not listed is left as it is), so the test runs without Go; known, reviewed
//! disagreements are in `test_data/fmt/exceptions.tsv`, described in docs/fmt.md.
//!
//! To compare byte for byte, or to regenerate the oracle after a corpus update, run
//! `test_data/fmt/make-oracle.sh`, which builds hclwrite, writes its outputs to a folder and
//! reruns this test with `PCL_FMT_ORACLE_DIR` set (and `UPDATE_EXPECT=1` to rewrite oracle.tsv).
//!
//! Every file, accepted or not, must also keep its tokens and line breaks, keep damaged items as
//! written, and format idempotently.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// FNV-1a, 64 bits: a stable fingerprint of an output (collisions are not a concern here).
fn fingerprint(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

fn read_tsv(name: &str) -> BTreeMap<String, String> {
    let path = pcl_test_support::workspace_root()
        .join("test_data/fmt")
        .join(name);
    fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (key, value) = l.split_once('\t')?;
            Some((key.to_string(), value.to_string()))
        })
        .collect()
}

struct Case {
    /// `hcl/<path>` or `pulumi/<path>`: the key in the TSV files and the oracle folder.
    key: String,
    path: PathBuf,
    /// Whether hclsyntax accepts the file (the oracle comparison applies only then).
    accepted: bool,
}

fn hcl_cases(dir: &Path, name: &str) -> Vec<Case> {
    let expected = fs::read_to_string(dir.join("EXPECTED.tsv")).expect("EXPECTED.tsv");
    expected
        .lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let rel = fields.next()?;
            let verdict = fields.next()?;
            Some(Case {
                key: format!("{name}/{rel}"),
                path: dir.join(rel),
                accepted: verdict == "ok",
            })
        })
        .collect()
}

fn pulumi_cases(dir: &Path) -> Vec<Case> {
    let mut out = Vec::new();
    let mut stack = vec![dir.join("programs")];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).expect("corpus dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pp") {
                let rel = path
                    .strip_prefix(dir)
                    .expect("inside")
                    .display()
                    .to_string();
                out.push(Case {
                    key: format!("pulumi/{rel}"),
                    path,
                    accepted: true,
                });
            }
        }
    }
    out.sort_by(|a, b| a.key.cmp(&b.key));
    out
}

#[test]
fn formatter_agrees_with_hclwrite() {
    let (Some(hcl), Some(tricky), Some(pulumi)) = (
        pcl_test_support::corpus("corpus/hcl"),
        pcl_test_support::corpus("corpus/hcl-tricky"),
        pcl_test_support::corpus("corpus/pulumi"),
    ) else {
        return;
    };
    let oracle = read_tsv("oracle.tsv");
    let exceptions = read_tsv("exceptions.tsv");
    let oracle_dir = std::env::var_os("PCL_FMT_ORACLE_DIR").map(PathBuf::from);
    let update = std::env::var_os("UPDATE_EXPECT").is_some() && oracle_dir.is_some();

    let mut cases = hcl_cases(&hcl, "hcl");
    cases.extend(hcl_cases(&tricky, "hcl-tricky"));
    cases.extend(pulumi_cases(&pulumi));
    let (mut compared, mut changed, mut agreed, mut excepted, mut rejected) = (0, 0, 0, 0, 0);
    // Every file that fails, not only the first; a panic is its file's failure.
    let mut failures = pcl_test_support::Failures::new();
    let mut new_oracle = Vec::new();
    for case in &cases {
        failures.check(&case.key, || {
            let bytes = match fs::read(&case.path) {
                Ok(bytes) => bytes,
                Err(e) => return vec![format!("{}: {e}", case.key)],
            };
            let Ok(text) = String::from_utf8(bytes) else {
                // Not text: `pcl fmt` refuses such files before formatting.
                return Vec::new();
            };
            let formatted = match pcl_fmt::format(&text) {
                Ok(formatted) => formatted,
                Err(e) => return vec![format!("{}: {e}", case.key)],
            };
            let mut problems = Vec::new();
            if let Some(broken) = common::broken_promise(&text, &formatted) {
                problems.push(format!("{}: {broken}", case.key));
            }
            if !case.accepted {
                rejected += 1;
                return problems;
            }
            compared += 1;
            let expected = match &oracle_dir {
                Some(dir) => {
                    let out = fs::read_to_string(dir.join(&case.key))
                        .unwrap_or_else(|e| panic!("oracle output for {}: {e}", case.key));
                    if out != text {
                        new_oracle.push(format!("{}\t{}", case.key, fingerprint(&out)));
                    }
                    fingerprint(&out)
                }
                None => oracle
                    .get(&case.key)
                    .cloned()
                    .unwrap_or_else(|| fingerprint(&text)),
            };
            changed += usize::from(expected != fingerprint(&text));
            let agrees = fingerprint(&formatted.text) == expected;
            match (agrees, exceptions.get(&case.key)) {
                (true, None) => agreed += 1,
                (false, Some(_)) => excepted += 1,
                (true, Some(_)) => problems.push(format!(
                    "{}: listed in exceptions.tsv but agrees with hclwrite now",
                    case.key
                )),
                (false, None) => {
                    let mut message = format!("{}: differs from hclwrite", case.key);
                    if let Some(dir) = &oracle_dir {
                        let out = fs::read_to_string(dir.join(&case.key)).unwrap_or_default();
                        message.push_str(&first_difference(&out, &formatted.text));
                    }
                    problems.push(message);
                }
            }
            problems
        });
    }
    if update {
        let path = pcl_test_support::workspace_root().join("test_data/fmt/oracle.tsv");
        let header = "# hclwrite.Format's output hash (FNV-1a 64) for each corpus file it changes.\n\
                      # Generated by test_data/fmt/make-oracle.sh; read by crates/pcl-fmt/tests/corpus.rs.\n";
        fs::write(&path, format!("{header}{}\n", new_oracle.join("\n"))).expect("write oracle");
    }
    eprintln!(
        "fmt corpus: {compared} files compared with hclwrite ({changed} of them changed by it): \
         {agreed} agree, {excepted} listed exceptions; {rejected} files hclsyntax rejects \
         checked for kept tokens and idempotence"
    );
    failures.finish("files");
    assert!(compared > 5000, "too few files: {compared}");
}

/// The first line where two texts differ, for a readable failure.
fn first_difference(expected: &str, actual: &str) -> String {
    for (n, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!(
                "\n  line {}:\n    hclwrite: {e:?}\n    ours:     {a:?}",
                n + 1
            );
        }
    }
    "\n  (the texts differ in length)".into()
}
