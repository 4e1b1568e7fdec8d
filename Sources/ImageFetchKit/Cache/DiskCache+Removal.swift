import FoundationEssentials
import Glibc

/// Removing entries: by key, all, expired, by age, and eviction to a size. All follow one
/// protocol: delete the rows and, in the same transaction, the stamps of their files, and commit;
/// then unlink, under the write lock, each file that no row references any more (see
/// `DiskCache`). A crash between the two leaves only orphan files, which no hit serves.
extension DiskCache {
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

    /// Removes every entry and every entry file (orphans too). Failed URLs are kept.
    @discardableResult
    public func removeAll() throws(Error) -> Removal {
        let removal = try removeRows("removing all entries", where: "1", [])
        try removeUnindexedFiles()
        return removal
    }

    /// Removes the entries past their expiry or older than `maxAge`.
    @discardableResult
    public func removeExpired() throws(Error) -> Removal {
        let now = configuration.currentDate().timeIntervalSince1970
        return try removeRows(
            "removing expired entries", where: "expires_at <= ? OR fetched_at <= ?",
            [.real(now), .real(now - configuration.maxAge)])
    }

    /// Removes the entries fetched (or revalidated) more than `age` seconds ago.
    @discardableResult
    public func removeEntries(olderThan age: TimeInterval) throws(Error) -> Removal {
        let cutoff = configuration.currentDate().timeIntervalSince1970 - age
        return try removeRows("removing entries older than \(Int(age)) s", where: "fetched_at <= ?", [.real(cutoff)])
    }

    /// Enforces the limits now: removes expired entries, then, if still over `maxSize`, the least
    /// recently used down to `maxSize * trimRatio`; also deletes leftover temporary files and
    /// files that no entry references.
    @discardableResult
    public func trim() throws(Error) -> Removal {
        var removal = try removeExpired()
        if let maxSize = configuration.maxSize, try statistics().bytes > maxSize {
            removal = removal + (try evict(toBytes: Int64(Double(maxSize) * configuration.trimRatio)))
        }
        sweepTemporaryFiles()
        try removeUnindexedFiles()
        return removal
    }

    /// Removes expired entries, then least recently used ones, until the total is at most
    /// `target` bytes, never touching `spared` (the entry a store just wrote, whose path the caller
    /// is about to hand out). The victims are chosen and deleted in one transaction, so processes
    /// evicting at once never both count the same bytes.
    @discardableResult
    func evict(toBytes target: Int64, sparing spared: CacheKey? = nil) throws(Error) -> Removal {
        let sparedKey = spared?.rawValue ?? ""
        try catchUpOnStampedUses()
        let now = configuration.currentDate().timeIntervalSince1970
        let maxAge = configuration.maxAge
        let (removal, files) = try withIndex("evicting to \(target) bytes") { database -> (Removal, [String]) in
            try database.writeTransaction { () throws -> (Removal, [String]) in
                var removal = Removal()
                var files: [String] = []
                try database.query(
                    "DELETE FROM entries WHERE (expires_at <= ? OR fetched_at <= ?) AND key != ? RETURNING file, bytes",
                    [.real(now), .real(now - maxAge), .text(sparedKey)]
                ) { row in
                    files.append(row.text(0) ?? "")
                    removal.bytes += row.integer(1)
                    removal.entries += 1
                }
                let total = try database.integer("SELECT bytes FROM totals") ?? 0
                guard total > target else {
                    unstamp(files)
                    return (removal, files)
                }
                // Oldest first, until the running sum frees enough: one ordered pass of the index.
                var victims: [String] = []
                try database.query(
                    """
                    SELECT key, file, bytes FROM (
                        SELECT key, file, bytes,
                            SUM(bytes) OVER (ORDER BY last_used_at, key ROWS UNBOUNDED PRECEDING) AS freed
                        FROM entries WHERE key != ?)
                    WHERE freed - bytes < ?
                    """,
                    [.text(sparedKey), .integer(total - target)]
                ) { row in
                    victims.append(row.text(0) ?? "")
                    files.append(row.text(1) ?? "")
                    removal.bytes += row.integer(2)
                    removal.entries += 1
                }
                for key in victims { try database.run("DELETE FROM entries WHERE key = ?", [.text(key)]) }
                unstamp(files)
                return (removal, files)
            }
        }
        try unlinkUnreferenced(files)
        return removal
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
        try unlinkUnreferenced(entryFilesOnDisk(shard: shard))
    }

    @discardableResult
    func removeRows(_ operation: String, where condition: String, _ bindings: [SQLiteDatabase.Value]) throws(Error) -> Removal {
        let (removal, files) = try withIndex(operation) { database -> (Removal, [String]) in
            try database.writeTransaction { () throws -> (Removal, [String]) in
                var removal = Removal()
                var files: [String] = []
                try database.query("DELETE FROM entries WHERE \(condition) RETURNING file, bytes", bindings) { row in
                    files.append(row.text(0) ?? "")
                    removal.bytes += row.integer(1)
                    removal.entries += 1
                }
                unstamp(files)
                return (removal, files)
            }
        }
        try unlinkUnreferenced(files)
        return removal
    }

    /// Removes the stamps of `files` (relative paths), inside the transaction that deletes their
    /// rows: should the process die before it unlinks them, no hit may serve them.
    private func unstamp(_ files: [String]) {
        for file in files where !file.isEmpty { EntryStamp.remove(from: absolutePath(file)) }
    }

    /// Unlinks each of `files` (relative paths) that no row references, under the write lock so no
    /// other process can publish a file at that path meanwhile. Returns how many were unlinked.
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
