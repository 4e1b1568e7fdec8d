#if canImport(Glibc)
import Glibc
#endif

/// Allocation of decoded-pixel arrays, which are large (48 MB for 12 megapixels) and written once.
enum PixelBuffer {
    /// A new RGBA8 array of `byteCount` bytes that `fill` must initialise completely (it may
    /// throw nothing; report failures through captured state and zero the buffer).
    ///
    /// Pixel memory is fresh from the kernel, so touching it costs a page fault per 4 KB page,
    /// which for a multi-megapixel image costs about as much as a third of the decode. Asking for
    /// transparent huge pages first makes that one fault per 2 MB.
    /// A `capacity` over `byteCount` gives `fill` room past the pixels to work in.
    static func make(byteCount: Int, capacity: Int = 0, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(byteCount, capacity)) { buffer, initialized in
            adviseHugePages(buffer)
            fill(buffer)
            initialized = byteCount
        }
    }

    private static let hugePageThreshold = 4 << 20

    private static func adviseHugePages(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        #if os(Linux)
        guard buffer.count >= hugePageThreshold, let base = buffer.baseAddress else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + pageSize - 1) / pageSize * pageSize
        let end = (Int(bitPattern: base) + buffer.count) / pageSize * pageSize
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        // Advice only: if the kernel has huge pages off, nothing changes and decoding still works.
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
        #endif
    }
}
