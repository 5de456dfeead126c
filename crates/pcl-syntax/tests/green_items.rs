//! `Parse::green_items` gives the items `tree().body().items()` gives, at the same positions,
//! with the same green nodes: on valid files, on files whose items are damaged, and on texts
//! with no body at all.

use pcl_syntax::ast::AstNode;
use pcl_syntax::TextRange;

/// Each item's range and its green node's address.
type Items = Vec<(TextRange, usize)>;

/// The items both ways, from one parse (addresses are only comparable while it is alive).
fn both_ways(text: &str) -> (Items, Items) {
    let parse = pcl_syntax::parse(text);
    let by_green = parse
        .green_items()
        .map(|(start, green)| {
            (
                TextRange::at(start, green.text_len()),
                std::ptr::from_ref(green) as usize,
            )
        })
        .collect();
    let by_cursor = parse
        .tree()
        .body()
        .iter()
        .flat_map(|body| body.items())
        .map(|item| {
            let green = item.syntax().green();
            (
                item.syntax().text_range(),
                std::ptr::from_ref(&*green) as usize,
            )
        })
        .collect();
    (by_green, by_cursor)
}

#[test]
fn green_items_are_the_body_items() {
    for (text, count) in [
        ("", 0),
        ("# only a comment\n", 0),
        ("a = 1\nb = \"x\"\n", 2),
        (
            "  \n\nresource r \"aws:s3:Bucket\" {\n  name = \"n\"\n}\n\noutput o {\n  value = r.id\n}\n",
            2,
        ),
        ("config c \"int\" {\n  default = 1\n", 1),
        ("a = \nresource r {\n  x = [1, 2\n}\nb = 2\n", 3),
        ("}}} a = 1\n{ = \n", 1),
        ("locals {\n  a = 1\n}\n\"str\" = 3\n", 1),
    ] {
        let (by_green, by_cursor) = both_ways(text);
        assert_eq!(by_green, by_cursor, "{text:?}");
        assert_eq!(by_green.len(), count, "{text:?}");
    }
}
