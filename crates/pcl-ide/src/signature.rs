//! Signature help: the parameters of the builtin, or the inputs of the function an `invoke`
//! names, with the argument under the cursor.

use pcl_db::RootDatabase;

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
    let mut floor = offset.saturating_sub(MAX_LOOKBACK);
    while !text.is_char_boundary(floor) {
        floor += 1;
    }
    let (name, argument, args_start) = enclosing_call(&text[floor..offset])?;
    let builtin = pcl_sema::Builtin::from_name(&name)?;
    let mut help = builtin_signature(builtin, argument);
    if builtin == pcl_sema::Builtin::Invoke {
        // The inputs of the function the token names.
        let args = &text[floor + args_start..offset];
        if let Some(token) = args
            .trim_start()
            .strip_prefix('"')
            .and_then(|rest| rest.split('"').next())
        {
            let file = semantics::program_file(db, &position.file)?;
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
    let close = label.rfind(')').unwrap_or(label.len());
    let mut parameters = Vec::new();
    let mut depth = 0i32;
    let mut start = open;
    for (i, c) in label[open..close].char_indices() {
        let at = open + i;
        match c {
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

/// A bracket left open at the end of a text.
pub(crate) struct OpenBracket {
    pub(crate) bracket: char,
    /// Its byte offset.
    pub(crate) at: usize,
    /// The commas directly inside it so far.
    pub(crate) commas: usize,
}

/// The brackets (`(`, `[`, `{`) still open at the end of `text`, outermost first; brackets
/// and commas inside string literals do not count. Scanned forward: a backward scan is easily
/// confused by templates.
pub(crate) fn open_brackets(text: &str) -> Vec<OpenBracket> {
    let mut stack: Vec<OpenBracket> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_string {
            match c {
                '\\' if !escaped => {
                    escaped = true;
                    continue;
                }
                '"' if !escaped => in_string = false,
                '\n' => in_string = false,
                _ => {}
            }
            escaped = false;
            continue;
        }
        match c {
            '"' => in_string = true,
            '(' | '[' | '{' => stack.push(OpenBracket {
                bracket: c,
                at: i,
                commas: 0,
            }),
            ')' | ']' | '}' => {
                stack.pop();
            }
            ',' => {
                if let Some(top) = stack.last_mut() {
                    top.commas += 1;
                }
            }
            _ => {}
        }
    }
    stack
}

/// The call whose argument list the end of `text` is in: its name, the index of the
/// argument, and where its arguments start (after `(`).
fn enclosing_call(text: &str) -> Option<(String, usize, usize)> {
    let open = open_brackets(text);
    let innermost = open.last()?;
    if innermost.bracket != '(' {
        return None;
    }
    let before = &text[..innermost.at];
    let name_len = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .map(char::len_utf8)
        .sum::<usize>();
    if name_len == 0 {
        return None;
    }
    Some((
        before[before.len() - name_len..].to_string(),
        innermost.commas,
        innermost.at + 1,
    ))
}
