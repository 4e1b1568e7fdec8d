import FoundationEssentials

/// What `cache info` and `cache ls` show.
extension DiskCache {
    /// The cache's size and limits at one moment.
    public struct Statistics: Sendable, Equatable {
        public var directory: String
        public var entries: Int
        /// Bytes of all entry files, from the running total (no directory scan).
        public var bytes: Int64
        public var maxSize: Int64?
        public var maxAge: TimeInterval
        /// URLs on the failed-URL list that have not expired.
        public var failedURLs: Int
    }

    /// The current statistics; O(1) in the number of entries.
    public func statistics() throws(Error) -> Statistics {
        let now = configuration.currentDate().timeIntervalSince1970
        let (entries, bytes, failed) = try withIndex("reading statistics") { database -> (Int64, Int64, Int64) in
            var totals: (Int64, Int64) = (0, 0)
            try database.query("SELECT entries, bytes FROM totals") { totals = ($0.integer(0), $0.integer(1)) }
            let failed = try database.integer("SELECT COUNT(*) FROM failures WHERE expires_at > ?", [.real(now)]) ?? 0
            return (totals.0, totals.1, failed)
        }
        return Statistics(
            directory: directory, entries: Int(entries), bytes: bytes, maxSize: configuration.maxSize,
            maxAge: configuration.maxAge, failedURLs: Int(failed))
    }

    /// Calls `body` with every entry, expired ones included (check `isExpired`), in `order`, as
    /// the index yields them, until `body` returns false: the first entry arrives before the last
    /// is read, and memory stays flat whatever the number of entries. Most recently used first
    /// comes straight off the index on `last_used_at`, after the uses that stamps recorded are
    /// copied into it (`catchUpOnStampedUses`); the other orders are SQLite's sort, which spills
    /// to temporary files rather than grow. Each entry's last use is its stamp's, when later.
    ///
    /// The rows come from a connection of the listing's own, so `body` runs outside the index's
    /// mutex and may take its time (a slow pipe); it sees one snapshot of the index, whatever
    /// other processes change meanwhile.
    public func forEachEntry(sortedBy order: CacheEntry.SortOrder = .lastUsed, _ body: (CacheEntry) -> Bool) throws(Error) {
        let orderBy = switch order {
        // Both columns descending: the index on last_used_at holds (last_used_at, key), so SQLite
        // walks it backwards instead of sorting every row before the first.
        case .lastUsed: "last_used_at DESC, key DESC"
        case .fetched: "fetched_at DESC, key"
        case .size: "bytes DESC, key"
        case .url: "url ASC, key"
        }
        if order == .lastUsed { try catchUpOnStampedUses() }
        try forEachEntry(orderedBy: orderBy, body)
    }

    /// Every entry, expired ones included (check `isExpired`), in `order`, collected: for small
    /// caches and tests; `forEachEntry(sortedBy:_:)` streams them.
    public func entries(sortedBy order: CacheEntry.SortOrder = .lastUsed) throws(Error) -> [CacheEntry] {
        var entries: [CacheEntry] = []
        try forEachEntry(sortedBy: order) { entry in
            entries.append(entry)
            return true
        }
        return entries
    }

    /// `forEachEntry(sortedBy:_:)` with an SQL `ORDER BY` clause, without catching up on stamps.
    func forEachEntry(orderedBy orderBy: String, _ body: (CacheEntry) -> Bool) throws(Error) {
        let listing = try Self.openIndex(directory: directory, configuration: configuration)
        do {
            try listing.stepRows("SELECT \(Self.entryColumns) FROM entries ORDER BY \(orderBy)", while: { row in
                guard var entry = self.entry(from: row) else { return true }
                if let stamp = EntryStamp.read(from: entry.path), stamp.lastUsedAt > entry.lastUsedAt.timeIntervalSince1970 {
                    entry.lastUsedAt = Date(timeIntervalSince1970: stamp.lastUsedAt)
                }
                return body(entry)
            })
        } catch {
            throw Self.indexError(error, directory: directory, operation: "listing entries")
        }
    }
}
