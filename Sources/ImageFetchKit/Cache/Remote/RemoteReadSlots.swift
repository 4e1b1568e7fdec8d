import Synchronization

/// The reads of the tier under way at once, held to the run's transfers (`-j`), with the loads
/// beyond them waiting their turn here rather than in the downloader's queue.
///
/// Why here: a load decides whether to read the tier, and starts timing the read, once it has a
/// slot. Queued in the downloader instead, a read's time counted its wait behind the others (a
/// tier answering in 40 ms looked twice as slow, and the speed rule skipped it), and a load
/// that had decided to read a tier before it was found slow still waited for it.
///
/// Thread safety: every method may be called from any task at once.
final class RemoteReadSlots: Sendable {
    private let state: Mutex<State>

    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    init(count: Int) {
        state = Mutex(State(free: max(1, count)))
    }

    /// Runs `read` in a slot, waiting for one first.
    func withSlot<T>(_ read: () async -> T) async -> T {
        await acquire()
        defer { release() }
        return await read()
    }

    private func acquire() async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state -> Bool in
                guard state.free == 0 else {
                    state.free -= 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Hands the slot to the first waiting load, or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
