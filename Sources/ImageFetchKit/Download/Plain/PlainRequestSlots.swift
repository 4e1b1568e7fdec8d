import Synchronization

/// A `Downloader`'s limit on transfers at once, for the requests it sends over `PlainHTTPFetch`:
/// they skip the engine's queue, so they wait here instead, in order of arrival.
final class PlainRequestSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(free: max(1, count)))
    }

    /// Waits for a free slot and takes it; false, with no slot, when the calling task is cancelled first.
    func enter() async -> Bool {
        let id: UInt64? = state.withLock { state in
            if state.free > 0 {
                state.free -= 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return true }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    if state.free > 0 {
                        state.free -= 1
                        return true
                    }
                    // A cancellation that came before this point found no waiter to resume.
                    if Task.isCancelled { return false }
                    state.waiting.append((id, continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiting.firstIndex { $0.id == id }.map { state.waiting.remove(at: $0).continuation }
            }
            waiter?.resume(returning: false)
        }
    }

    /// Gives back a slot `enter` took, to the longest waiting request if there is one.
    func leave() {
        let next = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil as CheckedContinuation<Bool, Never>?
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
