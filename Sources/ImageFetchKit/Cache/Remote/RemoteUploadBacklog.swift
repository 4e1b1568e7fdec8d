import FoundationEssentials
import Synchronization

/// The images waiting to be uploaded to the remote tier, held to a byte budget.
///
/// Why a budget: the origin can be far faster than the tier (an S3 bucket across the internet
/// behind a loopback or LAN origin), and a queue without one held every image of the batch in
/// memory until the tier caught up. When the waiting images would pass the budget, `put` waits
/// until an uploader takes one: the tier then paces the loads that feed it, and memory stays at
/// the budget plus the images being uploaded. An image larger than the budget is admitted alone.
///
/// Thread safety: every method may be called from any task at once.
final class RemoteUploadBacklog: Sendable {
    typealias Upload = (image: Data, key: CacheKey)

    private let state: Mutex<State>

    private struct State {
        let byteBudget: Int
        var waiting: [Upload] = []
        var waitingBytes = 0
        /// `put`s waiting for room, in arrival order, each with the upload it brings.
        var blockedPuts: [(upload: Upload, resume: CheckedContinuation<Void, Never>)] = []
        /// `take`s waiting for an upload.
        var idleTakers: [CheckedContinuation<Upload?, Never>] = []
        var isClosed = false

        /// Whether `count` more bytes keep the waiting images within the budget; an empty
        /// backlog takes any one image.
        func fits(_ count: Int) -> Bool {
            waitingBytes == 0 || waitingBytes + count <= byteBudget
        }

        mutating func append(_ upload: Upload) {
            waiting.append(upload)
            waitingBytes += upload.image.count
        }

        /// Moves the blocked puts that now fit (all of them once closed) into the backlog and
        /// returns them, to be resumed outside the lock.
        mutating func admitBlockedPuts() -> [CheckedContinuation<Void, Never>] {
            var admitted: [CheckedContinuation<Void, Never>] = []
            while let first = blockedPuts.first, isClosed || fits(first.upload.image.count) {
                blockedPuts.removeFirst()
                append(first.upload)
                admitted.append(first.resume)
            }
            return admitted
        }
    }

    private enum PutOutcome {
        case handedOver(CheckedContinuation<Upload?, Never>)
        case admitted
        case blocked
        case dropped
    }

    init(byteBudget: Int) {
        state = Mutex(State(byteBudget: byteBudget))
    }

    /// Whether `close()` was called: no more uploads will come.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// The bytes of the images waiting now (not those being uploaded).
    var waitingBytes: Int { state.withLock { $0.waitingBytes } }

    /// Adds `upload`, waiting while the backlog is full. After `close()` the upload is dropped.
    func put(_ upload: Upload) async {
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
            let outcome: PutOutcome = state.withLock { state in
                if state.isClosed { return .dropped }
                if !state.idleTakers.isEmpty { return .handedOver(state.idleTakers.removeFirst()) }
                guard state.blockedPuts.isEmpty, state.fits(upload.image.count) else {
                    state.blockedPuts.append((upload, resume))
                    return .blocked
                }
                state.append(upload)
                return .admitted
            }
            switch outcome {
            case .handedOver(let taker):
                taker.resume(returning: upload)
                resume.resume()
            case .admitted, .dropped:
                resume.resume()
            case .blocked:
                break  // resumed by the `take` or `close` that makes room
            }
        }
    }

    /// Adds `upload` if it fits now (or an uploader is idle) and returns whether it did; never
    /// waits. After `close()` the upload is dropped (and false returned).
    func offer(_ upload: Upload) -> Bool {
        let outcome: PutOutcome = state.withLock { state in
            if state.isClosed { return .dropped }
            if !state.idleTakers.isEmpty { return .handedOver(state.idleTakers.removeFirst()) }
            guard state.blockedPuts.isEmpty, state.fits(upload.image.count) else { return .blocked }
            state.append(upload)
            return .admitted
        }
        switch outcome {
        case .handedOver(let taker):
            taker.resume(returning: upload)
            return true
        case .admitted: return true
        case .blocked, .dropped: return false
        }
    }

    /// Adds every one of `uploads`, past the budget if need be, handing them to idle uploaders
    /// first; returns how many it took: none after `close()`. For images held in memory already
    /// (the tier's deferred uploads, see `RemoteCacheTier.releaseDeferredUploads`), which moving
    /// in adds nothing to: later `put`s wait, and `offer`s fail, until the backlog is back
    /// within its budget.
    func admit(_ uploads: [Upload]) -> Int {
        let handedOver: [(taker: CheckedContinuation<Upload?, Never>, upload: Upload)]? = state.withLock { state in
            guard !state.isClosed else { return nil }
            var handedOver: [(taker: CheckedContinuation<Upload?, Never>, upload: Upload)] = []
            for upload in uploads {
                if state.idleTakers.isEmpty {
                    state.append(upload)
                } else {
                    handedOver.append((state.idleTakers.removeFirst(), upload))
                }
            }
            return handedOver
        }
        guard let handedOver else { return 0 }
        for (taker, upload) in handedOver { taker.resume(returning: upload) }
        return uploads.count
    }

    /// The oldest waiting upload, waiting for one when there is none; nil once the backlog is
    /// closed and empty.
    func take() async -> Upload? {
        await withCheckedContinuation { (taker: CheckedContinuation<Upload?, Never>) in
            let (next, admitted): (Upload??, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                guard !state.waiting.isEmpty else {
                    if state.isClosed { return (.some(nil), []) }
                    state.idleTakers.append(taker)
                    return (.none, [])
                }
                let upload = state.waiting.removeFirst()
                state.waitingBytes -= upload.image.count
                return (.some(upload), state.admitBlockedPuts())
            }
            for resume in admitted { resume.resume() }
            if case .some(let upload) = next { taker.resume(returning: upload) }
        }
    }

    /// No more uploads: waiting takers get nil and later puts are dropped. Uploads already
    /// waiting, and puts still blocked, are taken as before.
    func close() {
        let (takers, admitted) = state.withLock { state in
            state.isClosed = true
            let admitted = state.admitBlockedPuts()
            // Blocked puts only wait while uploads are waiting, so idle takers mean none were.
            defer { state.idleTakers = [] }
            return (state.idleTakers, admitted)
        }
        for resume in admitted { resume.resume() }
        for taker in takers { taker.resume(returning: nil) }
    }
}
