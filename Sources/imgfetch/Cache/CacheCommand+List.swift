import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension CacheEntry.SortOrder: ExpressibleByArgument {}

extension CacheCommand {
    /// `cache ls`: one line per entry.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls",
            abstract: "List the cached entries, or the failed URLs.",
            // Shorter than the generated one, which runs past 80 columns.
            usage: "imgfetch cache ls [<options>]",
            discussion: """
                Each line holds, separated by tabs: format, width x height, bytes, fetched (ISO 8601), \
                last used (ISO 8601), variant (the transform that made it, as in '256x256 inside', or \
                '-' for an original), URL. Expired entries are included and marked 'expired' in --json. \
                With --failed, the failed-URL list instead: failed (ISO 8601), until (ISO 8601), HTTP \
                status ('-' for another cause), URL, reason; 'cache purge URL' or 'cache purge --failed' \
                clears it.
                """)

        @OptionGroup var location: CacheLocationOptions
        @Option(help: ArgumentHelp("Order: lastUsed (newest first), fetched (newest first), size (largest first) or url.", valueName: "order"))
        var sort: CacheEntry.SortOrder = .lastUsed
        @Flag(help: "Print JSON Lines, one object per entry: url, key, variant, path, format, width, height, bytes, fetched_at, last_used_at, expires_at, expired.")
        var json = false
        @Flag(help: "List the failed-URL list instead (--json keys: url, reason, status, failed_at, until).")
        var failed = false

        func run() throws {
            Terminal.prepare()
            let cache = try location.openCache()
            let out = StandardOutput.shared
            if failed {
                do {
                    for failure in try cache.failures() where !out.isClosed {
                        out.writeLine(json ? failure.jsonLine : failure.tabbedLine)
                    }
                } catch { throw CacheCommand.fail(error) }
                out.flush()
                if out.isClosed { throw ExitStatus.outputClosed.exitCode }
                return
            }
            // Each line is written as the index yields its entry: `cache ls | head` on a million
            // entries prints at once and stops at the closed pipe.
            do {
                try cache.forEachEntry(sortedBy: sort) { entry in
                    out.writeLine(json ? entry.jsonLine(expired: cache.isExpired(entry)) : entry.tabbedLine)
                    return !out.isClosed
                }
            } catch { throw CacheCommand.fail(error) }
            out.flush()
            if out.isClosed { throw ExitStatus.outputClosed.exitCode }
        }
    }
}

extension CacheEntry {
    var tabbedLine: String {
        [format.rawValue, "\(width)x\(height)", String(bytes), fetchedAt.formatted(.iso8601), lastUsedAt.formatted(.iso8601),
         key.variantSpec ?? "-", url]
            .joined(separator: "\t")
    }

    func jsonLine(expired: Bool) -> String {
        var line = JSONLine()
        line.add("url", url)
        line.add("key", key.rawValue)
        line.add("variant", key.variantSpec)
        line.add("path", path)
        line.add("format", format.rawValue)
        line.add("width", width)
        line.add("height", height)
        line.add("bytes", Int(bytes))
        line.add("etag", validators.etag)
        line.add("last_modified", validators.lastModified)
        line.add("fetched_at", fetchedAt.formatted(.iso8601))
        line.add("last_used_at", lastUsedAt.formatted(.iso8601))
        line.add("expires_at", expiresAt.formatted(.iso8601))
        line.add("expired", expired)
        return line.text
    }
}

extension FailedURL {
    var tabbedLine: String {
        [failedAt.formatted(.iso8601), expiresAt.formatted(.iso8601), status.map(String.init) ?? "-", url, reason].joined(separator: "\t")
    }

    var jsonLine: String {
        var line = JSONLine()
        line.add("url", url)
        line.add("reason", reason)
        line.add("status", status)
        line.add("failed_at", failedAt.formatted(.iso8601))
        line.add("until", expiresAt.formatted(.iso8601))
        return line.text
    }
}
