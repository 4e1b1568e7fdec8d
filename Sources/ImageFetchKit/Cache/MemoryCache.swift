import Synchronization

/// A cost-limited least-recently-used cache of what this process has loaded (bytes and metadata,
/// and pixels once decoded); the cost of a value is the number of bytes it holds.
///
/// Thread safety: every method may be called from any thread or task; state sits behind one
/// `Mutex` and no caller code runs while it is held. `value(for:)`, `insert` and eviction are O(1).
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most bytes held at once; inserting beyond it evicts least recently used values first.
    public let costLimit: Int
    private let state: Mutex<LRUList<Key, Value>>

    /// A cache holding at most `costLimit` bytes (0 holds nothing).
    public init(costLimit: Int) {
        self.costLimit = max(0, costLimit)
        self.state = Mutex(LRUList())
    }

    /// The value stored for `key`, which becomes the most recently used; nil when absent.
    public func value(for key: Key) -> Value? {
        state.withLock { $0.value(for: key) }
    }

    /// Stores `value` for `key` at `cost` bytes, replacing any previous value, then evicts least
    /// recently used values until the total is within `costLimit`. A value costing more than the
    /// whole limit is not kept.
    public func insert(_ value: Value, for key: Key, cost: Int) {
        let limit = costLimit
        // Evicted values are returned and released after the lock, so no deinit runs under it.
        let evicted = state.withLock { list -> [Value] in
            list.remove(key)
            guard cost <= limit else { return [] }
            list.insertAsMostRecent(value, for: key, cost: max(0, cost))
            var evicted: [Value] = []
            while list.totalCost > limit, let oldest = list.removeLeastRecent() { evicted.append(oldest) }
            return evicted
        }
        _ = evicted
    }

    /// Removes the value for `key`, if any.
    public func removeValue(for key: Key) {
        _ = state.withLock { $0.remove(key) }
    }

    /// Removes every value.
    public func removeAll() {
        state.withLock { $0 = LRUList() }
    }

    /// The bytes held now.
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// The number of values held now.
    public var count: Int { state.withLock { $0.count } }
}
