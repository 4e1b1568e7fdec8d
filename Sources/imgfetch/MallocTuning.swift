import CGlibcExtras

/// glibc malloc settings for a process that fetches images.
enum MallocTuning {
    /// Lets one image body reuse the memory of the last instead of faulting in fresh pages.
    ///
    /// By default glibc serves a block over 128 KiB (a threshold it raises only after such blocks
    /// are freed) from a new mmap, and hands a freed heap top over 128 KiB back to the kernel. A
    /// body of a few hundred KiB then costs the kernel a page fault and a zeroed page per 4 KiB
    /// each time: about a tenth of a cold prefetch's CPU in `perf record`. Bodies up to 32 MiB now
    /// come from the heap, and up to 64 MiB of freed heap is kept for the next ones. Peak memory is
    /// unchanged: what is kept was in use a moment before.
    static func keepImageBuffersForReuse() {
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 64 << 20)
    }
}
