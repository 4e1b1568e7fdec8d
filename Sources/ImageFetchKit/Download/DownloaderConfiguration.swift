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

    /// Limits per host and on the whole downloader's rate (none by default).
    public var politeness: Politeness
    /// A cookie file in curl's Netscape format: when set, every transfer of this downloader shares
    /// libcurl's cookie engine, which reads the file (if it exists) before the first transfer;
    /// `Downloader.cookies()` gives what it holds at the end. Nil: no cookie engine.
    public var cookieFile: String?

    public init(maxConcurrentDownloads: Int = 6, order: Order = .fifo, politeness: Politeness = Politeness(), cookieFile: String? = nil) {
        self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
        self.order = order
        self.politeness = politeness
        self.cookieFile = cookieFile
    }
}
