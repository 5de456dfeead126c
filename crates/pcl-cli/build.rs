//! Puts the commit into `pcl --version`: `PCL_LONG_VERSION` is the package version, then the
//! commit and its date when the source is a git checkout (or `PCL_COMMIT` names it, for builds
//! from a tarball).

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=PCL_COMMIT");
    let version = env!("CARGO_PKG_VERSION");
    let commit = std::env::var("PCL_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .map(|c| (c, None))
        .or_else(|| {
            let hash = git(&["rev-parse", "--short=10", "HEAD"])?;
            Some((hash, git(&["log", "-1", "--format=%cs", "HEAD"])))
        });
    // Rebuild when HEAD moves: HEAD itself (a checkout), the branch it names and the packed
    // refs. Only files that exist are named: cargo re-runs a script for a missing one every time.
    let watch = |path: &Path| {
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    };
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        watch(&Path::new(&git_dir).join("HEAD"));
        if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
            let common = Path::new(&common);
            watch(&common.join("packed-refs"));
            if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                watch(&common.join(branch));
            }
        }
    }
    let long = match commit {
        Some((hash, Some(date))) => format!("{version} ({hash} {date})"),
        Some((hash, None)) => format!("{version} ({hash})"),
        None => version.to_string(),
    };
    println!("cargo:rustc-env=PCL_LONG_VERSION={long}");
}
