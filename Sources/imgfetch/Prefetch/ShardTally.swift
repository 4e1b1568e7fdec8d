import ImageFetchKit
import Synchronization

/// Picks a shard's URLs out of the list as it is read, counting the list's URLs and those taken.
final class ShardTally: Sendable {
    let shard: PrefetchShard
    let filter: CacheKeyFilter
    private let listed = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)

    init(shard: PrefetchShard, filter: CacheKeyFilter) {
        self.shard = shard
        self.filter = filter
    }

    /// Whether `url` is this shard's, counted.
    func takes(_ url: String) -> Bool {
        listed.add(1, ordering: .relaxed)
        guard shard.contains(url, filter: filter) else { return false }
        taken.add(1, ordering: .relaxed)
        return true
    }

    /// `shard 1/4 took 250 of the list's 1000 URLs`
    var text: String {
        "shard \(shard) took \(taken.load(ordering: .relaxed)) of the list's \(listed.load(ordering: .relaxed)) URLs"
    }
}
