import FoundationEssentials

/// GETs and PUTs of whole objects through the process's libcurl engine, with the tier's own short
/// timeouts and no retries: what the HTTP and S3 backends share.
struct RemoteTransfers: Sendable {
    let downloader: Downloader
    /// The tier as messages name it (no credentials).
    let tier: String
    /// Timeouts, credentials and signing for every request.
    let options: DownloadRequest.Options
    /// What to check when the tier refuses the credentials (HTTP 401 or 403).
    let credentialsHint: String

    init(configuration: RemoteCacheConfiguration, downloader: DownloaderConfiguration, credentials: DownloadRequest.Credentials?,
         signing: DownloadRequest.AWSSigning? = nil, credentialsHint: String) {
        self.downloader = Downloader(configuration: downloader)
        tier = configuration.location.description
        options = DownloadRequest.Options(
            timeout: configuration.timeout, totalTimeout: configuration.totalTimeout, maxRedirects: 0,
            credentials: credentials, signing: signing)
        self.credentialsHint = credentialsHint
    }

    /// The object at `url`, or nil for a 404.
    func get(_ url: URL, headers: [String: String], maxBytes: Int) async throws(RemoteCacheError) -> RemoteObject? {
        var options = self.options
        options.maxBytes = maxBytes
        do {
            let response = try await downloader.load(DownloadRequest(url: url, headers: headers, options: options))
            return RemoteObject(contents: response.body, lastModified: response.lastModified.flatMap(HTTPDate.parse))
        } catch {
            // A cancelled load (the run is stopping) says nothing about the tier.
            if error.kind == .http(status: 404) || error.kind == .cancelled { return nil }
            throw unavailable(error)
        }
    }

    /// Puts `body` at `url`.
    func put(_ body: Data, at url: URL, headers: [String: String]) async throws(RemoteCacheError) {
        do {
            _ = try await downloader.load(DownloadRequest(url: url, headers: headers, options: options, method: .put(body: body)))
        } catch {
            throw unavailable(error)
        }
    }

    /// The error's cause in words that name neither the object's URL nor any credential.
    private func unavailable(_ error: DownloadError) -> RemoteCacheError {
        var reason = error.reason
        if case .http(let status) = error.kind, status == 401 || status == 403 { reason += " \(credentialsHint)" }
        return .unavailable(tier: tier, reason: reason)
    }
}
