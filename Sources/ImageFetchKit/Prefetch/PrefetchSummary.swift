/// What a prefetch run did, counted separately so a script can tell new work from cache hits.
public struct PrefetchSummary: Sendable, Equatable {
    /// Loaded from the origin now.
    public var fetched = 0
    /// Loaded from the remote cache tier now.
    public var fromRemote = 0
    /// Already in the memory or disk cache.
    public var alreadyCached = 0
    /// Of `alreadyCached`, those the disk cache answered.
    public var fromDisk = 0
    /// Not loaded: each one was reported with its error.
    public var failed = 0
    /// Bytes received from the network: for a variant made from an original fetched now, the
    /// original's.
    public var fetchedBytes: Int64 = 0
    /// Variants made now, and their bytes (written to the cache, not fetched).
    public var variantsMade = 0
    public var variantBytes: Int64 = 0
    /// Bytes of the images found in the caches (the remote tier's included).
    public var cachedBytes: Int64 = 0
    /// Wall time of the run, in seconds.
    public var elapsed: Double = 0

    public init() {}

    public var total: Int { fetched + fromRemote + alreadyCached + failed }

    mutating func count(_ result: LoadResult) {
        guard let image = result.image else {
            failed += 1
            return
        }
        if image.transformed {
            variantsMade += 1
            variantBytes += Int64(image.byteCount)
        }
        switch image.cacheType {
        case .network:
            fetched += 1
            fetchedBytes += Int64(image.originalByteCount ?? image.byteCount)
        case .remote:
            fromRemote += 1
            cachedBytes += Int64(image.byteCount)
        case .memory, .disk:
            alreadyCached += 1
            if image.cacheType == .disk { fromDisk += 1 }
            cachedBytes += Int64(image.byteCount)
        }
    }
}
