/// One of `count` disjoint parts of a URL list, for splitting it across workers that a job engine
/// starts (a Kubernetes Indexed Job, a Slurm array, Dask, GNU parallel).
///
/// A line belongs to shard `index` when the first 8 bytes of the SHA-256 of the line as written
/// (its UTF-8 bytes, surrounding spaces, tabs and CR trimmed), read as a big-endian unsigned
/// 64-bit number, are `index` modulo `count`. The function depends only on the line, so it is the
/// same on every machine, run and version, and any tool can compute it (README gives test
/// vectors and a Python one-liner); each line falls in exactly one shard, repeated lines fall
/// together, and the shards together are the whole list. A line the reader refuses is hashed the
/// same way, so it fails only the shard that owns it.
public struct PrefetchShard: Sendable, Equatable, CustomStringConvertible {
    /// 0 ≤ index < count.
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `I/N` with 0 ≤ I < N; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// Whether the list line `line` (trimmed, as `URLListReader` yields it) belongs to this shard.
    public func contains(_ line: String) -> Bool {
        Self.shard(of: line.utf8, count: count) == index
    }

    /// Whether the line whose trimmed bytes are `bytes` belongs to this shard.
    public func contains(bytes: some Collection<UInt8>) -> Bool {
        Self.shard(of: bytes, count: count) == index
    }

    /// The shard of a line among `count`.
    static func shard(of bytes: some Collection<UInt8>, count: Int) -> Int {
        let digest = SHA256.digest(bytes)
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % UInt64(count))
    }

    public var description: String { "\(index)/\(count)" }
}
