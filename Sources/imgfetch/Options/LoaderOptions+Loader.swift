import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension LoaderOptions {
    /// A loader for these options, running at most `concurrency` transfers at once, with a memory
    /// cache of `memoryCostLimit` bytes.
    func makeLoader(concurrency: Int, memoryCostLimit: Int = 64 * 1024 * 1024) throws -> ImageLoader {
        ImageLoader(configuration: LoaderConfiguration(
            cacheDirectory: try location.resolvedDirectory(), memoryCostLimit: memoryCostLimit,
            maxConcurrentTransfers: concurrency))
    }
}
