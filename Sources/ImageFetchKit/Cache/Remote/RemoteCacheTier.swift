import FoundationEssentials
import Synchronization

/// A remote backend under the rules every tier follows: the tier never makes a load fail or
/// wait twice. The first failure that is not a plain miss (unreachable, timed out, 5xx, refused
/// credentials) puts it down for the rest of the run, with one warning, so a dead tier costs its
/// timeout once and not once per URL.
///
/// Uploads wait in a backlog that `uploaders` tasks drain, held to `uploadBudget` bytes (see
/// `RemoteUploadBacklog`); one that reaches the front after the tier went down is dropped
/// (counted), so a dead tier does not cost a timeout per queued upload either. `finish()` waits
/// for the backlog to drain. The tier's downloader admits every fetch and upload at once (see
/// `init`): none of them ever waits behind another for a slot, so the loads in flight when the
/// tier stalls all pay the same one timeout, together.
///
/// Thread safety: every method may be called from any task at once.
final class RemoteCacheTier: Sendable {
    let configuration: RemoteCacheConfiguration
    private let backend: any RemoteCaching
    private let uploaders: Int
    private let state = Mutex(State())
    private let uploads = Mutex<UploadQueue?>(nil)

    private struct State {
        var report = RemoteCacheReport()
        var warnedOfDamage = false
    }

    /// The upload backlog and the tasks draining it, started at the first upload.
    private struct UploadQueue {
        let backlog: RemoteUploadBacklog
        let drains: [Task<Void, Never>]
    }

    /// The bytes of images that may wait for an uploader before the loads that bring more wait
    /// too: a dozen photos, several for each uploader. Measured on the 1000-image corpus (280 MB)
    /// from loopback nginx into an nginx WebDAV tier: peak RSS 265 MB without a budget, 97-111 MB
    /// with 1 or 4 MiB, 115-121 MB with 16 MiB, and no slower (the run ends when its uploads do).
    static let uploadBudget = 4 << 20

    /// - Parameter loads: the most loads that may reach the tier at once (each fetches once);
    ///   uploads run `transfers` at a time, at most 4: they are in the background, and more
    ///   only crowd the tier (and the machine) while the loads are still running.
    init(configuration: RemoteCacheConfiguration, loads: Int, transfers: Int) {
        self.configuration = configuration
        uploaders = min(4, max(1, transfers))
        let downloader = DownloaderConfiguration(maxConcurrentDownloads: max(1, loads) + uploaders)
        switch configuration.location {
        case .http(let base, let credentials):
            backend = HTTPRemoteCache(base: base, credentials: credentials, configuration: configuration, downloader: downloader)
        case .s3(let location):
            backend = S3RemoteCache(location: location, configuration: configuration, downloader: downloader)
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

    /// A fetched object is whole but of no use (older than the max age allows, or in another
    /// format version): a miss.
    func recordMiss() {
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

    /// Queues `image` to be stored as `key`'s object (read-write mode only); returns at once
    /// unless the backlog is full, then when an uploader makes room. A failure is counted, never
    /// reported to the load.
    func upload(_ image: Data, for key: CacheKey) async {
        guard configuration.mode == .readWrite else { return }
        let queue = uploads.withLock { queue -> UploadQueue in
            if let queue { return queue }
            let backlog = RemoteUploadBacklog(byteBudget: Self.uploadBudget)
            let drains = (0..<uploaders).map { _ in
                Task { while let (image, key) = await backlog.take() { await self.store(image, for: key) } }
            }
            let made = UploadQueue(backlog: backlog, drains: drains)
            queue = made
            return made
        }
        await queue.backlog.put((image, key))
    }

    private func store(_ image: Data, for key: CacheKey) async {
        guard !isDown else {
            state.withLock { $0.report.uploadFailures += 1 }
            return
        }
        do throws(RemoteCacheError) {
            try await backend.store(RemoteEnvelope.seal(image, for: key), for: key)
            state.withLock { $0.report.uploaded += 1 }
        } catch {
            state.withLock { $0.report.uploadFailures += 1 }
            putDown(error)
        }
    }

    /// Waits for every upload queued so far, then reports the run. Call once, after the last load.
    func finish() async -> RemoteCacheReport {
        if let queue = uploads.withLock({ $0 }) {
            queue.backlog.close()
            for drain in queue.drains { await drain.value }
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
