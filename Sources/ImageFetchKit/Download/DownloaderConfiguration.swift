/// How one `Downloader` schedules its transfers. Every downloader shares the process's single
/// network engine (one thread, one connection pool), but each keeps its own queue and limit.
public struct DownloaderConfiguration: Hashable, Sendable {
    /// Transfers running at once; further ones wait in the queue. At least 1.
    public var maxConcurrentDownloads: Int
    /// Which queued transfer of the same priority starts first.
    public var order: Order

    public enum Order: Hashable, Sendable {
        /// First queued, first started (the default).
        case fifo
        /// Last queued, first started: the newest request is probably the one still wanted.
        case lifo
    }

    /// Lets the first request, when `PlainHTTPFetch` takes it (a plain-http GET), go over
    /// imgfetch's own HTTP/1.1 client instead of waiting for libcurl to load: for a command that
    /// fetches one URL. Later requests, and any the client hands back, go over libcurl.
    public var firstRequestWithoutLibcurl: Bool

    public init(maxConcurrentDownloads: Int = 6, order: Order = .fifo, firstRequestWithoutLibcurl: Bool = false) {
        self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
        self.order = order
        self.firstRequestWithoutLibcurl = firstRequestWithoutLibcurl
    }
}
