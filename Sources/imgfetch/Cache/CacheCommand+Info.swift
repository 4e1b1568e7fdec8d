import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension CacheCommand {
    /// `cache info`: where the cache is, how big, its limits, and the failed-URL count.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Show where the cache is, its entries, bytes, limits and failed-URL count.")

        @OptionGroup var location: CacheLocationOptions
        @Flag(help: "Print one JSON object: directory, entries, bytes, max_size, max_age_seconds, failed_urls.")
        var json = false

        func run() throws {
            Terminal.prepare()
            let cache = try location.openCache()
            let stats: DiskCache.Statistics
            do { stats = try cache.statistics() } catch { throw CacheCommand.fail(error) }
            let out = StandardOutput.shared
            if json {
                var line = JSONLine()
                line.add("directory", stats.directory)
                line.add("entries", stats.entries)
                line.add("bytes", Int(stats.bytes))
                line.add("max_size", stats.maxSize.map { Int($0) })
                line.add("max_age_seconds", Int(stats.maxAge))
                line.add("failed_urls", stats.failedURLs)
                out.writeLine(line.text)
            } else {
                out.writeLine("directory:   \(stats.directory)")
                out.writeLine("entries:     \(stats.entries)")
                out.writeLine("bytes:       \(stats.bytes) (\(ByteText.format(stats.bytes)))")
                out.writeLine("max size:    \(stats.maxSize.map { "\($0) (\(ByteText.format($0)))" } ?? "none")")
                out.writeLine("max age:     \(DurationText.format(stats.maxAge))")
                out.writeLine("failed URLs: \(stats.failedURLs)")
            }
            out.flush()
        }
    }

    /// Reports a cache failure on stderr and returns the exit code to throw.
    static func fail(_ error: any Error) -> ExitCode {
        Terminal.writeError("imgfetch: \(error)\n")
        return ExitStatus.fileError.exitCode
    }
}

/// Durations as `cache info` prints them: `7d`, `12h`, `90s`.
enum DurationText {
    static func format(_ seconds: TimeInterval) -> String {
        let s = Int(seconds)
        for (unit, size) in [("w", 604_800), ("d", 86400), ("h", 3600), ("m", 60)] where s >= size && s % size == 0 {
            return "\(s / size)\(unit)"
        }
        return "\(s)s"
    }
}
