import Foundation
import Synchronization

/// The cache's file operations, in POSIX calls: they are on the hot path of every store and hit.
///
/// Layout: `<dir>/<ab>/<hash>.<ext>` entry files, `<dir>/tmp/` for writes in progress,
/// `<dir>/index.sqlite` (+ WAL files), `<dir>/keys.lock`, `<dir>/CACHEDIR.TAG`.
extension DiskCache {
    static let temporaryFolderName = "tmp"
    private static let processID = getpid()
    private static let temporaryFileCounter = Atomic<Int>(0)

    func absolutePath(_ relativePath: String) -> String { directory + "/" + relativePath }

    /// The path of `absolutePath` relative to the cache directory, as the index stores it.
    func relativePath(of absolutePath: String) -> String {
        String(absolutePath.dropFirst(directory.count + 1))
    }

    var temporaryFolder: String { directory + "/" + Self.temporaryFolderName }

    /// Writes `data` to a new, uniquely named file in `tmp/` and returns its path. The file is
    /// complete (and, for `.powerLoss`, synced) when this returns; it is not yet visible as an entry.
    func writeTemporaryFile(_ data: Data) throws(Error) -> String {
        // pid + a per-process counter is unique among live writers and costs no syscall (UUID()
        // reads /dev/urandom); a dead writer's leftover with the same name makes O_EXCL fail and
        // the next number is tried.
        var path = temporaryFolder + "/\(Self.processID)-\(Self.temporaryFileCounter.add(1, ordering: .relaxed).newValue).tmp"
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        while descriptor < 0 && errno == EEXIST {
            path = temporaryFolder + "/\(Self.processID)-\(Self.temporaryFileCounter.add(1, ordering: .relaxed).newValue).tmp"
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw .cannotWrite(path: path, cause: errnoDescription()) }
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
            unlink(path)
            throw .cannotWrite(path: path, cause: errnoDescription(failure))
        }
        return path
    }

    /// Moves a finished temporary file to `relativePath`, creating its shard folder if needed.
    /// Call only inside an index write transaction (see `DiskCache` on why).
    func publish(temporaryFile: String, as relativePath: String) throws(Error) {
        let destination = absolutePath(relativePath)
        let shard = (destination as NSString).deletingLastPathComponent
        var renamed = rename(temporaryFile, destination) == 0
        if !renamed && errno == ENOENT {
            if mkdir(shard, 0o700) != 0 && errno != EEXIST { throw .cannotWrite(path: shard, cause: errnoDescription()) }
            renamed = rename(temporaryFile, destination) == 0
        }
        guard renamed else { throw .cannotWrite(path: destination, cause: errnoDescription()) }
        if configuration.durability == .powerLoss { Self.syncDirectory(shard) }
    }

    /// Makes a rename in `directory` durable (best effort: the file itself is already synced).
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The size of the file at `path` in bytes, or nil if there is no regular file.
    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Deletes temporary files older than `temporaryFileMaxAge`: leftovers of writers that were
    /// killed between creating and publishing them. Younger ones may belong to a live writer.
    /// Returns how many were deleted.
    @discardableResult
    func sweepTemporaryFiles() -> Int {
        let cutoff = configuration.currentDate().addingTimeInterval(-configuration.temporaryFileMaxAge)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporaryFolder) else { return 0 }
        var removed = 0
        for name in names where name.hasSuffix(".tmp") {
            let path = temporaryFolder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
            if modified < cutoff, unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// The relative paths of every entry file in the shard folders (a directory scan: only for
    /// maintenance, never for a lookup).
    /// `shard` limits the scan to one shard folder.
    func entryFilesOnDisk(shard only: String? = nil) -> [String] {
        let manager = FileManager.default
        guard let shards = only.map({ [$0] }) ?? (try? manager.contentsOfDirectory(atPath: directory)) else { return [] }
        var files: [String] = []
        for shard in shards where shard.utf8.count == 2 {
            guard let names = try? manager.contentsOfDirectory(atPath: directory + "/" + shard) else { continue }
            files.append(contentsOf: names.map { shard + "/" + $0 })
        }
        return files
    }
}
