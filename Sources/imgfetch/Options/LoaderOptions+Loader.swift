import ArgumentParser
import Foundation
import ImageFetchKit

extension LoaderOptions {
    /// A loader for these options, running at most `concurrency` transfers at once.
    func makeLoader(concurrency: Int) throws -> ImageLoader {
        ImageLoader(configuration: LoaderConfiguration(
            cacheDirectory: try location.resolvedDirectory(), maxConcurrentTransfers: concurrency))
    }
}
