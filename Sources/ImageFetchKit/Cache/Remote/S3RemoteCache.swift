import FoundationEssentials

/// A remote tier in an S3 bucket (or an S3-compatible store: MinIO, Ceph RGW, R2), each key one
/// object at `prefix/RemoteObjectName.path(for:)`. libcurl signs the requests with AWS Signature
/// Version 4 (`CURLOPT_AWS_SIGV4`), so S3 takes no dependency beyond the downloader's.
struct S3RemoteCache: RemoteCaching {
    let location: RemoteCacheLocation.S3Location
    let transfers: RemoteTransfers

    init(location: RemoteCacheLocation.S3Location, configuration: RemoteCacheConfiguration, downloader: DownloaderConfiguration) {
        self.location = location
        transfers = RemoteTransfers(
            configuration: configuration, downloader: downloader, credentials: location.credentials,
            signing: location.credentials.map { _ in DownloadRequest.AWSSigning(region: location.region) },
            credentialsHint: "Check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION.",
            // Without the method: a wrong secret refuses reads and writes with one cause, and
            // one warning says so.
            explainReply: { status, body in S3ErrorReply(body).map { "S3 answered \(status) \($0.summary)." } })
    }

    func fetch(_ key: CacheKey, maxBytes: Int) async throws(RemoteFailure) -> RemoteObject? {
        try await transfers.get(objectURL(for: key), headers: headers(payload: Data()), maxBytes: maxBytes)
    }

    func store(_ contents: Data, for key: CacheKey) async throws(RemoteFailure) {
        try await transfers.put(contents, at: objectURL(for: key), headers: headers(payload: contents))
    }

    /// Path style on a custom endpoint (what S3-compatible stores take); virtual-hosted on AWS.
    private func objectURL(for key: CacheKey) -> URL {
        location.bucketURL.appendingPathComponent(RemoteObjectName.path(for: key, under: location.prefix))
    }

    /// S3 wants the payload's SHA-256 in `x-amz-content-sha256`, signed with the rest; libcurl
    /// signs what it is given here.
    private func headers(payload: Data) -> [String: String] {
        var headers = ["x-amz-content-sha256": ContentHash.sha256Hex(payload)]
        if let token = location.sessionToken { headers["x-amz-security-token"] = token }
        return headers
    }
}
