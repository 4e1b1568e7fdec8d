import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension LoaderOptions {
    /// A loader for these options, running at most `concurrency` transfers at once, with a memory
    /// cache of `memoryCostLimit` bytes.
    func makeLoader(concurrency: Int, memoryCostLimit: Int = LoaderConfiguration.defaultMemoryCostLimit) throws -> ImageLoader {
        try Self.makeLoader(
            cacheDir: location.cacheDir, remoteCache: remote.remoteCache, remoteCacheMode: remote.remoteCacheMode,
            politeness: politeness, cookieJar: cookieJar, concurrency: concurrency, memoryCostLimit: memoryCostLimit)
    }

    /// A loader on the cache `--cache-dir` names (`cacheDir`), else the one the environment names,
    /// with the remote tier `--remote-cache` or the environment names, if any.
    static func makeLoader(
        cacheDir: String?, remoteCache: String?, remoteCacheMode: RemoteCacheConfiguration.Mode,
        politeness: Politeness = Politeness(), cookieJar: String? = nil,
        concurrency: Int, memoryCostLimit: Int = LoaderConfiguration.defaultMemoryCostLimit
    ) throws -> ImageLoader {
        ImageLoader(configuration: LoaderConfiguration(
            cacheDirectory: try CacheLocationOptions.resolvedDirectory(cacheDir: cacheDir), memoryCostLimit: memoryCostLimit,
            maxConcurrentTransfers: concurrency, politeness: politeness, cookieFile: cookieJar,
            remoteCache: try RemoteCacheOptions.configuration(explicit: remoteCache, mode: remoteCacheMode)))
    }
}
