import FoundationEssentials
import Glibc
import Synchronization

/// The cache's file operations, in POSIX calls: they are on the hot path of every store and hit.
///
/// Layout: `<dir>/<a>/<hash>.<ext>` entry files, beside them `<pid>-<n>.tmp` writes in progress,
/// `<dir>/index.sqlite` (+ WAL files), `<dir>/keys.lock`, `<dir>/CACHEDIR.TAG`, `<dir>/stamped-uses/`
/// (`StampedUseMarks`). Caches written
/// before there were 16 shard folders have `<ab>/` folders: their rows keep naming those files,
/// and maintenance scans both.
///
/// Why a write in progress sits in its entry's own shard folder: publishing it is then a rename
/// within one directory, which locks only that directory. A rename between two directories takes
/// the filesystem-wide rename lock and both directories' locks, and a shared `tmp/` folder made
/// every create and every rename of every writer queue on one directory lock (measured with
/// `perf record` on a 1000-image prefetch: a third of its time went to those locks).
extension DiskCache {
    static let temporaryFileSuffix = ".tmp"
    private static let processID = getpid()
    private static let temporaryFileCounter = Atomic<Int>(0)

    func absolutePath(_ relativePath: String) -> String { directory + "/" + relativePath }

    /// The path of `absolutePath` relative to the cache directory, as the index stores it.
    func relativePath(of absolutePath: String) -> String {
        String(absolutePath.dropFirst(directory.count + 1))
    }

    /// Writes `data` to a new, uniquely named temporary file in the shard folder of `key`
    /// (creating the folder if needed) and returns its path. The file is complete (and, for
    /// `.powerLoss`, synced) when this returns; it is not yet visible as an entry.
    func writeTemporaryFile(_ data: Data, for key: CacheKey) throws(Error) -> String {
        let shard = absolutePath(key.shard)
        try replaceIfNotADirectory(shard)
        // pid + a per-process counter is unique among live writers and costs no syscall (UUID()
        // reads /dev/urandom); a dead writer's leftover with the same name makes O_EXCL fail and
        // the next number is tried.
        func nextPath() -> String {
            shard + "/\(Self.processID)-\(Self.temporaryFileCounter.add(1, ordering: .relaxed).newValue)\(Self.temporaryFileSuffix)"
        }
        var path = nextPath()
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        while descriptor < 0 && (errno == EEXIST || errno == ENOENT) {
            if errno == ENOENT, mkdir(shard, 0o700) != 0, errno != EEXIST {
                throw .cannotWrite(path: shard, cause: errnoDescription())
            }
            path = nextPath()
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw .cannotWrite(path: path, cause: errnoDescription()) }
        Self.beginWrite(path)
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, configuration.durability == .powerLoss, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0 else {
            Self.discardTemporaryFile(path)
            throw .cannotWrite(path: path, cause: errnoDescription(failure))
        }
        return path
    }

    /// Nothing inside the cache is followed: a shard folder that is a symbolic link (or any other
    /// non-directory) is removed, so the write that follows makes a real folder instead of writing
    /// through the link. One `lstat` per store.
    private func replaceIfNotADirectory(_ folder: String) throws(Error) {
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return }
        guard unlink(folder) == 0 || errno == ENOENT else {
            throw .cannotWrite(path: folder, cause: "it is not a folder and cannot be removed: \(errnoDescription())")
        }
    }

    /// Renames a finished temporary file (written by `writeTemporaryFile(_:for:)`, so in the
    /// same folder as `destination`) into place, and with `.powerLoss` makes the rename durable.
    /// Call only inside an index write transaction (see `DiskCache` on why).
    static func rename(_ temporaryFile: String, to destination: String, durability: DiskCacheConfiguration.Durability) throws(Error) {
        guard Glibc.rename(temporaryFile, destination) == 0 else {
            throw .cannotWrite(path: destination, cause: errnoDescription())
        }
        endWrite(temporaryFile)
        if durability == .powerLoss {
            syncDirectory(FilePath.parent(of: destination))
        }
    }

    /// Makes a rename in `directory` durable (best effort: the file itself is already synced).
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The size of the file at `path` in bytes, or nil if there is no regular file there (a
    /// symbolic link is not followed: an entry replaced by one counts as missing).
    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Deletes temporary files older than `temporaryFileMaxAge` from the shard folders (only
    /// `shard`, if given): leftovers of writers that were killed between creating and publishing
    /// them. Younger ones may belong to a live writer. Returns how many were deleted.
    @discardableResult
    func sweepTemporaryFiles(shard only: String? = nil) -> Int {
        let cutoff = configuration.currentDate().addingTimeInterval(-configuration.temporaryFileMaxAge)
        var removed = 0
        forEachFileInShards(only) { file in
            guard file.hasSuffix(Self.temporaryFileSuffix) else { return }
            let path = absolutePath(file)
            var info = stat()
            guard stat(path, &info) == 0 else { return }
            let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
            if modified < cutoff, unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// One or two lowercase hex digits: today's shard folders, and those of caches written before.
    static func isShardFolderName(_ name: String) -> Bool {
        let isHexDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }
        return (1...2).contains(name.utf8.count) && name.utf8.allSatisfy(isHexDigit)
    }

    /// Calls `body` with the relative path (`a/<hash>.png`, `a/123-4.tmp`) of each file in the
    /// shard folders (only `shard`, if given) as the directories are read: a scan for
    /// maintenance, never for a lookup, whose memory does not grow with the number of files (a
    /// million entries are 62,500 a folder). `body` may delete the file it is given.
    func forEachFileInShards<Failure: Swift.Error>(_ only: String? = nil, _ body: (String) throws(Failure) -> Void) throws(Failure) {
        let shards = only.map { [$0] } ?? Self.names(in: directory).filter(Self.isShardFolderName)
        for shard in shards where Self.isShardFolderName(shard) {
            // A shard that is a symbolic link is not scanned: its files are not the cache's to delete.
            var info = stat()
            guard lstat(directory + "/" + shard, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            guard let folder = opendir(directory + "/" + shard) else { continue }
            defer { closedir(folder) }
            while let entry = readdir(folder) {
                let name = Self.name(of: entry)
                if name == "." || name == ".." { continue }
                try body(shard + "/" + name)
            }
        }
    }

    /// The names in `folder` (the cache root: a few dozen).
    private static func names(in folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) { names.append(name(of: entry)) }
        return names
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafePointer(to: entry.pointee.d_name) { name in
            name.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: name.pointee)) { String(cString: $0) }
        }
    }
}
