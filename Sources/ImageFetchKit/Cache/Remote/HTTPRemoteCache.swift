import FoundationEssentials

/// A remote tier on any HTTP server that stores what is PUT and serves it back with GET: nginx's
/// WebDAV module (`dav_methods PUT; create_full_put_path on;`), bazel-remote, Artifactory.
/// Each key is one object at `base/RemoteObjectName.path(for:)`.
struct HTTPRemoteCache: RemoteCaching {
    let base: URL
    let transfers: RemoteTransfers

    init(base: URL, credentials: DownloadRequest.Credentials?, configuration: RemoteCacheConfiguration, slots: RemoteTransfers.Slots) {
        self.base = base
        transfers = RemoteTransfers(
            configuration: configuration, slots: slots, credentials: credentials,
            credentialsHint: "Check the user and password in the remote cache URL.")
    }

    func fetch(_ key: CacheKey, maxBytes: Int, heard: @escaping @Sendable () -> Void) async throws(RemoteFailure) -> RemoteObject? {
        try await transfers.get(objectURL(for: key), headers: [:], maxBytes: maxBytes, heard: heard)
    }

    func store(_ contents: Data, for key: CacheKey) async throws(RemoteFailure) -> Duration {
        try await transfers.put(contents, at: objectURL(for: key), headers: [:])
    }

    private func objectURL(for key: CacheKey) -> URL {
        base.appendingPathComponent(RemoteObjectName.path(for: key))
    }
}
