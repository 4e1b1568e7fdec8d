import FoundationEssentials

/// Continuing an interrupted body instead of sending it again (`Range` + `If-Range`).
///
/// A transfer stopped after `Resume.minimumBytes` of a body that can be continued leaves them in
/// its error (`DownloadError.partial`); the next request for the URL names the point to continue
/// from (`DownloadRequest.resume`). Within one transfer, a retry continues by itself.
public enum Resume {
    /// Below this, sending the body again costs less than keeping and continuing it.
    public static let minimumBytes = 64 * 1024

    /// Where a request continues a body, and the validator that says the body is still the same.
    public struct Point: Hashable, Sendable {
        /// Bytes already held: the request asks for `offset-`.
        public var offset: Int64
        /// A strong ETag or a Last-Modified date, sent as `If-Range`.
        public var validator: String

        public init(offset: Int64, validator: String) {
            self.offset = offset
            self.validator = validator
        }
    }

    /// Where a transfer mirrors a large body as it arrives, so that even a process killed outright
    /// (SIGKILL, a crash) leaves its bytes to continue: the requester's partial file, which holds
    /// `head(validator)` then the body's bytes from 0 (when the request continues from
    /// `resume.offset`, the file holds exactly that many already).
    public struct Checkpoint: Hashable, Sendable {
        public var path: String
        /// The partial file's head for a body with this validator.
        public var head: @Sendable (String) -> Data

        /// Bytes received between two writes of the file: below this, a body is kept only when
        /// its transfer stops in a way the process sees (`DownloadError.partial`).
        public static let interval = 4 * 1024 * 1024

        public init(path: String, head: @escaping @Sendable (String) -> Data) {
            self.path = path
            self.head = head
        }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.path == rhs.path }
        public func hash(into hasher: inout Hasher) { hasher.combine(path) }
    }

    /// The bytes an interrupted transfer received, from `offset` of the body on.
    public struct PartialBody: Sendable, Equatable {
        /// Where `bytes` start in the whole body: 0, or the `Resume.Point` the request continued from.
        public var offset: Int64
        public var bytes: Data
        public var validator: String

        /// The point to continue from once the bytes before `offset` are put in front.
        public var end: Int64 { offset + Int64(bytes.count) }
    }

    /// The validator a reply can be continued with, if any: a strong ETag, else Last-Modified;
    /// none when the reply refuses ranges or is content-encoded (ranges count encoded bytes, the
    /// transfer keeps decoded ones).
    static func validator(etag: String?, lastModified: String?, acceptRanges: String?, contentEncoding: String?) -> String? {
        if let acceptRanges, acceptRanges.trimmingWhitespace().lowercased() == "none" { return nil }
        if let contentEncoding, !contentEncoding.isEmpty, contentEncoding.lowercased() != "identity" { return nil }
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }

    /// The first byte position of a `Content-Range: bytes F-L/N` value, if it parses.
    static func firstBytePosition(ofContentRange value: String) -> Int64? {
        let trimmed = value.trimmingWhitespace()
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let range = trimmed.dropFirst(6).trimmingWhitespace()
        guard let dash = range.firstIndex(of: "-") else { return nil }
        return Int64(range[..<dash])
    }
}
