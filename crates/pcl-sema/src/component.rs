//! Components: a `component name "./dir" { }` block instantiates the program in `./dir`, whose
//! `config` nodes are its inputs and whose `output` nodes are its outputs. This module owns
//! what a component program offers (its interface) and which programs components name
//! (directories, cycles of inclusions); a block is bound against them in `infer::component`.

use std::path::{Component as PathComponent, Path, PathBuf};

use pcl_db::Program;
use pcl_hir::{program_scope, Expr, NodeKind};
use pcl_types::{ConstValue, Type};

use crate::node_type;

/// What a component program offers its users.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ComponentInterface {
    /// Inputs by logical name: the config's type and whether the component must be given it.
    pub inputs: Vec<(String, Type, bool)>,
    /// Outputs by logical name, with their types.
    pub outputs: Vec<(String, Type)>,
}

impl ComponentInterface {
    /// The object the component block's attributes are checked against.
    pub fn input_object(&self) -> Type {
        Type::object(self.inputs.iter().map(|(name, ty, required)| {
            let ty = if *required || ty.is_optional() {
                ty.clone()
            } else {
                Type::optional(ty.clone())
            };
            (name.clone(), ty)
        }))
    }

    /// The type of one instance: each output, as an output.
    pub fn instance_type(&self) -> Type {
        Type::object(
            self.outputs
                .iter()
                .map(|(name, ty)| (name.clone(), Type::output(ty.unwrap_eventual()))),
        )
    }
}

/// The inputs and outputs of a component program. Re-runs when the program's nodes change;
/// backdates unless a config or output changed its name or type, so an edit inside one of
/// the component's resources re-binds none of its users.
#[salsa::tracked(returns(ref), cycle_result = interface_cycle)]
pub fn component_interface(db: &dyn pcl_db::Db, program: Program) -> ComponentInterface {
    let mut interface = ComponentInterface::default();
    let nodes: Vec<_> = program_scope(db, program)
        .nodes
        .iter()
        .copied()
        .filter(|node| matches!(node.kind(db), NodeKind::Config | NodeKind::Output))
        .collect();
    // Their types, dependencies first: an output at the end of a long chain of locals is
    // typed without recursing down the chain, and this result, whose edges are then in that
    // order, is re-validated without recursing either (checking the including program
    // overflowed the stack).
    crate::infer_nodes(db, &nodes);
    for node in nodes {
        let kind = node.kind(db);
        let body = node.body(db);
        let logical = body
            .find_attr(None, "__logicalName")
            .and_then(|(_, a)| match body.expr(a.value) {
                Expr::Literal(ConstValue::String(s)) => Some(s.to_string()),
                _ => None,
            })
            .unwrap_or_else(|| node.name(db).to_string());
        match kind {
            NodeKind::Config => {
                let has_default = body.find_attr(None, "default").is_some();
                let nullable = body.find_attr(None, "nullable").is_some_and(|(_, a)| {
                    matches!(body.expr(a.value), Expr::Literal(ConstValue::Bool(true)))
                });
                interface
                    .inputs
                    .push((logical, node_type(db, node), !has_default && !nullable));
            }
            _ => {
                // An output without a value offers nothing (the reference skips it too).
                if body.find_attr(None, "value").is_some() {
                    interface.outputs.push((logical, node_type(db, node)));
                }
            }
        }
    }
    interface.inputs.sort_by(|a, b| a.0.cmp(&b.0));
    interface.outputs.sort_by(|a, b| a.0.cmp(&b.0));
    interface
}

/// Components that include each other: neither side can be typed from the other.
fn interface_cycle(_db: &dyn pcl_db::Db, _id: salsa::Id, _program: Program) -> ComponentInterface {
    ComponentInterface::default()
}

/// `a/./b/../c` → `a/c`, without touching the file system.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            PathComponent::CurDir => {}
            PathComponent::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The directory a program's relative paths start from (a one-file program: the file's).
pub fn program_dir(root: &Path) -> &Path {
    if root.extension().is_some_and(|e| e == "pp") {
        root.parent().unwrap_or(Path::new("."))
    } else {
        root
    }
}

/// The directory a component's source names, relative to `program`.
pub fn component_dir(db: &dyn pcl_db::Db, program: Program, source: &str) -> PathBuf {
    normalize(&program_dir(program.root(db)).join(source))
}

/// The program registered for a directory.
pub fn program_at(db: &dyn pcl_db::Db, dir: &Path) -> Option<Program> {
    let programs = pcl_db::workspace(db).programs(db);
    let dir = normalize(dir);
    programs
        .binary_search_by(|(root, _)| normalize(root).as_path().cmp(&dir))
        .ok()
        .map(|i| programs[i].1)
        .or_else(|| {
            programs
                .iter()
                .find(|(root, _)| normalize(root) == dir)
                .map(|(_, p)| *p)
        })
}

/// The directories the components of `program` name (for hosts, which load those programs).
pub fn component_dirs(db: &dyn pcl_db::Db, program: Program) -> Vec<PathBuf> {
    included_dirs(db, program).clone()
}

/// [`component_dirs`] as a query: backdates when an edit leaves the component blocks' sources
/// as they were, so [`inclusion_cycles`] re-runs only when an inclusion changes.
#[salsa::tracked(returns(ref))]
fn included_dirs(db: &dyn pcl_db::Db, program: Program) -> Vec<PathBuf> {
    // Once files publish, from what the host wrote (`HIGH`), as the packages are.
    match crate::facts::kept_included_dirs(db, program) {
        Some(dirs) => dirs.to_vec(),
        None => included_dirs_of(db, program),
    }
}

/// [`included_dirs`] from the files' summaries (published, for open files).
pub(crate) fn included_dirs_of(db: &dyn pcl_db::Db, program: Program) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = program
        .files(db)
        .iter()
        .flat_map(|&file| {
            &crate::summary_of(db, pcl_hir::ProgramFile::new(db, program, file)).component_sources
        })
        .map(|source| component_dir(db, program, source))
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// A component block that closes a cycle of inclusions: `from` includes `dir`, and `chain`
/// (program roots, starting and ending with `dir`'s) goes back to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosingInclusion {
    pub from: Program,
    pub dir: PathBuf,
    pub chain: Vec<PathBuf>,
}

/// The inclusions that close cycles of components, chosen so that removing them leaves no
/// cycle, and so that the choice depends only on the programs of the cycle, never on which
/// program a host checks first: in each strongly connected set of programs, a depth-first walk
/// from the program with the smallest root, taking inclusions in order of directory, and the
/// inclusions that lead back to a program on the walk's path close a cycle. Those blocks are
/// errors and type as `dynamic`; every other component gets its program's whole interface.
#[salsa::tracked(returns(ref))]
pub fn inclusion_cycles(
    db: &dyn pcl_db::Db,
    workspace: pcl_db::Workspace,
) -> Vec<ClosingInclusion> {
    // Programs (aliases merged), ordered by root.
    let mut programs: Vec<Program> = workspace.programs(db).iter().map(|(_, p)| *p).collect();
    programs.sort_by(|a, b| a.root(db).cmp(b.root(db)));
    programs.dedup();
    let index = |program: Program| programs.binary_search_by(|p| p.root(db).cmp(program.root(db)));
    // Inclusions: (directory, target index), in order of directory.
    let edges: Vec<Vec<(PathBuf, usize)>> = programs
        .iter()
        .map(|&program| {
            included_dirs(db, program)
                .iter()
                .filter_map(|dir| {
                    // Self-inclusion is reported on its own at the block.
                    let target = program_at(db, dir).filter(|&t| t != program)?;
                    Some((dir.clone(), index(target).ok()?))
                })
                .collect()
        })
        .collect();
    let successors: Vec<Vec<usize>> = edges
        .iter()
        .map(|e| e.iter().map(|(_, t)| *t).collect())
        .collect();
    let mut component_of = vec![0; programs.len()];
    for (number, members) in crate::graph::strongly_connected(&successors)
        .into_iter()
        .enumerate()
    {
        for member in members {
            component_of[member] = number;
        }
    }

    let mut closing = Vec::new();
    let mut visited = vec![false; programs.len()];
    // Empty again whenever a walk ends.
    let mut on_path = vec![false; programs.len()];
    // Programs in root order: the first of each strongly connected set is its smallest.
    for start in 0..programs.len() {
        if visited[start] {
            continue;
        }
        // An iterative depth-first walk within `start`'s set: (program, next edge to take).
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        visited[start] = true;
        on_path[start] = true;
        while let Some(&mut (node, ref mut next)) = path.last_mut() {
            let Some((dir, target)) = edges[node].get(*next) else {
                on_path[node] = false;
                path.pop();
                continue;
            };
            *next += 1;
            let target = *target;
            if component_of[target] != component_of[start] {
                continue;
            }
            if on_path[target] {
                let from = path.iter().position(|&(n, _)| n == target).unwrap_or(0);
                let mut chain: Vec<PathBuf> = path[from..]
                    .iter()
                    .map(|&(n, _)| programs[n].root(db).clone())
                    .collect();
                chain.push(programs[target].root(db).clone());
                closing.push(ClosingInclusion {
                    from: programs[node],
                    dir: dir.clone(),
                    chain,
                });
            } else if !visited[target] {
                visited[target] = true;
                on_path[target] = true;
                path.push((target, 0));
            }
        }
    }
    closing
}
