import FoundationEssentials

/// Cross-process, per-key mutual exclusion, so that processes wanting the same missing URL fetch
/// it once: take the lock, look the entry up again, download and store only if still missing.
extension DiskCache {
    /// Runs `body` while holding `key`'s lock, which excludes every other thread and process using
    /// this cache directory that asks for the same key. Blocks the calling thread while another
    /// holder works: do not call it from a Swift concurrency task (use the async overload).
    /// Not reentrant: taking the same key again inside `body` waits for itself forever.
    /// A holder that dies (even by SIGKILL) releases the lock with its process.
    public func withKeyLock<T>(_ key: CacheKey, _ body: () throws -> T) throws -> T {
        guard let descriptor = try keyLocks.lock(key, wait: true) else {
            throw Error.cannotLock(path: keyLocks.path, cause: "the lock was not granted")
        }
        defer { keyLocks.unlock(descriptor) }
        return try body()
    }

    /// Runs `body` while holding `key`'s lock (see the blocking overload). When another holder
    /// has it, the wait happens on a dedicated thread, never on the cooperative pool, so waiting
    /// tasks do not starve others. `body` may suspend (e.g. download) while the lock is held.
    /// Cancellation is not observed while waiting for the lock; the holder's work bounds the wait.
    public func withKeyLock<T>(
        _ key: CacheKey, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        let descriptor: Int32
        if let immediate = try keyLocks.lock(key, wait: false) {
            descriptor = immediate
        } else {
            descriptor = try await waitForLock(key)
        }
        defer { keyLocks.unlock(descriptor) }
        return try await body()
    }

    private func waitForLock(_ key: CacheKey) async throws -> Int32 {
        let locks = keyLocks
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, Swift.Error>) in
            DetachedThread.start(name: "imgfetch.keylock") {
                do {
                    guard let descriptor = try locks.lock(key, wait: true) else {
                        throw Error.cannotLock(path: locks.path, cause: "the lock was not granted")
                    }
                    continuation.resume(returning: descriptor)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
