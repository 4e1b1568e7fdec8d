import FoundationEssentials

/// How gently one downloader treats the servers it fetches from, for crawling other people's
/// hosts: wget's `--wait`, curl's `--limit-rate`, and a limit per host. The default changes nothing.
///
/// A host is the URL's host and port as written (lowercased); a redirect's target counts against
/// the host first asked, which is the one the engine schedules.
public struct Politeness: Hashable, Sendable {
    /// Most transfers in flight to one host at once; nil for no limit beyond the downloader's own.
    public var maxPerHost: Int?
    /// Least time between the starts of two requests to one host (a retry is a request too).
    public var waitBetweenRequests: Duration?
    /// Most body bytes a second received over all of the downloader's transfers together; nil
    /// for no limit. Shared out evenly among the transfers running at each moment.
    public var maxBytesPerSecond: Int?

    public init(maxPerHost: Int? = nil, waitBetweenRequests: Duration? = nil, maxBytesPerSecond: Int? = nil) {
        self.maxPerHost = maxPerHost.map { max(1, $0) }
        self.waitBetweenRequests = waitBetweenRequests
        self.maxBytesPerSecond = maxBytesPerSecond.map { max(1, $0) }
    }

    /// Whether hosts are scheduled one by one at all (a limit per host or a wait).
    var schedulesHosts: Bool { maxPerHost != nil || waitBetweenRequests != nil }
}

extension URL {
    /// The host and port a request is scheduled under (`Politeness`): lowercased, the port
    /// explicit only when the URL gives one.
    var hostAndPortForScheduling: String {
        let name = (host(percentEncoded: true) ?? "").lowercased()
        return port.map { "\(name):\($0)" } ?? name
    }
}
