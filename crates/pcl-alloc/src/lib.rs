//! The allocator of the pcl binaries (`pcl`, and the examples that time what `pcl lsp` does):
//! mimalloc, and how it treats memory. Measured in `docs/benchmarks.md`.
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

/// mimalloc through its plain entry points. The `mimalloc` crate's allocator passes every
/// request to `mi_malloc_aligned`, whose checks of the alignment cost about twice the
/// allocation itself (2.2 million allocations in a check of 10k resources); for an alignment
/// of at most 16 bytes and no larger than the size, `mi_malloc` already returns a block so
/// aligned (the guarantee of C's `malloc`, which mimalloc also replaces), as Rust's own
/// allocator over `malloc` assumes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mimalloc;

/// The alignment `mi_malloc` guarantees (`MI_MAX_ALIGN_SIZE`, `max_align_t`).
const PLAIN_ALIGN: usize = 16;

fn plain(layout: std::alloc::Layout) -> bool {
    layout.align() <= PLAIN_ALIGN && layout.align() <= layout.size()
}

// SAFETY: every block comes from mimalloc and goes back to it (`mi_free` takes blocks of
// either entry point); aligned requests that `plain` does not cover take the aligned ones.
unsafe impl std::alloc::GlobalAlloc for Mimalloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        use libmimalloc_sys as mi;
        // SAFETY: plain C calls with a size (and an alignment that is a power of two).
        unsafe {
            if plain(layout) {
                mi::mi_malloc(layout.size()).cast()
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        use libmimalloc_sys as mi;
        // SAFETY: as `alloc`.
        unsafe {
            if plain(layout) {
                mi::mi_zalloc(layout.size()).cast()
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: std::alloc::Layout) {
        // SAFETY: `ptr` came from this allocator.
        unsafe { libmimalloc_sys::mi_free(ptr.cast()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        use libmimalloc_sys as mi;
        // SAFETY: `ptr` came from this allocator with `layout`; the new block keeps its
        // alignment, which `plain` checks against the new size.
        unsafe {
            let new = std::alloc::Layout::from_size_align_unchecked(new_size, layout.align());
            if plain(new) {
                mi::mi_realloc(ptr.cast(), new_size).cast()
            } else {
                mi::mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::alloc::{GlobalAlloc, Layout};

    use super::Mimalloc;

    /// Every block is aligned as asked, zeroed when asked, and keeps its bytes through
    /// `realloc` up and down, on both sides of the plain/aligned boundary.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes() {
        let sizes = [
            1,
            2,
            3,
            7,
            8,
            12,
            16,
            24,
            40,
            48,
            100,
            144,
            4096,
            70_000,
            3 << 20,
        ];
        let aligns = [1, 2, 4, 8, 16, 32, 64, 4096];
        for &size in &sizes {
            for &align in &aligns {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: non-zero sizes; each block is used within its size and freed once,
                // with the layout it has then.
                unsafe {
                    let zeroed = Mimalloc.alloc_zeroed(layout);
                    assert_eq!(zeroed as usize % align, 0, "{size} bytes at {align}");
                    assert!(std::slice::from_raw_parts(zeroed, size)
                        .iter()
                        .all(|&b| b == 0));
                    Mimalloc.dealloc(zeroed, layout);

                    let mut p = Mimalloc.alloc(layout);
                    let mut current = layout;
                    assert_eq!(p as usize % align, 0, "{size} bytes at {align}");
                    for i in 0..size {
                        *p.add(i) = i as u8;
                    }
                    for new_size in [size * 3, size / 2 + 1] {
                        p = Mimalloc.realloc(p, current, new_size);
                        current = Layout::from_size_align(new_size, align).unwrap();
                        assert_eq!(p as usize % align, 0, "{size} to {new_size} at {align}");
                        let kept = size.min(new_size);
                        assert!(
                            (0..kept).all(|i| *p.add(i) == i as u8),
                            "{size} to {new_size}"
                        );
                    }
                    Mimalloc.dealloc(p, current);
                }
            }
        }
    }
}
