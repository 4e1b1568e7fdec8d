/// Why one request to the remote tier failed, sorted by what the tier's health rules do with it
/// (see `RemoteTierHealth`). Internal: the loader only ever sees a miss, and the command line
/// the `RemoteCacheError` warnings these lead to.
struct RemoteFailure: Error, Sendable, Equatable {
    var kind: Kind
    /// The cause in words that name neither the object's URL nor any credential.
    var reason: String
    /// A transient failure in which the tier said it is overloaded (429, 503): its retry waits
    /// longer (`RemoteTierHealth.retryWait`).
    var throttled = false

    enum Kind: Sendable, Equatable {
        /// An error status of the moment (429, 5xx) or a connection reset or cut short: worth
        /// one more try after a short, jittered wait.
        case transient
        /// The tier could not be reached at all (no connection, or nothing within its timeout):
        /// both directions pause at once, since each request would cost the same again.
        case unreachable
        /// The tier refused the request (HTTP 401 or 403): not retried.
        case refused(status: Int)
        /// Anything else (another 4xx, an unusable reply).
        case other
    }

    var isRetried: Bool { kind == .transient }
}
