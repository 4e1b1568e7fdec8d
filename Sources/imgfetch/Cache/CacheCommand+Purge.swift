import ArgumentParser
import Foundation
import ImageFetchKit

extension CacheCommand {
    /// `cache purge`: remove entries by URL, all, expired or by age, or empty the failed-URL list.
    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove cached entries, or clear the failed-URL list.",
            discussion: "Give URLs, or at least one of the flags. Purging a URL that is not cached is not an error.")

        @Argument(help: ArgumentHelp("URLs whose entries to remove.", valueName: "url"))
        var urls: [String] = []
        @Flag(help: "Remove every entry (the failed-URL list is kept; add --failed to clear it too).")
        var all = false
        @Flag(help: "Remove the entries past their max age.")
        var expired = false
        @Option(help: ArgumentHelp("Remove the entries fetched longer ago than this (e.g. 12h, 7d).", valueName: "duration"))
        var olderThan: String?
        @Flag(help: "Clear the failed-URL list.")
        var failed = false
        @OptionGroup var location: CacheLocationOptions
        @OptionGroup var keyFilter: KeyFilterOptions
        @OptionGroup(title: "Output options") var outputOptions: OutputOptions

        func validate() throws {
            if urls.isEmpty, !all, !expired, olderThan == nil, !failed {
                throw ValidationError("Say what to purge: URLs, --all, --expired, --older-than DURATION or --failed.")
            }
            if let olderThan, QuantityText.seconds(olderThan) == nil {
                throw ValidationError("--older-than '\(olderThan)' is not a duration like 90s, 12h or 7d.")
            }
            for url in urls where URL(string: url)?.scheme == nil {
                throw ValidationError("'\(url)' is not an absolute URL.")
            }
        }

        func run() throws {
            Terminal.prepare()
            let cache = try location.openCache()
            var removed = (entries: 0, bytes: Int64(0))
            var failures = 0
            do {
                for text in urls {
                    guard let url = URL(string: text) else { continue }
                    let key = CacheKey(url: url, filter: keyFilter.filter)
                    if let entry = try cache.entry(for: key, includingExpired: true), try cache.remove(key) {
                        removed.entries += 1
                        removed.bytes += entry.bytes
                    } else if outputOptions.verbose {
                        Terminal.writeError("imgfetch: \(text): Not in the cache.\n")
                    }
                }
                if all { add(try cache.removeAll(), to: &removed) }
                if expired { add(try cache.removeExpired(), to: &removed) }
                if let age = olderThan.flatMap(QuantityText.seconds) { add(try cache.removeEntries(olderThan: age), to: &removed) }
                if failed { failures = try cache.removeFailures() }
            } catch {
                throw CacheCommand.fail(error)
            }
            if !outputOptions.quiet {
                var text = "purge: removed \(removed.entries) entries (\(ByteText.format(removed.bytes)))"
                if failed { text += " and \(failures) failed URLs" }
                Terminal.writeError(text + "\n")
            }
        }

        private func add(_ removal: DiskCache.Removal, to total: inout (entries: Int, bytes: Int64)) {
            total.entries += removal.entries
            total.bytes += removal.bytes
        }
    }

    /// `cache trim`: enforce max age and max size now.
    struct Trim: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enforce the max age and max size now: expired entries first, then least recently used.")

        @Option(help: ArgumentHelp("Keep at most this many bytes (e.g. 500M, 2G); trims to half of it when over (default 1G).", valueName: "size"))
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
            if let size = maxSize.flatMap(QuantityText.bytes) { configuration.maxSize = Int64(size) }
            if let age = maxAge.flatMap(QuantityText.seconds) { configuration.maxAge = age }
            let cache = try location.openCache(configuration)
            let removed: DiskCache.Removal
            do { removed = try cache.trim() } catch { throw CacheCommand.fail(error) }
            if !outputOptions.quiet {
                Terminal.writeError("trim: removed \(removed.entries) entries (\(ByteText.format(removed.bytes)))\n")
            }
        }
    }
}
