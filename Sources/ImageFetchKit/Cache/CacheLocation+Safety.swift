import CGlibcExtras
import Glibc

/// The rule a cache directory must pass before imgfetch reads or writes it, as ssh's StrictModes
/// and the XDG base-directory rules have it: the directory (after following symbolic links, which
/// users set up to move a cache to another disk) belongs to the user running imgfetch, and no one
/// else can write in it. Anyone who could write there could swap an entry, its index row or a
/// shard folder for one of their own, and every later hit would serve it.
extension CacheLocation {
    /// What the safety check found.
    public enum Safety: Sendable, Equatable {
        /// The directory is the user's own and only theirs (or was, and its mode was set to 0700).
        case safe
        /// There is no directory yet: the cache makes it with mode 0700.
        case missing
    }

    /// Checks `directory` with one `stat` and, only when the user owns it but group or others may
    /// write in it, one `chmod` to 0700 (as `mkdir -m 700` would have made it).
    ///
    /// - Throws: `unsafe` when another user owns it, or when its mode cannot be fixed; `notUsable`
    ///   when it is not a directory or cannot be looked at.
    public static func checkSafety(of directory: String) throws(Error) -> Safety {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            let code = errno
            // ENOTDIR: a parent is a file; creating it will say so.
            if code == ENOENT || code == ENOTDIR { return .missing }
            throw .notUsable(directory: directory, cause: errnoDescription(code))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .notUsable(directory: directory, cause: "it is not a directory")
        }
        // From the auxiliary vector the kernel gave the process: no system call, unlike geteuid().
        let user = uid_t(truncatingIfNeeded: getauxval(UInt(AT_EUID)))
        guard info.st_uid == user else {
            throw .unsafe(directory: directory, reason: "it belongs to another user (uid \(info.st_uid), you are \(user))",
                          remedy: "use a directory of your own (--cache-dir or IMGFETCH_CACHE_DIR), or have its owner give it to you (chown)")
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0, chmod(directory, 0o700) != 0 {
            throw .unsafe(directory: directory, reason: "group or others may write in it (mode \(String(mode, radix: 8)))",
                          remedy: "run 'chmod 700 \(directory)'")
        }
        return .safe
    }
}
