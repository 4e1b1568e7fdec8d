import FoundationEssentials

/// Why one URL could not be loaded. Every case names the URL and keeps the layer's own error whole.
public enum LoaderError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, coarse enough for a script to act on (the command line maps it to an exit code).
    public enum Category: String, Sendable, CaseIterable {
        /// Could not reach the server or the transfer broke off (DNS, connect, TLS, timeout, reset).
        case network
        /// The server answered with an HTTP error status.
        case http
        /// The body is not a supported, complete image within the limits.
        case notAnImage
        /// `cacheOnly` was set and the image is not cached.
        case notCached
        /// The URL is on the failed-URL list.
        case blocked
        /// The cache or a local file could not be read or written, or a codec library loaded.
        case file
        /// The argument is not a URL imgfetch can fetch.
        case usage
        /// The site's robots.txt or the reply's X-Robots-Tag refuses crawlers the image.
        case refused
    }

    /// The argument is not an absolute http or https URL.
    case invalidURL(String)
    /// `cacheOnly` was set and there is no usable entry for the URL.
    case notCached(URL)
    /// An earlier load failed for a permanent reason; the URL is skipped until `retryFailed` or expiry.
    case blocked(URL, reason: String, failedAt: Date)
    /// The transfer failed.
    case download(URL, DownloadError)
    /// The body was fetched (or read from the cache) but is not a valid image within the limits.
    case invalidImage(URL, DecodeError)
    /// The cache could not be read or written.
    case cache(URL, DiskCache.Error)
    /// The image loaded, but the transform could not make its variant.
    case transform(URL, TransformError)
    /// With `respectRobots`: the site's robots.txt refuses the URL (`rule` is its line), or the
    /// reply's X-Robots-Tag opts the image out (`rule` is the field's value). Nothing is cached.
    case refusedByRobots(URL, rule: String, byTag: Bool)

    public var url: String {
        switch self {
        case .invalidURL(let text): text
        case .notCached(let url), .blocked(let url, _, _), .download(let url, _), .invalidImage(let url, _), .cache(let url, _),
             .transform(let url, _), .refusedByRobots(let url, _, _):
            url.redactedString
        }
    }

    public var category: Category {
        switch self {
        case .invalidURL: .usage
        case .notCached: .notCached
        case .blocked: .blocked
        case .refusedByRobots: .refused
        // A codec library that cannot be loaded is this machine's problem, like an unreadable cache.
        case .invalidImage(_, .libraryUnavailable): .file
        case .invalidImage: .notAnImage
        case .cache: .file
        // The original is a valid image; what failed is this machine or the requested output.
        case .transform(_, let error): error.isLibraryUnavailable ? .file : .notAnImage
        case .download(_, let error):
            switch error.kind {
            case .http: .http
            case .tooLarge, .badContentEncoding: .notAnImage
            case .unsupportedScheme: .usage
            default: .network
            }
        }
    }

    /// Whether the failure goes on the failed-URL list: what the server said for good (a 4xx,
    /// a body too large, a refused redirect) and invalid images do; network-class failures never do.
    public var isPermanent: Bool {
        switch self {
        case .download(_, let error): !error.isTransient && error.kind != .unsupportedScheme
        case .invalidImage(_, .libraryUnavailable): false
        case .invalidImage: true
        // A transform's failure says nothing against the URL, whose original loaded.
        // A refusal by the site's own rules is asked again on every run, never remembered.
        case .invalidURL, .notCached, .blocked, .cache, .transform, .refusedByRobots: false
        }
    }

    /// Whether the load ended because its task was cancelled (its transfer stopped).
    public var isCancellation: Bool {
        if case .download(_, let error) = self, error.kind == .cancelled { return true }
        return false
    }

    /// The cause alone, as one sentence, without the URL (the command line prefixes it).
    public var reason: String {
        switch self {
        case .invalidURL:
            return "Not an absolute http or https URL."
        case .notCached:
            return "Not in the cache, and --cache-only forbids fetching it."
        case .blocked(_, let reason, let failedAt):
            let reason = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
            return "Skipped: it failed at \(failedAt.formatted(.iso8601)) (\(reason)); use --retry-failed to fetch it again."
        case .download(_, let error):
            return error.reason
        case .invalidImage(_, let error):
            return error.description
        case .cache(_, let error):
            return error.description
        case .transform(_, let error):
            return error.description
        case .refusedByRobots(_, let rule, let byTag):
            return byTag
                ? "The reply's X-Robots-Tag opts the image out (\(rule)); nothing was cached."
                : "The site's robots.txt refuses it (\(rule)); it was not requested."
        }
    }

    public var description: String { "\(url): \(reason)" }
}

extension DownloadError {
    /// What went wrong, without the URL.
    var reason: String {
        let sentence = switch kind {
        case .unsupportedScheme: "Only http and https URLs are supported."
        case .dns: "The host name could not be resolved."
        case .connect: "Could not connect to the server."
        case .tls: "The secure connection failed (pass --cacert, or --insecure only if you trust the network)."
        case .timeout: "The transfer timed out."
        case .connectionLost: "The connection was lost."
        case .truncated: "The body ended before its declared length."
        case .http(let status): "The server answered HTTP \(status)."
        case .tooLarge(let limit): "The body is larger than the limit of \(limit) bytes (--max-bytes)."
        case .redirectRefused: "It redirects to a scheme other than http or https."
        case .tooManyRedirects(let limit): "More than \(limit) redirects."
        case .badContentEncoding: "The compressed body could not be decoded."
        case .cancelled: "The transfer was cancelled."
        case .transport(let code): "The transfer failed (libcurl error \(code))."
        case .resumeRefused: "The server would not continue the partial body."
        }
        guard let detail, !detail.isEmpty else { return sentence }
        return "\(sentence.dropLast()): \(detail)."
    }
}
