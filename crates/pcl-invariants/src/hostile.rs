//! Generators of hostile inputs (`docs/reliability.md`): deep nesting, huge lines, numbers and
//! blocks, long reference chains, cycles and fan-ins, and the schema and directory shapes that
//! break naive tools. Shared by the tests (`tests/hostile.rs`, `pcl-cli`'s `tests/hostile_cli.rs`)
//! and the benchmark (`examples/hostile.rs`), so that what is measured is what is tested.

use std::fmt::Write;
use std::path::Path;

/// What is nested in [`nested`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nesting {
    Parens,
    Brackets,
    Objects,
    Interpolations,
    ForExpressions,
    Blocks,
}

impl Nesting {
    pub const ALL: [Nesting; 6] = [
        Nesting::Parens,
        Nesting::Brackets,
        Nesting::Objects,
        Nesting::Interpolations,
        Nesting::ForExpressions,
        Nesting::Blocks,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Nesting::Parens => "parentheses",
            Nesting::Brackets => "brackets",
            Nesting::Objects => "objects",
            Nesting::Interpolations => "interpolations",
            Nesting::ForExpressions => "for-expressions",
            Nesting::Blocks => "blocks",
        }
    }
}

/// `depth` levels of one construct, closed properly, in a program that is otherwise valid.
pub fn nested(kind: Nesting, depth: usize) -> String {
    let (open, middle, close) = match kind {
        Nesting::Parens => ("(", "1", ")"),
        Nesting::Brackets => ("[", "1", "]"),
        Nesting::Objects => ("{a = ", "1", "}"),
        Nesting::Interpolations => ("\"${", "1", "}\""),
        Nesting::ForExpressions => ("[for x in ", "[1]", " : x]"),
        Nesting::Blocks => ("b {\n", "", "}\n"),
    };
    let mut text = String::with_capacity(depth * (open.len() + close.len()) + 64);
    if kind == Nesting::Blocks {
        text.push_str("resource r \"demo:storage/bucket:Bucket\" {\n");
    } else {
        text.push_str("value = ");
    }
    for _ in 0..depth {
        text.push_str(open);
    }
    text.push_str(middle);
    for _ in 0..depth {
        text.push_str(close);
    }
    if kind == Nesting::Blocks {
        text.push_str("}\n");
    }
    text.push('\n');
    text
}

/// One line of about `bytes` bytes: a list of numbers.
pub fn long_line(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 16);
    text.push_str("values = [");
    let mut i = 0u64;
    while text.len() < bytes {
        let _ = write!(text, "{i}, ");
        i += 1;
    }
    text.push_str("0]\n");
    text
}

/// An integer literal of `digits` digits.
pub fn huge_integer(digits: usize) -> String {
    let mut text = String::with_capacity(digits + 16);
    text.push_str("big = 9");
    text.extend(std::iter::repeat_n('7', digits.saturating_sub(1)));
    text.push('\n');
    text
}

/// A resource with `count` attributes (of which only the first few are schema properties).
pub fn many_attributes(count: usize) -> String {
    let mut text = String::from("resource r \"demo:storage/bucket:Bucket\" {\n  name = \"n\"\n");
    for i in 0..count {
        let _ = writeln!(text, "  attr{i} = {i}");
    }
    text.push_str("}\n");
    text
}

/// A resource whose map property is given an object literal of `count` keys (checked part by
/// part: its keys are compared once each, not with each other).
pub fn many_object_keys(count: usize) -> String {
    let mut text =
        String::from("resource r \"demo:storage/bucket:Bucket\" {\n  name = \"n\"\n  tags = {\n");
    for i in 0..count {
        let _ = writeln!(text, "    k{i} = \"v\"");
    }
    text.push_str("  }\n}\n");
    text
}

/// A resource that sets the same map property `count` times, each to a literal that fits.
pub fn many_settled_attributes(count: usize) -> String {
    let mut text = String::from("resource r \"demo:storage/bucket:Bucket\" {\n  name = \"n\"\n");
    for _ in 0..count {
        text.push_str("  tags = { a = \"b\" }\n");
    }
    text.push_str("}\n");
    text
}

/// `length` locals, each using the previous one.
pub fn local_chain(length: usize) -> String {
    let mut text = String::from("a0 = 1\n");
    for i in 1..length {
        let _ = writeln!(text, "a{i} = a{} + 1", i - 1);
    }
    text
}

/// `length` locals in one cycle.
pub fn local_cycle(length: usize) -> String {
    let mut text = String::new();
    for i in 0..length {
        let _ = writeln!(text, "c{i} = c{}", (i + 1) % length);
    }
    text
}

/// `count` resources that all use one.
pub fn fan_in(count: usize) -> String {
    let mut text =
        String::from("resource base \"demo:storage/bucket:Bucket\" {\n  name = \"base\"\n}\n");
    for i in 0..count {
        let _ = writeln!(
            text,
            "resource r{i} \"demo:storage/bucket:Bucket\" {{\n  name = base.name\n}}"
        );
    }
    text
}

/// Ranges over huge counts: a resource ranged over 10^12 and a `for` over `range(1e12)`.
pub fn huge_ranges() -> String {
    "resource many \"demo:storage/bucket:Bucket\" {\n  options {\n    range = 1000000000000\n  }\n  name = \"b${range.value}\"\n}\n\
     huge = [for i in range(1e12) : i * 2]\n\
     count = length(range(1000000000000))\n\
     first = many[0].name\n"
        .to_string()
}

/// Values whose types share their parts, `levels` deep: `x0 = { a = 1 }`, then
/// `x1 = { l = x0, r = x0 }` and so on, so the type of the last one has `levels` parts but a
/// tree of 2^`levels` leaves. The same over tuples, outputs (a secret config) and promises (an
/// invoke of the demo schema); two of them unified, one converted to the demo schema's types,
/// a type declared as deep as the values, and errors about the deepest ones.
pub fn shared_types(levels: usize) -> String {
    let mut text =
        String::from("config c \"bool\" {\n}\nconfig s \"string\" {\n  secret = true\n}\n");
    let chains = [
        ("x", "{ a = 1 }", "{ l = _, r = _ }"),
        ("y", "{ a = \"s\" }", "{ l = _, r = _ }"),
        ("t", "[1, \"a\"]", "[_, _]"),
        ("o", "{ a = s }", "{ l = _, r = _ }"),
        (
            "p",
            "{ a = invoke(\"demo:network/getZone:getZone\", { name = \"z\" }) }",
            "{ l = _, r = _ }",
        ),
    ];
    for (name, first, wrap) in chains {
        let _ = writeln!(text, "{name}0 = {first}");
        for i in 1..levels {
            let previous = format!("{name}{}", i - 1);
            let _ = writeln!(text, "{name}{i} = {}", wrap.replace('_', &previous));
        }
    }
    let last = levels.saturating_sub(1);
    let _ = writeln!(text, "joined = c ? x{last} : y{last}");
    let _ = writeln!(text, "either = c ? x{last} : [1]");
    let _ = writeln!(text, "all = [x{last}, y{last}, t{last}, o{last}, p{last}]");
    for name in ["x", "t", "o", "p"] {
        let _ = writeln!(text, "bad{name} = {name}{last} + 1");
    }
    let deep = format!("{}list(int){}", "map(".repeat(levels), ")".repeat(levels));
    let _ = writeln!(text, "output typed \"{deep}\" {{\n  value = x{last}\n}}");
    let _ = writeln!(
        text,
        "resource bucket \"demo:storage/bucket:Bucket\" {{\n  name = \"b\"\n  tags = y{last}\n  \
         website = {{\n    indexDocument = \"i\"\n    errorDocument = x{last}\n  }}\n}}"
    );
    text
}

/// A program for [`cyclic_schema`]`(1)`: a chain of `length` locals, each an object whose
/// `next` is the previous one, with a wrong value at the end, given to the resource: a
/// conversion `length` levels deep into a recursive schema type, whose reason has a path of
/// `length` steps.
pub fn deep_value_for_cyclic_schema(length: usize) -> String {
    let mut text = String::from("a0 = { me = \"x\" }\n");
    for i in 1..length {
        let _ = writeln!(text, "a{i} = {{ next = a{} }}", i - 1);
    }
    let _ = writeln!(
        text,
        "resource node \"cyc:index:Node\" {{\n  head = a{}\n}}",
        length.saturating_sub(1)
    );
    text
}

/// A schema whose object types refer to each other in a cycle of `length` (and each to
/// itself), with a resource whose input and output use the cycle.
pub fn cyclic_schema(length: usize) -> String {
    let mut types = serde_json::Map::new();
    for i in 0..length {
        types.insert(
            format!("cyc:index:T{i}"),
            serde_json::json!({
                "type": "object",
                "properties": {
                    "next": { "$ref": format!("#/types/cyc:index:T{}", (i + 1) % length) },
                    "me": { "$ref": format!("#/types/cyc:index:T{i}") },
                    "list": { "type": "array", "items": { "$ref": format!("#/types/cyc:index:T{i}") } }
                }
            }),
        );
    }
    serde_json::json!({
        "name": "cyc",
        "version": "1.0.0",
        "types": types,
        "resources": {
            "cyc:index:Node": {
                "inputProperties": { "head": { "$ref": "#/types/cyc:index:T0" } },
                "properties": { "head": { "$ref": "#/types/cyc:index:T0" } }
            }
        }
    })
    .to_string()
}

/// A schema whose resource has two properties, each `oneOf` `count` object types: `flat`,
/// types of one property each (`F{i}` is `{f{i}: string}`), and `chain`, types that differ
/// only far down (`C0` is `{end: string}`, `C{i}` is `{next: C{i-1}}`, so `C{i}` and `C{j}`
/// agree for `min(i, j)` levels). Each union is `count` members that no two are equal.
pub fn one_of_schema(count: usize) -> String {
    let mut types = serde_json::Map::new();
    let mut flat = Vec::with_capacity(count);
    let mut chain = Vec::with_capacity(count);
    for i in 0..count {
        types.insert(
            format!("wide:index:F{i}"),
            serde_json::json!({
                "type": "object",
                "properties": { format!("f{i}"): { "type": "string" } }
            }),
        );
        let next = if i == 0 {
            serde_json::json!({ "end": { "type": "string" } })
        } else {
            serde_json::json!({ "next": { "$ref": format!("#/types/wide:index:C{}", i - 1) } })
        };
        types.insert(
            format!("wide:index:C{i}"),
            serde_json::json!({ "type": "object", "properties": next }),
        );
        flat.push(serde_json::json!({ "$ref": format!("#/types/wide:index:F{i}") }));
        chain.push(serde_json::json!({ "$ref": format!("#/types/wide:index:C{i}") }));
    }
    let properties = serde_json::json!({
        "flat": { "oneOf": flat },
        "chain": { "oneOf": chain }
    });
    serde_json::json!({
        "name": "wide",
        "version": "1.0.0",
        "types": types,
        "resources": {
            "wide:index:Res": {
                "inputProperties": properties.clone(),
                "properties": properties
            }
        }
    })
    .to_string()
}

/// A program that uses the resource of [`one_of_schema`]: sets one property and reads both.
pub const ONE_OF_SCHEMA_USER: &str =
    "resource r \"wide:index:Res\" {\n  flat = { f0 = \"x\" }\n}\n\
flat = r.flat\n\
chain = r.chain\n";

/// Conditional unions of nested lists, `depth` of each: `l1 = [for x in [1] : x]`, `u1 = l1`,
/// then `l{j} = [for x in [1] : l{j-1}]` (a list nested `j` deep) and `u{j} = c ? l{j} : u{j-1}`
/// (the union of the lists nested 1 to `j` deep: `j` members, each but the shallowest
/// agreeing with the others for as many levels as the shallower is deep).
pub fn nested_list_unions(depth: usize) -> String {
    let mut text = String::from("config c \"bool\" {\n}\nl1 = [for x in [1] : x]\nu1 = l1\n");
    for j in 2..=depth {
        let _ = writeln!(text, "l{j} = [for x in [1] : l{}]", j - 1);
        let _ = writeln!(text, "u{j} = c ? l{j} : u{}", j - 1);
    }
    text
}

/// A schema document with a value nested `depth` arrays deep inside a resource.
pub fn deep_schema(depth: usize) -> String {
    let mut text = String::from(
        r#"{"name": "deep", "version": "1.0.0", "resources": {"deep:index:R": {"inputProperties": {"p": {"type": "string", "x": "#,
    );
    text.extend(std::iter::repeat_n('[', depth));
    text.extend(std::iter::repeat_n(']', depth));
    text.push_str("}}}}}\n");
    text
}

/// A valid schema of about `bytes` bytes: many resources with a few properties each, all
/// with descriptions (as real provider schemas are mostly prose).
pub fn big_schema(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 1024);
    text.push_str(r#"{"name": "big", "version": "1.0.0", "resources": {"#);
    let description = "A long description of this property, as provider schemas have. ".repeat(8);
    let mut i = 0;
    while text.len() < bytes {
        if i > 0 {
            text.push(',');
        }
        let _ = write!(
            text,
            r#""big:index:R{i}": {{"description": "{description}", "inputProperties": {{"name": {{"type": "string", "description": "{description}"}}, "size": {{"type": "integer"}}}}, "properties": {{"id2": {{"type": "string"}}}}}}"#
        );
        i += 1;
    }
    text.push_str("}}\n");
    text
}

/// A program that uses a resource of [`big_schema`].
pub const BIG_SCHEMA_USER: &str =
    "resource small \"big:index:R7\" {\n  name = \"n\"\n  size = 3\n}\n";

/// A program that uses the resource of [`cyclic_schema`] and walks the cycle.
pub const CYCLIC_SCHEMA_USER: &str =
    "resource node \"cyc:index:Node\" {\n  head = { next = { me = { list = [] } } }\n}\n\
value = node.head.next.next.me.list\n";

/// Writes a program directory of `count` files, each with a few nodes that use nodes of the
/// previous file.
pub fn write_many_files(dir: &Path, count: usize) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for i in 0..count {
        let mut text = format!("v{i} = {i}\n");
        if i > 0 {
            let _ = writeln!(text, "w{i} = v{} + w{}", i - 1, i - 1);
        } else {
            text.push_str("w0 = 0\n");
        }
        let _ = writeln!(text, "output o{i} {{\n  value = w{i}\n}}");
        std::fs::write(dir.join(format!("f{i:05}.pp")), text)?;
    }
    Ok(())
}
