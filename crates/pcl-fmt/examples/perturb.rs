//! Writes copies of files with their whitespace scrambled, for comparing formatters on layouts
//! that real files rarely have: each gap between two expression tokens gets 0 to 3 random spaces
//! or tabs (never inside template text, never where a line starts inside a heredoc). Copies that
//! no longer parse cleanly are skipped, so both formatters see only valid input.
//!
//! usage: cargo run --release -p pcl-fmt --example perturb -- SEED OUT_DIR LISTFILE
//! prints the list of written files (relative paths, as listed) on stdout.

use pcl_parser::{Lexed, SyntaxKind};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [seed, out_dir, list] = args.as_slice() else {
        eprintln!("usage: perturb SEED OUT_DIR LISTFILE");
        std::process::exit(2);
    };
    let mut state: u64 = seed.parse().expect("numeric seed");
    let mut next = move || {
        // SplitMix64.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let list = std::fs::read_to_string(list).expect("list");
    for name in list.lines().filter(|l| !l.is_empty()) {
        let Ok(text) = std::fs::read_to_string(name) else {
            continue;
        };
        let lexed = Lexed::new(&text);
        let mut out = String::with_capacity(text.len() * 2);
        let mut prev = SyntaxKind::NEWLINE;
        for i in 0..lexed.len() {
            let kind = lexed.kind(i);
            if kind == SyntaxKind::WHITESPACE {
                continue;
            }
            let open_gap = !matches!(
                prev,
                SyntaxKind::OQUOTE
                    | SyntaxKind::TEMPLATE_LITERAL
                    | SyntaxKind::HEREDOC_START
                    | SyntaxKind::TEMPLATE_SEQ_END
                    | SyntaxKind::COMMENT
            ) && !matches!(
                kind,
                SyntaxKind::CQUOTE
                    | SyntaxKind::TEMPLATE_LITERAL
                    | SyntaxKind::HEREDOC_END
                    | SyntaxKind::TEMPLATE_INTERP
                    | SyntaxKind::TEMPLATE_CONTROL
            );
            if open_gap && i > 0 {
                // A gap stays a gap (tokens must not merge); where there was none, one may appear.
                let had_gap = lexed.kind(i - 1) == SyntaxKind::WHITESPACE;
                let n = next() % 4;
                let n = if had_gap {
                    n.max(1)
                } else if n < 3 {
                    n
                } else {
                    0
                };
                for _ in 0..n {
                    out.push(if next() % 4 == 0 { '\t' } else { ' ' });
                }
            } else if i > 0 && lexed.kind(i - 1) == SyntaxKind::WHITESPACE {
                out.push_str(lexed.text(i - 1));
            }
            out.push_str(lexed.text(i));
            prev = kind;
        }
        if pcl_syntax::parse(&out).has_errors() {
            continue;
        }
        let dst = std::path::Path::new(out_dir).join(name);
        std::fs::create_dir_all(dst.parent().expect("parent")).expect("mkdir");
        std::fs::write(&dst, out).expect("write");
        println!("{name}");
    }
}
