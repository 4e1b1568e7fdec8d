import FoundationEssentials

/// What identifies one cached image: by default the absolute URL, or the URL with query parameters
/// removed by a `CacheKeyFilter` (signed URLs carry a fresh signature on every request).
///
/// The key's `hash` names the entry's file and its lock, so it is computed once, here.
public struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The string the key stands for (the URL after the filter ran).
    public let rawValue: String
    /// SHA-256 of `rawValue` as 64 lowercase hex characters.
    public let hash: String

    /// A key for exactly this string.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
        self.hash = SHA256.hexDigest(rawValue.utf8)
    }

    /// The key for `url` after `filter` removed what does not identify the image.
    public init(url: URL, filter: CacheKeyFilter = .none) {
        self.init(filter.apply(to: url))
    }

    /// The file name of this key's entry in a format with extension `fileExtension`, inside its
    /// shard folder.
    public func relativePath(fileExtension: String) -> String {
        "\(shard)/\(hash).\(fileExtension)"
    }

    /// The shard folder of this key's entry: the hash's first character, so 16 folders.
    ///
    /// Why 16 and not 256: ext4 places every new directory in a different block group, so the
    /// files of a fresh cache spread over 256 groups' inode bitmaps and tables. Prefetching 1000
    /// images into a new cache took 0.88 s of CPU with 256 folders and 0.62 s with 16 (median of
    /// 16 alternating runs). 16 folders still keep a folder of a 100k-entry cache near 6k files,
    /// which ext4's hashed directories look up as fast as a small one.
    public var shard: String { String(hash.prefix(1)) }

    public var description: String { rawValue }

    public static func == (lhs: CacheKey, rhs: CacheKey) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

/// Which parts of a URL do not identify the image and are left out of its cache key.
public enum CacheKeyFilter: Sendable, Hashable {
    /// The key is the whole absolute URL.
    case none
    /// The query (and fragment) are ignored: `a.jpg?sig=1` and `a.jpg?sig=2` are one entry.
    case ignoringQuery
    /// The named query parameters are ignored (matched case-sensitively); the others stay, in order.
    case ignoringQueryParameters(Set<String>)

    /// The key string for `url`.
    public func apply(to url: URL) -> String {
        // Never a password in a key: keys are stored, listed and printed.
        let absolute = URL.redacting(url.absoluteString)
        switch self {
        case .none:
            return absolute
        case .ignoringQuery:
            guard var components = URLComponents(string: absolute) else { return absolute }
            components.query = nil
            components.fragment = nil
            return components.string ?? absolute
        case .ignoringQueryParameters(let names):
            guard var components = URLComponents(string: absolute), let items = components.queryItems else { return absolute }
            let kept = items.filter { !names.contains($0.name) }
            components.queryItems = kept.isEmpty ? nil : kept
            return components.string ?? absolute
        }
    }
}
