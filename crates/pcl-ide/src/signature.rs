//! Signature help: the parameters of the builtin, or the inputs of the function an `invoke`
//! names, with the argument under the cursor.

use pcl_db::RootDatabase;

use crate::context::{CursorContext, FrameKind};
use crate::{schema, semantics, FilePosition};

/// A signature and the parameter being written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureHelp {
    pub label: String,
    /// Byte ranges of the parameters within `label`.
    pub parameters: Vec<(u32, u32)>,
    pub active_parameter: Option<usize>,
    pub documentation: Option<String>,
}

/// How far back the enclosing call is looked for.
const MAX_LOOKBACK: usize = 16 * 1024;

pub(crate) fn signature_help(db: &RootDatabase, position: &FilePosition) -> Option<SignatureHelp> {
    let source = db.files().get(&position.file)?;
    let text = source.text(db).as_ref();
    let offset = usize::from(position.offset).min(text.len());
    if !text.is_char_boundary(offset) {
        return None;
    }
    // Read from the start of the node the cursor is in (else from a bounded distance back):
    // the lexer then knows the strings, heredocs and comments before the cursor.
    let file = semantics::program_file(db, &position.file)?;
    let node_start = semantics::node_at(db, file, position.offset)
        .map(|node| usize::from(node.source_map(db).range().start()))
        .filter(|&start| start <= offset && offset - start <= MAX_LOOKBACK);
    let start = node_start.unwrap_or_else(|| {
        let mut floor = offset.saturating_sub(MAX_LOOKBACK);
        while !text.is_char_boundary(floor) {
            floor += 1;
        }
        floor
    });
    let context = CursorContext::at_end_of(&text[start..offset]);
    if context.in_comment {
        return None;
    }
    // The innermost call around the cursor, also from inside a list or an object argument.
    let call = context
        .frames
        .iter()
        .rev()
        .find(|f| f.kind == FrameKind::Paren)?;
    let builtin = pcl_sema::Builtin::from_name(call.callee.as_deref()?)?;
    let mut help = builtin_signature(builtin, call.commas);
    if builtin == pcl_sema::Builtin::Invoke {
        // The inputs of the function the token names.
        if let Some(token) = call.first_string.as_deref() {
            if let Some(def) = schema::function_def(db, file.program(db), token) {
                let inputs: Vec<String> = def
                    .inputs
                    .iter()
                    .map(|p| format!("{}{}", p.name, if p.required { "" } else { "?" }))
                    .collect();
                let mut doc = format!("`{}` takes {{ {} }}", def.token, inputs.join(", "));
                if let Some(description) = def.description.as_deref() {
                    doc.push_str("\n\n");
                    doc.push_str(&schema::summary(description));
                }
                help.documentation = Some(doc);
            }
        }
    }
    Some(help)
}

fn builtin_signature(builtin: pcl_sema::Builtin, argument: usize) -> SignatureHelp {
    let label = builtin.signature().to_string();
    let open = label.find('(').map_or(0, |i| i + 1);
    // The parameters end at the `)` that closes the first `(`: the return type may hold
    // parentheses of its own (`split(...) -> list(string)`).
    let mut close = label.len();
    let mut parameters = Vec::new();
    let mut depth = 0i32;
    let mut start = open;
    for (i, c) in label[open..].char_indices() {
        let at = open + i;
        match c {
            ')' if depth == 0 => {
                close = at;
                break;
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parameters.push((start as u32, at as u32));
                start = at + 2;
            }
            _ => {}
        }
    }
    if close > open {
        parameters.push((start as u32, close as u32));
    }
    // Variadic parameters (`rest...`) take every later argument.
    let last = parameters.len().checked_sub(1);
    let variadic = last.is_some_and(|l| {
        let (s, e) = parameters[l];
        label[s as usize..e as usize].contains("...")
    });
    let active_parameter = match last {
        Some(l) if argument > l && variadic => Some(l),
        Some(l) if argument <= l => Some(argument),
        _ => None,
    };
    SignatureHelp {
        label,
        parameters,
        active_parameter,
        documentation: Some(builtin.doc().to_string()),
    }
}
