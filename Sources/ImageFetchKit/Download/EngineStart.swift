import Synchronization

/// Starting the engine: one thread, named `imgfetch.curl` from its start, loads libcurl (and its
/// 30-odd libraries), initialises it and then runs the engine's loop; the loads that need the
/// engine wait for it without holding a thread.
///
/// Why the loading thread runs the loop: a thread started during the load waits for the dynamic
/// loader's lock (glibc's TLS set-up in pthread_create takes it), and one started after it has its
/// first turn late on a busy CPU (the scheduler queues a new thread behind the running ones). So
/// no thread is started for the loop at all: the one that loaded goes straight on into it. It
/// was the third thread of a one-URL fetch (main, the loader, the loop), started before the load
/// and woken after it.
///
/// Why loads suspend here instead of reaching a lazily made engine: a second thread that reaches
/// a lazy static while another initialises it waits on the runtime's once-lock, a
/// priority-inheriting futex the kernel spins on while the owner runs, so a task that arrived
/// during the 5 ms of dlopen burnt a core for them (3.4 % of a one-URL https miss's samples in
/// `perf record`, in `rt_mutex_slowlock_block` under `Downloader.load`).
enum EngineStart {
    private typealias Waiter = CheckedContinuation<Result<CurlEngine, CurlEngine.LoadFailure>, Never>

    private enum State {
        case notStarted
        case loading(waiting: [Waiter])
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
        DetachedThread.start(name: "imgfetch.curl") {
            let engine = CurlEngine.load()
            let waiting = state.withLock { state -> [Waiter] in
                guard case .loading(let waiting) = state else { return [] }
                state = .done(engine)
                return waiting
            }
            for continuation in waiting { continuation.resume(returning: engine) }
            if case .success(let loaded) = engine { EngineLoop(engine: loaded).run() }
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

    /// The engine if it is loaded now, without starting or waiting for a load: for stopping, where
    /// an engine not loaded yet has no transfer to stop.
    static var loaded: CurlEngine? {
        guard case .done(.success(let engine)) = state.withLock({ $0 }) else { return nil }
        return engine
    }
}
