import Synchronization

/// The reads of the tier under way at once, held to the run's transfers (`-j`), with the loads
/// beyond them waiting their turn here rather than in the downloader's queue.
///
/// Why here: a load decides whether to read the tier, and starts timing the read, once it has a
/// slot. Queued in the downloader instead, a read's time counted its wait behind the reads ahead
/// of it, up to a whole read more (a test's proxied tier looked 92 ms a read against the origin's
/// 8 ms, and the speed rule skipped it), and a load that had decided to read a tier before it
/// was found slow still waited for it. The tier can also end every wait (`divertWaiters`) when
/// it finds it should not be waited for: each load then asks again whether to read at all.
///
/// Thread safety: every method may be called from any task at once.
final class RemoteReadSlots: Sendable {
    private let state: Mutex<State>

    private struct State {
        var free: Int
        var nextTicket = 0
        var waiting: [(ticket: Int, resume: CheckedContinuation<Wait, Never>)] = []
    }

    /// How a wait for a slot ended.
    private enum Wait {
        case granted
        case cancelled
        /// `divertWaiters` woke it: the load asks again whether it should read at all.
        case diverted
    }

    init(count: Int) {
        state = Mutex(State(free: max(1, count)))
    }

    /// Runs `read` in a slot, waiting for one first; nil, without reading, when the task is
    /// cancelled while it waits (a stopping run does not wait for the reads ahead of it), or when
    /// `diverted` says so, asked before each wait and when `divertWaiters` ends one.
    func withSlot<T>(unless diverted: () -> Bool = { false }, _ read: () async -> T?) async -> T? {
        while true {
            if diverted() { return nil }
            switch await acquire() {
            case .granted:
                defer { release() }
                return await read()
            case .cancelled: return nil
            case .diverted: continue
            }
        }
    }

    /// Ends every wait under way: each load asks its `diverted` again (the tier has been found
    /// not worth waiting for), and waits anew, last in the line, if it still is.
    func divertWaiters() {
        let waiters = state.withLock { state -> [CheckedContinuation<Wait, Never>] in
            defer { state.waiting = [] }
            return state.waiting.map(\.resume)
        }
        for waiter in waiters { waiter.resume(returning: .diverted) }
    }

    private func acquire() async -> Wait {
        let ticket = state.withLock { state -> Int in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let granted = state.withLock { state -> Wait? in
                    if Task.isCancelled { return .cancelled }
                    guard state.free == 0 else {
                        state.free -= 1
                        return .granted
                    }
                    state.waiting.append((ticket, continuation))
                    return nil
                }
                if let granted { continuation.resume(returning: granted) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Wait, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                return state.waiting.remove(at: index).resume
            }
            waiter?.resume(returning: .cancelled)
        }
    }

    /// Hands the slot to the first waiting load, or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Wait, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst().resume
        }
        next?.resume(returning: .granted)
    }
}
