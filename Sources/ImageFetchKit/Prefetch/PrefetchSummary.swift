/// What a prefetch run did, counted separately so a script can tell new work from cache hits.
public struct PrefetchSummary: Sendable, Equatable {
    /// Loaded from the network now.
    public var fetched = 0
    /// Already in the memory or disk cache.
    public var alreadyCached = 0
    /// Not loaded: each one was reported with its error.
    public var failed = 0
    /// Bytes fetched from the network.
    public var fetchedBytes: Int64 = 0
    /// Bytes of the images found in the cache.
    public var cachedBytes: Int64 = 0
    /// Wall time of the run, in seconds.
    public var elapsed: Double = 0

    public init() {}

    public var total: Int { fetched + alreadyCached + failed }

    mutating func count(_ result: LoadResult) {
        guard let image = result.image else {
            failed += 1
            return
        }
        if image.cacheType == .network {
            fetched += 1
            fetchedBytes += Int64(image.byteCount)
        } else {
            alreadyCached += 1
            cachedBytes += Int64(image.byteCount)
        }
    }
}
