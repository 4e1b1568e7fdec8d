import FoundationEssentials
import Synchronization

/// The manager that joins the caches, the downloader and the decoder registry: memory cache, then
/// disk cache, then network; only a response that passes validation is stored.
///
/// One loader per process is the intended use. Thread safety: `load` may be called from any number
/// of tasks at once. Concurrent loads of one cache key share one load (the later ones report
/// `memory`); concurrent processes on one cache directory share one transfer per key through the
/// disk cache's per-key lock.
///
/// What only a fetch needs (the in-flight map, the downloader) is made at the first fetch. A
/// cache hit is a whole process's work for `imgfetch get`, and in a binary with the Swift runtime
/// linked statically, the first use of a generic type whose parameters must conform to a protocol
/// (`Result<_, E: Error>`, `Task<_, Never>`, a dictionary's keys) costs a scan of every protocol
/// conformance record: about 45 µs each, measured with callgrind. The state kept here is shaped
/// so that a hit needs as few of them as possible.
public final class ImageLoader: Sendable {
    public let configuration: LoaderConfiguration
    /// What this process has loaded: metadata (and the bytes when they have no disk file); nil
    /// when the configuration allows it no memory.
    let memoryCache: MemoryCache<CacheKey, LoadedImage>?
    /// The disk cache: stamps while its index is closed, opened at the first need (`LazyDiskCache`).
    let disk: LazyDiskCache
    private let openedInFlight = Mutex<InFlightLoads?>(nil)
    private let openedDataLoader = Mutex<(any DataLoading)?>(nil)
    private let openedRemoteTier = Mutex<RemoteCacheTier?>(nil)
    private let openedRobotsFiles = Mutex<RobotsFiles?>(nil)

    public init(configuration: LoaderConfiguration) {
        self.configuration = configuration
        self.memoryCache = configuration.memoryCostLimit > 0 ? MemoryCache(costLimit: configuration.memoryCostLimit) : nil
        self.disk = LazyDiskCache(directory: configuration.cacheDirectory, configuration: configuration.diskCache)
    }

    /// Loads one URL and reports where it came from and how long it took. Never throws: a failure
    /// is the result's `outcome`.
    ///
    /// - Parameter progress: called as bytes arrive when the image is fetched, from the downloader's
    ///   thread; it must return quickly.
    public func load(
        _ url: String, options: LoadOptions = LoadOptions(),
        progress: (@Sendable (LoadProgress) -> Void)? = nil
    ) async -> LoadResult {
        switch lookUpInCaches(url, options: options) {
        case .loaded(let result): return result
        case .miss(let pending): return await finish(pending, options: options, progress: progress)
        }
    }

    /// Loads one URL if the caches can answer without the network: a fresh hit, or a failure no
    /// fetch could change (not an http(s) URL, a `cacheOnly` miss, a URL on the failed-URL list,
    /// an unusable cache). Returns nil when only a fetch can answer; `load` then does the rest.
    ///
    /// Synchronous on the calling thread, so a run made only of cache hits never starts a task
    /// (and the concurrency runtime never starts its threads: a third of a `get` hit's time).
    public func loadFromCaches(_ url: String, options: LoadOptions = LoadOptions()) -> LoadResult? {
        guard case .loaded(let result) = lookUpInCaches(url, options: options) else { return nil }
        return result
    }

    /// What the caches say of one URL, on the calling thread as `loadFromCaches`: its result, or
    /// the miss with the lookup already made, for `loadInOrder(_:first:…)` to produce without
    /// looking the key up again.
    public func lookUpInCaches(_ url: String, options: LoadOptions = LoadOptions()) -> CacheLookup {
        let start = ContinuousClock.now
        switch answerFromCaches(url, options: options) {
        case .answered(let outcome):
            return .loaded(LoadResult(url: url, outcome: outcome, elapsed: (ContinuousClock.now - start) / .seconds(1)))
        case .mustProduce(let production):
            return .miss(PendingLoad(url: url, production: production, start: start))
        }
    }

    /// Produces a miss `lookUpInCaches` found; its elapsed time counts from the lookup.
    func finish(
        _ pending: PendingLoad, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?
    ) async -> LoadResult {
        let outcome = await produce(pending.production, options: options, progress: progress)
        return LoadResult(url: pending.url, outcome: outcome, elapsed: (ContinuousClock.now - pending.start) / .seconds(1))
    }

    /// The disk cache, opened on first use (creating the directory and index as needed); a failure
    /// to open it is remembered, so every load reports it without retrying.
    public func diskCache() throws(DiskCache.Error) -> DiskCache {
        try disk.open()
    }

    /// Closes the disk cache's index connections if this loader opened it (`DiskCache.closeIndex()`):
    /// for a command whose loads are done, before the process exits.
    public func closeDiskCache() {
        disk.close()
    }

    /// `diskCache()` with its failure as the `LoaderError` for `url`.
    func diskCache(for url: URL) throws(LoaderError) -> DiskCache {
        do { return try diskCache() } catch { throw .cache(url, error) }
    }

    /// The loads running now, one per key; created at the first fetch.
    var inFlight: InFlightLoads { openedInFlight.opened(orMade: InFlightLoads.init) }

    /// The robots.txt rules asked so far (`LoadOptions.respectRobots`); created on first use.
    var robotsFiles: RobotsFiles { openedRobotsFiles.opened(orMade: RobotsFiles.init) }

    /// The data loader, created on first use.
    var dataLoader: any DataLoading {
        if let loader = configuration.dataLoader { return loader }
        return openedDataLoader.opened {
            Downloader(configuration: DownloaderConfiguration(
                maxConcurrentDownloads: configuration.maxConcurrentTransfers, order: configuration.transferOrder,
                politeness: configuration.politeness, cookieFile: configuration.cookieFile))
        }
    }

    /// The remote cache tier, set up at its first use; nil when none is configured.
    var remoteTier: RemoteCacheTier? {
        guard let remote = configuration.remoteCache else { return nil }
        return openedRemoteTier.opened {
            RemoteCacheTier(configuration: remote, transfers: configuration.maxConcurrentTransfers)
        }
    }

    /// Writes the default downloader's cookies to `configuration.cookieFile` (see
    /// `Downloader.saveCookies()`); nothing when there is no cookie file or nothing was fetched.
    public func saveCookies() async throws(Downloader.CookieFileError) {
        guard configuration.cookieFile != nil, let downloader = openedDataLoader.withLock({ $0 }) as? Downloader else { return }
        try await downloader.saveCookies()
    }

    /// Whether a load has used the remote tier yet (so `finishRemoteCache()` has anything to wait for).
    public var hasUsedRemoteCache: Bool { openedRemoteTier.withLock { $0 != nil } }

    /// Waits for the uploads to the remote tier still running and reports what the tier did; nil
    /// when no remote tier is configured. Call before the process exits.
    public func finishRemoteCache() async -> RemoteCacheReport? {
        guard configuration.remoteCache != nil else { return nil }
        let tier = openedRemoteTier.withLock { $0 }
        return await tier?.finish() ?? RemoteCacheReport()
    }

    func remember(_ image: LoadedImage, for key: CacheKey) {
        var kept = image
        // A disk-backed image is remembered without its bytes: the file is the copy.
        if kept.filePath != nil { kept.data = nil }
        memoryCache?.insert(kept, for: key, cost: kept.memoryCost(for: key))
    }
}
