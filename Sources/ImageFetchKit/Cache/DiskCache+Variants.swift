/// Removing the variants of an original (see `CacheKey.variant(_:)`), by the same protocol as
/// every other removal (`DiskCache+Removal`).
extension DiskCache {
    /// The variants made of the entry under `key`, by their spec (`CacheKey.variantSpec`), expired
    /// ones included.
    public func variants(of key: CacheKey) throws(Error) -> [CacheEntry] {
        let range = key.variantRange
        let columns = Self.entryColumns
        return try withIndex("listing the variants of \(key)") { database -> [CacheEntry] in
            var found: [CacheEntry] = []
            try database.query(
                "SELECT \(columns) FROM entries WHERE key > ? AND key < ? ORDER BY key", [.text(range.lower), .text(range.upper)]
            ) { row in
                if let entry = self.entry(from: row) { found.append(entry) }
            }
            return found
        }
    }

    /// Removes every variant made of the entry under `key` (not the entry itself).
    @discardableResult
    public func removeVariants(of key: CacheKey) throws(Error) -> Removal {
        let range = key.variantRange
        return try removeRows("removing the variants of \(key)", where: "key > ? AND key < ?", [.text(range.lower), .text(range.upper)])
    }

    /// Removes the entry under `key` and every variant made of it.
    @discardableResult
    public func removeWithVariants(_ key: CacheKey) throws(Error) -> Removal {
        try removeRows("removing \(key) and its variants", where: "key = ?", [.text(key.rawValue)]) + removeVariants(of: key)
    }

    /// Removes every variant in the cache, keeping the originals.
    @discardableResult
    public func removeAllVariants() throws(Error) -> Removal {
        try removeRows("removing all variants", where: "instr(key, ' ') > 0", [])
    }
}
