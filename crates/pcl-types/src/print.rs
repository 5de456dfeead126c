//! The two printers: canonical (`output(list(string))`, `union(int, string)`) and readable
//! (`list(string)?`, `int | string`, multi-line for big objects). Every place that shows a
//! type to a user prints it here, choosing a [`ReadableStyle`] (hover, messages, one-line
//! details, `pcl schema show`), so that a type reads the same everywhere.
//!
//! Both are recursion-safe: a deferred object met again inside itself prints as `...`
//! (canonical) or as its name (readable). The readable printer also names schema objects
//! instead of expanding them below the top level ([`NamedObjects`]); the canonical printer
//! is exact up to its length limit.
//!
//! Both are bounded. Types share their parts (`x1 = { l = x0, r = x0 }`, and so on), so the
//! text of a type can be exponentially longer than the type itself: the readable printer
//! stops at [`MAX_READABLE_LEN`] bytes and at [`MAX_READABLE_DEPTH`] levels of nesting, and the
//! canonical one at [`MAX_CANONICAL_LEN`] bytes, writing `…` where it stops. Printing costs at
//! most about the length of its output, never the size of the type.

use std::cmp::Ordering;
use std::fmt::{self, Write};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::kinds::{Annotation, ObjectType, Type, TypeKind};

/// Objects longer than this on one line are printed on several lines by the readable printer.
const MAX_LINE: usize = 100;

/// The most bytes the readable printer writes for one type (its closing brackets included),
/// plus the `…` that marks where it stopped. A message names at most a few types, so it stays
/// a few kilobytes whatever the types are.
pub const MAX_READABLE_LEN: usize = 2_000;

/// The readable printer writes parts nested deeper than this (lists, tuples, objects, unions
/// and eventuals inside each other) as `…`.
pub const MAX_READABLE_DEPTH: usize = 16;

/// The most bytes the canonical printer writes (then `…`): far above the canonical text of any
/// real type, including the largest schema types expanded in full.
pub const MAX_CANONICAL_LEN: usize = 1 << 20;

/// The union sort key holds at most this many bytes of canonical text; elements whose keys
/// agree that far are ordered structurally (see `Type::union_sort_key`).
const SORT_KEY_LEN: usize = 256;

const ELLIPSIS: &str = "…";

impl Type {
    /// The canonical form, e.g. `output(list(string))`, `union(int, string)`,
    /// `object({a = int, b = string})`. Exact below [`MAX_CANONICAL_LEN`] bytes; a longer
    /// text is cut there and ends with `…`.
    pub fn display_canonical(&self) -> String {
        let mut out = Out::new(MAX_CANONICAL_LEN, true);
        canonical(self, &mut Canonical::Exact(FxHashSet::default()), &mut out);
        out.text
    }

    /// The readable form used by hover, e.g. `list(string)?`, `int | string`,
    /// `{ a: int, b: string }`. A named object (see [`NamedObjects`]) is expanded only
    /// where it is not inside another object: `display_readable_with(NamedObjects::TopLevel)`.
    /// At most [`MAX_READABLE_LEN`] bytes (plus a `…`); parts nested deeper than
    /// [`MAX_READABLE_DEPTH`] print as `…`.
    pub fn display_readable(&self) -> String {
        self.display_readable_with(NamedObjects::TopLevel)
    }

    /// The readable form in a [`ReadableStyle`] (or with the default style's other choices,
    /// given only where named objects are expanded). Diagnostics (the messages of
    /// [`crate::Reason`]) use [`NamedObjects::Never`]. Bounded as [`Type::display_readable`] is.
    pub fn display_readable_with(&self, style: impl Into<ReadableStyle>) -> String {
        let style = style.into();
        let mut printer = Readable {
            stack: Vec::new(),
            style,
            out: Out::new(MAX_READABLE_LEN, true),
            one_line: style.one_line,
        };
        readable(self, &mut printer, 0, 0, style.resource_references);
        printer.out.text
    }
}

/// The choices of the readable printer. `ReadableStyle::default()` is hover's: named objects
/// expanded at the top level, big objects on several lines, enums by their values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ReadableStyle {
    /// Where named objects are expanded.
    pub named: NamedObjects,
    /// Everything on one line, however long (a list item, an inlay hint, a table cell).
    pub one_line: bool,
    /// How what a schema names (enums, dangling references) is written.
    pub tokens: Tokens,
    /// A resource's output object, where a value of the type is the resource itself (not
    /// inside an object, tuple, set or a union other than `T?`), prints as `resource(TOKEN)`:
    /// what a reference to a resource node is, as opposed to an object of that shape.
    pub resource_references: bool,
}

impl ReadableStyle {
    /// The type of a node or value on one line (hover, completion details, inlay hints,
    /// `--emit-types`): named objects never expanded, resources as `resource(TOKEN)`.
    pub const ONE_LINE: ReadableStyle = ReadableStyle {
        named: NamedObjects::Never,
        one_line: true,
        tokens: Tokens::Program,
        resource_references: true,
    };
}

impl From<NamedObjects> for ReadableStyle {
    fn from(named: NamedObjects) -> ReadableStyle {
        ReadableStyle {
            named,
            ..ReadableStyle::default()
        }
    }
}

/// How the readable printer writes what a schema names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Tokens {
    /// As a program sees it: an enum by its values (`enum("red" | "blue")`), an opaque type
    /// whose name is not an identifier (a reference to something a schema does not define) as
    /// `type(NAME)`, which is how a program would write it.
    #[default]
    Program,
    /// As a reader of schemas sees it, where every definition is named by its token: an enum
    /// by its token (`enum(widgets::Color)`), an opaque type by its bare name.
    Schema,
}

/// Where the readable printer expands a *named* object: one with a schema identity
/// ([`Annotation::SchemaObject`], [`Annotation::ResourceInputs`] or
/// [`Annotation::ResourceOutputs`], shown by its token) or a deferred object (shown by its
/// name). Elsewhere it prints the name alone, so that a schema type, which can be huge,
/// prints in a few words. Unnamed objects are always expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum NamedObjects {
    /// Everywhere (a deferred object met again inside itself still prints as its name).
    Always,
    /// Only where it is not inside another object: the properties of the object shown
    /// are listed, and the objects they refer to are named.
    #[default]
    TopLevel,
    /// Nowhere.
    Never,
}

/// The name a named object prints as; see [`NamedObjects`].
pub(crate) fn object_name(object: &ObjectType) -> Option<&str> {
    object
        .annotations()
        .iter()
        .find_map(|a| match a {
            Annotation::SchemaObject(token)
            | Annotation::ResourceInputs(token)
            | Annotation::ResourceOutputs(token) => Some(&**token),
            Annotation::Other(_) => None,
        })
        .or_else(|| object.deferred_name())
}

/// Text with a length limit. What does not fit is left out; the text then ends with `…`
/// (when `mark` is set) and is `full`: nothing more is written but the closing brackets
/// reserved for the parts already open, so brackets stay balanced within the limit.
struct Out {
    text: String,
    limit: usize,
    /// Bytes kept for the closing brackets of the parts open.
    reserved: usize,
    full: bool,
    mark: bool,
}

impl Out {
    fn new(limit: usize, mark: bool) -> Out {
        Out {
            text: String::new(),
            limit,
            reserved: 0,
            full: false,
            mark,
        }
    }

    fn room(&self) -> usize {
        self.limit.saturating_sub(self.text.len() + self.reserved)
    }

    /// Appends `s`, or as much of it as fits and then the mark.
    fn push(&mut self, s: &str) {
        if self.full {
            return;
        }
        let room = self.room();
        if s.len() <= room {
            self.text.push_str(s);
            return;
        }
        let keep = if self.mark {
            room.saturating_sub(ELLIPSIS.len())
        } else {
            room
        };
        let mut cut = keep.min(s.len());
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        self.text.push_str(&s[..cut]);
        if self.mark {
            self.text.push_str(ELLIPSIS);
        }
        self.full = true;
    }

    /// Opens a part: writes `opening` and reserves `closing` bytes to close it with
    /// [`Out::close`]. False (and nothing to close) when the two do not fit.
    fn open(&mut self, opening: &str, closing: usize) -> bool {
        if self.full {
            return false;
        }
        if opening.len() + closing > self.room() {
            // The mark stands for the whole part.
            self.elide();
            return false;
        }
        self.text.push_str(opening);
        self.reserved += closing;
        true
    }

    /// Closes a part opened with [`Out::open`] (whose reservation `closing` fits in).
    fn close(&mut self, closing: &str) {
        self.reserved = self.reserved.saturating_sub(closing.len());
        self.text.push_str(closing);
    }

    /// Leaves out the rest: writes the mark and stops.
    fn elide(&mut self) {
        if !self.full {
            if self.mark {
                self.text.push_str(ELLIPSIS);
            }
            self.full = true;
        }
    }
}

impl Write for Out {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push(s);
        // Stops a long `Display` (a literal of a million characters) early.
        if self.full {
            Err(fmt::Error)
        } else {
            Ok(())
        }
    }
}

struct Readable {
    /// The addresses of the objects being printed, outermost first.
    stack: Vec<usize>,
    style: ReadableStyle,
    out: Out,
    /// Everything on one line (used to measure whether an object fits on one).
    one_line: bool,
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

fn write_opaque_name(name: &str, out: &mut Out) {
    if is_identifier(name) {
        out.push(name);
    } else {
        out.push("type(");
        out.push(name);
        out.push(")");
    }
}

fn write_property_name(key: &str, out: &mut Out) {
    if is_identifier(key) {
        out.push(key);
    } else {
        let _ = write!(out, "{key:?}");
    }
}

/// What the canonical printer does with objects.
enum Canonical<'a> {
    /// Expands every object; a deferred object met inside itself prints as `...`. The set
    /// holds the addresses of the deferred objects being printed (only they can recur).
    Exact(FxHashSet<usize>),
    /// The union sort key: a deferred object prints as `object(#name)` and its namespace
    /// and variant are recorded, so nothing inside a deferred object is ever looked at.
    SortKey(&'a mut Vec<(u64, u64)>),
}

/// The sort key of unions (see `Type::union_sort_key`): at most `SORT_KEY_LEN` bytes of
/// `text`; true when the text was cut there.
pub(crate) fn sort_key(ty: &Type, text: &mut String, keys: &mut Vec<(u64, u64)>) -> bool {
    let mut out = Out::new(SORT_KEY_LEN, false);
    canonical(ty, &mut Canonical::SortKey(keys), &mut out);
    *text = out.text;
    out.full
}

fn canonical(ty: &Type, stack: &mut Canonical<'_>, out: &mut Out) {
    if out.full {
        return;
    }
    crate::on_enough_stack(|| {
        let list = |name: &str, elements: &[Type], stack: &mut Canonical<'_>, out: &mut Out| {
            out.push(name);
            if !out.open("(", 1) {
                return;
            }
            for (i, e) in elements.iter().enumerate() {
                if out.full {
                    break;
                }
                if i > 0 {
                    out.push(", ");
                }
                canonical(e, stack, out);
            }
            out.close(")");
        };
        match ty.kind() {
            TypeKind::Dynamic => out.push("dynamic"),
            TypeKind::None => out.push("none"),
            TypeKind::Bool => out.push("bool"),
            TypeKind::Int => out.push("int"),
            TypeKind::Number => out.push("number"),
            TypeKind::String => out.push("string"),
            TypeKind::Opaque(name) => write_opaque_name(name, out),
            TypeKind::List(e) => list("list", std::slice::from_ref(e), stack, out),
            TypeKind::Map(e) => list("map", std::slice::from_ref(e), stack, out),
            TypeKind::Set(e) => list("set", std::slice::from_ref(e), stack, out),
            TypeKind::Output(e) => list("output", std::slice::from_ref(e), stack, out),
            TypeKind::Promise(e) => list("promise", std::slice::from_ref(e), stack, out),
            TypeKind::Tuple(es) => list("tuple", es, stack, out),
            TypeKind::Union(es) => list("union", es, stack, out),
            TypeKind::Object(object) => {
                let deferred = object.is_deferred();
                match stack {
                    Canonical::Exact(stack) => {
                        if deferred && stack.contains(&ty.addr()) {
                            out.push("...");
                            return;
                        }
                    }
                    Canonical::SortKey(keys) => {
                        if let Some(key) = object.deferred_key() {
                            keys.push((key.namespace, key.variant));
                            let _ = write!(out, "object(#{})", key.name);
                            return;
                        }
                    }
                }
                if !out.open("object({", 2) {
                    return;
                }
                if let (Canonical::Exact(stack), true) = (&mut *stack, deferred) {
                    stack.insert(ty.addr());
                }
                for (i, (key, t)) in object.properties().iter().enumerate() {
                    if out.full {
                        break;
                    }
                    if i > 0 {
                        out.push(", ");
                    }
                    write_property_name(key, out);
                    out.push(" = ");
                    canonical(t, stack, out);
                }
                if let (Canonical::Exact(stack), true) = (&mut *stack, deferred) {
                    stack.remove(&ty.addr());
                }
                out.close("})");
            }
            TypeKind::Const(c) => {
                if !out.open("const(", 1) {
                    return;
                }
                canonical(&c.ty, stack, out);
                out.push(", ");
                let _ = write!(out, "{}", c.value);
                out.close(")");
            }
            TypeKind::Enum(e) => {
                let _ = write!(out, "enum({}", e.token);
                if !out.open("(", 1) {
                    return;
                }
                canonical(&e.element, stack, out);
                out.push("): ");
                for (i, v) in e.values.iter().enumerate() {
                    if out.full {
                        break;
                    }
                    if i > 0 {
                        out.push(", ");
                    }
                    let _ = write!(out, "{v}");
                }
                out.close(")");
            }
        }
    })
}

/// Writes the readable form of `ty` at `indent` (the column of the line it starts on, for the
/// multi-line layout of objects) and `depth` (how many parts enclose it). `reference`: a
/// resource's output object here is a reference to the resource (see
/// [`ReadableStyle::resource_references`]).
fn readable(ty: &Type, p: &mut Readable, indent: usize, depth: usize, reference: bool) {
    if p.out.full {
        return;
    }
    crate::on_enough_stack(|| {
        let composite = !matches!(
            ty.kind(),
            TypeKind::Dynamic
                | TypeKind::None
                | TypeKind::Bool
                | TypeKind::Int
                | TypeKind::Number
                | TypeKind::String
                | TypeKind::Opaque(_)
                | TypeKind::Const(_)
        );
        if composite && depth >= MAX_READABLE_DEPTH {
            p.out.push(ELLIPSIS);
            return;
        }
        let wrap = |name: &str, e: &Type, p: &mut Readable, reference: bool| {
            p.out.push(name);
            if p.out.open("(", 1) {
                readable(e, p, indent, depth + 1, reference);
                p.out.close(")");
            }
        };
        match ty.kind() {
            TypeKind::Dynamic => p.out.push("dynamic"),
            TypeKind::None => p.out.push("none"),
            TypeKind::Bool => p.out.push("bool"),
            TypeKind::Int => p.out.push("int"),
            TypeKind::Number => p.out.push("number"),
            TypeKind::String => p.out.push("string"),
            TypeKind::Opaque(name) if p.style.tokens == Tokens::Schema => p.out.push(name),
            TypeKind::Opaque(name) => write_opaque_name(name, &mut p.out),
            TypeKind::List(e) => wrap("list", e, p, reference),
            TypeKind::Map(e) => wrap("map", e, p, reference),
            TypeKind::Set(e) => wrap("set", e, p, false),
            TypeKind::Output(e) => wrap("output", e, p, reference),
            TypeKind::Promise(e) => wrap("promise", e, p, reference),
            TypeKind::Tuple(es) => {
                if !p.out.open("(", 1) {
                    return;
                }
                for (i, e) in es.iter().enumerate() {
                    if p.out.full {
                        break;
                    }
                    if i > 0 {
                        p.out.push(", ");
                    }
                    readable(e, p, indent, depth + 1, false);
                }
                p.out.close(")");
            }
            TypeKind::Union(es) => {
                let optional = es.iter().any(|e| e.is_none());
                let reference = reference && optional && es.len() == 2;
                if optional {
                    // The `?` is written after the members, whatever is left out of them.
                    if !p.out.open("", 1) {
                        return;
                    }
                }
                // Members that print alike are written once: an input type's object and the
                // object it was made from are both written as their token
                // (`HttpCheck | HttpCheck | TcpCheck | TcpCheck` said nothing more than
                // `HttpCheck | TcpCheck`). Looked for among the first members only, so that a
                // union of many costs no more than its text.
                const COMPARED: usize = 64;
                const MEMBER_KEY_LEN: usize = 256;
                let several = es.iter().filter(|e| !e.is_none()).nth(1).is_some();
                let mut seen: FxHashSet<String> = FxHashSet::default();
                let mut written = 0;
                for (i, e) in es.iter().filter(|e| !e.is_none()).enumerate() {
                    if p.out.full {
                        break;
                    }
                    if several && i < COMPARED {
                        // The member's text as it would print here (the objects being printed
                        // stay named, so a recursive type ends), on one line and cut short: a
                        // member whose text is cut is never taken for another.
                        let mut key = Readable {
                            stack: p.stack.clone(),
                            style: p.style,
                            out: Out::new(MEMBER_KEY_LEN, false),
                            one_line: true,
                        };
                        readable(e, &mut key, indent, depth + 1, reference);
                        if !key.out.full && !seen.insert(key.out.text) {
                            continue;
                        }
                    }
                    if written > 0 {
                        p.out.push(" | ");
                    }
                    readable(e, p, indent, depth + 1, reference);
                    written += 1;
                }
                if optional {
                    p.out.close("?");
                }
            }
            TypeKind::Object(object) => {
                let token = object.annotations().iter().find_map(|a| match a {
                    Annotation::ResourceOutputs(token) => Some(token),
                    _ => None,
                });
                match token {
                    Some(token) if reference => {
                        if p.out.open("resource(", 1) {
                            p.out.push(token);
                            p.out.close(")");
                        }
                    }
                    _ => readable_object(ty, object, p, indent, depth),
                }
            }
            TypeKind::Const(c) => {
                let _ = write!(p.out, "{}", c.value);
            }
            TypeKind::Enum(e) if p.style.tokens == Tokens::Schema => {
                if p.out.open("enum(", 1) {
                    p.out.push(&e.token);
                    p.out.close(")");
                }
            }
            TypeKind::Enum(e) => {
                if !p.out.open("enum(", 1) {
                    return;
                }
                for (i, v) in e.values.iter().enumerate() {
                    if p.out.full {
                        break;
                    }
                    if i > 0 {
                        p.out.push(" | ");
                    }
                    let _ = write!(p.out, "{v}");
                }
                p.out.close(")");
            }
        }
    })
}

fn readable_object(ty: &Type, object: &ObjectType, p: &mut Readable, indent: usize, depth: usize) {
    let name = object_name(object);
    if let Some(name) = name {
        let expand = match p.style.named {
            NamedObjects::Always => true,
            NamedObjects::TopLevel => p.stack.is_empty(),
            NamedObjects::Never => false,
        };
        if !expand || p.stack.contains(&ty.addr()) {
            p.out.push(name);
            return;
        }
    } else if p.stack.contains(&ty.addr()) {
        p.out.push("...");
        return;
    }
    let properties = object.properties();
    if properties.is_empty() {
        p.out.push("{}");
        return;
    }
    let inner_indent = indent + 2;
    if p.one_line || fits_on_one_line(ty, p, indent, depth) {
        if !p.out.open("{ ", 2) {
            return;
        }
        p.stack.push(ty.addr());
        for (i, (key, t)) in properties.iter().enumerate() {
            if p.out.full {
                break;
            }
            if i > 0 {
                p.out.push(", ");
            }
            write_property_name(key, &mut p.out);
            p.out.push(": ");
            readable(t, p, inner_indent, depth + 1, false);
        }
        p.stack.pop();
        p.out.close(" }");
        return;
    }
    // One property a line, each ending with a comma; the closing `}` on a line of its own
    // (after a line break first if the last line was cut short).
    let closing = 1 + indent + 1;
    if !p.out.open("{\n", closing) {
        return;
    }
    p.stack.push(ty.addr());
    let pad = " ".repeat(inner_indent);
    for (key, t) in properties.iter() {
        if p.out.full {
            break;
        }
        p.out.push(&pad);
        write_property_name(key, &mut p.out);
        p.out.push(": ");
        readable(t, p, inner_indent, depth + 1, false);
        p.out.push(",\n");
    }
    p.stack.pop();
    let mut end = String::with_capacity(closing);
    if !p.out.text.ends_with('\n') {
        end.push('\n');
    }
    end.push_str(&" ".repeat(indent));
    end.push('}');
    p.out.reserved = p.out.reserved.saturating_sub(closing - end.len());
    p.out.close(&end);
}

/// Whether the object `ty` printed on one line fits in the line from `indent` on: a print
/// of at most that many bytes, so the cost is bounded by the line's length.
fn fits_on_one_line(ty: &Type, p: &Readable, indent: usize, depth: usize) -> bool {
    let Some(width) = MAX_LINE.checked_sub(indent) else {
        return false;
    };
    let mut measure = Readable {
        stack: p.stack.clone(),
        style: p.style,
        out: Out::new(width, false),
        one_line: true,
    };
    readable(ty, &mut measure, indent, depth, false);
    !measure.out.full && !measure.out.text.contains('\n')
}

/// A total order on types that looks at each pair of parts once (`memo`, by the addresses of
/// parts of `a` and `b`, alive while they are) and never inside a deferred object (ordered by
/// its key). Unions use it for elements whose sort keys are cut short and agree.
pub(crate) fn structural_order(
    a: &Type,
    b: &Type,
    memo: &mut FxHashMap<(usize, usize), Ordering>,
) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let by_rank = rank(a.kind()).cmp(&rank(b.kind()));
    if by_rank != Ordering::Equal {
        return by_rank;
    }
    if let Some(known) = memo.get(&(a.addr(), b.addr())) {
        return *known;
    }
    fn sequence(
        xs: &[Type],
        ys: &[Type],
        memo: &mut FxHashMap<(usize, usize), Ordering>,
    ) -> Ordering {
        for (x, y) in xs.iter().zip(ys) {
            let order = structural_order(x, y, memo);
            if order != Ordering::Equal {
                return order;
            }
        }
        xs.len().cmp(&ys.len())
    }
    let order = crate::on_enough_stack(|| match (a.kind(), b.kind()) {
        (TypeKind::Opaque(x), TypeKind::Opaque(y)) => x.cmp(y),
        (TypeKind::List(x), TypeKind::List(y))
        | (TypeKind::Map(x), TypeKind::Map(y))
        | (TypeKind::Set(x), TypeKind::Set(y))
        | (TypeKind::Output(x), TypeKind::Output(y))
        | (TypeKind::Promise(x), TypeKind::Promise(y)) => {
            sequence(std::slice::from_ref(x), std::slice::from_ref(y), memo)
        }
        (TypeKind::Tuple(xs), TypeKind::Tuple(ys)) | (TypeKind::Union(xs), TypeKind::Union(ys)) => {
            sequence(xs, ys, memo)
        }
        (TypeKind::Object(x), TypeKind::Object(y)) => match (x.deferred_key(), y.deferred_key()) {
            (Some(kx), Some(ky)) => kx.cmp(ky),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => {
                let (xp, yp) = (x.properties(), y.properties());
                let mut order = Ordering::Equal;
                for ((kx, tx), (ky, ty)) in xp.iter().zip(yp.iter()) {
                    order = kx.cmp(ky).then_with(|| structural_order(tx, ty, memo));
                    if order != Ordering::Equal {
                        break;
                    }
                }
                order
                    .then_with(|| xp.len().cmp(&yp.len()))
                    .then_with(|| x.strict().cmp(&y.strict()))
                    .then_with(|| x.annotations().cmp(y.annotations()))
            }
        },
        (TypeKind::Const(x), TypeKind::Const(y)) => structural_order(&x.ty, &y.ty, memo)
            .then_with(|| x.value.to_string().cmp(&y.value.to_string())),
        (TypeKind::Enum(x), TypeKind::Enum(y)) => x
            .token
            .cmp(&y.token)
            .then_with(|| structural_order(&x.element, &y.element, memo))
            .then_with(|| {
                let text = |values: &[crate::ConstValue]| {
                    values.iter().map(|v| v.to_string()).collect::<Vec<_>>()
                };
                text(&x.values).cmp(&text(&y.values))
            }),
        _ => Ordering::Equal,
    });
    memo.insert((a.addr(), b.addr()), order);
    order
}

/// The order of kinds in [`structural_order`].
fn rank(kind: &TypeKind) -> u8 {
    match kind {
        TypeKind::Dynamic => 0,
        TypeKind::None => 1,
        TypeKind::Bool => 2,
        TypeKind::Int => 3,
        TypeKind::Number => 4,
        TypeKind::String => 5,
        TypeKind::Opaque(_) => 6,
        TypeKind::List(_) => 7,
        TypeKind::Map(_) => 8,
        TypeKind::Set(_) => 9,
        TypeKind::Tuple(_) => 10,
        TypeKind::Object(_) => 11,
        TypeKind::Union(_) => 12,
        TypeKind::Output(_) => 13,
        TypeKind::Promise(_) => 14,
        TypeKind::Const(_) => 15,
        TypeKind::Enum(_) => 16,
    }
}
