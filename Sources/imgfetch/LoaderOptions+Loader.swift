import ArgumentParser
import Foundation
import ImageFetchKit

extension CacheLocationOptions {
    /// The cache directory the flags and environment name (nothing is created yet).
    func resolvedDirectory() throws -> String {
        do {
            return try CacheLocation.resolve(explicit: cacheDir, environment: ProcessInfo.processInfo.environment)
        } catch {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.fileError.exitCode
        }
    }

    /// Opens the disk cache there, or reports why not and throws the exit code.
    func openCache(_ configuration: DiskCacheConfiguration = DiskCacheConfiguration()) throws -> DiskCache {
        let directory = try resolvedDirectory()
        do {
            return try DiskCache(directory: directory, configuration: configuration)
        } catch {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.fileError.exitCode
        }
    }
}

extension LoaderOptions {
    /// A loader for these options, running at most `concurrency` transfers at once.
    func makeLoader(concurrency: Int) throws -> ImageLoader {
        ImageLoader(configuration: LoaderConfiguration(
            cacheDirectory: try location.resolvedDirectory(), maxConcurrentTransfers: concurrency))
    }
}
