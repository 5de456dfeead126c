//! Completion. The context is read from the text before the cursor (which is often not valid
//! syntax while the user types) and the lowered node around it:
//!
//! * inside a resource's type label: resource type tokens of the loaded schemas;
//! * inside `invoke("`: function tokens;
//! * at an attribute name in a resource or component body: its inputs not yet set, required
//!   first, with types and documentation; in `options { }`: the resource options;
//! * after `x.`: the attributes of `x`'s type (resource outputs, objects, `range.key`/`value`);
//! * inside a string given to a property of enum type: the enum's values;
//! * in an expression (also inside `${ }`): names in scope and builtin functions;
//! * at the top level: block keywords.

use pcl_db::{Program, RootDatabase};
use pcl_diagnostics::{TextRange, TextSize};
use pcl_hir::{Expr, Node, NodeKind, ProgramFile};
use pcl_sema::Settled;
use pcl_types::{Type, TypeKind};

use crate::context::{CursorContext, FrameKind, Step};
use crate::semantics;
use crate::{schema, FilePosition, TextEdit};

/// One completion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    /// A type or a signature.
    pub detail: Option<String>,
    /// Markdown.
    pub documentation: Option<String>,
    /// Replaces the word being typed.
    pub edit: TextEdit,
    /// Items sort by this, then by label.
    pub sort_text: String,
    /// `edit.insert` holds `$0`-style snippet placeholders.
    pub snippet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompletionKind {
    Keyword,
    Variable,
    Property,
    Function,
    ResourceType,
    Option,
    EnumValue,
    Module,
}

/// Resource and function tokens looked at most.
const MAX_TOKENS: usize = 5_000;

/// Items returned at most: a program of 100,000 names must not make every keystroke send them
/// all. When more match, the list says it is incomplete and the client asks again as the user
/// types.
pub const MAX_COMPLETIONS: usize = 200;

/// The completions at a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompletionList {
    /// Those that match the word being typed, best first, at most [`MAX_COMPLETIONS`].
    pub items: Vec<CompletionItem>,
    /// More items match than were returned.
    pub is_incomplete: bool,
}

pub(crate) fn completions(
    db: &RootDatabase,
    position: &FilePosition,
    settled: Settled,
) -> CompletionList {
    let items = candidates(db, position, settled);
    let Some(source) = db.files().get(&position.file) else {
        return CompletionList::default();
    };
    rank(source.text(db), items)
}

/// Keeps the items that match the word their edit replaces (its characters in order, the
/// first one at the start, ignoring case), best first: those the word starts, then by sort
/// text and label; at most [`MAX_COMPLETIONS`].
fn rank(text: &str, items: Vec<CompletionItem>) -> CompletionList {
    let mut scored: Vec<(u8, CompletionItem)> = items
        .into_iter()
        .filter_map(|item| {
            let range = item.edit.range;
            let typed = text
                .get(usize::from(range.start())..usize::from(range.end()))
                .unwrap_or("")
                .to_lowercase();
            match_score(&typed, &item.label).map(|score| (score, item))
        })
        .collect();
    scored.sort_by(|(a, x), (b, y)| {
        a.cmp(b)
            .then_with(|| x.sort_text.cmp(&y.sort_text))
            .then_with(|| x.label.cmp(&y.label))
    });
    let is_incomplete = scored.len() > MAX_COMPLETIONS;
    scored.truncate(MAX_COMPLETIONS);
    CompletionList {
        items: scored.into_iter().map(|(_, item)| item).collect(),
        is_incomplete,
    }
}

/// How well `label` matches the word typed (lowercase): 0 when the word starts it (or nothing
/// is typed), 1 when it holds the word's characters in order from its first one, `None`
/// otherwise. Case is ignored.
fn match_score(typed: &str, label: &str) -> Option<u8> {
    if typed.is_empty() {
        return Some(0);
    }
    // No allocation: completion scores every name of the program (100,000 and more) on each
    // keystroke.
    let mut label_chars = label.chars().flat_map(char::to_lowercase);
    let mut typed_chars = typed.chars();
    let first = typed_chars.next()?;
    if label_chars.next() != Some(first) {
        return None;
    }
    // The word starts the label, or its characters are in the label in order.
    let mut prefix = true;
    for c in typed_chars {
        loop {
            match label_chars.next() {
                Some(l) if l == c => break,
                Some(_) => prefix = false,
                None => return None,
            }
        }
    }
    Some(if prefix { 0 } else { 1 })
}

fn candidates(db: &RootDatabase, position: &FilePosition, settled: Settled) -> Vec<CompletionItem> {
    let Some(source) = db.files().get(&position.file) else {
        return Vec::new();
    };
    let text = source.text(db).as_ref();
    let offset = usize::from(position.offset).min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let Some(file) = semantics::program_file(db, &position.file) else {
        return Vec::new();
    };
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[line_start..];
    let mut node = semantics::node_at(db, file, position.offset)
        .or_else(|| enclosing_node(db, file, position.offset));
    // What is open at the cursor, read from the node's start (or from a block above whose
    // body the parser ended before the cursor: a body not indented yet, not closed yet).
    let mut context = node.map(|n| {
        let start = usize::from(n.source_map(db).range().start()).min(offset);
        CursorContext::at_end_of(&text[start..offset])
    });
    // An attribute of a body not indented yet was read as a top-level local.
    if node.is_none_or(|n| n.kind(db) == NodeKind::Local) {
        if let Some((open, cx)) = open_block_before(db, file, text, offset) {
            node = Some(open);
            context = Some(cx);
        }
    }
    if let Some(cx) = &context {
        // Nothing to complete in a comment or in a heredoc's text (YAML's `port:` is not
        // syntax).
        if cx.in_comment || cx.innermost().is_some_and(|f| f.kind == FrameKind::Heredoc) {
            return Vec::new();
        }
    }

    // Inside a string literal on this line (and not inside one of its `${ }`)?
    let in_interpolation = |quote: usize| {
        line[quote..]
            .rfind("${")
            .is_some_and(|i| !line[quote + i..].contains('}'))
    };
    if let Some(quote) = open_quote(line).filter(|q| !in_interpolation(*q)) {
        let word_start = line_start + quote + 1;
        let range = TextRange::new(TextSize::from(word_start as u32), position.offset);
        let prefix = line[..quote].trim_end();
        if prefix.ends_with("invoke(") {
            return function_tokens(db, file.program(db), range);
        }
        if prefix.starts_with("config ") && prefix.split_whitespace().count() == 2 {
            return config_types(range, false);
        }
        if let Some(node) = node {
            let on_label = node
                .source_map(db)
                .label(1)
                .is_some_and(|r| r.contains_inclusive(position.offset));
            let keyword_line = prefix.starts_with("resource ") || prefix.starts_with("read ");
            if on_label || (keyword_line && prefix.split_whitespace().count() == 2) {
                return resource_tokens(db, file.program(db), range);
            }
            // `call(res, "|")`: the methods of the resource's type.
            if let Some(cx) = context.as_ref() {
                if let [.., call, last] = cx.frames.as_slice() {
                    if last.kind == FrameKind::Quoted
                        && call.kind == FrameKind::Paren
                        && call.callee.as_deref() == Some("call")
                        && call.commas == 1
                    {
                        let receiver = call.first_name.as_deref().and_then(|name| {
                            pcl_sema::lookup_node(
                                db,
                                file.program(db),
                                file.file(db),
                                &pcl_hir::Name::new(name),
                            )
                        });
                        return receiver
                            .map(|r| method_names(db, r, range))
                            .unwrap_or_default();
                    }
                }
            }
            // `ignoreChanges = ["|"]` and the other options that take property paths: the
            // resource's inputs.
            if let Some(cx) = context.as_ref() {
                if let [.., options, paths, last] = cx.frames.as_slice() {
                    let takes_paths = matches!(&paths.step, Some(Step::Name(option))
                        if pcl_hir::ResourceOption::from_name(option)
                            .is_some_and(|o| o.takes_property_paths()));
                    if last.kind == FrameKind::Quoted
                        && paths.kind == FrameKind::Tuple
                        && takes_paths
                        && options.kind == FrameKind::Block
                        && options.step == Some(Step::Name("options".into()))
                        && cx.frames.len() == 4
                    {
                        return property_paths(db, node, range);
                    }
                }
            }
            // `key = "|` in a nested object: the enum of that key's type there.
            if let Some(cx) = context.as_ref().filter(|cx| cx.frames.len() >= 2) {
                if let Some(key) = cx.value_of() {
                    let depth = cx.frames.len() - 2;
                    if let Some(ty) = expected_type(db, node, cx, depth, Some(key)) {
                        return enum_items(db, node, key, &ty, range, false);
                    }
                }
            }
            if let Some(attr) = prefix.strip_suffix('=').map(str::trim_end) {
                return enum_values(db, node, attr.trim(), range);
            }
            return Vec::new();
        } else if (prefix.starts_with("resource ") || prefix.starts_with("read "))
            && prefix.split_whitespace().count() == 2
        {
            return resource_tokens(db, file.program(db), range);
        }
        return Vec::new();
    }

    let word_len = before
        .chars()
        .rev()
        .take_while(|c| is_ident_char(*c))
        .map(char::len_utf8)
        .sum::<usize>();
    let word_start = offset - word_len;
    let range = TextRange::new(TextSize::from(word_start as u32), position.offset);
    let before_word = &text[..word_start];

    // `receiver.` or `receiver.partial`.
    if let Some(receiver) = before_word.strip_suffix('.') {
        // A call's or a parenthesized value's members (`invoke("t", {}).`).
        if let (Some(node), true) = (node, receiver.trim_end().ends_with(')')) {
            return call_member_completions(db, node, receiver.len(), range, settled);
        }
        let chain = traversal_before(receiver);
        return match (node, chain) {
            (Some(node), Some(chain)) => member_completions(db, file, node, &chain, range, settled),
            _ => Vec::new(),
        };
    }

    let line_prefix = &text[line_start..word_start];
    let at_line_start = line_prefix.trim().is_empty();
    // `[for x |` and `{for k, v |`: the keyword `in`.
    if at_for_in(before_word) {
        return vec![item(
            "in".into(),
            CompletionKind::Keyword,
            Some("the collection a `for` expression iterates".into()),
            None,
            range,
            "in ".into(),
            "0",
        )];
    }
    // `config name |`: the type label, not quoted yet (`string` is a label as it is).
    if let [keyword, _name] = line_prefix.split_whitespace().collect::<Vec<_>>()[..] {
        if matches!(keyword, "config" | "output")
            && line_prefix.ends_with([' ', '\t'])
            && !line_prefix.contains(['{', '"', '='])
        {
            return config_types(range, true);
        }
    }
    let (Some(node), Some(cx)) = (node, context) else {
        return if at_line_start {
            block_keywords(range)
        } else {
            Vec::new()
        };
    };
    let word = &text[word_start..offset];
    match cx.innermost() {
        // A top-level attribute's value (`x = |`).
        None if cx.value_of().is_some() => {
            expression_completions(db, file, node, position.offset, range)
        }
        // Not in the node's body yet (`resource x "t"` before the `{`).
        None => Vec::new(),
        Some(frame) if frame.kind == FrameKind::Block && cx.at_key(word) => {
            if cx.frames.len() == 1 {
                // Also those the scanner saw set (a body the parser did not read as the
                // block's: not indented yet).
                let set = &frame.keys;
                attribute_names(db, node, range)
                    .into_iter()
                    .filter(|i| !set.contains(&i.label) || i.label == word)
                    .collect()
            } else if frame.step == Some(Step::Name("options".into())) {
                option_names(&frame.keys, range)
            } else if frame.step == Some(Step::Name("parameterization".into()))
                && node.kind(db) == NodeKind::Package
            {
                plain_attributes(&["name", "version", "value"], &frame.keys, range)
            } else {
                Vec::new()
            }
        }
        Some(frame) if frame.kind == FrameKind::Object && cx.at_key(word) => {
            // An object whose keys the schema does not fix (a map's, a local's): any key, or
            // a `for` expression.
            object_keys(db, node, &cx, range)
                .unwrap_or_else(|| expression_completions(db, file, node, position.offset, range))
        }
        Some(frame) => {
            let mut out = Vec::new();
            // `key = |`: the values of an enum the key takes, quoted.
            if matches!(frame.kind, FrameKind::Block | FrameKind::Object) {
                if let Some(key) = cx.value_of().filter(|_| cx.item.len() <= 3) {
                    let ty = expected_type(db, node, &cx, cx.frames.len() - 1, Some(key));
                    if let Some(ty) = ty {
                        out.extend(enum_items(db, node, key, &ty, range, true));
                    }
                }
            }
            out.extend(expression_completions(
                db,
                file,
                node,
                position.offset,
                range,
            ));
            out
        }
    }
}

/// The last block above the cursor, when the parser ended its body before the cursor but the
/// text leaves it open there (a body not indented yet: `resource x "t" {` then `name = "x"`
/// at the line's start), with the context inside it.
fn open_block_before<'db>(
    db: &'db RootDatabase,
    file: ProgramFile<'db>,
    text: &str,
    offset: usize,
) -> Option<(Node<'db>, CursorContext)> {
    let cursor = TextSize::from(offset as u32);
    // The attributes of an unindented body were read as top-level nodes: the last block
    // above them is the one to look at.
    let (node, range) = pcl_hir::node_ranges(db, file)
        .into_iter()
        .rev()
        .filter(|(_, r)| r.start() <= cursor)
        .find(|(n, _)| n.source_map(db).open_brace().is_some())?;
    let start = usize::from(range.start());
    let cx = CursorContext::at_end_of(&text[start..offset]);
    (cx.frames.first().map(|f| f.kind) == Some(FrameKind::Block)).then_some((node, cx))
}

/// The type of the value the frame at `depth` of the context holds (or, with `key`, of that
/// key's value in it), from the node's input types: the frames below the node's body name
/// attributes, keys and elements; `None` where a frame is reached otherwise (an argument,
/// a `for` body in an object) or the types run out.
pub(crate) fn expected_type(
    db: &RootDatabase,
    node: Node<'_>,
    cx: &CursorContext,
    depth: usize,
    key: Option<&str>,
) -> Option<Type> {
    // Inside the arguments object of `invoke("token", { ... })`: the function's arguments.
    if let Some((paren, token)) = invoke_arguments(cx, depth) {
        let args = schema::invoke_arguments_type(db, node.file(db).program(db), token)?;
        let mut steps = Vec::new();
        for frame in cx.frames.get(paren + 2..=depth)? {
            if !matches!(frame.kind, FrameKind::Object | FrameKind::Tuple) {
                return None;
            }
            steps.push(frame.step.clone()?);
        }
        steps.extend(key.map(|k| Step::Name(k.to_string())));
        return follow(args, steps);
    }
    let mut steps: Vec<Step> = Vec::new();
    for frame in cx.frames.get(1..=depth)? {
        if !matches!(
            frame.kind,
            FrameKind::Block | FrameKind::Object | FrameKind::Tuple
        ) {
            return None;
        }
        steps.push(frame.step.clone()?);
    }
    if let Some(key) = key {
        steps.push(Step::Name(key.to_string()));
    }
    let mut steps = steps.into_iter();
    let Step::Name(first) = steps.next()? else {
        return None;
    };
    let in_options =
        cx.frames.get(1).is_some_and(|f| f.kind == FrameKind::Block) && first == "options";
    let ty = if in_options {
        let Step::Name(option) = steps.next()? else {
            return None;
        };
        pcl_sema::resource_option_type(pcl_hir::ResourceOption::from_name(&option)?)?
    } else {
        match node.kind(db) {
            NodeKind::Resource | NodeKind::Read => {
                crate::hover::input_property_type(db, node, &first)?
            }
            NodeKind::Component => {
                let program = crate::navigation::component_program(db, node)?;
                let interface = pcl_sema::component::component_interface(db, program);
                interface
                    .inputs
                    .iter()
                    .find(|(name, _, _)| *name == first)
                    .map(|(_, ty, _)| ty.clone())?
            }
            _ => return None,
        }
    };
    follow(ty, steps)
}

/// The innermost `invoke("token", {` whose arguments object holds the cursor (within the
/// frames up to `depth`): the position of its parentheses' frame, and the token.
pub(crate) fn invoke_arguments(cx: &CursorContext, depth: usize) -> Option<(usize, &str)> {
    let frames = cx.frames.get(..=depth)?;
    let paren = frames.iter().rposition(|f| f.kind == FrameKind::Paren)?;
    let frame = &frames[paren];
    let is_invoke = frame.callee.as_deref() == Some(pcl_sema::Builtin::Invoke.name());
    let in_arguments = frames
        .get(paren + 1)
        .is_some_and(|f| f.kind == FrameKind::Object);
    if !is_invoke || frame.commas != 1 || !in_arguments {
        return None;
    }
    Some((paren, frame.first_string.as_deref()?))
}

/// The type reached from `ty` by `steps`: properties of objects (of the members of a union
/// of objects that have them), values of maps, elements of collections.
fn follow(mut ty: Type, steps: impl IntoIterator<Item = Step>) -> Option<Type> {
    for step in steps {
        ty = match step {
            Step::Name(name) => match strip(&ty).kind() {
                TypeKind::Object(object) => object.property(&name)?,
                TypeKind::Map(element) => element.clone(),
                // A union of objects (told apart by a discriminator): the property's types
                // in the members that have it.
                TypeKind::Union(members) => {
                    let types: Vec<Type> = members
                        .iter()
                        .filter_map(|m| match strip(m).kind() {
                            TypeKind::Object(object) => object.property(&name),
                            _ => None,
                        })
                        .collect();
                    if types.is_empty() {
                        return None;
                    }
                    Type::union(types)
                }
                _ => return None,
            },
            Step::Element => element(&ty)?,
        };
    }
    Some(ty)
}

/// The keys of the object literal the cursor is in that its type has and it does not set yet,
/// required first.
fn object_keys(
    db: &RootDatabase,
    node: Node<'_>,
    cx: &CursorContext,
    range: TextRange,
) -> Option<Vec<CompletionItem>> {
    let depth = cx.frames.len() - 1;
    let ty = expected_type(db, node, cx, depth, None)?;
    let set = &cx.frames[depth].keys;
    let properties = object_properties(Some(ty));
    if properties.is_empty() {
        return None;
    }
    let items = properties
        .into_iter()
        .filter(|(name, _)| !set.contains(name))
        .map(|(name, ty)| {
            let required = !ty.is_optional();
            let shown = pcl_sema::one_line_type(&ty.resolve_outputs());
            item(
                name.clone(),
                CompletionKind::Property,
                Some(if required {
                    format!("{shown} (required)")
                } else {
                    shown
                }),
                None,
                range,
                format!("{name} = "),
                if required { "0" } else { "1" },
            )
        })
        .collect();
    Some(items)
}

/// The values of the enums a type admits (and the constants of a union's discriminator):
/// quoted for a value not yet begun (`acl = |`), as they are inside quotes.
fn enum_items(
    db: &RootDatabase,
    node: Node<'_>,
    key: &str,
    ty: &Type,
    range: TextRange,
    quoted: bool,
) -> Vec<CompletionItem> {
    let enums = schema::enums_of(ty);
    let mut values: Vec<(&str, &str)> = enums
        .iter()
        .flat_map(|e| e.values.iter().map(|v| (v.as_str(), e.token.as_str())))
        .collect();
    values.sort();
    values.dedup_by(|a, b| a.0 == b.0);
    let program = node.file(db).program(db);
    values
        .into_iter()
        .map(|(value, token)| {
            let documentation = schema::enum_value_doc(db, program, token, value)
                .and_then(|(_, description)| description);
            // The label is the value (what a client filters by the word typed); a value not
            // yet begun is inserted quoted.
            let insert = if quoted {
                format!("\"{value}\"")
            } else {
                value.to_string()
            };
            item(
                value.to_string(),
                CompletionKind::EnumValue,
                Some(format!("value of {key}")),
                documentation,
                range,
                insert,
                "0",
            )
        })
        .collect()
}

/// Attributes of a block that takes these names, but those already set.
fn plain_attributes(names: &[&str], set: &[String], range: TextRange) -> Vec<CompletionItem> {
    names
        .iter()
        .filter(|name| !set.iter().any(|s| s == *name))
        .map(|&name| {
            item(
                name.to_string(),
                CompletionKind::Property,
                Some("string".to_string()),
                None,
                range,
                format!("{name} = "),
                "1",
            )
        })
        .collect()
}

/// The methods of a resource's type, for `call`.
fn method_names(db: &RootDatabase, resource: Node<'_>, range: TextRange) -> Vec<CompletionItem> {
    schema::resource_methods(db, resource)
        .into_iter()
        .map(|(name, token)| {
            item(
                name.clone(),
                CompletionKind::Function,
                Some(token),
                None,
                range,
                name,
                "0",
            )
        })
        .collect()
}

/// The input properties of a resource, as the first step of a property path.
fn property_paths(db: &RootDatabase, node: Node<'_>, range: TextRange) -> Vec<CompletionItem> {
    let Some(types) = crate::schema::resource_types(db, node) else {
        return Vec::new();
    };
    object_properties(Some(types.inputs.clone()))
        .into_iter()
        .map(|(name, ty)| {
            item(
                name.clone(),
                CompletionKind::Property,
                Some(pcl_sema::one_line_type(&ty.resolve_outputs())),
                None,
                range,
                name,
                "0",
            )
        })
        .collect()
}

/// The types a config's label can name.
/// The types a config's (or an output's) type label takes. `bare`: the label is not quoted
/// yet, so a type that is no identifier (`list(string)`) is inserted in quotes.
fn config_types(range: TextRange, bare: bool) -> Vec<CompletionItem> {
    [
        ("string", "string"),
        ("int", "int"),
        ("number", "number"),
        ("bool", "bool"),
        ("list(string)", "a list"),
        ("map(string)", "a map with string keys"),
        ("list(map(string))", "a list of maps"),
        ("object({})", "an object with named attributes"),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, (ty, doc))| {
        let insert = if bare && ty.contains('(') {
            format!("\"{ty}\"")
        } else {
            ty.to_string()
        };
        item(
            ty.to_string(),
            CompletionKind::Keyword,
            Some(doc.to_string()),
            None,
            range,
            insert,
            &format!("{i}"),
        )
    })
    .collect()
}

/// Whether `text` ends with a `for` expression's variables, before its `in`: `[for x `,
/// `{for k, v `.
fn at_for_in(text: &str) -> bool {
    let Some(rest) = text.strip_suffix([' ', '\t']) else {
        return false;
    };
    let rest = rest.trim_end();
    let Some(at) = rest.rfind("for") else {
        return false;
    };
    let (before, variables) = (&rest[..at], &rest[at + 3..]);
    let opened = before.trim_end().ends_with(['[', '{']);
    let names: Vec<&str> = variables.split(',').map(str::trim).collect();
    opened
        && variables.starts_with([' ', '\t'])
        && (1..=2).contains(&names.len())
        && names
            .iter()
            .all(|n| !n.is_empty() && n.chars().all(is_ident_char))
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// The byte index of an unclosed `"` on the line (an approximation that ignores escapes of
/// quotes, which only shift where a completion applies).
fn open_quote(line: &str) -> Option<usize> {
    let mut open = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            '\\' if !escaped => {
                escaped = true;
                continue;
            }
            '"' if !escaped => open = if open.is_some() { None } else { Some(i) },
            _ => {}
        }
        escaped = false;
    }
    open
}

/// The node whose body the offset is in even when the block is not closed yet, or whose
/// value is being typed on its last line (`x = |`: the node ends before the cursor).
fn enclosing_node<'db>(
    db: &'db RootDatabase,
    file: ProgramFile<'db>,
    offset: TextSize,
) -> Option<Node<'db>> {
    let text = file.file(db).text(db);
    pcl_hir::node_ranges(db, file)
        .into_iter()
        .rev()
        .find(|(_, r)| r.start() <= offset)
        .filter(|(_, r)| {
            let end = r.end();
            end >= offset
                || text
                    .get(usize::from(end)..usize::from(offset))
                    .is_some_and(|gap| !gap.contains('\n'))
        })
        .map(|(n, _)| n)
}

/// `a.b[0].c` before a `.`: the names of the chain (indexes are kept as `[]`).
fn traversal_before(text: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let mut rest = text;
    loop {
        if let Some(stripped) = rest.strip_suffix(']') {
            let open = stripped.rfind('[')?;
            parts.push("[]".to_string());
            rest = &stripped[..open];
            continue;
        }
        let len = rest
            .chars()
            .rev()
            .take_while(|c| is_ident_char(*c))
            .map(char::len_utf8)
            .sum::<usize>();
        if len == 0 {
            return None;
        }
        parts.push(rest[rest.len() - len..].to_string());
        rest = &rest[..rest.len() - len];
        match rest.strip_suffix('.') {
            Some(r) => rest = r,
            None => break,
        }
    }
    parts.reverse();
    Some(parts)
}

fn item(
    label: String,
    kind: CompletionKind,
    detail: Option<String>,
    documentation: Option<String>,
    range: TextRange,
    insert: String,
    sort: &str,
) -> CompletionItem {
    let sort_text = format!("{sort}{label}");
    CompletionItem {
        label,
        kind,
        detail,
        documentation,
        edit: TextEdit { range, insert },
        sort_text,
        snippet: false,
    }
}

fn block_keywords(range: TextRange) -> Vec<CompletionItem> {
    [
        ("resource", "resource ${1:name} \"${2:token}\" {\n\t$0\n}"),
        ("config", "config ${1:name} \"${2:string}\" {\n\t$0\n}"),
        ("output", "output ${1:name} {\n\tvalue = $0\n}"),
        ("component", "component ${1:name} \"${2:./dir}\" {\n\t$0\n}"),
        ("read", "read ${1:name} \"${2:token}\" {\n\tid = $0\n}"),
        ("package", "package ${1:name} {\n\t$0\n}"),
        ("pulumi", "pulumi {\n\t$0\n}"),
        ("hook", "hook ${1:kind} ${2:name} {\n\tcommand = $0\n}"),
    ]
    .into_iter()
    .map(|(keyword, snippet)| CompletionItem {
        snippet: true,
        ..item(
            keyword.to_string(),
            CompletionKind::Keyword,
            Some(format!("{keyword} block")),
            None,
            range,
            snippet.to_string(),
            "1",
        )
    })
    .collect()
}

fn resource_tokens(db: &RootDatabase, program: Program, range: TextRange) -> Vec<CompletionItem> {
    let mut out = Vec::new();
    for (token, package) in schema::all_resource_tokens(db, program)
        .into_iter()
        .take(MAX_TOKENS)
    {
        let documentation = package
            .lookup_resource(&token)
            .ok()
            .and_then(|found| package.resource(&found).spec.description.clone())
            .map(|d| schema::summary(&d));
        out.push(item(
            token.clone(),
            CompletionKind::ResourceType,
            Some(format!("resource of {}", package.name())),
            documentation,
            range,
            token,
            "0",
        ));
    }
    out
}

fn function_tokens(db: &RootDatabase, program: Program, range: TextRange) -> Vec<CompletionItem> {
    let mut out = Vec::new();
    for package in schema::available_packages(db, program) {
        let name = package.name().to_string();
        for token in package.function_tokens() {
            if out.len() >= MAX_TOKENS {
                return out;
            }
            out.push(item(
                token.clone(),
                CompletionKind::Function,
                Some(format!("function of {name}")),
                None,
                range,
                token.clone(),
                "0",
            ));
        }
    }
    out
}

/// The attribute that sets the name Pulumi gives a node.
const LOGICAL_NAME: &str = "__logicalName";

/// The inputs of a resource or component not yet set (required first), or the options
/// inside `options { }`.
fn attribute_names(db: &RootDatabase, node: Node<'_>, range: TextRange) -> Vec<CompletionItem> {
    let body = node.body(db);
    let node_map = node.source_map(db);
    let map = node_map.body();
    // The attribute whose name is being typed (`bucket| = "x"`) is not set by another.
    let set: Vec<&str> = body
        .attrs_in(None)
        .filter(|(id, _)| !map.attr_name(*id).contains_inclusive(range.start()))
        .map(|(_, a)| a.name.as_str())
        .collect();
    let mut out = Vec::new();
    match node.kind(db) {
        NodeKind::Resource | NodeKind::Read => {
            let def = schema::resource_of_node(db, node);
            let types = crate::schema::resource_types(db, node);
            let properties: Vec<(String, bool, Option<String>)> = match &def {
                Some(def) if node.kind(db) == NodeKind::Resource => def
                    .inputs
                    .iter()
                    .map(|p| (p.name.clone(), p.required, p.description.clone()))
                    .collect(),
                _ => object_properties(types.map(|t| t.read_inputs.clone()))
                    .into_iter()
                    .map(|(n, t)| (n, !t.is_optional(), None))
                    .collect(),
            };
            for (name, required, description) in properties {
                if set.contains(&name.as_str()) {
                    continue;
                }
                let ty = crate::hover::input_property_type(db, node, &name)
                    .map(|t| pcl_sema::one_line_type(&t.resolve_outputs()));
                out.push(item(
                    name.clone(),
                    CompletionKind::Property,
                    ty.map(|t| {
                        if required {
                            format!("{t} (required)")
                        } else {
                            t
                        }
                    }),
                    description.map(|d| schema::summary(&d)),
                    range,
                    format!("{name} = "),
                    if required { "0" } else { "1" },
                ));
            }
        }
        NodeKind::Component => {
            if let Some(program) = crate::navigation::component_program(db, node) {
                let interface = pcl_sema::component::component_interface(db, program);
                for (name, ty, required) in &interface.inputs {
                    if set.contains(&name.as_str()) {
                        continue;
                    }
                    out.push(item(
                        name.clone(),
                        CompletionKind::Property,
                        Some(pcl_sema::one_line_type(&ty.resolve_outputs())),
                        None,
                        range,
                        format!("{name} = "),
                        if *required { "0" } else { "1" },
                    ));
                }
            }
        }
        NodeKind::Package => {
            // What a package descriptor sets (its `parameterization` is a block).
            out.extend(plain_attributes(
                &[
                    "baseProviderName",
                    "baseProviderVersion",
                    "baseProviderDownloadUrl",
                ],
                &set.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                range,
            ));
            if body
                .blocks_in(None)
                .all(|(_, b)| b.type_name.as_str() != "parameterization")
            {
                out.push(CompletionItem {
                    snippet: true,
                    ..item(
                        "parameterization".into(),
                        CompletionKind::Keyword,
                        Some("the package's parameterization block".into()),
                        None,
                        range,
                        "parameterization {\n\tname    = \"$1\"\n\tversion = \"$2\"\n\tvalue   = \"$3\"\n}".into(),
                        "2",
                    )
                });
            }
        }
        kind => {
            // Configs, outputs, hooks, `pulumi`: the attributes the block takes
            // (`__logicalName` below, with the others that take it).
            let hook_kind = (kind == NodeKind::Hook)
                .then(|| node.signature(db).label(0).map(str::to_string))
                .flatten();
            let known = pcl_hir::known_attributes(kind, hook_kind.as_deref()).unwrap_or(&[]);
            for &name in known {
                if name != LOGICAL_NAME && !set.contains(&name) {
                    out.push(item(
                        name.into(),
                        CompletionKind::Property,
                        None,
                        None,
                        range,
                        format!("{name} = "),
                        "1",
                    ));
                }
            }
        }
    }
    // The name Pulumi gives the node when it is not its name in the program (converted
    // programs set it): offered last.
    let takes_logical_name = matches!(
        node.kind(db),
        NodeKind::Resource
            | NodeKind::Read
            | NodeKind::Component
            | NodeKind::Config
            | NodeKind::Output
    );
    if takes_logical_name && !set.contains(&LOGICAL_NAME) {
        out.push(item(
            LOGICAL_NAME.into(),
            CompletionKind::Property,
            Some("string: the name Pulumi gives it, if not its name here".into()),
            None,
            range,
            format!("{LOGICAL_NAME} = "),
            "3",
        ));
    }
    if matches!(node.kind(db), NodeKind::Resource | NodeKind::Component)
        && body
            .blocks_in(None)
            .all(|(_, b)| b.type_name.as_str() != "options")
    {
        out.push(CompletionItem {
            snippet: true,
            ..item(
                "options".into(),
                CompletionKind::Keyword,
                Some("resource options block".into()),
                None,
                range,
                "options {\n\t$0\n}".into(),
                "2",
            )
        });
    }
    out
}

/// The resource options an `options` block does not set yet.
fn option_names(set: &[String], range: TextRange) -> Vec<CompletionItem> {
    pcl_hir::ResourceOption::ALL
        .iter()
        .filter(|o| !set.iter().any(|s| s == o.name()))
        .map(|o| {
            let ty = pcl_sema::resource_option_type(*o).map(|t| pcl_sema::one_line_type(&t));
            item(
                o.name().to_string(),
                CompletionKind::Option,
                ty,
                Some(o.doc().to_string()),
                range,
                format!("{} = ", o.name()),
                "0",
            )
        })
        .collect()
}

fn object_properties(ty: Option<Type>) -> Vec<(String, Type)> {
    let Some(ty) = ty else {
        return Vec::new();
    };
    match strip(&ty).kind() {
        TypeKind::Object(object) => object
            .properties()
            .iter()
            .map(|(name, ty)| (name.to_string(), ty.clone()))
            .collect(),
        // A union of objects: the properties of every member, each once.
        TypeKind::Union(members) => {
            let mut out: Vec<(String, Type)> = Vec::new();
            for member in members.iter() {
                if let TypeKind::Object(object) = strip(member).kind() {
                    for (name, ty) in object.properties().iter() {
                        if !out.iter().any(|(n, _)| **n == **name) {
                            out.push((name.to_string(), ty.clone()));
                        }
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// A type without the wrappers that attribute access sees through: outputs, promises,
/// optionality, and the eventual forms an input also takes (`T | output(T)`).
pub(crate) fn strip(ty: &Type) -> Type {
    let mut ty = ty.clone();
    loop {
        let next = match ty.kind() {
            TypeKind::Output(inner) | TypeKind::Promise(inner) => inner.clone(),
            _ if ty.is_optional() => ty.without_none(),
            TypeKind::Union(members) => {
                let mut plain = members.iter().filter(|m| {
                    !matches!(
                        m.kind(),
                        TypeKind::Output(_) | TypeKind::Promise(_) | TypeKind::None
                    )
                });
                match (plain.next(), plain.next()) {
                    (Some(one), None) => one.clone(),
                    _ => return ty,
                }
            }
            _ => return ty,
        };
        ty = next;
    }
}

fn element(ty: &Type) -> Option<Type> {
    match strip(ty).kind() {
        TypeKind::List(e) | TypeKind::Map(e) | TypeKind::Set(e) => Some(e.clone()),
        _ => None,
    }
}

/// The attributes of the value a traversal chain names.
fn member_completions(
    db: &RootDatabase,
    file: ProgramFile<'_>,
    node: Node<'_>,
    chain: &[String],
    range: TextRange,
    settled: Settled,
) -> Vec<CompletionItem> {
    let (first, rest) = match chain.split_first() {
        Some(split) => split,
        None => return Vec::new(),
    };
    pcl_sema::infer_nodes_with(db, &[node], settled);
    let body = node.body(db);
    // A local variable of this node, or a top-level name.
    let local = body
        .bindings()
        .filter(|(_, b)| b.name.as_str() == first)
        .map(|(id, _)| id)
        .last();
    let mut docs_of: Option<Node<'_>> = None;
    let mut ty = match local {
        Some(binding) => {
            if semantics::binding_kind(db, node, binding) == pcl_hir::BindingKind::Range
                && rest.is_empty()
            {
                if !semantics::has_range_option(db, node) {
                    return Vec::new();
                }
                // `key` and `value`, or `value` alone for a count.
                let ty = pcl_sema::infer_node(db, node)
                    .binding_types
                    .get(binding.index())
                    .cloned()
                    .unwrap_or_else(Type::dynamic);
                let names: Vec<String> = match object_properties(Some(ty)).as_slice() {
                    [] => vec!["key".into(), "value".into()],
                    properties => properties.iter().map(|(n, _)| n.clone()).collect(),
                };
                return names
                    .into_iter()
                    .map(|name| {
                        item(
                            name.clone(),
                            CompletionKind::Property,
                            Some(format!("the element's {name}")),
                            None,
                            range,
                            name,
                            "0",
                        )
                    })
                    .collect();
            }
            pcl_sema::infer_node(db, node)
                .binding_types
                .get(binding.index())
                .cloned()
                .unwrap_or_else(Type::dynamic)
        }
        None => match pcl_sema::lookup_node(
            db,
            file.program(db),
            file.file(db),
            &pcl_hir::Name::new(first),
        ) {
            Some(target) => {
                pcl_sema::infer_nodes_with(db, &[target], settled);
                docs_of = Some(target);
                pcl_sema::node_type(db, target)
            }
            None => return Vec::new(),
        },
    };
    for part in rest {
        docs_of = None;
        ty = if part == "[]" {
            match element(&ty) {
                Some(e) => e,
                None => return Vec::new(),
            }
        } else {
            match strip(&ty).kind() {
                TypeKind::Object(object) => match object.property(part) {
                    Some(p) => p,
                    None => return Vec::new(),
                },
                _ => return Vec::new(),
            }
        };
    }
    let outputs_doc = docs_of.and_then(|n| schema::resource_of_node(db, n));
    property_items(ty, outputs_doc, range)
}

/// The members of the value of the call or parentheses that end at `end` (`invoke(...).`):
/// its type as the node's inference gives it.
fn call_member_completions(
    db: &RootDatabase,
    node: Node<'_>,
    end: usize,
    range: TextRange,
    settled: Settled,
) -> Vec<CompletionItem> {
    let body = node.body(db);
    let node_map = node.source_map(db);
    let map = node_map.body();
    let end = TextSize::from(end as u32);
    let Some(id) = body
        .exprs()
        .filter(|(id, e)| matches!(e, Expr::Call(_) | Expr::Paren(_)) && map.expr(*id).end() == end)
        .min_by_key(|(id, _)| map.expr(*id).start())
        .map(|(id, _)| id)
    else {
        return Vec::new();
    };
    // While a member is typed the traversal is incomplete, so inference leaves its receiver
    // out: an `invoke`'s result comes from its function's schema.
    let invoked = match body.expr(id) {
        Expr::Call(call) if call.name.as_str() == pcl_sema::Builtin::Invoke.name() => {
            match call.args.first().map(|a| body.expr(*a)) {
                Some(Expr::Literal(pcl_types::ConstValue::String(token))) => {
                    schema::invoke_result_type(db, node.file(db).program(db), token)
                }
                _ => None,
            }
        }
        _ => None,
    };
    let ty = match invoked {
        Some(ty) => ty,
        None => {
            pcl_sema::infer_nodes_with(db, &[node], settled);
            match pcl_sema::infer_node_fully(db, node)
                .expr_types
                .get(id.index())
            {
                Some(ty) => ty.clone(),
                None => return Vec::new(),
            }
        }
    };
    property_items(ty, None, range)
}

/// The properties of an object type as completion items, with the descriptions of a
/// resource's outputs when the type is a resource's.
fn property_items(
    ty: Type,
    outputs_doc: Option<schema::ResourceDef>,
    range: TextRange,
) -> Vec<CompletionItem> {
    object_properties(Some(ty))
        .into_iter()
        .map(|(name, ty)| {
            let documentation = outputs_doc.as_ref().and_then(|def| {
                def.outputs
                    .iter()
                    .find(|p| p.name == name)
                    .and_then(|p| p.description.as_deref())
                    .map(schema::summary)
            });
            item(
                name.clone(),
                CompletionKind::Property,
                Some(pcl_sema::one_line_type(&ty)),
                documentation,
                range,
                name,
                "0",
            )
        })
        .collect()
}

/// The values of an enum-typed property, inside the string given to it.
fn enum_values(
    db: &RootDatabase,
    node: Node<'_>,
    attr: &str,
    range: TextRange,
) -> Vec<CompletionItem> {
    match crate::hover::input_property_type(db, node, attr) {
        Some(ty) => enum_items(db, node, attr, &ty, range, false),
        None => Vec::new(),
    }
}

/// Names in scope and builtin functions.
fn expression_completions(
    db: &RootDatabase,
    file: ProgramFile<'_>,
    node: Node<'_>,
    offset: TextSize,
    range: TextRange,
) -> Vec<CompletionItem> {
    let mut out = Vec::new();
    let body = node.body(db);
    let node_map = node.source_map(db);
    let map = node_map.body();
    // Local variables whose `for` encloses the cursor; `range` in ranged nodes.
    for (id, binding) in body.bindings() {
        let in_scope = match binding.kind {
            pcl_hir::BindingKind::Range => semantics::has_range_option(db, node),
            _ => {
                body.exprs().any(|(e, expr)| {
                    matches!(expr, Expr::For(f) if f.value_var == id || f.key_var == Some(id))
                        && map.expr(e).contains_inclusive(offset)
                }) || map.binding(id).is_empty()
            }
        };
        if in_scope
            && !out
                .iter()
                .any(|i: &CompletionItem| i.label == binding.name.as_str())
        {
            out.push(item(
                binding.name.to_string(),
                CompletionKind::Variable,
                None,
                None,
                range,
                binding.name.to_string(),
                "0",
            ));
        }
    }
    // The program's names: only the best of those that match are made into items (a program
    // of 100,000 names must not build 100,000 items per keystroke; `rank` keeps at most
    // MAX_COMPLETIONS, so one more tells it the list is incomplete).
    let text = file.file(db).text(db);
    let typed = text
        .get(usize::from(range.start())..usize::from(range.end()))
        .unwrap_or("")
        .to_lowercase();
    let own = node.key(db);
    // The best names: those the word starts (score 0), then those that hold its characters
    // in order (score 1), each by name. The names come in runs sorted by name, so a run is
    // left as soon as its names sort after the last of a full list of score 0: a keystroke
    // looks at a few names of each run, not at every name of the program.
    let limit = MAX_COMPLETIONS + 1;
    let mut best: [std::collections::BinaryHeap<(&pcl_hir::Name, NodeKind)>; 2] = [
        std::collections::BinaryHeap::new(),
        std::collections::BinaryHeap::new(),
    ];
    let visible = pcl_sema::visible_names(db, file.program(db));
    for run in visible.runs() {
        for (name, key) in run {
            if best[0].len() == limit && best[0].peek().is_some_and(|(last, _)| name > *last) {
                break;
            }
            if *key == own
                || matches!(
                    key.kind,
                    NodeKind::Output | NodeKind::Package | NodeKind::Pulumi | NodeKind::Hook
                )
            {
                continue;
            }
            let Some(score) = match_score(&typed, name.as_str()) else {
                continue;
            };
            let heap = &mut best[usize::from(score.min(1))];
            heap.push((name, key.kind));
            if heap.len() > limit {
                heap.pop();
            }
        }
    }
    let [starts, holds] = best;
    let mut names = starts.into_sorted_vec();
    if names.len() < limit {
        names.extend(holds.into_sorted_vec());
    }
    names.truncate(limit);
    for (name, kind) in names {
        out.push(item(
            name.to_string(),
            CompletionKind::Variable,
            Some(kind.keyword().to_string()),
            None,
            range,
            name.to_string(),
            "1",
        ));
    }
    for builtin in pcl_sema::Builtin::ALL {
        out.push(CompletionItem {
            snippet: true,
            ..item(
                builtin.name().to_string(),
                CompletionKind::Function,
                Some(builtin.signature().to_string()),
                Some(builtin.doc().to_string()),
                range,
                format!("{}($0)", builtin.name()),
                "2",
            )
        });
    }
    for keyword in ["true", "false", "null", "for"] {
        out.push(item(
            keyword.into(),
            CompletionKind::Keyword,
            None,
            None,
            range,
            keyword.into(),
            "3",
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::match_score;

    #[test]
    fn words_match_at_the_start_or_in_order_ignoring_case() {
        for (typed, label, score) in [
            ("", "anything", Some(0)),
            ("sit", "siteBucket", Some(0)),
            ("sitebu", "siteBucket", Some(0)),
            ("sb", "siteBucket", Some(1)),
            ("stb", "siteBucket", Some(1)),
            ("bucket", "siteBucket", None),
            ("sx", "siteBucket", None),
            ("sitebucketx", "siteBucket", None),
            ("é", "Éclair", Some(0)),
        ] {
            assert_eq!(match_score(typed, label), score, "{typed:?} {label:?}");
        }
    }
}
