//! Rename of configs, locals, resources, components, outputs and local variables, across the
//! files of a program and into the component blocks that include it.

use pcl_db::RootDatabase;
use pcl_diagnostics::TextRange;
use pcl_hir::NodeKind;

use crate::navigation::{reference_ranges, target_at};
use crate::semantics::{self, Definition};
use crate::{FilePosition, FileRange, SourceChange};

/// Why a rename cannot be done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenameError {
    /// Nothing renamable is at the position (a keyword, a literal, a builtin).
    NotRenamable(String),
    /// The new name is not an identifier.
    InvalidName(String),
    /// The new name is taken.
    Collision(String),
}

impl std::fmt::Display for RenameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenameError::NotRenamable(m)
            | RenameError::InvalidName(m)
            | RenameError::Collision(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RenameError {}

fn renamable<'db>(
    db: &'db RootDatabase,
    position: &FilePosition,
) -> Result<(Definition<'db>, TextRange), RenameError> {
    let definition = target_at(db, position)
        .ok_or_else(|| RenameError::NotRenamable("no name to rename here".to_string()))?;
    if let Definition::Node(node) = &definition {
        if matches!(
            node.kind(db),
            NodeKind::Pulumi | NodeKind::Package | NodeKind::Hook
        ) {
            return Err(RenameError::NotRenamable(format!(
                "a `{}` block cannot be renamed",
                node.kind(db).keyword()
            )));
        }
    }
    if let Definition::Binding(node, binding) = &definition {
        if semantics::binding_kind(db, *node, *binding) != pcl_hir::BindingKind::ForKey
            && semantics::binding_kind(db, *node, *binding) != pcl_hir::BindingKind::ForValue
        {
            let name = semantics::binding_name(db, *node, *binding);
            return Err(RenameError::NotRenamable(format!(
                "`{name}` is defined by the language and cannot be renamed"
            )));
        }
    }
    // The range under the cursor that will be replaced: one of those in the cursor's file.
    let file = semantics::program_file(db, &position.file).map(|pf| pf.file(db));
    let here = reference_ranges(db, &definition, true, file)
        .into_iter()
        .find(|r| r.file == position.file && r.range.contains_inclusive(position.offset))
        .map(|r| r.range)
        .ok_or_else(|| RenameError::NotRenamable("no name to rename here".to_string()))?;
    Ok((definition, here))
}

pub(crate) fn prepare_rename(
    db: &RootDatabase,
    position: &FilePosition,
) -> Result<TextRange, RenameError> {
    renamable(db, position).map(|(_, range)| range)
}

/// Whether `name` is an HCL identifier: a letter or `_` first, then letters, digits, `_`, `-`.
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| unicode_ident::is_xid_start(c) || c == '_')
        && chars.all(|c| unicode_ident::is_xid_continue(c) || c == '-')
}

const KEYWORDS: &[&str] = &[
    "true", "false", "null", "for", "in", "if", "else", "endif", "endfor",
];

pub(crate) fn rename(
    db: &RootDatabase,
    position: &FilePosition,
    new_name: &str,
) -> Result<SourceChange, RenameError> {
    let (definition, _) = renamable(db, position)?;
    if !is_identifier(new_name) || KEYWORDS.contains(&new_name) {
        return Err(RenameError::InvalidName(format!(
            "`{new_name}` is not a valid name: a name starts with a letter or `_` and goes on \
             with letters, digits, `_` or `-`"
        )));
    }
    match &definition {
        Definition::Node(node) => {
            if node.name(db).as_str() == new_name {
                return Ok(SourceChange::default());
            }
            // Read from the files' summaries, which hold every node's kind and name.
            let program = node.file(db).program(db);
            let output = node.kind(db) == NodeKind::Output;
            let taken = program.files(db).iter().find_map(|&file| {
                let pf = pcl_hir::ProgramFile::new(db, program, file);
                pcl_sema::file_summary(db, pf).nodes.iter().find(|other| {
                    other.name.as_str() == new_name && (other.kind == NodeKind::Output) == output
                })
            });
            if let Some(other) = taken {
                return Err(RenameError::Collision(format!(
                    "the program already has a `{}` named `{new_name}`",
                    other.kind.keyword()
                )));
            }
            // A local variable of the same name would capture the renamed references.
            for (user, id) in semantics::uses(db, &definition, None) {
                let body = user.body(db);
                let range = user.source_map(db).body().expr(id);
                let shadowed = body.bindings().any(|(b, binding)| {
                    binding.name.as_str() == new_name
                        && if binding.kind == pcl_hir::BindingKind::Range {
                            // `range` is the element being created in the body of a node
                            // whose options set it, but in the value of `range` itself.
                            semantics::has_range_option(db, user)
                                && !semantics::range_option_value(db, user)
                                    .is_some_and(|value| value.contains_range(range))
                        } else {
                            scope_contains(db, user, b, range)
                        }
                });
                if shadowed {
                    let what = if new_name == "range" && semantics::has_range_option(db, user) {
                        "the element `range`".to_string()
                    } else {
                        format!("a local variable named `{new_name}`")
                    };
                    return Err(RenameError::Collision(format!(
                        "{what} in `{}` would hide the renamed `{}`",
                        user.name(db),
                        node.kind(db).keyword()
                    )));
                }
            }
        }
        Definition::Binding(node, binding) => {
            let body = node.body(db);
            let current = semantics::binding_name(db, *node, *binding);
            if current.as_str() == new_name {
                return Ok(SourceChange::default());
            }
            let clash = body
                .bindings()
                .any(|(b, other)| b != *binding && other.name.as_str() == new_name);
            let root = pcl_sema::lookup_node(
                db,
                node.file(db).program(db),
                node.file(db).file(db),
                &pcl_hir::Name::new(new_name),
            );
            if clash || root.is_some() {
                return Err(RenameError::Collision(format!(
                    "`{new_name}` is already a name in scope here"
                )));
            }
        }
    }
    let ranges: Vec<FileRange> = reference_ranges(db, &definition, true, None);
    Ok(SourceChange::from_ranges(ranges, new_name))
}

/// Whether the scope of binding `b` (approximated by the range of the `for` that introduces
/// it) contains `range`.
fn scope_contains(
    db: &RootDatabase,
    node: pcl_hir::Node<'_>,
    b: pcl_hir::BindingId,
    range: TextRange,
) -> bool {
    let body = node.body(db);
    let node_map = node.source_map(db);
    let map = node_map.body();
    let binding_range = map.binding(b);
    body.exprs().any(|(id, expr)| {
        matches!(expr, pcl_hir::Expr::For(f)
            if f.value_var == b || f.key_var == Some(b))
            && map.expr(id).contains_range(range)
            && map.expr(id).contains_range(binding_range)
    })
}
