import CGlibcExtras
import Glibc

/// Starts a detached POSIX thread for work that must block outside Swift's cooperative pool: the
/// libcurl engine loop and waits on a cache key's lock. Foundation's `Thread` would do the same, but
/// it lives in the full Foundation, which this package does not link (see `FilePath`).
enum DetachedThread {
    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread named `name` (as `top -H` and `perf` show it; the kernel keeps
    /// 15 bytes).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            let work = Unmanaged<Work>.fromOpaque(argument!).takeRetainedValue()
            work.body()
            return nil
        }, work)
        // Creation fails only when the process is out of threads or memory, where the tool could
        // not go on either; stopping here names the cause instead of hanging on a thread never run.
        precondition(created == 0, "cannot start the \(name) thread: \(String(cString: strerror(created)))")
        _ = pthread_setname_np(thread, String(decoding: name.utf8.prefix(15), as: UTF8.self))
        pthread_detach(thread)
    }
}
