import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension CacheCommand {
    /// `cache trim`: enforce max age and max size now.
    struct Trim: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trim",
            abstract: "Enforce the max age and max size now: expired entries first, then least recently used.",
            // Shorter than the generated one, which lists every option and runs past 80 columns.
            usage: "imgfetch cache trim [<options>]",
            discussion: """
                trim keeps at most --max-size bytes: the least recently used entries go until the \
                rest fits. Automatic trimming is different: when a store takes the cache over its \
                max size (1G), the expired and then the least recently used entries are removed \
                until half of it is left, so that the next stores need not trim again.
                """)

        @Option(help: ArgumentHelp("Keep at most this many bytes (e.g. 500M, 2G; default: $IMGFETCH_CACHE_MAX_SIZE, else 1G).", valueName: "size"))
        var maxSize: String?
        @Option(help: ArgumentHelp("Remove entries older than this (default 7d).", valueName: "duration"))
        var maxAge: String?
        @OptionGroup var location: CacheLocationOptions
        @OptionGroup(title: "Output options") var outputOptions: OutputOptions

        func validate() throws {
            if let maxSize, QuantityText.bytes(maxSize) == nil { throw ValidationError("--max-size '\(maxSize)' is not a size like 500M or 2G.") }
            if let maxAge, QuantityText.seconds(maxAge) == nil { throw ValidationError("--max-age '\(maxAge)' is not a duration like 12h or 7d.") }
        }

        func run() throws {
            Terminal.prepare()
            var configuration = DiskCacheConfiguration()
            if let size = CacheSizeLimit.resolve(flag: maxSize) { configuration.maxSize = size }
            if let age = maxAge.flatMap(QuantityText.seconds) { configuration.maxAge = age }
            let cache = try location.openCache(configuration)
            let removed: DiskCache.Removal
            do { removed = try cache.trim() } catch { throw CacheCommand.fail(error) }
            if !outputOptions.quiet {
                Terminal.writeError("imgfetch: trim: removed \(removed.entries) entries (\(ByteText.format(removed.bytes)))\n")
            }
        }
    }
}
