/// The index's side of entry stamps (see `EntryStamp`).
extension DiskCache {
    /// Copies into the index the uses that hits answered from stamps recorded there, so that what
    /// orders entries by use (eviction, listing) sees them. Reads every entry's stamp, one
    /// `getxattr` each: for maintenance, never for a lookup.
    func catchUpOnStampedUses() throws(Error) {
        let later = try withIndex("reading when entries were last used") { database -> [(key: String, lastUsedAt: Double)] in
            var later: [(key: String, lastUsedAt: Double)] = []
            try database.query("SELECT key, file, last_used_at FROM entries") { row in
                guard let key = row.text(0), let file = row.text(1),
                      let stamp = EntryStamp.read(from: self.absolutePath(file)), stamp.lastUsedAt > row.real(2)
                else { return }
                later.append((key, stamp.lastUsedAt))
            }
            return later
        }
        guard !later.isEmpty else { return }
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
}
