import FoundationEssentials

/// SHA-256 digests of entry files, for manifests: computed the first time one is asked for and
/// kept in the index, so later hits answer without reading the file again.
///
/// Kept beside the entries rather than in their rows: a store (the hot path of a batch) hashes
/// nothing, and an index made by an older imgfetch needs no migration (the table is made on first
/// use). A digest is valid for the entry as it was when hashed (`fetched_at` and `bytes`); a
/// refetched entry gets a new one. Rows of removed entries are dropped with them by a trigger.
extension DiskCache {
    static let digestSchema = """
        CREATE TABLE IF NOT EXISTS digests (
            file TEXT PRIMARY KEY NOT NULL,
            fetched_at REAL NOT NULL,
            bytes INTEGER NOT NULL,
            sha256 TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TRIGGER IF NOT EXISTS digests_dropped AFTER DELETE ON entries BEGIN
            DELETE FROM digests WHERE file = OLD.file;
        END;
        """

    /// The SHA-256 (64 hex characters) of the entry file at `path`, from the index, or computed
    /// from the file and recorded. nil when no entry has that file.
    public func sha256(ofEntryFile path: String) throws(Error) -> String? {
        let file = relativePath(of: path)
        let known = try withIndex("looking up the digest of \(path)") { database -> (entry: (Double, Int64)?, digest: String?) in
            try database.execute(Self.digestSchema)
            var entry: (Double, Int64)?
            var digest: String?
            try database.query(
                """
                SELECT e.fetched_at, e.bytes, d.sha256 FROM entries e
                LEFT JOIN digests d ON d.file = e.file AND d.fetched_at = e.fetched_at AND d.bytes = e.bytes
                WHERE e.file = ? LIMIT 1
                """, [.text(file)]
            ) { row in
                entry = (row.real(0), row.integer(1))
                digest = row.text(2)
            }
            return (entry, digest)
        }
        guard let entry = known.entry else { return nil }
        if let digest = known.digest { return digest }
        // Hashed outside the index's lock. Should the entry be refetched meanwhile, the digest is
        // recorded under the fetch time read before, so the new entry does not match it.
        let bytes: Data
        do { bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) } catch {
            throw .cannotRead(path: path, cause: SystemErrorText.describe(error))
        }
        let digest = SHA256.hexDigest(bytes)
        guard Int64(bytes.count) == entry.1 else { return digest }
        _ = try withIndex("recording the digest of \(path)") { database in
            try database.run(
                "INSERT OR REPLACE INTO digests (file, fetched_at, bytes, sha256) VALUES (?, ?, ?, ?)",
                [.text(file), .real(entry.0), .integer(entry.1), .text(digest)])
        }
        return digest
    }
}
