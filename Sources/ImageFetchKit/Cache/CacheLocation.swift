import FoundationEssentials
import Glibc

/// Where the disk cache lives, resolved the way DESIGN.md lists it, and the directory's preparation.
public enum CacheLocation {
    /// The standard first line of a `CACHEDIR.TAG` (bford.info/cachedir), which backup tools look for.
    public static let cacheDirectoryTagSignature = "Signature: 8a477f597d28d172789f06886806bc55"

    /// The cache directory: `explicit` (`--cache-dir`), else `$IMGFETCH_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/imgfetch` (only when absolute, as the XDG spec says), else
    /// `$HOME/.cache/imgfetch`. Empty values count as unset. Pure: touches no file.
    ///
    /// - Parameter environment: the value of an environment variable, nil when it is not set.
    /// - Throws: `CacheLocation.Error.noHomeDirectory` when nothing above is set.
    public static func resolve(
        explicit: String?, environment: (String) -> String? = ProcessEnvironment.value
    ) throws -> String {
        func value(_ name: String) -> String? {
            guard let value = environment(name), !value.isEmpty else { return nil }
            return value
        }
        if let explicit, !explicit.isEmpty { return absolute(explicit, home: value("HOME")) }
        if let dir = value("IMGFETCH_CACHE_DIR") { return absolute(dir, home: value("HOME")) }
        if let xdg = value("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return FilePath.join(xdg, "imgfetch") }
        if let home = value("HOME") { return FilePath.join(home, ".cache/imgfetch") }
        throw Error.noHomeDirectory
    }

    /// `resolve` with the variables in `environment`.
    public static func resolve(explicit: String?, environment: [String: String]) throws -> String {
        try resolve(explicit: explicit) { environment[$0] }
    }

    /// Checks `directory` (`checkSafety`); creates it (and missing parents) with mode 0700 if it
    /// does not exist, refuses it if this user cannot write in it, and writes its `CACHEDIR.TAG`
    /// if missing. Safe to call from several processes at once.
    public static func prepare(directory: String) throws(Error) {
        _ = try checkSafety(of: directory)
        let tag = FilePath.join(directory, "CACHEDIR.TAG")
        // An existing cache, the usual case, costs two system calls and no FileManager.
        if access(tag, F_OK) == 0 {
            guard access(directory, W_OK) == 0 else { throw .notWritable(directory: directory, cause: errnoDescription()) }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Error.cannotCreate(directory: directory, cause: SystemErrorText.describe(error))
        }
        guard access(directory, W_OK) == 0 else { throw .notWritable(directory: directory, cause: errnoDescription()) }
        guard access(tag, F_OK) != 0 else { return }
        let text = """
            \(cacheDirectoryTagSignature)
            # This file is a cache directory tag created by imgfetch.
            # For information about cache directory tags, see https://bford.info/cachedir/

            """
        // Written beside its name and renamed into place, so a concurrent reader sees either no tag
        // or the whole tag; not synced (Foundation's atomic write syncs: 1–3 ms of a first `get`
        // into a new cache), since a tag a power loss takes away is written again by the next run.
        let temporary = FilePath.join(directory, ".CACHEDIR.TAG.\(getpid()).tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            throw Error.cannotCreate(directory: directory, cause: String(cString: strerror(errno)))
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let writeError = errno
        close(descriptor)
        guard written == bytes.count, rename(temporary, tag) == 0 else {
            let cause = String(cString: strerror(written == bytes.count ? errno : writeError))
            unlink(temporary)
            throw Error.cannotCreate(directory: directory, cause: cause)
        }
    }

    private static func absolute(_ path: String, home: String?) -> String {
        let expanded = FilePath.expandingTilde(path, home: home)
        if expanded.hasPrefix("/") { return FilePath.standardize(expanded) }
        return FilePath.standardize(FilePath.join(FileManager.default.currentDirectoryPath, expanded))
    }

    /// Why no cache directory could be found or made.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        case noHomeDirectory
        case cannotCreate(directory: String, cause: String)
        /// Another user owns it, or others may write in it and that cannot be fixed.
        case unsafe(directory: String, reason: String, remedy: String)
        /// It is not a directory, or cannot be looked at.
        case notUsable(directory: String, cause: String)
        /// This user cannot write in it (permissions, a read-only filesystem).
        case notWritable(directory: String, cause: String)

        public var description: String {
            switch self {
            case .noHomeDirectory:
                "No cache directory: pass --cache-dir, or set IMGFETCH_CACHE_DIR, XDG_CACHE_HOME or HOME."
            case .cannotCreate(let directory, let cause):
                "Cannot create the cache directory \(directory): \(cause)."
            case .unsafe(let directory, let reason, let remedy):
                "The cache directory \(directory) is not safe to use: \(reason); \(remedy)."
            case .notUsable(let directory, let cause):
                "Cannot use the cache directory \(directory): \(cause)."
            case .notWritable(let directory, let cause):
                "The cache directory \(directory) is not writable: \(cause); only --cache-only hits can be served from it."
            }
        }
    }
}
