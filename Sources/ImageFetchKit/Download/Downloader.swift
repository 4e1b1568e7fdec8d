import CCurl
import FoundationEssentials
import Synchronization

/// The network loader: fetches over the process's single libcurl engine, coalescing equal
/// requests, within this downloader's concurrency limit and queue order.
/// Coalescing and the limit are per downloader; connections and the DNS cache are shared by all.
///
/// Thread safety: every method may be called from any task or thread at once.
/// Cancellation: cancelling the calling task detaches only that caller; the transfer itself
/// stops when its last caller is gone.
public final class Downloader: DataLoading {
    public let configuration: DownloaderConfiguration
    let client: EngineClient
    /// Set by `stop`: every later load fails at once as cancelled.
    private let stopped = Atomic(false)

    public convenience init(configuration: DownloaderConfiguration = DownloaderConfiguration()) {
        self.init(configuration: configuration, observer: nil)
    }

    /// `observer` sees the engine's scheduling decisions for this downloader's transfers, on the
    /// engine's thread; tests use it to wait for a state instead of sleeping.
    init(configuration: DownloaderConfiguration, observer: (@Sendable (DownloadEvent) -> Void)?) {
        self.configuration = configuration
        self.client = EngineClient(id: CurlEngine.makeID(), configuration: configuration, observer: observer)
    }

    /// Starts loading libcurl (and its 30-odd libraries) and the engine on a thread of its own, if
    /// no one has yet, and returns at once: for a load that will need the network, so that the
    /// dynamic loader's 5 ms or so run beside the index opening and the task starting instead of
    /// after them. The first `Downloader` then finds the engine loaded or waits for the rest.
    /// A load that turns out not to need the network has spent a second core's time, not its own.
    ///
    /// An empty task goes first, so the concurrency runtime starts its first worker thread before
    /// the load: while dlopen runs, glibc's loader holds the lock every new thread's TLS set-up
    /// takes (pthread_create waits in _dl_allocate_tls_init, strace -k), so a worker started
    /// during the load would start the fetch's task only after it. Measured, two sessions of 80
    /// alternating one-URL misses into an existing cache: 11.91 → 10.61 ms and 13.72 → 12.28 ms.
    static func startEngine() {
        guard !engineStarted.exchange(true, ordering: .relaxed) else { return }
        Task.detached {}
        EngineStart.begin()
    }

    private static let engineStarted = Atomic(false)

    public func load(
        _ request: DownloadRequest,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws(DownloadError) -> DownloadResponse {
        let scheme = request.url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw DownloadError(url: request.url, kind: .unsupportedScheme)
        }
        guard !stopped.load(ordering: .acquiring) else { throw DownloadError(url: request.url, kind: .cancelled) }
        let client = self.client
        let id = CurlEngine.makeID()
        // Sent at once even while libcurl loads: the engine takes it as it starts (see `EngineStart`).
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<DownloadResponse, DownloadError>, Never>) in
                let requester = Requester(id: id, request: request, progress: progress) { continuation.resume(returning: $0) }
                EngineStart.send(.add(requester, client))
                // A cancellation that came before `add` reached the engine found nothing to cancel.
                if Task.isCancelled { EngineStart.send(.cancel(requesterID: id)) }
            }
        } onCancel: {
            // A task cancelled before its `add` was sent has nothing to cancel yet: never load libcurl for it.
            EngineStart.sendIfStarted(.cancel(requesterID: id))
        }
        return try result.get()
    }

    /// Cancels every transfer of this downloader and every load asked of it from now on: for a
    /// process told to stop. Each cancelled transfer still hands its requesters what it received
    /// (`DownloadError.partial`), so the bytes can be kept.
    public func stop() {
        stopped.store(true, ordering: .releasing)
        EngineStart.sendIfStarted(.stop(clientID: client.id))
    }
}
