import Synchronization

/// The reads of the tier under way at once, held to the run's transfers (`-j`), with the loads
/// beyond them waiting their turn here rather than in the downloader's queue.
///
/// Why here: a load decides whether to read the tier, and starts timing the read, once it has a
/// slot. Queued in the downloader instead, a read's time counted its wait behind the reads ahead
/// of it, up to a whole read more (a test's proxied tier looked 92 ms a read against the origin's
/// 8 ms, and the speed rule skipped it), and a load that had decided to read a tier before it
/// was found slow still waited for it.
///
/// Thread safety: every method may be called from any task at once.
final class RemoteReadSlots: Sendable {
    private let state: Mutex<State>

    private struct State {
        var free: Int
        var nextTicket = 0
        var waiting: [(ticket: Int, resume: CheckedContinuation<Bool, Never>)] = []
    }

    init(count: Int) {
        state = Mutex(State(free: max(1, count)))
    }

    /// Runs `read` in a slot, waiting for one first; nil, without reading, when the task is
    /// cancelled while it waits (a stopping run does not wait for the reads ahead of it).
    func withSlot<T>(_ read: () async -> T?) async -> T? {
        guard await acquire() else { return nil }
        defer { release() }
        return await read()
    }

    /// True once the caller holds a slot; false when its task was cancelled first.
    private func acquire() async -> Bool {
        let ticket = state.withLock { state -> Int in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let granted = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    guard state.free == 0 else {
                        state.free -= 1
                        return true
                    }
                    state.waiting.append((ticket, continuation))
                    return nil
                }
                if let granted { continuation.resume(returning: granted) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                return state.waiting.remove(at: index).resume
            }
            waiter?.resume(returning: false)
        }
    }

    /// Hands the slot to the first waiting load, or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst().resume
        }
        next?.resume(returning: true)
    }
}
