import FoundationEssentials

/// What the disk cache knows about one stored image. A value: it does not change when the cache does.
public struct CacheEntry: Sendable, Hashable {
    /// The key the entry is stored under.
    public var key: CacheKey
    /// The URL the image was fetched from (the full URL, before any key filter).
    public var url: String
    /// The absolute path of the image file, with the format's extension.
    public var path: String
    public var format: ImageFormat
    /// Pixel dimensions as the decoder's header probe reported them.
    public var width: Int
    public var height: Int
    /// The file's size in bytes.
    public var bytes: Int64
    public var validators: CacheValidators
    /// When the bytes were fetched or last revalidated (a 304 renews it).
    public var fetchedAt: Date
    /// When the entry was last served; updated at most once per `lastUsedResolution`.
    public var lastUsedAt: Date
    /// When the entry stops being served (also capped by the cache's current `maxAge`).
    public var expiresAt: Date
}

/// The HTTP validators of a stored response, sent back on `--refresh` so a 304 keeps the file.
public struct CacheValidators: Sendable, Hashable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// What the decoder's probe found in the bytes being stored.
public struct CachedImageInfo: Sendable, Hashable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// A URL on the persistent failed-URL list: not fetched again until the record expires or the
/// user retries it.
public struct FailedURL: Sendable, Hashable {
    public var url: String
    /// The cause, in a sentence fit for the user.
    public var reason: String
    public var failedAt: Date
    public var expiresAt: Date
    /// The HTTP status of the failure, when it was one (404, 410, …); nil for any other cause.
    public var status: Int?
}

extension CacheEntry {
    /// The orders `DiskCache.forEachEntry(sortedBy:_:)` offers (for `cache ls`).
    public enum SortOrder: String, Sendable, CaseIterable {
        /// Most recently used first.
        case lastUsed
        /// Most recently fetched first.
        case fetched
        /// Largest first.
        case size
        /// By URL, A to Z.
        case url
    }
}
