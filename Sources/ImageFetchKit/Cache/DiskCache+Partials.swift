import FoundationEssentials
import Glibc

/// Partial files: the start of a body whose transfer stopped, kept so the next load of the URL
/// continues it (`Resume`) instead of asking for all of it again.
///
/// A partial file sits beside the entry it may become, `<dir>/<a>/<hash>.partial`, and holds a
/// three-line head — a magic line, the validator the rest must still match (`If-Range`), the key
/// — then the bytes. It is never an entry: no row names it, no hit serves it, listing and `stats`
/// never count it; `verify` counts them, and `trim` and `verify --fix` delete those older than
/// `partialFileMaxAge`. It is written like an entry file (temporary file, then rename), under the
/// key's lock, so a reader sees a whole partial file or none.
extension DiskCache {
    static let partialFileSuffix = ".partial"
    /// After a day the server's copy has likely changed, and the bytes only take room.
    public static let partialFileMaxAge: TimeInterval = 24 * 3600
    private static let partialFileMagic = "imgfetch partial 1"

    /// The start of a body kept for `key`.
    public struct PartialFile: Sendable {
        /// A slice of the file: its indices start after the head.
        public var bytes: Data
        /// The ETag or Last-Modified the body had; sent as `If-Range`.
        public var validator: String
    }

    func partialFilePath(for key: CacheKey) -> String {
        absolutePath("\(key.shard)/\(key.hash)\(Self.partialFileSuffix)")
    }

    /// The partial file kept for `key`, if there is a whole one for this key.
    public func partialFile(for key: CacheKey) -> PartialFile? {
        let path = partialFilePath(for: key)
        // Mapped, not read: the bytes are copied once, into the joined body.
        guard Self.fileSize(path) != nil,
              let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) else { return nil }
        var lines: [Substring] = []
        var start = data.startIndex
        while lines.count < 3, let newline = data[start...].firstIndex(of: 0x0A) {
            lines.append(Substring(decoding: data[start..<newline], as: UTF8.self))
            start = newline + 1
        }
        guard lines.count == 3, lines[0] == Self.partialFileMagic, !lines[1].isEmpty, lines[2] == key.rawValue,
              data.count - start >= Resume.minimumBytes else { return nil }
        return PartialFile(bytes: data[start...], validator: String(lines[1]))
    }

    /// Where a transfer for `key` mirrors a large body as it arrives (`Resume.Checkpoint`), in
    /// this file's format.
    public func partialFileCheckpoint(for key: CacheKey) -> Resume.Checkpoint {
        let keyText = key.rawValue
        return Resume.Checkpoint(path: partialFilePath(for: key)) { Self.partialFileHead(validator: $0, key: keyText) }
    }

    /// The three lines a partial file starts with.
    private static func partialFileHead(validator: String, key: String) -> Data {
        Data("\(partialFileMagic)\n\(validator)\n\(key)\n".utf8)
    }

    /// Keeps `bytes`, the start of the body `validator` names, for the next load of `key` (best
    /// effort: a partial file that cannot be written costs only the bytes again).
    public func keepPartialFile(_ bytes: Data, validator: String, for key: CacheKey) {
        guard bytes.count >= Resume.minimumBytes, !validator.contains("\n") else { return }
        var file = Self.partialFileHead(validator: validator, key: key.rawValue)
        file.append(bytes)
        guard let temporary = try? writeTemporaryFile(file, for: key) else { return }
        if Glibc.rename(temporary, partialFilePath(for: key)) == 0 {
            Self.endWrite(temporary)
        } else {
            Self.discardTemporaryFile(temporary)
        }
    }

    /// Deletes the partial file of `key`, if any.
    public func removePartialFile(for key: CacheKey) {
        unlink(partialFilePath(for: key))
    }

    /// Counts the partial files and, with `olderThan`, deletes those last written before it.
    /// Returns (found, deleted).
    @discardableResult
    func sweepPartialFiles(olderThan age: TimeInterval?) -> (found: Int, removed: Int) {
        let cutoff = age.map { configuration.currentDate().timeIntervalSince1970 - $0 }
        var found = 0
        var removed = 0
        forEachFileInShards { file in
            guard file.hasSuffix(Self.partialFileSuffix) else { return }
            found += 1
            guard let cutoff else { return }
            let path = absolutePath(file)
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            if TimeInterval(info.st_mtim.tv_sec) <= cutoff, unlink(path) == 0 { removed += 1 }
        }
        return (found, removed)
    }
}
