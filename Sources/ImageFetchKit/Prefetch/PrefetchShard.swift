import FoundationEssentials

/// One of `count` disjoint parts of a URL list, for splitting it across workers that a job engine
/// starts (a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`, a Slurm array's `SLURM_ARRAY_TASK_ID`).
///
/// A URL belongs to shard `index` when the first 8 bytes of its cache key's SHA-256 (the hash that
/// names its cache file), read as a big-endian unsigned 64-bit number, are `index` modulo
/// `count`. The function depends only on the key, so it is the same on every machine, run and
/// version; each URL falls in exactly one shard, and the shards together are the whole list.
/// Text that is not a URL is hashed as it is.
public struct PrefetchShard: Sendable, Equatable, CustomStringConvertible {
    /// 0 ≤ index < count.
    public let index: Int
    public let count: Int

    /// `I/N` with 0 ≤ I < N; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (0..<count).contains(index) else {
            return nil
        }
        self.index = index
        self.count = count
    }

    /// Whether `url` (a line of the list) belongs to this shard under `filter`.
    public func contains(_ url: String, filter: CacheKeyFilter = .none) -> Bool {
        let key = URL(string: url).map { CacheKey(url: $0, filter: filter) } ?? CacheKey(url)
        return Self.shard(ofHash: key.hash, count: count) == index
    }

    /// The shard of a key whose SHA-256 is `hash` (64 hex digits).
    static func shard(ofHash hash: String, count: Int) -> Int {
        let value = UInt64(hash.prefix(16), radix: 16) ?? 0
        return Int(value % UInt64(count))
    }

    public var description: String { "\(index)/\(count)" }
}
