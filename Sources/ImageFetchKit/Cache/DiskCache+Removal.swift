import FoundationEssentials
import Glibc

/// Removing entries: by key, all, expired, by age, and eviction to a size. All follow one
/// protocol: delete the rows and, in the same transaction, the stamps of their files, and commit;
/// then unlink, under the write lock, each file that no row references any more (see
/// `DiskCache`). A crash between the two leaves only orphan files, which no hit serves.
///
/// Both steps go `removalBatch` entries (or files) per transaction. Why: one transaction for a
/// large removal dirtied more pages than SQLite's 512 KiB page cache holds, which then spilled
/// to the write-ahead log again and again (trimming 15k of 20k entries made 284k writes), held
/// the write lock that every store waits on for its whole length, and kept every victim's name
/// in memory: trimming 152k of 200k entries took 83 s and 55 MB. Batches bound all three.
extension DiskCache {
    /// Entries, or files, per removal transaction.
    static let removalBatch = 1000

    /// What one removal did.
    public struct Removal: Sendable, Equatable {
        /// Entries whose rows were deleted.
        public var entries: Int = 0
        /// Bytes those entries held.
        public var bytes: Int64 = 0

        static func + (lhs: Removal, rhs: Removal) -> Removal {
            Removal(entries: lhs.entries + rhs.entries, bytes: lhs.bytes + rhs.bytes)
        }
    }

    /// Removes the entry for `key` and its file. Returns whether there was one.
    @discardableResult
    public func remove(_ key: CacheKey) throws(Error) -> Bool {
        try removeRows("removing \(key)", where: "key = ?", [.text(key.rawValue)]).entries > 0
    }

    /// Removes every entry and every entry file (orphans and partial files too). Failed URLs are kept.
    @discardableResult
    public func removeAll() throws(Error) -> Removal {
        let removal = try withRemovalPageCache { () throws(Error) -> Removal in
            try removeRows("removing all entries", where: "1", [])
        }
        try removeUnindexedFiles()
        sweepPartialFiles(olderThan: 0)
        return removal
    }

    /// Removes the entries past their expiry or older than `maxAge`.
    @discardableResult
    public func removeExpired() throws(Error) -> Removal {
        let now = configuration.currentDate().timeIntervalSince1970
        return try withRemovalPageCache { () throws(Error) -> Removal in
            try removeRows(
                "removing expired entries", where: "expires_at <= ? OR fetched_at <= ?",
                [.real(now), .real(now - configuration.maxAge)])
        }
    }

    /// Removes the entries fetched (or revalidated) more than `age` seconds ago.
    @discardableResult
    public func removeEntries(olderThan age: TimeInterval) throws(Error) -> Removal {
        let cutoff = configuration.currentDate().timeIntervalSince1970 - age
        return try withRemovalPageCache { () throws(Error) -> Removal in
            try removeRows("removing entries older than \(Int(age)) s", where: "fetched_at <= ?", [.real(cutoff)])
        }
    }

    /// Enforces the limits now: removes expired entries, then, if still over `maxSize`, the least
    /// recently used until at most `maxSize` bytes are left; also deletes leftover temporary files
    /// partial files older than a day, and files that no entry references. Unlike the eviction a store sets off (down to
    /// `maxSize * trimRatio`, so that stores do not evict every time), an explicit trim keeps
    /// what the user asked for: as much as fits in `maxSize`.
    @discardableResult
    public func trim() throws(Error) -> Removal {
        var removal = try removeExpired()
        if let maxSize = configuration.maxSize, try statistics().bytes > maxSize {
            removal = removal + (try evict(toBytes: maxSize))
        }
        sweepTemporaryFiles()
        sweepPartialFiles(olderThan: Self.partialFileMaxAge)
        try removeUnindexedFiles()
        return removal
    }

    /// Removes expired entries, then least recently used ones, until the total is at most
    /// `target` bytes, never touching `spared` (the entry a store just wrote, whose path the caller
    /// is about to hand out) nor, with `sparingRun`, any entry used since the run began
    /// (`DiskCacheConfiguration.runStartedAt`): a run never evicts its own loads. Each batch's
    /// victims are chosen and deleted in one transaction that first reads the total, so processes
    /// evicting at once never both count the same bytes.
    @discardableResult
    func evict(toBytes target: Int64, sparing spared: CacheKey? = nil, sparingRun: Bool = false) throws(Error) -> Removal {
        let sparedKey = spared?.rawValue ?? ""
        // Uses recorded in stamps reach the index first, so the run's hits count as uses.
        try catchUpOnStampedUses()
        let usedSince = sparingRun
            ? configuration.runStartedAt.map { $0.timeIntervalSince1970 - configuration.lastUsedResolution } ?? .infinity : .infinity
        return try withRemovalPageCache { () throws(Error) -> Removal in
            try evictInBatches(toBytes: target, sparing: sparedKey, usedSince: usedSince)
        }
    }

    private func evictInBatches(toBytes target: Int64, sparing sparedKey: String, usedSince: Double) throws(Error) -> Removal {
        let now = configuration.currentDate().timeIntervalSince1970
        var removal = try removeRows(
            "evicting expired entries", where: "(expires_at <= ? OR fetched_at <= ?) AND key != ? AND last_used_at < ?",
            [.real(now), .real(now - configuration.maxAge), .text(sparedKey), .real(usedSince)])
        while true {
            let (batch, files, isLast) = try withIndex("evicting to \(target) bytes") { database -> (Removal, [String], Bool) in
                try database.writeTransaction { () throws -> (Removal, [String], Bool) in
                    var batch = Removal()
                    var victims: [String] = []
                    var files: [String] = []
                    let total = try database.integer("SELECT bytes FROM totals") ?? 0
                    guard total > target else { return (batch, files, true) }
                    // The least recently used entries, oldest first, until their running sum frees
                    // enough: one ordered walk of the index on last_used_at, a batch long.
                    try database.query(
                        """
                        SELECT key, file, bytes FROM (
                            SELECT key, file, bytes,
                                SUM(bytes) OVER (ORDER BY last_used_at, key ROWS UNBOUNDED PRECEDING) AS freed
                            FROM (SELECT key, file, bytes, last_used_at FROM entries WHERE key != ? AND last_used_at < ?
                                  ORDER BY last_used_at, key LIMIT ?))
                        WHERE freed - bytes < ?
                        """,
                        [.text(sparedKey), .real(usedSince), .integer(Int64(Self.removalBatch)), .integer(total - target)]
                    ) { row in
                        victims.append(row.text(0) ?? "")
                        files.append(row.text(1) ?? "")
                        batch.bytes += row.integer(2)
                        batch.entries += 1
                    }
                    for key in victims { try database.run("DELETE FROM entries WHERE key = ?", [.text(key)]) }
                    unstamp(files)
                    // Fewer than a batch: enough was freed, or nothing else may go.
                    return (batch, files, victims.count < Self.removalBatch)
                }
            }
            try unlinkUnreferenced(files)
            removal = removal + batch
            if isLast { return removal }
        }
    }

    /// Drops an entry found damaged on a hit or by `verify`, unless another process replaced it
    /// meanwhile (then its row no longer matches and is left alone).
    func removeDamaged(_ entry: CacheEntry) throws(Error) {
        try removeRows(
            "removing the damaged entry \(entry.key)", where: "key = ? AND fetched_at = ? AND bytes = ?",
            [.text(entry.key.rawValue), .real(entry.fetchedAt.timeIntervalSince1970), .integer(entry.bytes)])
        // Its file may be damaged with no row left to say so; nobody references it now.
        try unlinkUnreferenced([relativePath(of: entry.path)])
    }

    /// Deletes the files in shard folders that no entry references: what a process killed between
    /// publishing a file and committing its row, or between the two removal steps, left behind.
    /// `shard` limits the sweep to one shard folder (1/16 of the files).
    @discardableResult
    func removeUnindexedFiles(shard: String? = nil) throws(Error) -> Int {
        var unlinked = 0
        try forEachBatchOfEntryFiles(shard: shard) { (files) throws(Error) in unlinked += try unlinkUnreferenced(files) }
        return unlinked
    }

    /// How many files in the shard folders no entry references (`verify`).
    func countUnindexedFiles() throws(Error) -> Int {
        var count = 0
        try forEachBatchOfEntryFiles(shard: nil) { (files) throws(Error) in
            count += try withIndex("looking for unindexed files") { database in
                try files.filter { try database.integer("SELECT 1 FROM entries WHERE file = ? LIMIT 1", [.text($0)]) == nil }.count
            }
        }
        return count
    }

    /// The entry files (not writes in progress) in the shard folders, `removalBatch` at a time.
    private func forEachBatchOfEntryFiles(shard: String?, _ body: ([String]) throws(Error) -> Void) throws(Error) {
        var batch: [String] = []
        try forEachFileInShards(shard) { (file) throws(Error) in
            guard !file.hasSuffix(Self.temporaryFileSuffix), !file.hasSuffix(Self.partialFileSuffix) else { return }
            batch.append(file)
            if batch.count == Self.removalBatch {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// Deletes the entries that match `condition` (SQL over `entries`, with `bindings`) and their
    /// files, `removalBatch` at a time. The batches walk the keys in order, each starting after
    /// the last key the one before deleted, so no row is looked at twice.
    @discardableResult
    func removeRows(_ operation: String, where condition: String, _ bindings: [SQLiteDatabase.Value]) throws(Error) -> Removal {
        var removal = Removal()
        var after = ""
        while true {
            let (batch, files, last) = try withIndex(operation) { database -> (Removal, [String], String) in
                try database.writeTransaction { () throws -> (Removal, [String], String) in
                    var batch = Removal()
                    var files: [String] = []
                    var last = after
                    try database.query(
                        """
                        DELETE FROM entries WHERE key IN (
                            SELECT key FROM entries WHERE (\(condition)) AND key > ? ORDER BY key LIMIT ?)
                        RETURNING key, file, bytes
                        """,
                        bindings + [.text(after), .integer(Int64(Self.removalBatch))]
                    ) { row in
                        last = max(last, row.text(0) ?? "")
                        files.append(row.text(1) ?? "")
                        batch.bytes += row.integer(2)
                        batch.entries += 1
                    }
                    unstamp(files)
                    return (batch, files, last)
                }
            }
            try unlinkUnreferenced(files)
            removal = removal + batch
            if batch.entries < Self.removalBatch { return removal }
            after = last
        }
    }

    /// Runs `body`, a removal of many entries, with the index's page cache at 16 MiB instead of
    /// 512 KiB, then gives the memory back. Why: a batch of removals dirties a page or two per
    /// entry, leaves of the table and of its indexes at random, more than 512 KiB holds, and SQLite
    /// then reads them back and writes them to the log more than once. Measured trimming 152k of
    /// 200k entries: 3.57M writes and 2.48M reads with 512 KiB, 2.09M and 0.97M with 16 MiB.
    private func withRemovalPageCache<T>(_ body: () throws(Error) -> T) throws(Error) -> T {
        try withIndex("making room to remove entries") { try $0.execute("PRAGMA cache_size = -16384") }
        defer { _ = try? withIndex("returning the room") { try $0.execute("PRAGMA cache_size = -512") } }
        return try body()
    }

    /// Removes the stamps of `files` (relative paths), inside the transaction that deletes their
    /// rows: should the process die before it unlinks them, no hit may serve them.
    private func unstamp(_ files: [String]) {
        for file in files where !file.isEmpty { EntryStamp.remove(from: absolutePath(file)) }
    }

    /// Unlinks each of `files` (relative paths) that no row references, under the write lock so no
    /// other process can publish a file at that path meanwhile. Returns how many were unlinked.
    /// Callers pass at most a batch: the write lock is held for all of them.
    @discardableResult
    private func unlinkUnreferenced(_ files: [String]) throws(Error) -> Int {
        let candidates = files.filter { !$0.isEmpty }
        guard !candidates.isEmpty else { return 0 }
        return try withIndex("deleting removed files") { database in
            try database.writeTransaction {
                var unlinked = 0
                for file in candidates where try database.integer("SELECT 1 FROM entries WHERE file = ? LIMIT 1", [.text(file)]) == nil {
                    if unlink(absolutePath(file)) == 0 { unlinked += 1 }
                }
                return unlinked
            }
        }
    }
}
