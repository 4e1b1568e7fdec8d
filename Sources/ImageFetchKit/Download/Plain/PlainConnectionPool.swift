import Synchronization

/// The open connections `PlainHTTPFetch` may send its next request on, by server (host and
/// port): a batch then makes a few connections, as libcurl would, instead of one for every image.
///
/// A connection is put back only after a response it read to the declared end, and is taken again
/// only if nothing has arrived on it since: a server that closed it, or sent more than it
/// declared, leaves it readable, and it is closed instead.
final class PlainConnectionPool: Sendable {
    static let shared = PlainConnectionPool()

    /// Idle connections kept in all; past it the longest idle one is closed. A list of thousands
    /// of hosts would otherwise keep a connection to each, and run out of file descriptors.
    static let idleLimit = 32

    /// Oldest first.
    private let idle = Mutex<[(server: String, connection: PlainConnection)]>([])

    /// An idle connection to `server` (`PlainHTTPFetch.Target.hostAndPort`) that is still open and
    /// quiet, if there is one.
    func take(for server: String) -> PlainConnection? {
        while let connection = idle.withLock({ idle in idle.lastIndex { $0.server == server }.map { idle.remove(at: $0).connection } }) {
            if connection.isQuiet() { return connection }
        }
        return nil
    }

    func putBack(_ connection: PlainConnection, for server: String) {
        // Closed outside the lock, by the last reference going.
        let surplus: PlainConnection? = idle.withLock { idle in
            idle.append((server, connection))
            return idle.count > Self.idleLimit ? idle.removeFirst().connection : nil
        }
        _ = surplus
    }
}
