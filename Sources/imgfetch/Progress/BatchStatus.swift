import ImageFetchKit

/// The counts behind the progress line, and how they read.
struct BatchStatus {
    var total: Int?
    var done = 0
    var failed = 0
    /// Bytes of finished transfers plus what the running ones have received so far.
    var finishedBytes: Int64 = 0
    var running: [String: LoadProgress] = [:]

    var isComplete: Bool { total.map { done >= $0 } ?? false }

    mutating func transferred(_ url: String, _ progress: LoadProgress) {
        running[url] = progress
    }

    /// An input that failed without a load (a list line that is not a URL).
    mutating func skipped() {
        done += 1
        failed += 1
    }

    mutating func finished(_ result: LoadResult) {
        done += 1
        if let image = result.image {
            if image.cacheType == .network { finishedBytes += Int64(image.byteCount) }
        } else {
            failed += 1
        }
        running[result.url] = nil
    }

    var receivedBytes: Int64 {
        finishedBytes + running.values.reduce(0) { $0 + $1.receivedBytes }
    }

    /// One transfer: `1.2 MiB / 3.4 MiB  35%  2.1 MiB/s`; a batch of known size (URLs given, or a
    /// list file counted first): `120/1000 (12%)  3 failed  34.5 MiB  12.3 MiB/s  ETA 0:07`; a
    /// streamed list: `120 done  34.5 MiB  12.3 MiB/s`.
    func line(elapsed: Double, listFraction: Double?, color: Bool) -> String {
        let bytes = receivedBytes
        let rate = elapsed > 0 ? Double(bytes) / elapsed : 0
        if total == 1, let only = running.values.first {
            var parts = [ByteText.format(only.receivedBytes)]
            if let expected = only.expectedBytes, expected > 0 {
                parts[0] += " / " + ByteText.format(expected)
                parts.append("\(min(100, only.receivedBytes * 100 / expected))%")
            }
            parts.append(ByteText.format(Int64(rate)) + "/s")
            return parts.joined(separator: "  ")
        }
        var parts = [total.map { "\(done)/\($0) (\($0 > 0 ? min(100, done * 100 / $0) : 100)%)" } ?? "\(done) done"]
        if failed > 0 {
            let text = "\(failed) failed"
            parts.append(color ? "\u{1B}[31m\(text)\u{1B}[0m" : text)
        }
        parts.append(ByteText.format(bytes))
        parts.append(ByteText.format(Int64(rate)) + "/s")
        let fraction = total.map { $0 > 0 ? Double(done) / Double($0) : 1 } ?? listFraction
        if let fraction, fraction > 0.001, fraction < 1 {
            parts.append("ETA " + Self.clock(elapsed * (1 - fraction) / fraction))
        }
        return parts.joined(separator: "  ")
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600):" + two((s / 60) % 60) + ":" + two(s % 60) : "\(s / 60):" + two(s % 60)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// Human-readable byte counts in binary units, as the progress line and summaries print them.
enum ByteText {
    static func format(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : DecimalText.fixed(value, digits: 1) + " " + units[unit]
    }
}
