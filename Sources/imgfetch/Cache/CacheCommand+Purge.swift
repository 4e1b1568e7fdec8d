import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension CacheCommand {
    /// `cache purge`: remove entries by URL, all, expired or by age, or empty the failed-URL list.
    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge",
            abstract: "Remove cached entries, or clear the failed-URL list.",
            // Shorter than the generated one, which lists every option and runs past 80 columns.
            usage: "imgfetch cache purge [<options>] [<url> ...]",
            discussion: """
                Give URLs, or at least one of the flags. Purging a URL removes its variants (the \
                images --resize and --format made of it) too, and takes it off the failed-URL \
                list; with --variants only the variants go. With --failed and URLs, only those \
                URLs' failures are cleared and their entries kept. Purging a URL that is not \
                cached is not an error.
                """)

        @Argument(help: ArgumentHelp("URLs whose entries to remove.", valueName: "url"))
        var urls: [String] = []
        @Flag(help: "Remove every entry (the failed-URL list is kept; add --failed to clear it too).")
        var all = false
        @Flag(help: "Remove the entries past their max age.")
        var expired = false
        @Option(help: ArgumentHelp("Remove the entries fetched longer ago than this (e.g. 12h, 7d).", valueName: "duration"))
        var olderThan: String?
        @Flag(help: "Clear the failed-URL list, or with URLs only their failures.")
        var failed = false
        @Flag(help: "Remove only variants: those of the URLs given, or every variant with --all.")
        var variants = false
        @OptionGroup var location: CacheLocationOptions
        @OptionGroup var keyFilter: KeyFilterOptions
        @OptionGroup(title: "Output options") var outputOptions: OutputOptions

        func validate() throws {
            if urls.isEmpty, !all, !expired, olderThan == nil, !failed {
                throw ValidationError("Say what to purge: URLs, --all, --expired, --older-than DURATION or --failed.")
            }
            if variants, urls.isEmpty, !all {
                throw ValidationError("--variants needs URLs, or --all to remove every variant.")
            }
            if failed, !urls.isEmpty, all || expired || olderThan != nil || variants {
                throw ValidationError("--failed with URLs clears only their failures; it takes no other flag.")
            }
            if variants, expired || olderThan != nil {
                throw ValidationError("--variants takes URLs or --all; expired and old variants go with --expired and --older-than alone.")
            }
            if let olderThan, QuantityText.seconds(olderThan) == nil {
                throw ValidationError("--older-than '\(olderThan)' is not a duration like 90s, 12h or 7d.")
            }
            for url in urls where URL(string: url)?.scheme == nil {
                throw ValidationError("'\(URL.redacting(url))' is not an absolute URL.")
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
                    // The failed-URL list holds a URL as the loader recorded it: redacted.
                    if !variants, try cache.removeFailure(for: url.redactedString) { failures += 1 }
                    if failed { continue }
                    let key = CacheKey(url: url, filter: keyFilter.filter)
                    let removal = variants ? try cache.removeVariants(of: key) : try cache.removeWithVariants(key)
                    add(removal, to: &removed)
                    if removal.entries == 0, outputOptions.verbose {
                        Terminal.writeError("imgfetch: \(text): \(variants ? "No variant" : "Not") in the cache.\n")
                    }
                }
                if all { add(variants ? try cache.removeAllVariants() : try cache.removeAll(), to: &removed) }
                if expired { add(try cache.removeExpired(), to: &removed) }
                if let age = olderThan.flatMap(QuantityText.seconds) { add(try cache.removeEntries(olderThan: age), to: &removed) }
                if failed, urls.isEmpty { failures = try cache.removeFailures() }
            } catch {
                throw CacheCommand.fail(error)
            }
            if !outputOptions.quiet {
                var text = "imgfetch: purge: removed \(removed.entries) entries (\(ByteText.format(removed.bytes)))"
                if failed || failures > 0 { text += " and \(failures) failed URLs" }
                Terminal.writeError(text + "\n")
            }
        }

        private func add(_ removal: DiskCache.Removal, to total: inout (entries: Int, bytes: Int64)) {
            total.entries += removal.entries
            total.bytes += removal.bytes
        }
    }
}
