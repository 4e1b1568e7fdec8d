import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension LoaderOptions {
    /// A loader for these options, running at most `concurrency` transfers at once, with a memory
    /// cache of `memoryCostLimit` bytes.
    func makeLoader(concurrency: Int, memoryCostLimit: Int = LoaderConfiguration.defaultMemoryCostLimit) throws -> ImageLoader {
        try Self.makeLoader(
            cacheDir: location.cacheDir, remoteCache: remote.remoteCache, remoteCacheMode: remote.remoteCacheMode,
            cacheMaxSize: maxSize, concurrency: concurrency, memoryCostLimit: memoryCostLimit)
    }

    /// A loader on the cache `--cache-dir` names (`cacheDir`), else the one the environment names,
    /// with the remote tier `--remote-cache` or the environment names, if any (its `-v` notes with `verbose`), and the
    /// size limit `--max-size` (`cacheMaxSize`) or the environment gives. Its plain-http GETs
    /// go over imgfetch's own client (`plainHTTPWithoutLibcurl`).
    static func makeLoader(
        cacheDir: String?, remoteCache: String?, remoteCacheMode: RemoteCacheConfiguration.Mode?, verbose: Bool = false,
        cacheMaxSize: String? = nil, concurrency: Int, memoryCostLimit: Int = LoaderConfiguration.defaultMemoryCostLimit
    ) throws -> ImageLoader {
        var diskCache = DiskCacheConfiguration()
        // A run never evicts what it loaded itself: every path it prints still exists at its end.
        diskCache.runStartedAt = diskCache.currentDate()
        if let limit = CacheSizeLimit.resolve(flag: cacheMaxSize) { diskCache.maxSize = limit }
        return ImageLoader(configuration: LoaderConfiguration(
            cacheDirectory: try CacheLocationOptions.resolvedDirectory(cacheDir: cacheDir), diskCache: diskCache, memoryCostLimit: memoryCostLimit,
            maxConcurrentTransfers: concurrency, plainHTTPWithoutLibcurl: true,
            remoteCache: try RemoteCacheOptions.configuration(explicit: remoteCache, mode: remoteCacheMode, verbose: verbose)))
    }
}
