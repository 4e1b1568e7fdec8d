import FoundationEssentials
import Glibc

extension DiskCache {
    /// Why a disk cache operation failed; each case names the file or directory involved.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The SQLite index failed; `busy` means another process held it past the busy timeout.
        case index(directory: String, operation: String, message: String, busy: Bool)
        /// The index was written by a newer imgfetch whose schema this one does not know.
        case newerIndexVersion(directory: String, version: Int)
        /// The cache directory is not safe to use (another user's, or writable by others), not a
        /// directory, or not writable.
        case unusableDirectory(CacheLocation.Error)
        /// The cache directory (or one of its parents) could not be created.
        case cannotCreateDirectory(path: String, cause: String)
        /// Writing, renaming or creating a file or folder failed.
        case cannotWrite(path: String, cause: String)
        /// Reading a cached file failed (it may have been evicted by another process meanwhile).
        case cannotRead(path: String, cause: String)
        /// The per-key lock file could not be opened or locked.
        case cannotLock(path: String, cause: String)

        public var description: String {
            switch self {
            case .index(let directory, let operation, let message, let busy):
                busy
                    ? "The cache index in \(directory) stayed locked by another process while \(operation); try again."
                    : "The cache index in \(directory) failed while \(operation): \(message). Run 'imgfetch cache verify --fix' or remove the directory."
            case .newerIndexVersion(let directory, let version):
                "The cache in \(directory) was written by a newer imgfetch (index version \(version)); upgrade imgfetch or use another --cache-dir."
            case .unusableDirectory(let error):
                error.description
            case .cannotCreateDirectory(let path, let cause):
                "Cannot create the cache directory \(path): \(cause). Pass --cache-dir or set IMGFETCH_CACHE_DIR to a directory you can write."
            case .cannotWrite(let path, let cause):
                "Cannot write the cache file \(path): \(cause)."
            case .cannotRead(let path, let cause):
                "Cannot read the cache file \(path): \(cause)."
            case .cannotLock(let path, let cause):
                "Cannot lock \(path) to coordinate with other imgfetch processes: \(cause)."
            }
        }
    }
}

/// The text of the current `errno`, for error causes; the conditions a user must act on (a full
/// disk, a quota, a failing disk) in words that say so, with the system's own in parentheses.
func errnoDescription(_ code: Int32 = errno) -> String {
    let system = String(cString: strerror(code))
    switch code {
    case ENOSPC: return "the disk is full (\(system)); free some space, or keep the cache smaller with 'imgfetch cache trim --max-size'"
    case EDQUOT: return "the disk quota is exceeded (\(system)); free some space, or keep the cache smaller with 'imgfetch cache trim --max-size'"
    case EIO: return "an I/O error (\(system)): the disk or filesystem may be failing"
    default: return system
    }
}
