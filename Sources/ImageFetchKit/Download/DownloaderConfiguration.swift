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

    public init(maxConcurrentDownloads: Int = 6, order: Order = .fifo) {
        self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
        self.order = order
    }
}
