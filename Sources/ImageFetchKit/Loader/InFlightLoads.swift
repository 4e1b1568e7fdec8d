import Synchronization

/// The loads running now, one per cache key, so a second request for a key joins the first.
///
/// Cancellation: a cancelled caller stops waiting for its key's load only in the sense that it
/// no longer counts; the load itself is cancelled when every caller waiting for it was cancelled
/// (one prefetch stopping must not fail another caller's shared load, but a run stopped by a
/// signal must end its transfers).
///
/// Thread safety: a `Mutex` guards the map. The operation is never called under it; a `Task` that
/// will run it is created there.
final class InFlightLoads: Sendable {
    typealias Outcome = LoadResult.Outcome

    private struct Load {
        let task: Task<Outcome, Never>
        /// Callers waiting for it and not cancelled.
        var waiters: Int
    }

    private let loads = Mutex<[CacheKey: Load]>([:])

    /// Runs `operation` for `key`, or joins the run already in progress for it; `joined` is true
    /// when this call waited for another one's result. The key is released when its run ends.
    func run(
        _ key: CacheKey, operation: @escaping @Sendable () async -> Outcome
    ) async -> (outcome: Outcome, joined: Bool) {
        let (task, joined) = loads.withLock { loads -> (Task<Outcome, Never>, Bool) in
            if var running = loads[key] {
                running.waiters += 1
                loads[key] = running
                return (running.task, true)
            }
            let task = Task { await operation() }
            loads[key] = Load(task: task, waiters: 1)
            return (task, false)
        }
        let outcome = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            if self.leave(key, task: task) { task.cancel() }
        }
        if !joined { _ = loads.withLock { $0.removeValue(forKey: key) } }
        return (outcome, joined)
    }

    /// Counts one waiter of `task` out; true when none is left.
    private func leave(_ key: CacheKey, task: Task<Outcome, Never>) -> Bool {
        loads.withLock { loads in
            guard var load = loads[key], load.task == task else { return false }
            load.waiters -= 1
            loads[key] = load
            return load.waiters <= 0
        }
    }

    /// Loads running now.
    var count: Int { loads.withLock { $0.count } }
}
