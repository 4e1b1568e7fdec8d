import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension LoaderOptions {
    /// A loader for these options, running at most `concurrency` transfers at once, with a memory
    /// cache of `memoryCostLimit` bytes.
    func makeLoader(concurrency: Int, memoryCostLimit: Int = LoaderConfiguration.defaultMemoryCostLimit) throws -> ImageLoader {
        try Self.makeLoader(
            cacheDir: location.cacheDir, remoteCache: remote.remoteCache, remoteCacheMode: remote.remoteCacheMode,
            cacheMaxSize: maxSize, politeness: politeness, cookieJar: cookieJar, concurrency: concurrency, memoryCostLimit: memoryCostLimit)
    }

    /// A loader on the cache `--cache-dir` names (`cacheDir`), else the one the environment names,
    /// with the remote tier `--remote-cache` or the environment names, if any (its `-v` notes with
    /// `verbose`), the size limit `--max-size` (`cacheMaxSize`) or the environment gives, and the
    /// downloader's `politeness` and cookie jar.
    static func makeLoader(
        cacheDir: String?, remoteCache: String?, remoteCacheMode: RemoteCacheConfiguration.Mode?, verbose: Bool = false,
        cacheMaxSize: String? = nil, politeness: Politeness = Politeness(), cookieJar: String? = nil,
        concurrency: Int, memoryCostLimit: Int = LoaderConfiguration.defaultMemoryCostLimit
    ) throws -> ImageLoader {
        var diskCache = DiskCacheConfiguration()
        // A run never evicts what it loaded itself: every path it prints still exists at its end.
        diskCache.runStartedAt = diskCache.currentDate()
        if let limit = CacheSizeLimit.resolve(flag: cacheMaxSize) { diskCache.maxSize = limit }
        return ImageLoader(configuration: LoaderConfiguration(
            cacheDirectory: try CacheLocationOptions.resolvedDirectory(cacheDir: cacheDir), diskCache: diskCache, memoryCostLimit: memoryCostLimit,
            maxConcurrentTransfers: concurrency, politeness: politeness, cookieFile: cookieJar,
            remoteCache: try RemoteCacheOptions.configuration(explicit: remoteCache, mode: remoteCacheMode, verbose: verbose)))
    }
}
