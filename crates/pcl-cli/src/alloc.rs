//! How the allocator (mimalloc) treats memory. Measured in `docs/benchmarks.md` (memory of
//! the commands).
//!
//! Built without transparent huge pages (the `no_thp` feature of `libmimalloc-sys` in
//! Cargo.toml): with them, mimalloc asks the kernel to back its memory in 2 MiB pages, which
//! the kernel zeroes whole on first touch and counts resident, so `pcl parse` over 5,800 files
//! peaked at 49-59 MB instead of 12-16 MB, and zeroing pages was a third of its CPU time.

// The option number of `mi_option_purge_delay` in mimalloc's `mi_option_t` (the same in its
// versions 2 and 3; the version is pinned by Cargo.lock).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// For commands that stream over files (`parse`, `fmt`), whose memory is about one file's
/// per thread at a time: freed pages go back to the system at once rather than after 10 ms,
/// so the peak is that, not the sum of the last few files (over the HCL corpus 12 MB instead
/// of 16; the price is page faults on large files: at 100k resources, 47 MB in 200 files,
/// 0.7 s of CPU instead of 0.45, with 12 MB instead of 35).
pub fn streaming() {
    // SAFETY: `mi_option_set` only writes an option; mimalloc reads it when it purges.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) };
}
