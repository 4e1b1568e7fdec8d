#if THREAD_SANITIZER
import Glibc

/// Under ThreadSanitizer only (`scripts/test --sanitize thread` compiles with THREAD_SANITIZER),
/// this module's `Mutex` is a pthread mutex instead of the standard library's.
///
/// Why: ThreadSanitizer does not see the standard library's `Mutex` on Linux take and release its
/// lock (a futex in a library it did not instrument), so it reports every pair of accesses to
/// the guarded value from two threads as a race. The proof that those reports are false: this
/// program, correct by construction, is reported (Swift 6.3, `swiftc -sanitize=thread`) —
///
///     let box = Mutex<[Int]>([])   // a global, shared with one pthread
///     pthread thread: 100k × box.withLock { c in let t = c; c = []; _ = t }
///     main thread:    100k × box.withLock { $0.append(j) }
///
/// — while the same program with this type is not. pthread_mutex_lock is intercepted by the
/// sanitizer, so it sees every happens-before edge the lock makes. Same interface as the
/// standard one, as this module uses it; a class, so the pthread mutex never moves.
final class Mutex<Value: ~Copyable>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ initialValue: consuming sending Value) {
        value = initialValue
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}
#endif
