import FoundationEssentials
import Glibc
@testable import ImageFetchKit

extension FuzzTarget {
    /// The entry stamp a cache hit trusts (`user.imgfetch`): anyone who can write the file can
    /// write it.
    static let entryStamp = FuzzTarget(name: "stamp", summary: "entry-stamp decoding", seedSuffixes: []) { data in
        data.withUnsafeBytes { bytes in
            if let stamp = EntryStamp(decoding: bytes) {
                // What decodes must encode to the same bytes: the layout has one spelling.
                precondition(stamp.encoded == Array(bytes), "a stamp decoded from bytes it does not encode back to")
            }
        }
    }

    /// Cache keys from URL text as a list or the command line gives it: URL parsing, the key
    /// filters and the key's hash and file name.
    static let cacheKey = FuzzTarget(name: "cachekey", summary: "URL parsing and cache keys with each filter", seedSuffixes: []) { data in
        guard let text = String(validating: data, as: UTF8.self), let url = URL(string: text) else { return }
        for filter in [CacheKeyFilter.none, .ignoringQuery, .ignoringQueryParameters(["sig", "X-Amz-Signature"])] {
            let key = CacheKey(url: url, filter: filter)
            precondition(key.hash.count == 64, "a key hash that is not 64 hex digits")
            _ = key.relativePath(fileExtension: "jpg")
        }
    }

    /// Sizes and durations as flags take them (`--max-size 500M`, `--older-than 30d`).
    static let quantity = FuzzTarget(name: "quantity", summary: "size and duration text", seedSuffixes: []) { data in
        let text = String(decoding: data, as: UTF8.self)
        if let bytes = QuantityText.bytes(text) { precondition(bytes >= 0, "a negative size from \(text)") }
        if let seconds = QuantityText.seconds(text) { precondition(seconds >= 0, "a negative duration from \(text)") }
    }

    /// A URL list, streamed from a file as `prefetch` reads it.
    static let urlList = FuzzTarget(name: "urllist", summary: "URL list reading", seedSuffixes: []) { data in
        withScratchFile(containing: data) { path in
            guard let reader = try? URLListReader(path: path) else { return }
            for line in reader { _ = line }
        }
    }

    /// A cache directory whose index file is the input: opening it, a lookup, the listing and the
    /// statistics, as any command on a damaged cache would.
    static let index = FuzzTarget(name: "index", summary: "the cache index file (opening, lookups, listing)", seedSuffixes: []) { data in
        withScratchDirectory { directory in
            guard FileManager.default.createFile(atPath: directory + "/index.sqlite", contents: data) else { return }
            guard let cache = try? DiskCache(directory: directory) else { return }
            _ = try? cache.entry(for: CacheKey("https://example.test/a.jpg"))
            _ = try? cache.entries()
            _ = try? cache.statistics()
        }
    }
}

/// A new file holding `data` for the duration of `body`.
func withScratchFile(containing data: Data, _ body: (String) -> Void) {
    withScratchDirectory { directory in
        let path = directory + "/input"
        guard FileManager.default.createFile(atPath: path, contents: data) else { return }
        body(path)
    }
}

/// A new empty directory for the duration of `body`, in memory (/dev/shm) where there is one:
/// creating a file under /tmp costs about a millisecond on this machine.
func withScratchDirectory(_ body: (String) -> Void) {
    let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    var template = Array("\(base)/imgfetch-fuzz-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { return }
    let directory = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    body(directory)
}
