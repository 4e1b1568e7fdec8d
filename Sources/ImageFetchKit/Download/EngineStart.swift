import CCurl
import Synchronization

/// Starting the engine: one thread, named `imgfetch.curl` from its start, loads libcurl (and its
/// 30-odd libraries), initialises it and then runs the engine's loop. Commands sent meanwhile wait
/// here and are the loop's first work.
///
/// Why the loading thread runs the loop: a thread started during the load waits for the dynamic
/// loader's lock (glibc's TLS set-up in pthread_create takes it), and one started after it has its
/// first turn late on a busy CPU (the scheduler queues a new thread behind the running ones). So
/// no thread is started for the loop at all: the one that loaded goes straight on into it. It
/// was the third thread of a one-URL fetch (main, the loader, the loop), started before the load
/// and woken after it.
///
/// Why a fetch's `add` waits here instead of its task waiting for the engine: a task resumed when
/// the engine was ready had to be scheduled on a worker thread before it could send the command,
/// and the engine sat idle meanwhile. Measured with uprobes on libcurl, four one-URL https misses
/// each: from `curl_multi_init` returning to the first `curl_multi_add_handle`, 0.7–1.7 ms before,
/// 0.5–0.8 ms now (the transfer's set-up).
///
/// Why not a lazily made engine: a second thread that reaches a lazy static while another
/// initialises it waits on the runtime's once-lock, a priority-inheriting futex the kernel spins
/// on while the owner runs (3.4 % of a one-URL https miss's samples in `perf record`, in
/// `rt_mutex_slowlock_block`).
enum EngineStart {
    private typealias Waiter = CheckedContinuation<Result<CurlEngine, CurlEngine.LoadFailure>, Never>

    private enum State {
        case notStarted
        /// Commands sent during the load, in order, and the tasks waiting for the engine itself.
        case loading(queued: [EngineCommand], waiting: [Waiter])
        case done(Result<CurlEngine, CurlEngine.LoadFailure>)
    }

    private static let state = Mutex(State.notStarted)

    /// Starts loading the engine if no one has, and returns at once.
    static func begin() {
        let starts = state.withLock { state -> Bool in
            guard case .notStarted = state else { return false }
            state = .loading(queued: [], waiting: [])
            return true
        }
        if starts { startThread() }
    }

    /// The engine thread: loads, hands over what waited, runs the loop. Started once.
    private static func startThread() {
        DetachedThread.start(name: "imgfetch.curl") {
            let engine = CurlEngine.load()
            let (queued, waiting) = state.withLock { state -> ([EngineCommand], [Waiter]) in
                guard case .loading(let queued, let waiting) = state else { return ([], []) }
                // Into the inbox before anyone can see the engine, so they stay ahead of later commands.
                if case .success(let loaded) = engine { for command in queued { loaded.send(command) } }
                state = .done(engine)
                return (queued, waiting)
            }
            for continuation in waiting { continuation.resume(returning: engine) }
            switch engine {
            case .success(let loaded): EngineLoop(engine: loaded).run()
            case .failure(let failure): for command in queued { refuse(command, failure) }
            }
        }
    }

    /// Posts `command` to the engine, starting the load if no one has; while it loads, the command
    /// waits. When libcurl cannot be loaded, an `add` fails at once with the reason.
    static func send(_ command: EngineCommand) {
        enum Next { case post(Result<CurlEngine, CurlEngine.LoadFailure>), queued, queuedFirst }
        let next = state.withLock { state -> Next in
            switch state {
            case .done(let engine):
                return .post(engine)
            case .loading(var queued, let waiting):
                queued.append(command)
                state = .loading(queued: queued, waiting: waiting)
                return .queued
            case .notStarted:
                state = .loading(queued: [command], waiting: [])
                return .queuedFirst
            }
        }
        switch next {
        case .post(.success(let engine)): engine.send(command)
        case .post(.failure(let failure)): refuse(command, failure)
        case .queued: break
        case .queuedFirst: startThread()
        }
    }

    /// Posts `command` only if the engine has been started: for stopping, where an engine never
    /// started has no transfer to stop.
    static func sendIfStarted(_ command: EngineCommand) {
        let started = state.withLock { state -> Bool in
            if case .notStarted = state { return false }
            return true
        }
        if started { send(command) }
    }

    /// Answers `command` as an engine that could not be loaded would.
    private static func refuse(_ command: EngineCommand, _ failure: CurlEngine.LoadFailure) {
        switch command {
        case .add(let requester, _):
            let kind = DownloadError.Kind.transport(code: Int(CURLE_FAILED_INIT.rawValue))
            requester.complete(.failure(DownloadError(url: requester.request.url, kind: kind, detail: failure.reason)))
        case .cookies(_, let reply):
            reply([])
        case .cancel, .stop:
            break
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
                case .loading(let queued, var waiting):
                    waiting.append(continuation)
                    state = .loading(queued: queued, waiting: waiting)
                    return nil
                case .notStarted: preconditionFailure("begin() leaves the state loading or done")
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
