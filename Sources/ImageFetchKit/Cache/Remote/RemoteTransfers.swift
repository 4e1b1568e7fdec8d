import FoundationEssentials

/// GETs and PUTs of whole objects through the process's libcurl engine, with the tier's own
/// short timeouts and no retries of the downloader's own (`RemoteCacheTier` retries): what the
/// HTTP and S3 backends share.
struct RemoteTransfers: Sendable {
    /// GETs, and the credential fetches S3 makes.
    let downloader: Downloader
    /// PUTs, in slots of their own: an upload never holds up a read, whose time (what the speed
    /// rule judges the tier by) is then the tier's answer, not a wait behind uploads.
    let uploader: Downloader
    /// Timeouts, credentials and signing for every request.
    let options: DownloadRequest.Options
    /// What to check when the tier refuses the credentials (HTTP 401 or 403).
    let credentialsHint: String
    /// Set for a store whose error replies explain themselves (S3's XML): the reason given for
    /// an error status, from the start of the reply's body (nil when it explains nothing).
    let explainReply: (@Sendable (_ status: Int, _ body: Data) -> String?)?

    /// The most of an error reply's body read for `explainReply`: an S3 error document is well
    /// under 1 KiB, and an HTML page in its place is cut rather than held.
    static let errorBodyLimit = 16 << 10

    /// How many requests of each kind may be under way at once.
    struct Slots: Sendable {
        var reads: Int
        var uploads: Int
    }

    init(configuration: RemoteCacheConfiguration, slots: Slots, credentials: DownloadRequest.Credentials?,
         signing: DownloadRequest.AWSSigning? = nil, credentialsHint: String,
         explainReply: (@Sendable (_ status: Int, _ body: Data) -> String?)? = nil) {
        downloader = Downloader(configuration: DownloaderConfiguration(maxConcurrentDownloads: max(1, slots.reads)))
        uploader = Downloader(configuration: DownloaderConfiguration(maxConcurrentDownloads: max(1, slots.uploads)))
        options = DownloadRequest.Options(
            timeout: configuration.timeout, totalTimeout: configuration.totalTimeout, maxRedirects: 0,
            credentials: credentials, signing: signing, errorBodyLimit: explainReply == nil ? 0 : Self.errorBodyLimit)
        self.credentialsHint = credentialsHint
        self.explainReply = explainReply
    }

    /// The object at `url`, or nil for a 404 (or an object over `maxBytes`: of no use either);
    /// signed with `signing` when given (credentials fetched for this request). `heard` is
    /// called as the object's bytes arrive.
    func get(
        _ url: URL, headers: [String: String], maxBytes: Int, signing: Signing? = nil, heard: (@Sendable () -> Void)? = nil
    ) async throws(RemoteFailure) -> RemoteObject? {
        var options = self.options(signing)
        options.maxBytes = maxBytes
        do {
            let request = DownloadRequest(url: url, headers: headers, options: options)
            var progress: (@Sendable (DownloadProgress) -> Void)?
            if let heard { progress = { _ in heard() } }
            let response = try await downloader.load(request, progress: progress)
            return RemoteObject(contents: response.body, lastModified: response.lastModified.flatMap(HTTPDate.parse))
        } catch {
            // A cancelled load (the run is stopping) says nothing about the tier.
            switch error.kind {
            case .http(status: 404), .cancelled, .tooLarge: return nil
            default: throw failure(error)
            }
        }
    }

    /// Puts `body` at `url`, signed with `signing` when given; returns the transfer's time in
    /// libcurl, as the origin's fetches are timed (`DownloadResponse.transferTime`).
    func put(_ body: Data, at url: URL, headers: [String: String], signing: Signing? = nil) async throws(RemoteFailure) -> Duration {
        do {
            let response = try await uploader.load(DownloadRequest(url: url, headers: headers, options: options(signing), method: .put(body: body)))
            return response.transferTime
        } catch {
            throw failure(error)
        }
    }

    /// Credentials that sign one request, and how (AWS Signature Version 4).
    struct Signing: Sendable {
        var credentials: DownloadRequest.Credentials
        var aws: DownloadRequest.AWSSigning
    }

    private func options(_ signing: Signing?) -> DownloadRequest.Options {
        guard let signing else { return options }
        var options = self.options
        options.credentials = signing.credentials
        options.signing = signing.aws
        return options
    }

    /// The error sorted for the health rules, its cause in words that name neither the object's
    /// URL nor any credential.
    private func failure(_ error: DownloadError) -> RemoteFailure {
        var reason = error.reason
        if case .http(let status) = error.kind, let body = error.replyBody, let explained = explainReply?(status, body) {
            reason = explained
        }
        switch error.kind {
        case .http(let status) where status == 401 || status == 403:
            return RemoteFailure(kind: .refused(status: status), reason: "\(reason) \(credentialsHint)")
        case .http(let status) where status == 429 || (500...599).contains(status):
            return RemoteFailure(kind: .transient, reason: reason, throttled: status == 429 || status == 503)
        case .connectionLost, .truncated:
            return RemoteFailure(kind: .transient, reason: reason)
        case .connect, .dns, .timeout, .tls:
            return RemoteFailure(kind: .unreachable, reason: reason)
        default:
            return RemoteFailure(kind: .other, reason: reason)
        }
    }
}
