/// The index's side of entry stamps (see `EntryStamp`).
extension DiskCache {
    /// Rows read (and stamps checked) per step of `catchUpOnStampedUses`.
    static let stampCatchUpBatch = 1000

    /// Copies into the index the uses that hits answered from stamps recorded there, so that what
    /// orders entries by use (eviction, listing) sees them. Reads the stamps, one `getxattr`
    /// each, of the buckets that `StampedUseMarks` marks (of every bucket, the first time on a
    /// cache from before the marks): for maintenance, never for a lookup. Each bucket is read
    /// `batch` rows at a time, each batch's later uses written in one transaction, so memory
    /// stays flat however many entries there are and no transaction is long.
    func catchUpOnStampedUses(batch: Int = stampCatchUpBatch) throws(Error) {
        let readsEveryBucket = !StampedUseMarks.hasFolder(in: directory)
        // Made before the reading: a hit from now on leaves a mark for the next catch-up.
        if readsEveryBucket { StampedUseMarks.makeFolder(in: directory) }
        for bucket in StampedUseMarks.buckets where readsEveryBucket || StampedUseMarks.takeMark(bucket, in: directory) {
            do { try catchUp(bucket: bucket, batch: batch) } catch {
                StampedUseMarks.restoreMark(bucket, in: directory)
                throw error
            }
        }
    }

    /// The catch-up of one bucket: its files in today's layout (`a/ab…`) and in that of caches
    /// from before the 16 shard folders (`ab/ab…`), each a range of the index on `file`.
    private func catchUp(bucket: String, batch: Int) throws(Error) {
        // "~" sorts after every hex digit and ".", so each range holds exactly the bucket's files.
        for lower in ["\(bucket.prefix(1))/\(bucket)", "\(bucket)/"] {
            var after = lower
            while true {
                let (later, last, count) = try withIndex("reading when entries were last used") { database in
                    var later: [(key: String, lastUsedAt: Double)] = []
                    var last: String?
                    var count = 0
                    try database.query(
                        "SELECT key, file, last_used_at FROM entries WHERE file > ? AND file < ? ORDER BY file LIMIT ?",
                        [.text(after), .text(lower + "~"), .integer(Int64(batch))]
                    ) { row in
                        count += 1
                        guard let key = row.text(0), let file = row.text(1) else { return }
                        last = file
                        guard let stamp = EntryStamp.read(from: self.absolutePath(file)), stamp.lastUsedAt > row.real(2) else { return }
                        later.append((key, stamp.lastUsedAt))
                    }
                    return (later, last, count)
                }
                if !later.isEmpty {
                    try withIndex("recording when entries were last used") { database in
                        try database.writeTransaction {
                            for (key, lastUsedAt) in later {
                                try database.run(
                                    "UPDATE entries SET last_used_at = ? WHERE key = ? AND last_used_at < ?",
                                    [.real(lastUsedAt), .text(key), .real(lastUsedAt)])
                            }
                        }
                    }
                }
                guard count == batch, let last else { break }
                after = last
            }
        }
    }
}
