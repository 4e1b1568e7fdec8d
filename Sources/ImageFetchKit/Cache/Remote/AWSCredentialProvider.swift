import FoundationEssentials
import Synchronization

/// The key pair an S3 tier signs with, and its session token: fixed keys (the variables, a
/// profile's), or temporary ones from an `AWSCredentialSource`, fetched through the tier's own
/// downloader at the first request and again once they are within `refreshWindow` of expiring,
/// as the SDKs refresh them. nil (unsigned requests, a public bucket) when there are none.
///
/// Thread safety: any task may ask at once; one fetch runs at a time and the others wait for it.
final class AWSCredentialProvider: Sendable {
    struct Credentials: Sendable, Equatable {
        var key: String
        var secret: String
        var token: String?
        /// When temporary credentials stop working; nil for long-term keys.
        var expiration: Date?
    }

    /// How long before their expiry temporary credentials are fetched again.
    static let refreshWindow: TimeInterval = 300

    let fixed: Credentials?
    let source: RemoteCacheLocation.AWSCredentialSource?
    let downloader: Downloader
    /// The tier's request timeout; the metadata service gets 1 s, as the SDKs give it.
    let timeout: Duration
    /// Told where each set of temporary credentials came from, for `-v`.
    let note: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var current: Credentials?
        /// The source has none to give (no instance role): requests go unsigned from then on.
        var hasNone = false
        var fetch: Task<Credentials?, any Error>?
    }

    init(fixed: Credentials?, source: RemoteCacheLocation.AWSCredentialSource?, downloader: Downloader, timeout: Duration,
         note: @escaping @Sendable (String) -> Void) {
        self.fixed = fixed
        self.source = source
        self.downloader = downloader
        self.timeout = timeout
        self.note = note
    }

    /// The credentials to sign the next request with; a failure to get them is the request's.
    func credentials() async throws(RemoteFailure) -> Credentials? {
        guard let source else { return fixed }
        enum Next { case ready(Credentials?), wait(Task<Credentials?, any Error>) }
        let now = Date()
        let next = state.withLock { state -> Next in
            if state.hasNone { return .ready(nil) }
            if let current = state.current, !Self.isExpiring(current, at: now) { return .ready(current) }
            if let fetch = state.fetch { return .wait(fetch) }
            let fetch = Task { () async throws -> Credentials? in
                let fetched = try await self.fetch(from: source)
                if let fetched {
                    self.note("credentials from \(source.summary)\(fetched.expiration.map { ", expiring \($0.formatted(.iso8601))" } ?? "")")
                }
                return fetched
            }
            state.fetch = fetch
            return .wait(fetch)
        }
        guard case .wait(let fetch) = next else {
            if case .ready(let credentials) = next { return credentials }
            return nil
        }
        do {
            let fetched = try await fetch.value
            state.withLock { state in
                if state.fetch == fetch { state.fetch = nil }
                if let fetched { state.current = fetched } else { state.hasNone = true }
            }
            return fetched
        } catch {
            state.withLock { state in if state.fetch == fetch { state.fetch = nil } }
            throw error as? RemoteFailure ?? RemoteFailure(kind: .other, reason: "\(error)")
        }
    }

    static func isExpiring(_ credentials: Credentials, at now: Date) -> Bool {
        guard let expiration = credentials.expiration else { return false }
        return expiration.timeIntervalSince(now) < refreshWindow
    }
}
