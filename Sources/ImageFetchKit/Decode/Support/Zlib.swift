import CImageCodecs
import FoundationEssentials

/// The one file that calls zlib (through CImageCodecs' zlib.c): inflating small compressed
/// chunks that imgfetch parses itself, such as a PNG's iCCP profile.
enum Zlib {
    /// The inflated bytes of the zlib stream `compressed`, or nil when the stream is damaged, ends
    /// early, would inflate to more than `limit` bytes, or zlib cannot be loaded. Memory stays
    /// within `limit` whatever the input claims.
    static func inflate(_ compressed: Data, limit: Int) -> [UInt8]? {
        guard imgfetch_zlib_load() == nil, limit > 0 else { return nil }
        // Most chunks inflate to a few times their size; a bigger buffer is tried only when one is
        // too small, so a bomb costs at most about twice `limit` of inflating.
        var capacity = min(limit, max(64 << 10, compressed.count * 4))
        while true {
            var written = 0
            let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                written = compressed.withUnsafeBytes { source in
                    imgfetch_zlib_inflate(
                        source.baseAddress?.assumingMemoryBound(to: UInt8.self), source.count, buffer.baseAddress, capacity
                    )
                }
                initialized = max(0, written)
            }
            if written >= 0 { return output }
            guard written == IMGFETCH_INFLATE_TOO_LARGE, capacity < limit else { return nil }
            capacity = min(limit, capacity * 2)
        }
    }
}
