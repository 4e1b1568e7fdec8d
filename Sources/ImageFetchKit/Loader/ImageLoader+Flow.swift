import FoundationEssentials

extension ImageLoader {
    /// Disk cache, then (under the cross-process per-key lock) the network.
    func loadFromDiskOrNetwork(
        _ url: URL, key: CacheKey, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?
    ) async throws(LoaderError) -> LoadedImage {
        if options.noDiskCache {
            // The failed-URL list lives in the disk index, which this mode never touches.
            return try await fetch(url, key: key, stale: nil, options: options, cache: nil, progress: progress)
        }
        let cache = try diskCache(for: url)

        let stored = try lookUp(key, url: url, in: cache)
        if let stored, !options.refresh, isFresh(stored, in: cache, options: options) {
            return LoadedImage(entry: stored, cacheType: .disk)
        }
        if options.cacheOnly { throw .notCached(url) }
        try checkFailedList(url, options: options, cache: cache)

        // Another process may be fetching this key: wait for it, then look again before fetching.
        do {
            return try await cache.withKeyLock(key) { () async throws -> LoadedImage in
                let current = try lookUp(key, url: url, in: cache)
                if let current, !options.refresh, isFresh(current, in: cache, options: options) {
                    return LoadedImage(entry: current, cacheType: .disk)
                }
                return try await fetch(url, key: key, stale: current, options: options, cache: cache, progress: progress)
            }
        } catch let error as LoaderError {
            throw error
        } catch let error as DiskCache.Error {
            throw .cache(url, error)
        } catch {
            throw .cache(url, .cannotLock(path: cache.directory, cause: String(describing: error)))
        }
    }

    private func lookUp(_ key: CacheKey, url: URL, in cache: DiskCache) throws(LoaderError) -> CacheEntry? {
        do { return try cache.entry(for: key, includingExpired: true) } catch { throw .cache(url, error) }
    }

    /// Fresh means within the cache's own expiry and, if given, `options.maxAge`.
    private func isFresh(_ entry: CacheEntry, in cache: DiskCache, options: LoadOptions) -> Bool {
        if cache.isExpired(entry) { return false }
        guard let maxAge = options.maxAge else { return true }
        return cache.configuration.currentDate().timeIntervalSince(entry.fetchedAt) < maxAge
    }

    /// Throws `blocked` when the URL is on the failed-URL list and `retryFailed` is off.
    private func checkFailedList(_ url: URL, options: LoadOptions, cache: DiskCache) throws(LoaderError) {
        guard !options.retryFailed else { return }
        let failure: FailedURL?
        do { failure = try cache.failure(for: url.absoluteString) } catch { throw .cache(url, error) }
        if let failure { throw .blocked(url, reason: failure.reason, failedAt: failure.failedAt) }
    }
}

extension LoadedImage {
    init(entry: CacheEntry, cacheType: CacheType) {
        self.init(
            fileURL: URL(fileURLWithPath: entry.path), data: nil, format: entry.format, width: entry.width,
            height: entry.height, frames: nil, byteCount: Int(entry.bytes), cacheType: cacheType)
    }
}
