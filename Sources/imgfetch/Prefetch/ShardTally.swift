import ImageFetchKit
import Synchronization

/// Picks a shard's lines out of the list as it is read, counting the list's URLs and those taken.
final class ShardTally: Sendable {
    let shard: PrefetchShard
    private let listedCount = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)

    init(shard: PrefetchShard) {
        self.shard = shard
    }

    /// Whether the list line `url` is this shard's, counted.
    func takes(_ url: String) -> Bool {
        listedCount.add(1, ordering: .relaxed)
        guard shard.contains(url) else { return false }
        taken.add(1, ordering: .relaxed)
        return true
    }

    /// Whether the refused line `line` is this shard's to report (and fail).
    func owns(_ line: URLListReader.RejectedLine) -> Bool {
        shard.contains(bytes: line.shardBytes)
    }

    /// URLs of the list seen so far.
    var listed: Int { listedCount.load(ordering: .relaxed) }

    /// `shard 1/4 took 250 of the list's 1000 URLs`
    var text: String {
        "imgfetch: shard \(shard) took \(taken.load(ordering: .relaxed)) of the list's \(listed) URLs"
    }
}
