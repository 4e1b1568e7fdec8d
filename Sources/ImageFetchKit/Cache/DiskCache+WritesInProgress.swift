import Glibc
import Synchronization

/// The temporary files this process is writing now, so a process told to exit at once (a second
/// Ctrl-C) can remove them first instead of leaving half-written files behind.
extension DiskCache {
    private static let writesInProgress = Mutex<Set<String>>([])

    /// Records `path`, a temporary file just created by this process.
    static func beginWrite(_ path: String) {
        _ = writesInProgress.withLock { $0.insert(path) }
    }

    /// Forgets `path`: renamed into place, or about to be unlinked.
    static func endWrite(_ path: String) {
        _ = writesInProgress.withLock { $0.remove(path) }
    }

    /// Unlinks `path`, a temporary file this process created and will not publish.
    static func discardTemporaryFile(_ path: String) {
        endWrite(path)
        unlink(path)
    }

    /// Unlinks every temporary file this process is writing, for a process about to exit without
    /// waiting for its stores. A store still running afterwards fails (its file is gone) or leaves
    /// at most an unindexed file, which the cache's sweeps remove. Not async-signal-safe: call it
    /// from an ordinary thread, never from a signal handler.
    public static func removeWritesInProgress() {
        let paths = writesInProgress.withLock { paths in
            defer { paths.removeAll() }
            return paths
        }
        for path in paths { unlink(path) }
    }
}
