import FoundationEssentials

/// The uploads' half of `RemoteCacheTier`: what goes up when, the backlog and its uploaders, the
/// uploads kept for the tier's first answer and those a full backlog turned away.
extension RemoteCacheTier {
    /// The bytes of images that may wait for an uploader before the loads that bring more wait
    /// too: a dozen photos, several for each uploader. Measured on the 1000-image corpus (280 MB)
    /// from loopback nginx into an nginx WebDAV tier: peak RSS 265 MB without a budget, 97-111 MB
    /// with 1 or 4 MiB, 115-121 MB with 16 MiB, and no slower (the run ends when its uploads do).
    static let uploadBudget = 4 << 20

    /// `RemoteTierHealth.uploadsMayHoldLoads`, the run filling the tier when its reads mostly missed.
    var uploadsMayHoldLoads: Bool {
        health.uploadsMayHoldLoads(filling: state.withLock { $0.report.misses > $0.report.hits })
    }

    /// Queues `image` to be stored as `key`'s object (read-write mode only); returns at once
    /// unless the backlog is full while uploads keep up, then when an uploader makes room. A
    /// failure is counted, never reported to the load. `read` is what the load's `fetch` answered;
    /// `path` is the disk cache's file of the image, if it has one: an upload the backlog has no
    /// room for while loads may not wait is kept by it for `finish()`.
    func upload(_ image: Data, for key: CacheKey, storedAt path: String?, after read: RemoteRead) async {
        guard configuration.mode == .readWrite else { return }
        let turn = uploadTurn(image, for: key, after: read)
        switch turn {
        case .now, .ifRoom: break
        case .never, .deferred: return
        }
        let queue = uploadQueue()
        if turn == .now, uploadsMayHoldLoads {
            await queue.backlog.put((image, key))
        } else if !queue.backlog.offer((image, key)) {
            state.withLock { state in
                let kept = path.map { state.unsent.keep(key, storedAt: $0) } ?? false
                if !kept { state.report.uploadFailures += 1 }
            }
        }
    }

    /// The backlog and its uploaders, started at the first upload.
    private func uploadQueue() -> UploadQueue {
        uploads.withLock { queue -> UploadQueue in
            if let queue { return queue }
            let backlog = RemoteUploadBacklog(byteBudget: Self.uploadBudget)
            let drains = (0..<uploaders).map { _ in
                Task {
                    while let (image, key) = await backlog.take() {
                        // Once the loads are done, a tier too slow to write to (or failing) would
                        // hold the process for minutes: what has not started is dropped, counted.
                        if backlog.isClosed, !self.uploadsMayHoldLoads {
                            self.state.withLock { $0.report.uploadFailures += 1 }
                            continue
                        }
                        await self.store(image, for: key)
                    }
                }
            }
            let made = UploadQueue(backlog: backlog, drains: drains)
            queue = made
            return made
        }
    }

    private enum UploadTurn {
        case now
        /// Into the backlog if it has room now, never waiting for it; else kept for the end
        /// like any upload a full backlog turns away (`RemoteUnsentUploads`).
        case ifRoom
        /// Not uploaded: most likely stored already, or counted as not uploaded.
        case never
        /// Kept until the tier answers a read (`releaseDeferredUploads`).
        case deferred
    }

    /// Whether `key`'s image goes up now. A load that skipped the tier for its speed while every
    /// read the tier had answered found its object is not uploaded: the tier most likely holds
    /// this one too. One that skipped it before it had answered anything waits to learn which it
    /// is (within `uploadBudget` bytes; beyond, it goes up if the backlog has room, as a tier
    /// being filled would want, without waiting for room, as a slow one would not, and else at
    /// the end if uploads keep up by then): a tier
    /// being filled answers with misses, and the image goes up then. Why: a fresh worker in
    /// front of a filled tier ten times slower than the origin re-uploaded what it skipped (8-12
    /// PUTs went through, 555-724 were dropped) and took 0.57-0.61 s against 0.52-0.56 s with the
    /// tier read-only (three runs each on a tmpfs; the origin alone 0.46-0.48 s); once only the
    /// loads skipped before the tier's first answer went up, 16-27 PUTs a round (which nginx
    /// writes to the disk the worker's cache is on), the bench's rounds took 0.10-0.38 s longer
    /// than the origin rounds beside them. Dropped instead of offered beyond the budget, 18 loads
    /// of one of four workers starting together to fill a tier (5 MB) left it 2 objects short in
    /// a run of `scripts/bench`.
    private func uploadTurn(_ image: Data, for key: CacheKey, after read: RemoteRead) -> UploadTurn {
        guard case .skippedForSpeed = read else { return .now }
        return state.withLock { state in
            let answered = state.report.hits + state.report.misses + state.report.damaged > 0
            if answered { return Self.tierHoldsItsObjects(state.report) ? .never : .now }
            return state.deferred.keep((image, key), within: Self.uploadBudget) ? .deferred : .ifRoom
        }
    }

    /// Every read the tier answered found its object, whole.
    private static func tierHoldsItsObjects(_ report: RemoteCacheReport) -> Bool {
        report.hits > 0 && report.misses == 0 && report.damaged == 0
    }

    /// The tier has answered a read: the uploads kept for that go up now, or are dropped as most
    /// likely stored. They join the backlog past its budget (they are in memory already) rather
    /// than being offered to it and dropped when it is full: four workers starting together to
    /// fill a tier, with them offered, dropped 2, 3 and 10 uploads in three runs of `scripts/bench
    /// remote`, and 0 in the next three with them admitted.
    func releaseDeferredUploads() {
        let (released, holds) = state.withLock { state in
            (state.deferred.takeAll(), Self.tierHoldsItsObjects(state.report))
        }
        guard !released.isEmpty, !holds else { return }
        let taken = uploadQueue().backlog.admit(released)
        if taken < released.count { state.withLock { $0.report.uploadFailures += released.count - taken } }
    }

    private func store(_ image: Data, for key: CacheKey) async {
        let (admitted, events) = health.admitWrite()
        announce(events)
        guard admitted else {
            state.withLock { $0.report.uploadFailures += 1 }
            return
        }
        let sealed = RemoteEnvelope.seal(image, for: key)
        do throws(RemoteFailure) {
            // Timed by libcurl, as the origin's fetches are (`recordOriginFetch`): the speed rule
            // compares the two. Why: timed whole, PUTs looked slower beside the origin's transfers
            // than they were, and with the pace rule of then (at most twice an origin transfer),
            // four workers filling a loopback tier at once left it 13-103 objects short in three
            // runs of `scripts/bench remote`.
            let took = try await retryingOnce(.writes) { () async throws(RemoteFailure) in try await backend.store(sealed, for: key) }
            state.withLock { $0.report.uploaded += 1 }
            announce(health.writeSucceeded(after: took))
        } catch {
            state.withLock { $0.report.uploadFailures += 1 }
            // Cancelled by `finish()`: nothing the tier did.
            guard !Task.isCancelled else { return }
            announce(health.writeFailed(error))
        }
    }

    /// The uploads turned away while loads could not wait, read back from the disk cache, while
    /// uploads may hold loads (a fill whose PUTs keep pace: the run ends when its uploads do);
    /// the rest once they may not (the tier paused, refused or slowed meanwhile), and any whose
    /// file is gone, are counted as not uploaded.
    func send(_ unsent: [RemoteUnsentUploads.Unsent], to backlog: RemoteUploadBacklog) async {
        guard !unsent.isEmpty, uploadsMayHoldLoads else {
            state.withLock { $0.report.uploadFailures += unsent.count }
            return
        }
        announce([.sendingUnsent(unsent.count)])
        for (index, upload) in unsent.enumerated() {
            guard uploadsMayHoldLoads else {
                state.withLock { $0.report.uploadFailures += unsent.count - index }
                return
            }
            if let image = RemoteUnsentUploads.image(of: upload) {
                await backlog.put((image, upload.key))
            } else {
                state.withLock { $0.report.uploadFailures += 1 }
            }
        }
    }
}
