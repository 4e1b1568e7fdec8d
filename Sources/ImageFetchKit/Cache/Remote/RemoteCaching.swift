import FoundationEssentials

/// A cache tier shared by many machines, behind each one's disk cache: one object per cache key,
/// read and written whole (sccache's storage backends are the model). `HTTPRemoteCache` (any
/// server that takes PUT) and `S3RemoteCache` implement it; `RemoteCacheTier` adds what every
/// backend needs: the health rules (`RemoteTierHealth`), the mode, the counts and the uploads in the background.
protocol RemoteCaching: Sendable {
    /// The object stored for `key` (nil when there is none), and how long the tier took to say.
    ///
    /// - Parameter maxBytes: the largest object accepted.
    /// - Throws: for anything but an object or its absence (unreachable, timed out, an error
    ///   status, refused credentials), sorted for the health rules.
    func fetch(_ key: CacheKey, maxBytes: Int) async throws(RemoteFailure) -> RemoteRead

    /// Stores `contents` as `key`'s object, replacing any; returns how long the tier took to
    /// take it (`DownloadResponse.answerTime`).
    func store(_ contents: Data, for key: CacheKey) async throws(RemoteFailure) -> Duration
}

/// What one read of a tier came to.
struct RemoteRead: Sendable {
    /// The object, or nil when the tier has none (or none of use: over the size limit).
    var object: RemoteObject?
    /// How long the tier took to answer once the request was sent (`DownloadResponse.answerTime`);
    /// nil when it did not answer (the read was cancelled, or stopped at the size limit).
    var answerTime: Duration?
}

/// One object as a remote tier returned it.
struct RemoteObject: Sendable {
    /// The object's bytes: a `RemoteEnvelope`, until checked.
    var contents: Data
    /// When the object was stored (its `Last-Modified`), if the server said.
    var lastModified: Date?
}
