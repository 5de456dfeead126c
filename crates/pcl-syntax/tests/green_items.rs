//! `Parse::green_items` gives the items `tree().body().items()` gives, at the same positions,
//! with the same green nodes: on valid files, on files whose items are damaged, and on texts
//! with no body at all.

use pcl_syntax::ast::AstNode;

fn cursor_items(text: &str) -> Vec<(pcl_syntax::TextRange, usize)> {
    let parse = pcl_syntax::parse(text);
    parse
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
        .collect()
}

fn green_items(text: &str) -> Vec<(pcl_syntax::TextRange, usize)> {
    let parse = pcl_syntax::parse(text);
    let items: Vec<_> = parse
        .green_items()
        .map(|(start, green)| {
            (
                pcl_syntax::TextRange::at(start, green.text_len()),
                std::ptr::from_ref(green) as usize,
            )
        })
        .collect();
    // The addresses are only comparable while the same parse is alive: compare again on it.
    let cursor: Vec<_> = parse
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
    assert_eq!(items, cursor, "{text:?}");
    items
}

#[test]
fn green_items_are_the_body_items() {
    for text in [
        "",
        "# only a comment\n",
        "a = 1\nb = \"x\"\n",
        "  \n\nresource r \"aws:s3:Bucket\" {\n  name = \"n\"\n}\n\noutput o {\n  value = r.id\n}\n",
        "config c \"int\" {\n  default = 1\n",
        "a = \nresource r {\n  x = [1, 2\n}\nb = 2\n",
        "}}} a = 1\n{ = \n",
        "locals {\n  a = 1\n}\n\"str\" = 3\n",
    ] {
        let items = green_items(text);
        assert_eq!(items.len(), cursor_items(text).len(), "{text:?}");
    }
}
