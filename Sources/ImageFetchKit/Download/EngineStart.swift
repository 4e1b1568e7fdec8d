import Synchronization

/// Loading the engine (`CurlEngine.shared`: libcurl and its 30-odd libraries) on a thread of its
/// own, and the loads that need it waiting without holding a thread.
///
/// Why not `CurlEngine.shared` straight from a load: a second thread that reaches a lazy static
/// while another initialises it waits on the runtime's once-lock, a priority-inheriting futex the
/// kernel spins on while the owner runs, so a task that arrived during the 5 ms of dlopen burnt a
/// core for them (3.4 % of a one-URL https miss's samples in `perf record`, in
/// `rt_mutex_slowlock_block` under `Downloader.load`). A load here suspends instead, and is
/// resumed when the engine is there.
enum EngineStart {
    private enum State {
        case notStarted
        case loading(waiting: [CheckedContinuation<Result<CurlEngine, CurlEngine.LoadFailure>, Never>])
        case done(Result<CurlEngine, CurlEngine.LoadFailure>)
    }

    private static let state = Mutex(State.notStarted)

    /// Starts loading the engine if no one has, and returns at once.
    static func begin() {
        let starts = state.withLock { state -> Bool in
            guard case .notStarted = state else { return false }
            state = .loading(waiting: [])
            return true
        }
        guard starts else { return }
        DetachedThread.start(name: "imgfetch.dlopen") {
            let engine = CurlEngine.shared
            let waiting = state.withLock { state -> [CheckedContinuation<Result<CurlEngine, CurlEngine.LoadFailure>, Never>] in
                guard case .loading(let waiting) = state else { return [] }
                state = .done(engine)
                return waiting
            }
            for continuation in waiting { continuation.resume(returning: engine) }
        }
    }

    /// The engine, or why it cannot be loaded; starts the load if no one has.
    static func engine() async -> Result<CurlEngine, CurlEngine.LoadFailure> {
        if case .done(let engine) = state.withLock({ $0 }) { return engine }
        begin()
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<CurlEngine, CurlEngine.LoadFailure>? in
                switch state {
                case .done(let engine): return engine
                case .loading(var waiting):
                    waiting.append(continuation)
                    state = .loading(waiting: waiting)
                    return nil
                case .notStarted: preconditionFailure("begin() leaves the state loading or done")
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
