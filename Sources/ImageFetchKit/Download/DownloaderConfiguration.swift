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

    /// Sends the requests `PlainHTTPFetch` takes (plain-http GETs with nothing libcurl must add)
    /// over imgfetch's own HTTP/1.1 client, and loads libcurl only for the rest: for the command
    /// line, where loading libcurl costs as much as curl's whole run. At most
    /// `maxConcurrentDownloads` such requests run at once, as for libcurl's (each kind has its own
    /// limit); they wait in order of arrival, whatever `order` says, and equal ones are not
    /// coalesced (the loader already coalesces loads of one image).
    public var plainHTTPWithoutLibcurl: Bool

    public init(maxConcurrentDownloads: Int = 6, order: Order = .fifo, plainHTTPWithoutLibcurl: Bool = false) {
        self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
        self.order = order
        self.plainHTTPWithoutLibcurl = plainHTTPWithoutLibcurl
    }
}
