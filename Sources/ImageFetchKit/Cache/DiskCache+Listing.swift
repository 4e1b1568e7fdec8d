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

    /// Every entry, expired ones included (check `isExpired`), in `order`.
    public func entries(sortedBy order: CacheEntry.SortOrder = .lastUsed) throws(Error) -> [CacheEntry] {
        let orderBy = switch order {
        case .lastUsed: "last_used_at DESC"
        case .fetched: "fetched_at DESC"
        case .size: "bytes DESC"
        case .url: "url ASC"
        }
        try catchUpOnStampedUses()
        let columns = Self.entryColumns
        return try withIndex("listing entries") { database -> [CacheEntry] in
            var entries: [CacheEntry] = []
            try database.query("SELECT \(columns) FROM entries ORDER BY \(orderBy), key") { row in
                if let entry = self.entry(from: row) { entries.append(entry) }
            }
            return entries
        }
    }
}
