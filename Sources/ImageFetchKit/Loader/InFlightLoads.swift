import Synchronization

/// The loads running now, one per cache key, so a second request for a key joins the first.
///
/// Thread safety: a `Mutex` guards the map. The operation is never called under it; a `Task` that
/// will run it is created there.
final class InFlightLoads: Sendable {
    typealias Outcome = LoadResult.Outcome
    private let tasks = Mutex<[CacheKey: Task<Outcome, Never>]>([:])

    /// Runs `operation` for `key`, or joins the run already in progress for it; `joined` is true
    /// when this call waited for another one's result. The key is released when its run ends.
    func run(
        _ key: CacheKey, operation: @escaping @Sendable () async -> Outcome
    ) async -> (outcome: Outcome, joined: Bool) {
        let (task, joined) = tasks.withLock { tasks -> (Task<Outcome, Never>, Bool) in
            if let running = tasks[key] { return (running, true) }
            let task = Task { await operation() }
            tasks[key] = task
            return (task, false)
        }
        let outcome = await task.value
        if !joined { _ = tasks.withLock { $0.removeValue(forKey: key) } }
        return (outcome, joined)
    }

    /// Loads running now.
    var count: Int { tasks.withLock { $0.count } }
}
