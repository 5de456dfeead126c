//! Finding the programs of a workspace folder: every directory holding `.pp` files.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

/// Directories visited at most per folder, and the deepest level walked.
const MAX_DIRS: usize = 20_000;
const MAX_DEPTH: usize = 16;

/// The directories under `root` (itself included) that contain `.pp` files, breadth first,
/// skipping hidden directories, `node_modules` and symbolic links, bounded in size and depth.
pub fn program_dirs(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut queue = VecDeque::from([(root.to_owned(), 0usize)]);
    let mut visited = 0;
    while let Some((dir, depth)) = queue.pop_front() {
        visited += 1;
        if visited > MAX_DIRS {
            crate::log(&format!(
                "{}: stopped looking for programs after {MAX_DIRS} directories",
                root.display()
            ));
            break;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut has_pp = false;
        let mut subdirs = Vec::new();
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if kind.is_dir() {
                if !name.starts_with('.') && name != "node_modules" && depth < MAX_DEPTH {
                    subdirs.push(entry.path());
                }
            } else if kind.is_file() && name.ends_with(".pp") {
                has_pp = true;
            }
        }
        if has_pp {
            found.push(dir);
        }
        subdirs.sort();
        queue.extend(subdirs.into_iter().map(|d| (d, depth + 1)));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_program_dirs_and_skips_hidden_and_node_modules() {
        let root = std::env::temp_dir().join(format!("pcl-lsp-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (dir, file) in [
            ("", "main.pp"),
            ("a/b", "x.pp"),
            ("a", "readme.md"),
            (".git", "x.pp"),
            ("node_modules/m", "x.pp"),
        ] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
            std::fs::write(root.join(dir).join(file), "").unwrap();
        }
        let dirs = program_dirs(&root);
        let _ = std::fs::remove_dir_all(&root);
        assert_eq!(dirs, vec![root.clone(), root.join("a/b")]);
    }
}
