import Foundation
import ImageFetchKit
import TestSupport

/// Throwaway timing drivers for the report (not tests: timings do not belong in unit tests).
enum Bench {
    /// Fills `directory` to `entries` entries of `size` bytes (if it has fewer), then times
    /// `lookups` random disk hits: `entry(for:)` plus reading the whole file. Prints µs per hit.
    static func hits(directory: String, entries: Int, size: Int, lookups: Int, distinct: Int? = nil) throws {
        let cache = try DiskCache(directory: directory, configuration: DiskCacheConfiguration(maxSize: nil))
        let info = CachedImageInfo(format: .jpeg, width: 10, height: 10)
        let payload = Data(Payload.make(seed: 7, size: size))
        let have = try cache.statistics().entries
        for index in have..<max(have, entries) {
            try cache.store(payload, info: info, for: key(index), url: key(index).rawValue)
        }
        var random = SplitMix(seed: 42)
        let spread = UInt64(min(entries, distinct ?? entries))
        let urls = (0..<lookups).map { _ in "https://bench.test/images/\(random.next() % spread).jpg" }
        let hashStart = DispatchTime.now()
        let keys = urls.map { CacheKey($0) }
        let hashNanos = elapsed(since: hashStart)
        var bytes = 0
        for key in keys.prefix(1000) {  // warm the page cache and the statement cache
            bytes += try cache.contents(of: try cache.entry(for: key)!).count
        }
        let lookupStart = DispatchTime.now()
        for key in keys {
            guard try cache.entry(for: key) != nil else { throw CocoaError(.fileNoSuchFile) }
        }
        let lookupNanos = elapsed(since: lookupStart)
        let start = DispatchTime.now()
        for key in keys {
            bytes += try cache.contents(of: try cache.entry(for: key)!).count
        }
        let nanos = elapsed(since: start)
        let perHit = { (nanos: UInt64) in Double(nanos) / Double(lookups) / 1000 }
        say(String(format: "entries %6d, %6lld keys looked up: key hash %.1f µs, entry(for:) %.1f µs, entry(for:) + read %d B %.1f µs per hit",
                   entries, spread, perHit(hashNanos), perHit(lookupNanos), size, perHit(nanos)))
    }

    private static func elapsed(since start: DispatchTime) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
    }

    /// Times storing `count` distinct entries of `size` bytes. Prints ms per store and MB/s.
    static func stores(directory: String, count: Int, size: Int, powerLoss: Bool) throws {
        let configuration = DiskCacheConfiguration(maxSize: nil, durability: powerLoss ? .powerLoss : .processCrash)
        let cache = try DiskCache(directory: directory, configuration: configuration)
        let info = CachedImageInfo(format: .jpeg, width: 10, height: 10)
        let payloads = (0..<8).map { Data(Payload.make(seed: UInt64($0), size: size)) }
        let start = DispatchTime.now()
        for index in 0..<count {
            try cache.store(payloads[index % payloads.count], info: info, for: key(index), url: key(index).rawValue)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        say(String(format: "%d stores of %d B (%@): %.3f s, %.2f ms per store, %.0f MB/s", count, size,
                   powerLoss ? "fsync" : "no fsync", seconds, seconds * 1000 / Double(count),
                   Double(count * size) / seconds / 1e6))
    }

    private static func key(_ index: Int) -> CacheKey { CacheKey("https://bench.test/images/\(index).jpg") }
}
