import FoundationEssentials

/// A remote tier in an S3 bucket (or an S3-compatible store: MinIO, Ceph RGW, R2), each key one
/// object at `prefix/RemoteObjectName.path(for:)`. libcurl signs the requests with AWS Signature
/// Version 4 (`CURLOPT_AWS_SIGV4`), so S3 takes no dependency beyond the downloader's; the
/// credentials come from `AWSCredentialProvider`, fixed or fetched through the same downloader.
struct S3RemoteCache: RemoteCaching {
    let location: RemoteCacheLocation.S3Location
    let transfers: RemoteTransfers
    let credentials: AWSCredentialProvider

    init(location: RemoteCacheLocation.S3Location, configuration: RemoteCacheConfiguration, slots: RemoteTransfers.Slots) {
        self.location = location
        let hint = location.credentialSource.map { "Check the credentials from \($0.summary) and AWS_REGION." }
            ?? "Check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION."
        transfers = RemoteTransfers(
            configuration: configuration, slots: slots, credentials: nil, credentialsHint: hint,
            // Without the method: a wrong secret refuses reads and writes with one cause, and
            // one warning says so.
            explainReply: { status, body in S3ErrorReply(body).map { "S3 answered \(status) \($0.summary)." } })
        let fixed = location.credentials.map {
            AWSCredentialProvider.Credentials(key: $0.user, secret: $0.password, token: location.sessionToken)
        }
        let tier = RemoteCacheLocation.s3(location).description
        credentials = AWSCredentialProvider(
            fixed: fixed, source: location.credentialSource, downloader: transfers.downloader, timeout: configuration.timeout,
            note: { [note = configuration.note] in note("remote cache \(tier): \($0)") })
    }

    func fetch(_ key: CacheKey, maxBytes: Int, heard: @escaping @Sendable () -> Void) async throws(RemoteFailure) -> RemoteObject? {
        let signer = try await credentials.credentials()
        return try await transfers.get(
            objectURL(for: key), headers: headers(payload: Data(), signer), maxBytes: maxBytes, signing: signing(signer), heard: heard)
    }

    func store(_ contents: Data, for key: CacheKey) async throws(RemoteFailure) -> Duration {
        let signer = try await credentials.credentials()
        return try await transfers.put(contents, at: objectURL(for: key), headers: headers(payload: contents, signer), signing: signing(signer))
    }

    /// Path style on a custom endpoint (what S3-compatible stores take); virtual-hosted on AWS.
    private func objectURL(for key: CacheKey) -> URL {
        location.bucketURL.appendingPathComponent(RemoteObjectName.path(for: key, under: location.prefix))
    }

    /// Unsigned without credentials (a public bucket).
    private func signing(_ signer: AWSCredentialProvider.Credentials?) -> RemoteTransfers.Signing? {
        signer.map {
            RemoteTransfers.Signing(credentials: DownloadRequest.Credentials(user: $0.key, password: $0.secret),
                                    aws: DownloadRequest.AWSSigning(region: location.region))
        }
    }

    /// S3 wants the payload's SHA-256 in `x-amz-content-sha256`, signed with the rest, and
    /// temporary credentials' session token in `x-amz-security-token`; libcurl signs what it is
    /// given here.
    private func headers(payload: Data, _ signer: AWSCredentialProvider.Credentials?) -> [String: String] {
        var headers = ["x-amz-content-sha256": ContentHash.sha256Hex(payload)]
        if let token = signer?.token { headers["x-amz-security-token"] = token }
        return headers
    }
}
