import FoundationEssentials

/// Why a download failed: which URL, what kind of failure, and the transport's own words for it.
public struct DownloadError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    public var url: URL
    public var kind: Kind
    /// libcurl's message for the failure when it gave one, e.g. "SSL certificate problem: …".
    public var detail: String?
    /// What an interrupted body left that a later request can continue (see `Resume`).
    public var partial: Resume.PartialBody?
    /// The start of an error reply's body, when the request asked for it (`errorBodyLimit`).
    public var replyBody: Data?

    public init(url: URL, kind: Kind, detail: String? = nil, partial: Resume.PartialBody? = nil, replyBody: Data? = nil) {
        self.url = url
        self.kind = kind
        self.detail = detail
        self.partial = partial
        self.replyBody = replyBody
    }

    public enum Kind: Sendable, Equatable {
        /// The URL's scheme is not http or https.
        case unsupportedScheme
        /// The host name (or proxy name) did not resolve.
        case dns
        /// No connection could be made.
        case connect
        /// The TLS handshake or the server's certificate failed verification.
        case tls
        /// Connecting took too long, or the transfer stalled or ran past its total time.
        case timeout
        /// The connection broke before a complete reply arrived.
        case connectionLost
        /// The body ended before the declared length.
        case truncated
        /// The server answered with a status other than 2xx (or 304 to a conditional request).
        case http(status: Int)
        /// The body is larger than the request's `maxBytes` (declared or while streaming).
        case tooLarge(limit: Int)
        /// A redirect pointed to a scheme other than http or https.
        case redirectRefused
        /// More redirects than the request allows (or a loop).
        case tooManyRedirects(limit: Int)
        /// The body's content encoding could not be decoded.
        case badContentEncoding
        /// Every requester cancelled.
        case cancelled
        /// Any other transport failure, with libcurl's code.
        case transport(code: Int)
        /// The server would not continue a partial body where asked (416, or a `Content-Range`
        /// starting elsewhere): the requester starts over.
        case resumeRefused
    }

    /// True for failures of the network or the moment (DNS, connect, TLS, timeout, a lost or short
    /// connection, cancellation, HTTP 408/429/5xx): the URL may work later, so the loader never
    /// puts it on its failed-URL list. False for what the server said for good (other 4xx, too large,
    /// refused redirects).
    public var isTransient: Bool {
        switch kind {
        case .dns, .connect, .tls, .timeout, .connectionLost, .truncated, .cancelled, .transport, .resumeRefused:
            return true
        case .http(let status):
            return status == 408 || status == 429 || (500...599).contains(status)
        case .unsupportedScheme, .tooLarge, .redirectRefused, .tooManyRedirects, .badContentEncoding:
            return false
        }
    }

    /// True for what curl's `--retry` retries: connect failures, timeouts, HTTP 408/429/500/502/503/504;
    /// and a body cut short that left bytes to continue from, since its retry costs only the rest.
    public var isRetryable: Bool {
        switch kind {
        case .connect, .timeout: return true
        case .connectionLost, .truncated: return partial != nil
        case .http(let status): return [408, 429, 500, 502, 503, 504].contains(status)
        default: return false
        }
    }

    public var description: String {
        let url = url.redactedString
        let sentence: String
        switch kind {
        case .unsupportedScheme: sentence = "Cannot download \(url): only http and https URLs are supported."
        case .dns: sentence = "Cannot download \(url): the host name could not be resolved."
        case .connect: sentence = "Cannot download \(url): could not connect to the server."
        case .tls: sentence = "Cannot download \(url): the secure connection failed (use a CA file, or --insecure only if you trust the network)."
        case .timeout: sentence = "Downloading \(url) timed out."
        case .connectionLost: sentence = "Downloading \(url) failed: the connection was lost."
        case .truncated: sentence = "Downloading \(url) failed: the body ended before its declared length."
        case .http(let status): sentence = "Downloading \(url) failed: the server answered HTTP \(status)."
        case .tooLarge(let limit): sentence = "Downloading \(url) stopped: the body is larger than the limit of \(limit) bytes."
        case .redirectRefused: sentence = "Downloading \(url) stopped: it redirects to a scheme other than http or https."
        case .tooManyRedirects(let limit): sentence = "Downloading \(url) stopped: more than \(limit) redirects."
        case .badContentEncoding: sentence = "Downloading \(url) failed: the compressed body could not be decoded."
        case .cancelled: sentence = "Downloading \(url) was cancelled."
        case .transport(let code): sentence = "Downloading \(url) failed (libcurl error \(code))."
        case .resumeRefused: sentence = "Downloading \(url) failed: the server would not continue the partial body."
        }
        guard let detail, !detail.isEmpty else { return sentence }
        return "\(sentence) (\(detail))"
    }

    public var errorDescription: String? { description }
}
