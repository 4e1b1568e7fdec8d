import FoundationEssentials

/// Parses the sizes and durations users type on a command line: `512K`, `20M`, `90s`, `12h`, `7d`.
public enum QuantityText {
    /// Bytes from a number with an optional binary suffix `K`, `M`, `G` (also `KB`, `KiB`, ...); `nil` if malformed.
    public static func bytes(_ text: String) -> Int? {
        let (number, unit) = split(text)
        guard let number, number >= 0 else { return nil }
        let scale: Double
        switch unit.lowercased() {
        case "", "b": scale = 1
        case "k", "kb", "kib": scale = 1024
        case "m", "mb", "mib": scale = 1024 * 1024
        case "g", "gb", "gib": scale = 1024 * 1024 * 1024
        default: return nil
        }
        let value = number * scale
        return value < Double(Int.max) ? Int(value) : nil
    }

    /// Seconds from a number with an optional suffix `ms`, `s`, `m`, `h`, `d`, `w` (bare numbers are seconds).
    public static func seconds(_ text: String) -> Double? {
        let (number, unit) = split(text)
        guard let number, number >= 0 else { return nil }
        switch unit.lowercased() {
        case "ms": return number / 1000
        case "", "s", "sec": return number
        case "m", "min": return number * 60
        case "h": return number * 3600
        case "d": return number * 86400
        case "w": return number * 7 * 86400
        default: return nil
        }
    }

    private static func split(_ text: String) -> (Double?, Substring) {
        let trimmed = text.trimmingWhitespace()
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        return (Double(digits), trimmed.dropFirst(digits.count))
    }
}
