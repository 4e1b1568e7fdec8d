/// How one load may use the caches and the network; the command-line flags map onto these one to one.
///
/// A value type: build it once per command and share it between any number of concurrent loads.
public struct LoadOptions: Sendable {
    /// How thoroughly a response is checked before it is stored.
    public enum Verification: String, Sendable, CaseIterable {
        /// Format sniffed, header probed, structure complete (always on, nearly free).
        case header
        /// Everything `header` does, plus a full decode of every pixel.
        case decode
    }

    /// Revalidate a disk hit with its stored ETag / Last-Modified: a 304 keeps and renews the entry,
    /// a 200 replaces it.
    public var refresh = false
    /// Never touch the network; a miss is `LoaderError.notCached`.
    public var cacheOnly = false
    /// Use the memory cache only: nothing is read from or written to disk.
    public var noDiskCache = false
    /// Fetch even if the URL is on the failed-URL list (and take it off on success).
    public var retryFailed = false
    /// A disk entry older than this (seconds) is a miss; `nil` uses the cache's own max age.
    public var maxAge: Double?
    /// Longest wait to connect, and longest the body may come slower than 1 byte a second, in seconds.
    public var timeout: Double = 15
    /// Longest one transfer may take in all, in seconds (curl's `--max-time`); nil for no limit.
    public var maxTime: Double?
    /// The `User-Agent` sent; nil for `imgfetch/VERSION`.
    public var userAgent: String?
    /// A `Cookie` header sent with every request, as given (`NAME=VALUE; NAME2=VALUE2`).
    public var cookie: String?
    /// Honour the site's robots.txt (asked once per run) and the reply's X-Robots-Tag opt-outs
    /// (`noai`, `noimageai`, `none`, `noindex`): a refused URL fails with `refusedByRobots`.
    public var respectRobots = false
    /// Continue a body an earlier load left as a partial file, and keep one when a transfer stops
    /// (see `Resume`); off, every body is asked for whole.
    public var resume = true
    /// Extra request headers, in the order given.
    public var headers: [(name: String, value: String)] = []
    /// Basic authentication as `user:password`.
    public var user: String?
    /// Skip TLS certificate and host verification: an explicit opt-in.
    public var insecure = false
    /// A PEM file of certificate authorities to trust instead of the system's.
    public var caCertificatePath: String?
    /// The largest body accepted, in bytes.
    public var maxBytes: Int = 100 * 1024 * 1024
    /// The most pixels (width × height) an image may have; checked from the header before any decode.
    public var maxPixels: Int = 100_000_000
    /// Retries for transient failures (curl's `--retry`): exponential backoff, Retry-After honoured.
    public var retries = 0
    /// How thoroughly a response is checked before it is cached.
    public var verification: Verification = .header
    /// Turns a URL into its cache key (e.g. dropping the signature of a signed URL).
    public var keyFilter: CacheKeyFilter = .none
    /// What to make of the image: the load then answers with that variant (made from the original,
    /// which is loaded and cached as usual) instead of the original; nil loads the original.
    public var transform: TransformSpec?

    public init() {}
}
