import FoundationEssentials

/// A completed transfer: a 2xx reply with its whole body, or a 304 to a conditional request.
public struct DownloadResponse: Sendable {
    /// The URL that was asked for.
    public var url: URL
    /// The URL the body came from, after redirects.
    public var effectiveURL: URL
    /// The final HTTP status: 2xx, or 304 when `isNotModified`.
    public var statusCode: Int
    /// The whole body after content decoding (gzip); empty for a 304. When `resumedFrom` is
    /// above 0, the body from that byte on: the bytes before it are the requester's.
    public var body: Data
    /// The request's `resume` offset when the server continued the body (206), else 0.
    public var resumedFrom: Int64 = 0
    public var contentType: String?
    public var etag: String?
    /// `Last-Modified` exactly as sent, to be sent back as `If-Modified-Since`.
    public var lastModified: String?
    public var cacheControl: String?
    /// Every `X-Robots-Tag` field of the reply, in order.
    public var robotsTags: [String] = []
    /// How long the transfer that answered took, by libcurl's clock (`CURLINFO_TOTAL_TIME_T`):
    /// from its start on the network to its last byte, without the wait in the downloader's queue.
    public var transferTime: Duration = .zero

    /// True when the server answered a conditional request with 304: the cached copy is current.
    public var isNotModified: Bool { statusCode == 304 }

    /// `max-age` from `Cache-Control`, if present; `no-store` and `no-cache` give zero.
    /// A max-age that is not delta-seconds (digits only: `-5`, `+5`, `1.5`) also gives zero, as
    /// RFC 9111 asks of invalid freshness information (stale), and one past 2^31 seconds is 2^31.
    public var maxAge: Duration? {
        guard let cacheControl else { return nil }
        var age: Duration?
        for directive in cacheControl.lowercased().split(separator: ",") {
            let part = directive.trimmingWhitespace()
            if part == "no-store" || part == "no-cache" { return .zero }
            if part.hasPrefix("max-age=") {
                let digits = part.dropFirst("max-age=".count)
                guard digits.isASCIIDigits else { return .zero }
                age = .seconds(Int(digits).map { min($0, Self.greatestMaxAge) } ?? Self.greatestMaxAge)
            }
        }
        return age
    }

    /// What RFC 9111 takes for a delta-seconds too large to hold.
    private static let greatestMaxAge = 1 << 31
}

/// How far one transfer has come. `expected` is the body length when the server declared it
/// (and did not compress the body), otherwise nil. `received` only grows, except that a retry
/// starts it again from zero.
public struct DownloadProgress: Sendable, Equatable {
    /// Body bytes received so far.
    public var received: Int64
    public var expected: Int64?
    /// Set when the transfer failed for a transient reason and will be tried again (the counts
    /// then start over).
    public var retry: RetryNotice?

    public init(received: Int64, expected: Int64?, retry: RetryNotice? = nil) {
        self.received = received
        self.expected = expected
        self.retry = retry
    }

    /// `received / expected` in 0...1, when the length is known.
    public var fraction: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(Double(received) / Double(expected), 1)
    }
}
