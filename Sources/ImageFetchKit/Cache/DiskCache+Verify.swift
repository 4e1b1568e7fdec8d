import FoundationEssentials

/// `cache verify`: re-check every entry against its file and the decoder's validation.
extension DiskCache {
    /// What a verification found (and, with `fix`, removed).
    public struct Verification: Sendable {
        /// One entry that failed a check, with why, in a sentence.
        public struct Damage: Sendable {
            public var entry: CacheEntry
            public var reason: String
        }

        /// Entries checked.
        public var checked = 0
        public var damaged: [Damage] = []
        /// Files in the shard folders that no entry references (deleted when fixing).
        public var unindexedFiles = 0
        /// Temporary files found in the shard folders: writes in progress, or leftovers of
        /// writers that were killed (SIGKILL, a crash, a power cut).
        public var temporaryFiles = 0
        /// Temporary files deleted (only when fixing): those older than
        /// `temporaryFileMaxAge`, which no live writer can still be writing.
        public var temporaryFilesRemoved = 0
        /// Partial files: the starts of interrupted bodies kept to be continued (`Resume`).
        public var partialFiles = 0
        /// Partial files deleted (only when fixing): those older than `partialFileMaxAge`.
        public var partialFilesRemoved = 0
    }

    /// Checks every entry: its file exists, has the recorded size, and its bytes pass `validator`
    /// (the loader passes the decoder registry's validation, so the cache does not depend on
    /// decoding). With `fix`, damaged entries, unindexed files, partial files older than a day and stale temporary files are
    /// removed; a temporary file younger than `temporaryFileMaxAge` is counted but kept, as it may
    /// be another process's write in progress (its name's process ID cannot tell: the writer may
    /// run in another PID namespace, on another host sharing the directory). `validator` is called on the calling thread, outside any lock, once per entry.
    ///
    /// The entries are read as the index yields them, and the shard folders as they are listed,
    /// so memory grows with the damage found, not with the size of the cache.
    public func verify(fix: Bool, validator: (Data) throws -> Void) throws(Error) -> Verification {
        var result = Verification()
        try forEachEntry(orderedBy: "url, key") { entry in
            result.checked += 1
            if let reason = damage(of: entry, validator: validator) { result.damaged.append(.init(entry: entry, reason: reason)) }
            return true
        }
        // After the listing: removal writes the index the listing was reading.
        if fix {
            for damage in result.damaged { try removeDamaged(damage.entry) }
        }
        result.unindexedFiles = try countUnindexedFiles()
        forEachFileInShards { file in
            if file.hasSuffix(Self.temporaryFileSuffix) { result.temporaryFiles += 1 }
        }
        (result.partialFiles, result.partialFilesRemoved) = sweepPartialFiles(olderThan: fix ? Self.partialFileMaxAge : nil)
        if fix {
            try removeUnindexedFiles()
            result.temporaryFilesRemoved = sweepTemporaryFiles()
        }
        return result
    }

    /// Why `entry` is damaged, or nil if it is whole.
    private func damage(of entry: CacheEntry, validator: (Data) throws -> Void) -> String? {
        guard let size = Self.fileSize(entry.path) else { return "Its file \(entry.path) is missing." }
        guard size == entry.bytes else {
            return "Its file \(entry.path) holds \(size) bytes but \(entry.bytes) were stored."
        }
        do {
            try validator(try contents(of: entry))
        } catch {
            return "Its file \(entry.path) does not validate: \(error)"
        }
        return nil
    }
}
