//! Test helpers shared by the pcl crates.
//!
//! Owns one policy: where the external corpora (`shared/`, a sibling of the repository checkout) live,
//! and what a test does when they are absent; and the measurements the benchmark examples share
//! ([`measure`]). A user's clone has no `shared/`, so corpus tests skip
//! with a message; under `CI=true` a missing corpus is a failure, because CI always has it.
//! And one way to run data-driven tests ([`run_fixtures`]): one test per fixture, so that every
//! failing fixture is reported, not only the first; and one way for a test over a whole corpus
//! to report every failing file ([`Failures`]); and the random generator of the tests that
//! make random edits ([`Rng`]); and the one kind of scratch directory tests make
//! ([`TempDir`]), which goes when the test ends, passed or failed.

use std::path::{Path, PathBuf};

/// A fresh directory under the system's temporary directory, named for the test and the
/// process, removed with everything in it when dropped (also while a failing test unwinds):
/// running the tests leaves nothing behind. Derefs to its path.
pub struct TempDir(PathBuf);

impl TempDir {
    /// `pcl-NAME-PID`, emptied first if a killed run left it.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("pcl-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The files or directories directly in `dir` that `keep` accepts, sorted; panics when there are
/// none (a fixture directory that moved would otherwise pass with no test).
pub fn fixtures_in(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| keep(p))
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no fixtures in {}", dir.display());
    found
}

/// The `main` of a data-driven test target (`harness = false`): one test per case, named
/// `name`, that passes unless `check` panics. Takes libtest's arguments (a filter, `--list`,
/// `--exact`), so `cargo test NAME` runs one fixture.
pub fn run_fixtures<T: Send + 'static>(
    cases: impl IntoIterator<Item = (String, T)>,
    check: fn(T),
) -> ! {
    let args = libtest_mimic::Arguments::from_args();
    let trials = cases
        .into_iter()
        .map(|(name, case)| {
            libtest_mimic::Trial::test(name, move || {
                check(case);
                Ok(())
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit()
}

/// A fixture's name in the test list: its path below `base`.
pub fn fixture_name(base: &Path, path: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Every failure of a test over many items (the files or programs of a corpus), reported
/// together at the end with counts, so that one failing item hides none of the others.
#[derive(Default)]
pub struct Failures {
    checked: usize,
    failed: usize,
    messages: Vec<String>,
}

impl Failures {
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks one item: `check` returns what is wrong with it (nothing: it passed). A panic in
    /// `check` is that item's failure, with the panic's message, and the test goes on.
    pub fn check(&mut self, item: &str, check: impl FnOnce() -> Vec<String>) {
        self.checked += 1;
        let problems = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check))
            .unwrap_or_else(|payload| {
                let message = payload
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| payload.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)");
                vec![format!("{item}: panicked: {message}")]
            });
        if !problems.is_empty() {
            self.failed += 1;
            self.messages.extend(problems);
        }
    }

    /// The number of items checked.
    pub fn checked(&self) -> usize {
        self.checked
    }

    /// The number of items that failed.
    pub fn failed(&self) -> usize {
        self.failed
    }

    /// Panics, unless no item failed, with every failure and the counts: "`failed` of
    /// `checked` `what` failed".
    pub fn finish(self, what: &str) {
        assert!(
            self.failed == 0,
            "{} of {} {what} failed ({} problems):\n{}",
            self.failed,
            self.checked,
            self.messages.len(),
            self.messages.join("\n")
        );
    }
}

/// The `shared/` directory with the corpora, if it can be found.
///
/// Looked up, in order: `$PCL_SHARED_DIR`; then a `shared/` directory beside any ancestor of the
/// workspace root (the checkout usually sits at `<root>/main`, with `<root>/shared` beside it);
/// then beside any ancestor of the repository this checkout belongs to, when that is elsewhere
/// on this machine (a `git worktree`, whose `.git` file names the main repository, or a clone of
/// a local repository, whose `origin` is a path), so that a clean checkout made in a temporary
/// directory finds the corpora of the repository it was made from.
pub fn shared_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PCL_SHARED_DIR") {
        let dir = PathBuf::from(dir);
        return dir.is_dir().then_some(dir);
    }
    find_shared(&workspace_root())
}

fn find_shared(workspace: &Path) -> Option<PathBuf> {
    std::iter::once(workspace.to_path_buf())
        .chain(related_repositories(workspace))
        .flat_map(|start| {
            start
                .ancestors()
                .map(|a| a.join("shared"))
                .collect::<Vec<_>>()
        })
        .find(|candidate| candidate.join("corpus").is_dir())
}

/// The repositories a checkout at `workspace` was made from, read from its git metadata
/// without running git: the `gitdir:` of a worktree's `.git` file, and `origin` when it is a
/// local path.
fn related_repositories(workspace: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let dot_git = workspace.join(".git");
    let mut git_dir = dot_git.clone();
    if let Ok(text) = std::fs::read_to_string(&dot_git) {
        if let Some(dir) = text.lines().find_map(|l| l.strip_prefix("gitdir:")) {
            git_dir = workspace.join(dir.trim());
            found.push(git_dir.clone());
        }
    }
    let config = std::fs::read_to_string(git_dir.join("config"))
        .or_else(|_| std::fs::read_to_string(git_dir.join("../../config")))
        .unwrap_or_default();
    let mut in_origin = false;
    for line in config.lines().map(str::trim) {
        if line.starts_with('[') {
            in_origin = line == "[remote \"origin\"]";
        } else if let Some(url) = line.strip_prefix("url").map(str::trim_start) {
            let url = url.trim_start_matches('=').trim();
            let path = url.strip_prefix("file://").unwrap_or(url);
            if in_origin && Path::new(path).is_absolute() {
                found.push(PathBuf::from(path));
            }
        }
    }
    found
}

/// The root of this Cargo workspace (the directory holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    // CARGO_MANIFEST_DIR of this crate is `<root>/crates/pcl-test-support`.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crate lives two levels below the workspace root")
        .to_path_buf()
}

/// The corpus directory `shared/<relative>`, or `None` after printing why the test is skipped.
///
/// Panics when the corpus is missing and `CI=true`: CI always has it, so a skip there would hide a
/// test that never ran.
pub fn corpus(relative: &str) -> Option<PathBuf> {
    let found = shared_dir()
        .map(|d| d.join(relative))
        .filter(|p| p.exists());
    match found {
        Some(path) => Some(path),
        None if is_ci() => panic!(
            "corpus `shared/{relative}` not found (set PCL_SHARED_DIR); it is required when CI=true"
        ),
        None => {
            // Straight to the process's stderr: the test harness captures `eprintln!`, and shows
            // it only for failures, so a skip would look like a pass.
            use std::io::Write;
            let test = std::thread::current()
                .name()
                .unwrap_or("a corpus test")
                .to_owned();
            let _ = writeln!(
                std::io::stderr().lock(),
                "note: {test}: skipped: corpus `shared/{relative}` not found (set PCL_SHARED_DIR to run it)"
            );
            None
        }
    }
}

fn is_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The number of cases each property test runs: `$PCL_PROPTEST_CASES`, or `default` (the
/// fixed budget of CI). Longer runs are made by hand with a larger number.
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PCL_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_all_reported_with_counts() {
        let mut failures = Failures::new();
        failures.check("a", Vec::new);
        failures.check("b", || vec!["b: wrong".to_string()]);
        failures.check("c", || panic!("broken"));
        failures.check("d", Vec::new);
        assert_eq!((failures.checked(), failures.failed()), (4, 2));
        let report =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| failures.finish("files")))
                .unwrap_err();
        assert_eq!(
            report.downcast_ref::<String>().map(String::as_str),
            Some("2 of 4 files failed (2 problems):\nb: wrong\nc: panicked: broken")
        );
        Failures::new().finish("files");
    }

    #[test]
    fn corpora_are_found_beside_the_checkout_or_the_repository_it_was_made_from() {
        let root = std::env::temp_dir().join(format!("pcl-test-support-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let shared = root.join("team/shared");
        std::fs::create_dir_all(shared.join("corpus")).unwrap();
        std::fs::create_dir_all(root.join("team/main/.git/worktrees/ci")).unwrap();
        std::fs::write(root.join("team/main/.git/config"), "[core]\n").unwrap();
        // Beside the checkout.
        assert_eq!(find_shared(&root.join("team/main")), Some(shared.clone()));
        // A clone of it elsewhere.
        let clone = root.join("elsewhere/clone");
        std::fs::create_dir_all(clone.join(".git")).unwrap();
        std::fs::write(
            clone.join(".git/config"),
            format!(
                "[remote \"upstream\"]\n\turl = /nowhere\n[remote \"origin\"]\n\turl = {}\n",
                root.join("team/main").display()
            ),
        )
        .unwrap();
        assert_eq!(find_shared(&clone), Some(shared.clone()));
        // A worktree of it elsewhere.
        let worktree = root.join("elsewhere/worktree");
        std::fs::create_dir_all(&worktree).unwrap();
        std::fs::write(
            worktree.join(".git"),
            format!(
                "gitdir: {}\n",
                root.join("team/main/.git/worktrees/ci").display()
            ),
        )
        .unwrap();
        assert_eq!(find_shared(&worktree), Some(shared));
        // A clone of a remote repository: nothing.
        let remote = root.join("elsewhere/remote");
        std::fs::create_dir_all(remote.join(".git")).unwrap();
        std::fs::write(
            remote.join(".git/config"),
            "[remote \"origin\"]\n\turl = https://example.com/pcl.git\n",
        )
        .unwrap();
        assert_eq!(find_shared(&remote), None);
        let _ = std::fs::remove_dir_all(&root);
    }
}

/// What the benchmark examples measure (`docs/benchmarks.md`).
pub mod measure {
    use std::time::Duration;

    /// The resident memory of a process (`None`: this one) in MB, from `/proc` (0 where there
    /// is no `/proc`).
    pub fn resident_mb(pid: Option<u32>) -> f64 {
        let status = match pid {
            Some(pid) => format!("/proc/{pid}/status"),
            None => "/proc/self/status".to_string(),
        };
        std::fs::read_to_string(status)
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmRSS:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
            })
            .map_or(0.0, |kb| kb / 1024.0)
    }

    /// Where the editor benchmarks type in a file of `pcl-progen`: the offset of a string
    /// literal among a resource's inputs (a ConfigMap's value, or else the name of a
    /// container's environment variable), at least four characters long.
    pub fn progen_literal(text: &str) -> Option<usize> {
        [
            ("LOG_LEVEL = \"", 0),
            ("name = \"LOG_LEVEL", "LOG_LEVEL".len()),
        ]
        .iter()
        .find_map(|(needle, back)| Some(text.find(needle)? + needle.len() - back))
    }

    /// The CPU time (user and system) a process has used so far, in seconds, from `/proc`
    /// (clock ticks of 1/100 s; 0 where there is no `/proc`).
    pub fn cpu_seconds(pid: u32) -> f64 {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                // The command name (field 2) may hold spaces: count from the `)` after it.
                let rest = &stat[stat.rfind(')')? + 1..];
                let fields: Vec<&str> = rest.split_whitespace().collect();
                // Fields 14 and 15 of the file: the 12th and 13th after the name.
                let user: f64 = fields.get(11)?.parse().ok()?;
                let system: f64 = fields.get(12)?.parse().ok()?;
                Some((user + system) / 100.0)
            })
            .unwrap_or(0.0)
    }

    /// Exits with a usage message unless a benchmark over `pcl-progen` programs was given the
    /// directory of the schemas they are checked against.
    pub fn require_progen_schemas(schemas: &Option<std::path::PathBuf>) {
        if schemas.is_none() {
            eprintln!(
                "--schemas DIR is required: a directory with kubernetes-3.7.2.json and random-4.11.2.json from the corpus (docs/benchmarks.md)"
            );
            std::process::exit(2);
        }
    }

    /// The `p` quantile (0.5: the median) of `samples`, in milliseconds; sorts them.
    pub fn percentile_ms(samples: &mut [Duration], p: f64) -> f64 {
        samples.sort();
        let i = ((samples.len() as f64 - 1.0) * p).round() as usize;
        samples.get(i).map_or(0.0, |d| d.as_secs_f64() * 1e3)
    }
}

/// A deterministic random generator for tests that make random edits (xorshift64*): the
/// same seed gives the same edits on every machine, with no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// The program directories of the Pulumi corpus that the differential tests edit (the
/// `codegen-new` and `codegen-old` sets of `root`, `corpus/pulumi/programs`), sorted.
pub fn edited_corpus_programs(root: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for set in ["codegen-new", "codegen-old"] {
        for entry in std::fs::read_dir(root.join(set)).expect("corpus set") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            }
        }
    }
    dirs.sort();
    dirs
}
