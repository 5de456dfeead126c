//! Heap after many edits that change literal values: a language server's steady state.
//!
//! Builds a program of 200 locals (numbers, strings, objects, lists, templates), checks it,
//! then makes 10,000 edits, each giving one local a literal value never seen before, and
//! re-checks after each. Prints the live heap (a counting allocator), the live types and names after
//! warm-up, 1,000 and 10,000 edits. Run with:
//!
//! ```sh
//! cargo run --release -p pcl-sema --example edit_heap
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write;
use std::path::Path;
use std::sync::atomic::{AtomicIsize, Ordering};

use pcl_db::RootDatabase;

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: forwards to the system allocator and only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const LOCALS: usize = 200;

fn program(values: &[u64]) -> String {
    let mut text = String::new();
    for (i, v) in values.iter().enumerate() {
        let _ = match i % 5 {
            0 => writeln!(text, "n{i} = {v}"),
            1 => writeln!(text, "s{i} = \"value-{v}\""),
            2 => writeln!(text, "o{i} = {{ size = {v}, name = \"n{v}\" }}"),
            3 => writeln!(text, "l{i} = [{v}, {}, \"x{v}\"]", v + 1),
            _ => writeln!(text, "t{i} = \"${{n{}}}-{v}\"", i - 4),
        };
    }
    text
}

fn report(label: &str) {
    let types = pcl_types::interner_stats();
    println!(
        "{label:>22}: live heap {:>9} bytes, live types {}, live names {}",
        LIVE.load(Ordering::Relaxed),
        types.live_types,
        pcl_hir::Name::live_count()
    );
}

fn main() {
    let mut db = RootDatabase::default();
    let mut values: Vec<u64> = (0..LOCALS as u64).collect();
    let path = Path::new("main.pp");
    let file = db.set_file_text(path, program(&values));
    let program_input = db.set_program_files(Path::new("/bench"), vec![file]);
    pcl_sema::check_program(&db, program_input);
    let mut next = 1_000_000u64;
    let mut edit = |db: &mut RootDatabase, count: usize| {
        for _ in 0..count {
            let i = (next as usize * 7) % LOCALS;
            values[i] = next;
            next += 1;
            db.set_file_text(path, program(&values));
            pcl_sema::check_program(db, program_input);
        }
    };
    edit(&mut db, 100);
    report("warm-up (100 edits)");
    edit(&mut db, 900);
    report("1,000 edits");
    edit(&mut db, 9_000);
    report("10,000 edits");
}
