//! Measures lazy resolution: the time and memory to resolve a few tokens of a large schema versus
//! all of them. Run (once per mode, so each measurement has a fresh process):
//!
//! ```text
//! cargo run --release -p pcl-schema --example schema_bench -- SCHEMA.json few [TOKEN...]
//! cargo run --release -p pcl-schema --example schema_bench -- SCHEMA.json all
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use pcl_schema::{load_schema_file, SchemaRegistry, Shape, TypeMapper};

/// Counts live and peak heap bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(mode)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: schema_bench SCHEMA.json few|all");
        std::process::exit(2);
    };
    let registry = SchemaRegistry::new();
    let start = Instant::now();
    let package = load_schema_file(path.as_ref()).expect("schema loads");
    let load_time = start.elapsed();
    let after_load = LIVE.load(Ordering::Relaxed);

    let mapper = TypeMapper::new(&registry);
    let start = Instant::now();
    let mut resolved = 0;
    let resources: Vec<String> = match mode.as_str() {
        "few" if args.len() > 3 => args[3..].to_vec(),
        "few" => package.resource_tokens().iter().take(3).cloned().collect(),
        _ => package.resource_tokens().to_vec(),
    };
    for token in &resources {
        let found = package.lookup_resource(token).expect("token resolves");
        mapper.resource_input_type(&package, &found);
        mapper.resource_output_type(&package, &found);
        resolved += 1;
    }
    if mode == "all" {
        for token in package.function_tokens() {
            let found = package.lookup_function(token).expect("token resolves");
            mapper.function_signature(&package, &found);
            resolved += 1;
        }
        for token in package.type_tokens() {
            let found = package.lookup_type(token).expect("token resolves");
            mapper.named_type(&package, &found, Shape::Plain);
            mapper.named_type(&package, &found, Shape::Input);
            resolved += 1;
        }
    }
    let resolve_time = start.elapsed();
    let (r, f, t) = package.decoded_counts();
    println!(
        "{mode}: load+index {:.1} ms ({} live after load); resolved {resolved} tokens in {:.1} ms; decoded {r} resources, {f} functions, {t} types; live heap {}, peak {}",
        load_time.as_secs_f64() * 1000.0,
        mib(after_load),
        resolve_time.as_secs_f64() * 1000.0,
        mib(LIVE.load(Ordering::Relaxed)),
        mib(PEAK.load(Ordering::Relaxed)),
    );
}
