/// The index's side of entry stamps (see `EntryStamp`).
extension DiskCache {
    /// Rows read (and stamps checked) per step of `catchUpOnStampedUses`.
    static let stampCatchUpBatch = 1000

    /// Copies into the index the uses that hits answered from stamps recorded there, so that what
    /// orders entries by use (eviction, listing) sees them. Reads every entry's stamp, one
    /// `getxattr` each: for maintenance, never for a lookup. It walks the index in key order,
    /// `batch` rows at a time, each batch's later uses written in one transaction, so memory
    /// stays flat however many entries there are and no transaction is long.
    func catchUpOnStampedUses(batch: Int = stampCatchUpBatch) throws(Error) {
        var after = ""
        while true {
            let (later, last) = try withIndex("reading when entries were last used") { database -> ([(key: String, lastUsedAt: Double)], String?) in
                var later: [(key: String, lastUsedAt: Double)] = []
                var last: String?
                try database.query(
                    "SELECT key, file, last_used_at FROM entries WHERE key > ? ORDER BY key LIMIT ?",
                    [.text(after), .integer(Int64(batch))]
                ) { row in
                    guard let key = row.text(0) else { return }
                    last = key
                    guard let file = row.text(1), let stamp = EntryStamp.read(from: self.absolutePath(file)),
                          stamp.lastUsedAt > row.real(2)
                    else { return }
                    later.append((key, stamp.lastUsedAt))
                }
                return (later, last)
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
            guard let last else { return }
            after = last
        }
    }
}
