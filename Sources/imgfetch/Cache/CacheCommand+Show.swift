import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension CacheCommand {
    /// `cache show URL`: everything stored about one entry.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show everything stored about one URL's entry: key, file, validators, times, variants.",
            // Shorter than the generated one, which lists every option and runs past 80 columns.
            usage: "imgfetch cache show [<options>] <url>")

        @Argument(help: ArgumentHelp("The URL whose entry to show.", valueName: "url"))
        var url: String
        @OptionGroup var location: CacheLocationOptions
        @OptionGroup var keyFilter: KeyFilterOptions
        @Flag(help: "Print one JSON object (the keys of 'cache ls --json').")
        var json = false

        func run() throws {
            Terminal.prepare()
            guard let parsed = URL(string: url), parsed.scheme != nil else {
                Terminal.writeError("imgfetch: \(URL.redacting(url)): Not an absolute http or https URL.\n")
                throw ExitStatus.usage.exitCode
            }
            let cache = try location.openCache()
            let entry: CacheEntry?
            let variants: [CacheEntry]
            do {
                let key = CacheKey(url: parsed, filter: keyFilter.filter)
                entry = try cache.entry(for: key, includingExpired: true)
                variants = try cache.variants(of: key)
            } catch {
                throw CacheCommand.fail(error)
            }
            guard let entry else {
                Terminal.writeError("imgfetch: \(URL.redacting(url)): Not in the cache.\n")
                throw ExitStatus.cacheMiss.exitCode
            }
            let out = StandardOutput.shared
            if json {
                let specs = variants.compactMap(\.key.variantSpec).map(JSONLine.quoted).joined(separator: ",")
                out.writeLine(String(entry.jsonLine(expired: cache.isExpired(entry)).dropLast()) + ",\"variants\":[\(specs)]}")
            } else {
                let rows: [(String, String)] = [
                    ("url", entry.url), ("key", entry.key.rawValue), ("file", entry.path),
                    ("format", entry.format.rawValue), ("size", "\(entry.width)x\(entry.height)"),
                    ("bytes", String(entry.bytes)), ("etag", entry.validators.etag ?? "-"),
                    ("last-modified", entry.validators.lastModified ?? "-"),
                    ("fetched", entry.fetchedAt.formatted(.iso8601)), ("last used", entry.lastUsedAt.formatted(.iso8601)),
                    ("expires", entry.expiresAt.formatted(.iso8601)), ("expired", cache.isExpired(entry) ? "yes" : "no"),
                ] + variants.map { ("variant", "\($0.key.variantSpec ?? "") \($0.format.rawValue) \($0.width)x\($0.height) \($0.bytes) \($0.path)") }
                for (name, value) in rows { out.writeLine(name + ":" + String(repeating: " ", count: max(1, 15 - name.count - 1)) + value) }
            }
            out.flush()
        }
    }
}
