import FoundationEssentials
import Synchronization

/// A remote backend under the rules every tier follows: the tier never makes a load fail or
/// wait twice. The first failure that is not a plain miss (unreachable, timed out, 5xx, refused
/// credentials) puts it down for the rest of the run, with one warning, so a dead tier costs its
/// timeout once and not once per URL. Uploads run in the background; `finish()` waits for them.
///
/// Thread safety: every method may be called from any task at once.
final class RemoteCacheTier: Sendable {
    let configuration: RemoteCacheConfiguration
    private let backend: any RemoteCaching
    private let state = Mutex(State())

    private struct State {
        var report = RemoteCacheReport()
        var warnedOfDamage = false
        var pendingUploads = 0
        var waitingForUploads: [CheckedContinuation<Void, Never>] = []
    }

    /// - Parameter concurrency: transfers to the tier at once.
    init(configuration: RemoteCacheConfiguration, concurrency: Int) {
        self.configuration = configuration
        switch configuration.location {
        case .http(let base, let credentials):
            backend = HTTPRemoteCache(base: base, credentials: credentials, configuration: configuration, concurrency: concurrency)
        case .s3(let location):
            backend = S3RemoteCache(location: location, configuration: configuration, concurrency: concurrency)
        }
    }

    var isDown: Bool { state.withLock { $0.report.downReason != nil } }

    /// The object stored for `key`; nil for a miss, or when the tier is (or just went) down.
    func fetch(_ key: CacheKey, maxBytes: Int) async -> RemoteObject? {
        guard !isDown else { return nil }
        do {
            let object = try await backend.fetch(key, maxBytes: maxBytes)
            if object == nil { state.withLock { $0.report.misses += 1 } }
            return object
        } catch {
            putDown(error)
            return nil
        }
    }

    /// A fetched object passed every check and was served.
    func recordHit() {
        state.withLock { $0.report.hits += 1 }
    }

    /// A fetched object was older than the max age allows: a miss.
    func recordStale() {
        state.withLock { $0.report.misses += 1 }
    }

    /// A fetched object failed its checks; warns of the first.
    func recordDamage(of url: URL, reason: String) {
        let isFirst = state.withLock { state in
            state.report.damaged += 1
            defer { state.warnedOfDamage = true }
            return !state.warnedOfDamage
        }
        if isFirst {
            configuration.warn(.damaged(tier: configuration.location.description, url: url.absoluteString, reason: reason))
        }
    }

    /// Stores `image` as `key`'s object in the background (read-write mode only). A failure is
    /// counted, never reported to the load.
    func upload(_ image: Data, for key: CacheKey) {
        guard configuration.mode == .readWrite else { return }
        let isDown = state.withLock { state in
            if state.report.downReason != nil {
                state.report.uploadFailures += 1
                return true
            }
            state.pendingUploads += 1
            return false
        }
        guard !isDown else { return }
        Task {
            do throws(RemoteCacheError) {
                try await backend.store(RemoteEnvelope.seal(image), for: key)
                state.withLock { $0.report.uploaded += 1 }
            } catch {
                state.withLock { $0.report.uploadFailures += 1 }
                putDown(error)
            }
            let waiting = state.withLock { state in
                state.pendingUploads -= 1
                guard state.pendingUploads == 0 else { return [CheckedContinuation<Void, Never>]() }
                defer { state.waitingForUploads = [] }
                return state.waitingForUploads
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    /// Waits for every upload started so far, then reports the run.
    func finish() async -> RemoteCacheReport {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.pendingUploads == 0 { return true }
                state.waitingForUploads.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        return state.withLock { $0.report }
    }

    /// Takes the tier out of use for the rest of the run; the first time, warns.
    private func putDown(_ error: RemoteCacheError) {
        guard case .unavailable(_, let reason) = error else { return }
        let isFirst = state.withLock { state in
            guard state.report.downReason == nil else { return false }
            state.report.downReason = reason
            return true
        }
        if isFirst { configuration.warn(error) }
    }
}
