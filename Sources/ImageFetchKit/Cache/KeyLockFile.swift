import FoundationEssentials
import Glibc

/// Per-key locks shared by every process using one cache directory: one byte of `keys.lock` per
/// key (at an offset taken from the key's hash), locked with Linux open-file-description locks.
///
/// Why these locks: they need no file per key (nothing to create, clean up or race on), they are
/// released by the kernel when a holder dies (a SIGKILLed downloader never wedges the cache), and
/// unlike classic POSIX locks each acquisition opens its own description, so two threads of one
/// process exclude each other exactly as two processes do.
final class KeyLockFile: Sendable {
    // Linux values; Glibc's module does not export the _GNU_SOURCE constants.
    private static let setLock: Int32 = 37 // F_OFD_SETLK
    private static let setLockWaiting: Int32 = 38 // F_OFD_SETLKW

    let path: String

    init(path: String) throws(DiskCache.Error) {
        self.path = path
        // O_NOFOLLOW: a lock file replaced by a symbolic link is refused, never written through.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .cannotLock(path: path, cause: Self.describe(errno)) }
        close(descriptor)
    }

    /// Locks `key`'s byte, waiting for another holder if `wait`; returns the descriptor that holds
    /// the lock (close it to release), or nil if `wait` is false and someone else holds it.
    /// Waiting blocks the calling thread.
    func lock(_ key: CacheKey, wait: Bool) throws(DiskCache.Error) -> Int32? {
        try lock(byteAt: Self.offset(of: key), wait: wait)
    }

    /// Locks the byte reserved for opening the index, waiting for any other opener; returns the
    /// descriptor to pass to `unlock`. Key offsets stay below 2^60, so no key ever shares it.
    func lockIndexSetup() throws(DiskCache.Error) -> Int32 {
        guard let descriptor = try lock(byteAt: Self.indexSetupOffset, wait: true) else {
            throw .cannotLock(path: path, cause: "the lock was not granted")
        }
        return descriptor
    }

    private static let indexSetupOffset: Int64 = 1 << 62

    /// The cause of a failed open, in words that say what to do about a symbolic link.
    private static func describe(_ code: Int32) -> String {
        code == ELOOP ? "it is a symbolic link, which imgfetch does not follow inside its cache (remove it)" : errnoDescription(code)
    }

    private func lock(byteAt offset: Int64, wait: Bool) throws(DiskCache.Error) -> Int32? {
        let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw .cannotLock(path: path, cause: Self.describe(errno)) }
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = __off_t(offset)
        request.l_len = 1
        request.l_pid = 0
        while true {
            if fcntl(descriptor, wait ? Self.setLockWaiting : Self.setLock, &request) == 0 { return descriptor }
            let code = errno
            if code == EINTR { continue }
            close(descriptor)
            if !wait && (code == EAGAIN || code == EACCES) { return nil }
            throw .cannotLock(path: path, cause: errnoDescription(code))
        }
    }

    /// Releases a lock `lock` returned.
    func unlock(_ descriptor: Int32) {
        close(descriptor)
    }

    /// 60 bits of the key's hash: distinct keys share a byte only if their hashes collide there.
    static func offset(of key: CacheKey) -> Int64 {
        Int64(key.hash.prefix(15), radix: 16) ?? 0
    }
}
