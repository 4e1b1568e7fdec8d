import Synchronization

/// The open connections `PlainHTTPFetch` may send its next request on, by host and port: a batch
/// then makes a few connections, as libcurl would, instead of one for every image.
///
/// A connection is put back only after a response whose body it read to the declared end, and is
/// taken again only if nothing has arrived on it since: a server that closed it, or sent more than
/// it declared, leaves it readable, and it is closed instead.
final class PlainConnectionPool: Sendable {
    static let shared = PlainConnectionPool()

    /// Idle connections kept per host and port; more are closed when put back.
    static let idleLimit = 16

    private let idle = Mutex<[String: [PlainConnection]]>([:])

    /// An idle connection to the server (`PlainHTTPFetch.Target.hostAndPort`) that is still open
    /// and quiet, if there is one.
    func take(for server: String) -> PlainConnection? {
        while let connection = idle.withLock({ $0[server]?.popLast() }) {
            if connection.isQuiet() { return connection }
        }
        return nil
    }

    func putBack(_ connection: PlainConnection, for server: String) {
        // Closed outside the lock, by the last reference going.
        let surplus: PlainConnection? = idle.withLock { idle in
            guard idle[server, default: []].count < Self.idleLimit else { return connection }
            idle[server, default: []].append(connection)
            return nil
        }
        _ = surplus
    }
}
