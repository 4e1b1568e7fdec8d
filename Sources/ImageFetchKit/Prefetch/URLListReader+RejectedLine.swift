extension URLListReader {
    /// A line of the list that is not a URL imgfetch could fetch: reported with its line number
    /// and skipped, never handed to the loader (or libcurl).
    public struct RejectedLine: Sendable, Equatable, CustomStringConvertible {
        /// Why a line was refused.
        public enum Problem: Sendable, Equatable {
            /// Its bytes are not UTF-8.
            case invalidUTF8
            /// It holds a control character (NUL, escape, …), which no URL does.
            case controlCharacter
            /// It is `bytes` long, over `maxLineBytes`.
            case tooLong(bytes: Int)
            /// It does not start with http:// or https://.
            case notHTTP
        }

        /// 1 for the first line of the list.
        public var number: Int
        /// The line's start, safe to print: at most `excerptBytes` bytes, invalid UTF-8 and
        /// control characters replaced by U+FFFD, and "…" when cut.
        public var excerpt: String
        public var problem: Problem
        /// The bytes that decide which shard owns the line (`PrefetchShard`): the line trimmed,
        /// or for a line over the limit, which is never kept whole, its first bytes as read.
        public var shardBytes: [UInt8] = []

        /// The reason, as a sentence, without the line number or the excerpt.
        public var reason: String {
            switch problem {
            case .invalidUTF8: "The line is not valid UTF-8; skipped."
            case .controlCharacter: "The line holds a control character (such as NUL); skipped."
            case .tooLong(let bytes): "The line is \(bytes) bytes long, over the limit of \(URLListReader.maxLineBytes); skipped."
            case .notHTTP: "Not an absolute http or https URL; skipped."
            }
        }

        public var description: String { "line \(number): \(excerpt): \(reason)" }
    }

    /// A line longer than this is refused; its bytes are skipped as they are read, so a list
    /// without line breaks costs no more memory than this. URLs in the wild stay far below
    /// (browsers and servers commonly stop at 8–64 KiB).
    public static let maxLineBytes = 64 * 1024
    /// How much of a refused line its excerpt keeps.
    public static let excerptBytes = 200

    /// The printable start of `line` (see `RejectedLine.excerpt`).
    static func excerpt(of line: some Collection<UInt8>, totalBytes: Int? = nil) -> String {
        var kept = Array(line.prefix(excerptBytes))
        // Cut at a character boundary: never in the middle of a multi-byte sequence.
        if kept.count < line.count, let last = kept.lastIndex(where: { $0 & 0xC0 != 0x80 }), kept[last] >= 0xC0 {
            kept.removeSubrange(last...)
        }
        let text = String(decoding: kept, as: UTF8.self).unicodeScalars.map { scalar -> String in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\u{FFFD}" : String(scalar)
        }.joined()
        return (totalBytes ?? line.count) > kept.count ? text + "…" : text
    }

    /// Why `line` (trimmed, not blank, not a comment) cannot be a URL, or nil if it may be one.
    static func problem(with line: ArraySlice<UInt8>) -> RejectedLine.Problem? {
        if line.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return .controlCharacter }
        let lowercase = line.prefix(8).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        if !lowercase.starts(with: Array("http://".utf8)), !lowercase.starts(with: Array("https://".utf8)) { return .notHTTP }
        return nil
    }
}
