import FoundationEssentials

/// A cache tier shared by many machines, behind each one's disk cache: one object per cache key,
/// read and written whole (sccache's storage backends are the model). `HTTPRemoteCache` (any
/// server that takes PUT) and `S3RemoteCache` implement it; `RemoteCacheTier` adds what every
/// backend needs: the health rules (`RemoteTierHealth`), the mode, the counts and the uploads in the background.
protocol RemoteCaching: Sendable {
    /// The object stored for `key`, or nil when there is none.
    ///
    /// - Parameters:
    ///   - maxBytes: the largest object accepted.
    ///   - heard: called as the object's bytes arrive, on the engine's thread (see
    ///     `DataLoading.load`): the tier is answering.
    /// - Throws: for anything but an object or its absence (unreachable, timed out, an error
    ///   status, refused credentials), sorted for the health rules.
    func fetch(_ key: CacheKey, maxBytes: Int, heard: @escaping @Sendable () -> Void) async throws(RemoteFailure) -> RemoteObject?

    /// Stores `contents` as `key`'s object, replacing any; returns the PUT's time in libcurl
    /// (`DownloadResponse.transferTime`).
    func store(_ contents: Data, for key: CacheKey) async throws(RemoteFailure) -> Duration
}

/// One object as a remote tier returned it.
struct RemoteObject: Sendable {
    /// The object's bytes: a `RemoteEnvelope`, until checked.
    var contents: Data
    /// When the object was stored (its `Last-Modified`), if the server said.
    var lastModified: Date?
}
