//! The syntactic context of a cursor, for completion and signature help: the brackets, blocks,
//! strings and interpolations open at the cursor, read from the lexer's tokens over the text
//! before it (which is often not valid syntax while the user types, so no tree is asked for).
//! The lexer knows what a comment, a quoted string and a heredoc are, so a `(` in a comment or
//! a `:` in a heredoc's text is not taken for syntax.

use pcl_parser::{Lexed, SyntaxKind, SyntaxKind::*};

/// What is open at the cursor, outermost first, and what the innermost holds before it.
#[derive(Debug)]
pub(crate) struct CursorContext {
    pub(crate) frames: Vec<Frame>,
    /// The tokens of the current item of the innermost block or object (since its `{`, the
    /// last line break or `,`), a string counting as one token.
    pub(crate) item: Vec<ItemToken>,
    /// The text ends inside a line comment.
    pub(crate) in_comment: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FrameKind {
    /// A block's body: `resource x "t" {`, `options {`.
    Block,
    /// An object constructor `{ }`.
    Object,
    /// A tuple constructor `[ ]`.
    Tuple,
    /// Parentheses: a call's arguments or a grouping.
    Paren,
    /// A quoted string's text.
    Quoted,
    /// A heredoc's text.
    Heredoc,
    /// `${ }` or `%{ }` inside a template.
    Interpolation,
}

/// How the value a frame opens is reached from the frame around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The value of an attribute, object key or block of this name.
    Name(String),
    /// An element of a tuple (or the body of a `for` expression in one).
    Element,
}

#[derive(Debug)]
pub(crate) struct Frame {
    pub(crate) kind: FrameKind,
    pub(crate) step: Option<Step>,
    /// Keys set so far (blocks and objects).
    pub(crate) keys: Vec<String>,
    /// Commas directly inside it so far.
    pub(crate) commas: usize,
    /// For parentheses: the name just before them (a call's function).
    pub(crate) callee: Option<String>,
    /// For parentheses: the first argument, when it is a plain string.
    pub(crate) first_string: Option<String>,
    /// For parentheses: the first argument, when it starts with a name (`call(res, ...)`).
    pub(crate) first_name: Option<String>,
    /// The item of the frame around it when it opened, which goes on once it closes
    /// (`key = cond ? [] : [{`).
    saved_item: Vec<ItemToken>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ItemToken {
    pub(crate) kind: SyntaxKind,
    /// An identifier's text, or a plain string's value.
    pub(crate) text: String,
}

impl CursorContext {
    /// The context at the end of `text`.
    pub(crate) fn at_end_of(text: &str) -> CursorContext {
        let lexed = Lexed::new(text);
        let mut frames: Vec<Frame> = Vec::new();
        let mut item: Vec<ItemToken> = Vec::new();
        // A string being read as one item token: its text so far, or `None` once it holds
        // an interpolation.
        let mut string: Vec<Option<String>> = Vec::new();
        let frame = |kind, step| Frame {
            kind,
            step,
            keys: Vec::new(),
            commas: 0,
            callee: None,
            first_string: None,
            first_name: None,
            saved_item: Vec::new(),
        };
        for i in 0..lexed.len() {
            let kind = lexed.kind(i);
            let top = frames.last().map(|f| f.kind);
            let items_here = matches!(top, None | Some(FrameKind::Block | FrameKind::Object));
            match kind {
                WHITESPACE | COMMENT | BLOCK_COMMENT => {}
                NEWLINE => {
                    // A quoted string the line leaves unterminated ends there, as the parser
                    // ends it (the lexer gives no closing quote).
                    while frames.last().map(|f| f.kind) == Some(FrameKind::Quoted) {
                        frames.pop();
                        string.pop();
                    }
                    let items_here = matches!(
                        frames.last().map(|f| f.kind),
                        None | Some(FrameKind::Block | FrameKind::Object)
                    );
                    if items_here {
                        record_key(&mut frames, &item);
                        item.clear();
                    }
                }
                OQUOTE => {
                    frames.push(frame(FrameKind::Quoted, None));
                    string.push(Some(String::new()));
                }
                HEREDOC_START => {
                    frames.push(frame(FrameKind::Heredoc, None));
                    string.push(None);
                }
                TEMPLATE_LITERAL => {
                    if let Some(Some(s)) = string.last_mut() {
                        s.push_str(lexed.text(i));
                    }
                }
                CQUOTE | HEREDOC_END => {
                    if matches!(top, Some(FrameKind::Quoted | FrameKind::Heredoc)) {
                        frames.pop();
                    }
                    let value = string.pop().flatten();
                    let top = frames.last_mut();
                    // A call's first argument: `invoke("token", ...)`.
                    if let Some(paren) = top.filter(|f| f.kind == FrameKind::Paren) {
                        if paren.commas == 0 && paren.first_string.is_none() {
                            paren.first_string = value.clone();
                        }
                    }
                    let items_here = matches!(
                        frames.last().map(|f| f.kind),
                        None | Some(FrameKind::Block | FrameKind::Object)
                    );
                    if items_here {
                        item.push(ItemToken {
                            kind: OQUOTE,
                            text: value.unwrap_or_default(),
                        });
                    }
                }
                TEMPLATE_INTERP | TEMPLATE_CONTROL => {
                    if let Some(s) = string.last_mut() {
                        *s = None;
                    }
                    frames.push(frame(FrameKind::Interpolation, None));
                }
                TEMPLATE_SEQ_END => {
                    if top == Some(FrameKind::Interpolation) {
                        frames.pop();
                    }
                }
                L_BRACE => {
                    let step = opened_step(top, &item, true);
                    let kind = if step.as_ref().is_some_and(|(_, header)| *header) {
                        FrameKind::Block
                    } else {
                        FrameKind::Object
                    };
                    record_key(&mut frames, &item);
                    let mut opened = frame(kind, step.map(|(s, _)| s));
                    opened.saved_item = std::mem::take(&mut item);
                    frames.push(opened);
                }
                L_BRACK => {
                    let step = opened_step(top, &item, false).map(|(s, _)| s);
                    record_key(&mut frames, &item);
                    let mut opened = frame(FrameKind::Tuple, step);
                    opened.saved_item = std::mem::take(&mut item);
                    frames.push(opened);
                }
                L_PAREN => {
                    let callee = preceding_ident(&lexed, i);
                    record_key(&mut frames, &item);
                    let mut paren = frame(FrameKind::Paren, None);
                    paren.callee = callee;
                    paren.saved_item = std::mem::take(&mut item);
                    frames.push(paren);
                }
                R_BRACE | R_BRACK | R_PAREN => {
                    // What closed was a value: the item it was in goes on (`a = {}` then a
                    // newline; `key = cond ? [] : [{`).
                    item = frames.pop().map(|f| f.saved_item).unwrap_or_default();
                    if matches!(
                        frames.last().map(|f| f.kind),
                        None | Some(FrameKind::Block | FrameKind::Object)
                    ) {
                        item.push(ItemToken {
                            kind,
                            text: String::new(),
                        });
                    } else {
                        item.clear();
                    }
                }
                COMMA => {
                    if let Some(f) = frames.last_mut() {
                        f.commas += 1;
                    }
                    if top == Some(FrameKind::Object) {
                        record_key(&mut frames, &item);
                        item.clear();
                    }
                }
                _ if matches!(top, Some(FrameKind::Quoted | FrameKind::Heredoc)) => {}
                IDENT if top == Some(FrameKind::Paren) => {
                    if let Some(paren) = frames.last_mut() {
                        if paren.commas == 0 && paren.first_name.is_none() {
                            paren.first_name = Some(lexed.text(i).to_string());
                        }
                    }
                }
                _ => {
                    if items_here {
                        item.push(ItemToken {
                            kind,
                            text: if kind == IDENT {
                                lexed.text(i).to_string()
                            } else {
                                String::new()
                            },
                        });
                    }
                }
            }
        }
        let in_comment = !lexed.is_empty() && lexed.kind(lexed.len() - 1) == COMMENT;
        CursorContext {
            frames,
            item,
            in_comment,
        }
    }

    pub(crate) fn innermost(&self) -> Option<&Frame> {
        self.frames.last()
    }

    /// Whether the cursor is where a block's attribute or an object's key is written: the
    /// item holds nothing yet, or only the word being typed.
    pub(crate) fn at_key(&self, word: &str) -> bool {
        match self.item.as_slice() {
            [] => word.is_empty(),
            [only] => only.kind == IDENT && only.text == word && !word.is_empty(),
            _ => false,
        }
    }

    /// The key whose value the cursor is in (`key = |`, `key: |`), in a block or an object.
    pub(crate) fn value_of(&self) -> Option<&str> {
        match self.item.as_slice() {
            [key, sep, ..]
                if matches!(sep.kind, EQ | COLON) && matches!(key.kind, IDENT | OQUOTE) =>
            {
                Some(&key.text)
            }
            _ => None,
        }
    }
}

/// How a value opened here is reached: after `key =` or `key:` by its name; inside a tuple,
/// as an element; for a `{` at the start of an item of a block or the file (`options {`,
/// `resource x "t" {`), a block named by its first word (the flag says so).
fn opened_step(top: Option<FrameKind>, item: &[ItemToken], brace: bool) -> Option<(Step, bool)> {
    match top {
        None | Some(FrameKind::Block | FrameKind::Object) => match item {
            [key, sep, ..]
                if matches!(sep.kind, EQ | COLON) && matches!(key.kind, IDENT | OQUOTE) =>
            {
                Some((Step::Name(key.text.clone()), false))
            }
            [first, rest @ ..]
                if brace
                    && top != Some(FrameKind::Object)
                    && first.kind == IDENT
                    && rest.iter().all(|t| matches!(t.kind, IDENT | OQUOTE)) =>
            {
                Some((Step::Name(first.text.clone()), true))
            }
            _ => None,
        },
        Some(FrameKind::Tuple) => Some((Step::Element, false)),
        _ => None,
    }
}

/// Notes the key of the current item of a block or object (before its value opens or the
/// next item starts).
fn record_key(frames: &mut [Frame], item: &[ItemToken]) {
    let Some(frame) = frames.last_mut() else {
        return;
    };
    if !matches!(frame.kind, FrameKind::Block | FrameKind::Object) {
        return;
    }
    if let [key, sep, ..] = item {
        if matches!(sep.kind, EQ | COLON)
            && matches!(key.kind, IDENT | OQUOTE)
            && !frame.keys.contains(&key.text)
        {
            frame.keys.push(key.text.clone());
        }
    }
}

/// The identifier right before token `i` (skipping whitespace): a call's function name.
fn preceding_ident(lexed: &Lexed<'_>, i: usize) -> Option<String> {
    let mut j = i;
    while j > 0 {
        j -= 1;
        match lexed.kind(j) {
            WHITESPACE => continue,
            IDENT => return Some(lexed.text(j).to_string()),
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn describe(text: &str) -> String {
        let cx = CursorContext::at_end_of(text);
        let frames: Vec<String> = cx
            .frames
            .iter()
            .map(|f| format!("{:?} {:?} {:?}", f.kind, f.step, f.keys))
            .collect();
        let item: Vec<String> = cx
            .item
            .iter()
            .map(|t| format!("{:?}:{}", t.kind, t.text))
            .collect();
        format!("{} | {}", frames.join(" > "), item.join(" "))
    }

    #[test]
    fn frames_and_items() {
        let cases = [
            "resource d \"k:a/v1:D\" {\n  metadata = {\n    name = \"x\"\n    ",
            "resource d \"k:a/v1:D\" {\n  spec = { containers = [{ na",
            "resource d \"k:a/v1:D\" {\n  options { pro",
            "resource d \"k:a/v1:D\" {\n  # a (comment\n  /* [x */\n  ",
            "resource d \"k:a/v1:D\" {\n  data = <<EOT\nport: (8\n",
            "resource d \"k:a/v1:D\" {\n  a = \"${join(\",\", ",
            "resource d \"k:a/v1:D\" {\n  a = b\n  acl = ",
        ];
        let out: Vec<String> = cases.iter().map(|c| describe(c)).collect();
        expect_test::expect![[r#"
            Block Some(Name("resource")) ["metadata"] > Object Some(Name("metadata")) ["name"] | 
            Block Some(Name("resource")) ["spec"] > Object Some(Name("spec")) ["containers"] > Tuple Some(Name("containers")) [] > Object Some(Element) [] | IDENT:na
            Block Some(Name("resource")) [] > Block Some(Name("options")) [] | IDENT:pro
            Block Some(Name("resource")) [] | 
            Block Some(Name("resource")) [] > Heredoc None [] | IDENT:data EQ:
            Block Some(Name("resource")) [] > Quoted None [] > Interpolation None [] > Paren None [] | 
            Block Some(Name("resource")) ["a"] | IDENT:acl EQ:"#]]
        .assert_eq(&out.join("\n"));
    }
}
