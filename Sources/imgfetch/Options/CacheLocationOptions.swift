import ArgumentParser
import FoundationEssentials
import ImageFetchKit

/// Where the cache is: shared by every command that opens it.
struct CacheLocationOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The cache directory (default: $IMGFETCH_CACHE_DIR, else $XDG_CACHE_HOME/imgfetch, else ~/.cache/imgfetch).",
        valueName: "dir"), completion: .directory)
    var cacheDir: String?
}

extension CacheLocationOptions {
    /// The cache directory the flags and environment name (nothing is created yet).
    func resolvedDirectory() throws -> String {
        try Self.resolvedDirectory(cacheDir: cacheDir)
    }

    /// The cache directory `--cache-dir` (`cacheDir`) or else the environment names.
    static func resolvedDirectory(cacheDir: String?) throws -> String {
        do {
            return try CacheLocation.resolve(explicit: cacheDir)
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
