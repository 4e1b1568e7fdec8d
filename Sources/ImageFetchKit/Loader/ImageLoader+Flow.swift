import FoundationEssentials

extension ImageLoader {
    /// What the caches say about one load.
    enum CacheAnswer {
        /// The caches answered: a hit, or a failure a fetch would not change.
        case answered(LoadResult.Outcome)
        /// Only the network can answer.
        case needsNetwork(NetworkLoad)
        /// The variant a transform asks for is not cached: it must be made (see `ImageLoader+Variant`).
        case needsVariant(VariantLoad)
    }

    /// A load the caches could not answer: its URL, key and disk cache (nil with `noDiskCache`).
    struct NetworkLoad {
        let url: URL
        let key: CacheKey
        let cache: DiskCache?
    }

    /// Memory cache, then disk cache (a hit is promoted to memory), then the checks that stop a
    /// fetch: `cacheOnly` and the failed-URL list.
    func answerFromCaches(_ text: String, options: LoadOptions) -> CacheAnswer {
        do throws(LoaderError) {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host != nil else {
                throw .invalidURL(text)
            }
            let key = CacheKey(url: url, filter: options.keyFilter)
            if let spec = options.transform {
                return try answerVariantFromCaches(url: url, original: key, spec: spec, options: options)
            }
            return answerOriginalFromCaches(url: url, key: key, options: options)
        } catch {
            return .answered(.failed(error))
        }
    }

    /// `answerFromCaches` for the original image of `url`, stored under `key`.
    func answerOriginalFromCaches(url: URL, key: CacheKey, options: LoadOptions) -> CacheAnswer {
        do throws(LoaderError) {
            if !options.refresh, var image = memoryCache?.value(for: key) {
                image.cacheType = .memory
                return .answered(.loaded(image))
            }
            if options.noDiskCache {
                // The failed-URL list lives in the disk index, which this mode never touches.
                if options.cacheOnly { throw .notCached(url) }
                return .needsNetwork(NetworkLoad(url: url, key: key, cache: nil))
            }
            switch try stampAnswerWhileIndexClosed(for: key, url: url, options: options) {
            case .hit(let image):
                remember(image, for: key)
                return .answered(.loaded(image))
            case .noFile:
                // A fetch is all but certain: libcurl loads while the index opens (see
                // `Downloader.startEngine`).
                if !options.cacheOnly, configuration.dataLoader == nil {
                    Downloader.startEngine()
                }
            case .indexMustAnswer:
                break
            }
            let cache = try diskCache(for: url)
            if !options.refresh, let stored = try lookUp(key, url: url, in: cache), isFresh(stored, in: cache, options: options) {
                let image = LoadedImage(entry: stored, cacheType: .disk)
                remember(image, for: key)
                return .answered(.loaded(image))
            }
            if options.cacheOnly { throw .notCached(url) }
            try checkFailedList(url, options: options, cache: cache)
            return .needsNetwork(NetworkLoad(url: url, key: key, cache: cache))
        } catch {
            return .answered(.failed(error))
        }
    }

    /// Fetches what the caches could not answer. Later requests for a key already loading in this
    /// process wait for that load and report `memory`.
    func loadFromNetwork(
        _ load: NetworkLoad, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?
    ) async -> LoadResult.Outcome {
        await loadOnce(load.key) { () async throws(LoaderError) in
            try await self.fetchUnlessAnotherProcessDid(load, options: options, progress: progress)
        }
    }

    /// Runs `work` for `key` and remembers what it loads, unless a load of `key` is already
    /// running in this process: then this one waits for it and reports its image from `memory`.
    func loadOnce(
        _ key: CacheKey, _ work: @escaping @Sendable () async throws(LoaderError) -> LoadedImage
    ) async -> LoadResult.Outcome {
        let (outcome, joined) = await inFlight.run(key) {
            do throws(LoaderError) {
                let image = try await work()
                self.remember(image, for: key)
                return .loaded(image)
            } catch {
                return .failed(error)
            }
        }
        return joined ? outcome.shared : outcome
    }

    /// Under the cross-process per-key lock, looks at the disk cache again (another process may
    /// have fetched the key meanwhile), then fetches: from the remote tier if any, else the origin.
    private func fetchUnlessAnotherProcessDid(
        _ load: NetworkLoad, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?
    ) async throws(LoaderError) -> LoadedImage {
        let (url, key) = (load.url, load.key)
        guard let cache = load.cache else {
            return try await fetchFromRemoteOrOrigin(url, key: key, stale: nil, options: options, cache: nil, progress: progress)
        }
        do {
            return try await cache.withKeyLock(key) { () async throws -> LoadedImage in
                let current = try lookUp(key, url: url, in: cache)
                if let current, !options.refresh, isFresh(current, in: cache, options: options) {
                    return LoadedImage(entry: current, cacheType: .disk)
                }
                return try await fetchFromRemoteOrOrigin(url, key: key, stale: current, options: options, cache: cache, progress: progress)
            }
        } catch let error as LoaderError {
            throw error
        } catch let error as DiskCache.Error {
            throw .cache(url, error)
        } catch {
            throw .cache(url, .cannotLock(path: cache.directory, cause: String(describing: error)))
        }
    }

    func lookUp(_ key: CacheKey, url: URL, in cache: DiskCache) throws(LoaderError) -> CacheEntry? {
        do { return try cache.entry(for: key, includingExpired: true) } catch { throw .cache(url, error) }
    }

    /// Fresh means within the cache's own expiry and, if given, `options.maxAge`.
    func isFresh(_ entry: CacheEntry, in cache: DiskCache, options: LoadOptions) -> Bool {
        if cache.isExpired(entry) { return false }
        guard let maxAge = options.maxAge else { return true }
        return cache.configuration.currentDate().timeIntervalSince(entry.fetchedAt) < maxAge
    }

    /// Throws `blocked` when the URL is on the failed-URL list and `retryFailed` is off.
    private func checkFailedList(_ url: URL, options: LoadOptions, cache: DiskCache) throws(LoaderError) {
        guard !options.retryFailed else { return }
        let failure: FailedURL?
        do { failure = try cache.failure(for: url.redactedString) } catch { throw .cache(url, error) }
        if let failure { throw .blocked(url, reason: failure.reason, failedAt: failure.failedAt) }
    }
}

extension LoadedImage {
    init(entry: CacheEntry, cacheType: CacheType) {
        self.init(
            filePath: entry.path, data: nil, format: entry.format, width: entry.width,
            height: entry.height, frames: nil, byteCount: Int(entry.bytes), cacheType: cacheType)
    }
}
