import FoundationEssentials
import Synchronization

/// A remote backend under the rules every tier follows: the tier never makes a load fail, and
/// a failing or slow tier costs little. `RemoteTierHealth` decides which requests go: a breaker
/// per direction pauses reads or writes after repeated failures and tests the tier again after a
/// cool-down; a refused upload makes the run read-only; a tier slower than the origin is skipped
/// for reads. A transient failure (429, 5xx, a reset) is tried once more after a short, jittered
/// wait. Each decision is a `-v` note and a count in the report; the first pause, refusal and
/// damaged object are also warnings.
///
/// Uploads wait in a backlog that `uploaders` tasks drain, held to `uploadBudget` bytes (see
/// `RemoteUploadBacklog`). A load waits for room only while uploads keep up (writes neither
/// paused nor refused, PUTs not far slower than origin fetches, reads not skipping the tier as
/// slow unless the run is filling it with PUTs that keep pace: `uploadsMayHoldLoads`);
/// otherwise an upload that finds the backlog full is turned away, so uploads never hold up the
/// results of a struggling tier: kept by its disk cache file (`RemoteUnsentUploads`) and sent
/// at `finish()` if the tier keeps pace by then, else counted as not uploaded. `finish()` waits
/// for the backlog to drain, or, with such a tier, cancels the uploads under way. Reads run
/// `-j` at a time (`RemoteReadSlots`), uploads in slots of their own: an upload never holds up
/// a read. The loads waiting for a read slot decide once they have one, so when the tier
/// stalls, those in flight pay one timeout together and the breaker it opens sends the waiting
/// ones to the origin; but a tier that has answered nothing 50 ms after the start is not waited
/// for at all (`watchForTheFirstAnswer`). The uploads' half is in `RemoteCacheTier+Uploads.swift`.
///
/// Thread safety: every method may be called from any task at once.
final class RemoteCacheTier: Sendable {
    let configuration: RemoteCacheConfiguration
    let backend: any RemoteCaching
    let uploaders: Int
    let health: RemoteTierHealth
    private let readSlots: RemoteReadSlots
    let state = Mutex(State())
    let uploads = Mutex<UploadQueue?>(nil)

    struct State {
        var report = RemoteCacheReport()
        var warnedOfDamage = false
        var warnedOfFailure = false
        /// Reasons already given in a warning: a wrong secret refuses reads and writes alike,
        /// and one warning says so.
        var warnedReasons: Set<String> = []
        /// Uploads of loads that skipped the tier before it had answered any read, waiting to
        /// learn whether it is being filled (see `uploadTurn`).
        var deferred = RemoteDeferredUploads()
        /// Uploads a full backlog turned away while loads could not wait: sent at `finish()`
        /// if the tier keeps pace by then.
        var unsent = RemoteUnsentUploads()
        /// The tier has answered a read: reads begun from then on find the engine started.
        var answeredARead = false
        /// The first read started the watch for an answer (`watchForTheFirstAnswer`).
        var watching = false
    }

    /// Some read has had bytes, an answer or a failure from the tier: it is answering. Set per
    /// chunk on the engine's thread, hence an atomic rather than `state`.
    private let heardFromTier = Atomic(false)

    /// The upload backlog and the tasks draining it, started at the first upload.
    struct UploadQueue {
        let backlog: RemoteUploadBacklog
        let drains: [Task<Void, Never>]
    }

    /// - Parameter transfers: the run's transfers at once (`-j`): as many reads of the tier, and
    ///   as many uploads, at most 4 (in slots of their own: they are in the background, and more
    ///   only crowd the tier and the machine while loads still run).
    ///
    /// Reads are held to `-j` like the origin's fetches, though a prefetch runs twice as many
    /// loads. With a slot for every load, a fresh `-j16` worker read 32 objects at once from a
    /// healthy loopback tier and took 0.603 and 0.539 s for 1000 images (mean of 8 runs, twice)
    /// against 0.516 and 0.492 s with 16 (the origin alone 0.503 and 0.432 s); four such workers
    /// started together crowded the machine until their first reads looked slow and sent 32 and
    /// 16 loads to the origin in two runs of the bench, 0 and 0 with 16 (16, from one worker, in
    /// 1 of 4 rounds more); and a `-j` that counts only some of the transfers says less than the
    /// help promises.
    init(configuration: RemoteCacheConfiguration, transfers: Int) {
        self.configuration = configuration
        health = RemoteTierHealth(coolDown: configuration.coolDown)
        uploaders = min(4, max(1, transfers))
        let slots = RemoteTransfers.Slots(reads: max(1, transfers), uploads: uploaders)
        readSlots = RemoteReadSlots(count: slots.reads)
        switch configuration.location {
        case .http(let base, let credentials):
            backend = HTTPRemoteCache(base: base, credentials: credentials, configuration: configuration, slots: slots)
        case .s3(let location):
            backend = S3RemoteCache(location: location, configuration: configuration, slots: slots)
        }
    }

    /// The object stored for `key`, or why there is none for this load: a miss, a failed read
    /// or a paused tier, or the health rules skipped the tier for its speed. The load passes the
    /// answer on to `upload`.
    func fetch(_ key: CacheKey, maxBytes: Int) async -> RemoteRead {
        watchForTheFirstAnswer()
        // Whether the load goes to the origin without waiting for a read slot: the tier has not
        // answered soon enough to be waited for (`RemoteSpeedRule.divertsToOrigin`).
        var diverted = false
        let answer = await readSlots.withSlot(unless: {
            diverted = health.divertsToOrigin()
            return diverted
        }) { await read(key, maxBytes: maxBytes) }
        return answer ?? (diverted ? .skippedForSpeed : .notFound)
    }

    /// From the first read: once the engine is ready, waits `RemoteSpeedRule.suspicion`, and if
    /// the tier has answered nothing by then, tells the speed rule and ends the waits for read
    /// slots, so that the loads behind the first reads go to the origin instead of waiting for
    /// them (see `RemoteSpeedRule`).
    private func watchForTheFirstAnswer() {
        guard !heardFromTier.load(ordering: .relaxed) else { return }
        let starts = state.withLock { state -> Bool in
            defer { state.watching = true }
            return !state.watching
        }
        guard starts else { return }
        Task.detached { [self] in
            guard case .success = await EngineStart.engine() else { return }
            let ready = ContinuousClock.now
            try? await Task.sleep(until: ready + RemoteSpeedRule.suspicion)
            guard !heardFromTier.load(ordering: .relaxed) else { return }
            let events = health.noAnswerYet(engineReadyAt: ready)
            announce(events)
            if !events.isEmpty { readSlots.divertWaiters() }
        }
    }

    private func heard() {
        if !heardFromTier.load(ordering: .relaxed) { heardFromTier.store(true, ordering: .relaxed) }
    }

    /// `fetch` once it has a read slot: whether to read is decided now, and the read timed from now.
    private func read(_ key: CacheKey, maxBytes: Int) async -> RemoteRead {
        let (admitted, events) = health.admitRead()
        announce(events)
        let pass: RemoteTierHealth.ReadPass
        switch admitted {
        case .read(let admitted): pass = admitted
        case .skip(let skip): return skip == .paused ? .notFound : .skippedForSpeed
        }
        // The speed rule times the attempt that answered: a retry's wait is the breaker's
        // business, and counted in would make a tier with a few 500s look slow.
        var start = ContinuousClock.now
        let cold = state.withLock { !$0.answeredARead }
        do throws(RemoteFailure) {
            let object = try await retryingOnce(.reads) { () async throws(RemoteFailure) in
                start = ContinuousClock.now
                return try await backend.fetch(key, maxBytes: maxBytes) { [self] in heard() }
            }
            heard()
            state.withLock { $0.answeredARead = true }
            announce(health.readAnswered(after: ContinuousClock.now - start, pass, cold: cold, found: object != nil))
            guard let object else {
                state.withLock { $0.report.misses += 1 }
                releaseDeferredUploads()
                return .notFound
            }
            return .found(object)
        } catch {
            heard()
            announce(health.readFailed(error, pass))
            return .notFound
        }
    }

    /// An origin fetch for a load the tier did not answer took `time`: what the speed rule
    /// compares the tier's reads with.
    func recordOriginFetch(after time: Duration) {
        announce(health.originFetched(after: time))
    }

    /// A fetched object passed every check and was served.
    func recordHit() {
        state.withLock { $0.report.hits += 1 }
        releaseDeferredUploads()
    }

    /// A fetched object is whole but of no use (older than the max age allows, or in another
    /// format version): a miss.
    func recordMiss() {
        state.withLock { $0.report.misses += 1 }
        releaseDeferredUploads()
    }

    /// A fetched object failed its checks; warns of the first.
    func recordDamage(of url: URL, reason: String) {
        let isFirst = state.withLock { state in
            state.report.damaged += 1
            defer { state.warnedOfDamage = true }
            return !state.warnedOfDamage
        }
        releaseDeferredUploads()
        if isFirst {
            configuration.warn(.damaged(tier: configuration.location.description, url: url.absoluteString, reason: reason))
        }
    }

    /// `request`, tried once more after a short wait (`RemoteTierHealth.retryWait`) when it fails
    /// for a transient reason: one 500 or 429 among thousands of requests should cost neither a
    /// hit nor an upload. The jitter keeps the loads that failed together from retrying together.
    func retryingOnce<T>(
        _ direction: RemoteTierEvent.Direction, _ request: () async throws(RemoteFailure) -> T
    ) async throws(RemoteFailure) -> T {
        do {
            return try await request()
        } catch where error.isRetried {
            health.countRetry()
            announce([.retrying(direction, reason: error.reason)])
            try? await Task.sleep(for: health.retryWait(direction, throttled: error.throttled))
            return try await request()
        }
    }

    /// Waits for every upload queued so far, then reports the run. Call once, after the last load.
    func finish() async -> RemoteCacheReport {
        let unsent = state.withLock { state in
            // Kept for an answer that never came: not uploaded.
            state.report.uploadFailures += state.deferred.takeAll().count
            return state.unsent.takeAll()
        }
        if let queue = uploads.withLock({ $0 }) {
            await send(unsent, to: queue.backlog)
            queue.backlog.close()
            // With a tier the loads may not wait for (reads skip it as slow, writes paused or
            // refused), the uploads under way would hold the run's end for a tier's slow
            // replies: they are cancelled and counted as not uploaded.
            if !uploadsMayHoldLoads { for drain in queue.drains { drain.cancel() } }
            for drain in queue.drains { await drain.value }
        }
        let counts = health.counts
        return state.withLock { state in
            state.report.health = counts
            return state.report
        }
    }

    /// Passes each decision to the `-v` notes; the first pause and a refused upload are also warnings.
    func announce(_ events: [RemoteTierEvent]) {
        guard !events.isEmpty else { return }
        let tier = configuration.location.description
        for event in events {
            configuration.note("remote cache \(tier): \(event)")
            switch event {
            case .paused(_, let reason):
                let isFirst = state.withLock { state in
                    defer { state.warnedOfFailure = true }
                    return !state.warnedOfFailure && state.warnedReasons.insert(reason).inserted
                }
                if isFirst { configuration.warn(.failing(tier: tier, reason: reason)) }
            case .readOnly(let reason):
                if state.withLock({ $0.warnedReasons.insert(reason).inserted }) {
                    configuration.warn(.readOnly(tier: tier, reason: reason))
                }
            default:
                break
            }
        }
    }
}
