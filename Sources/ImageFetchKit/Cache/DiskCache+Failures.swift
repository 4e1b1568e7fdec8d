import FoundationEssentials

/// The persistent failed-URL list, kept in the same index: a URL that failed for a permanent
/// reason is not fetched again until its record expires (`failureMaxAge`) or the user retries.
extension DiskCache {
    /// The failure recorded for `url`, or nil if there is none or it has expired.
    public func failure(for url: String) throws(Error) -> FailedURL? {
        let now = configuration.currentDate().timeIntervalSince1970
        return try withIndex("looking up the failure of \(url)") { database -> FailedURL? in
            var found: FailedURL?
            try database.query(
                "SELECT reason, failed_at, expires_at FROM failures WHERE url = ? AND expires_at > ?",
                [.text(url), .real(now)]
            ) { row in
                found = FailedURL(
                    url: url, reason: row.text(0) ?? "",
                    failedAt: Date(timeIntervalSince1970: row.real(1)),
                    expiresAt: Date(timeIntervalSince1970: row.real(2)))
            }
            return found
        }
    }

    /// Puts `url` on the failed-URL list with `reason` and the HTTP `status` if it was one
    /// (replacing an earlier record), until `failureMaxAge` from now.
    @discardableResult
    public func recordFailure(url: String, reason: String, status: Int? = nil) throws(Error) -> FailedURL {
        let now = configuration.currentDate()
        let record = FailedURL(
            url: url, reason: reason, failedAt: now, expiresAt: now.addingTimeInterval(configuration.failureMaxAge), status: status)
        _ = try withIndex("recording the failure of \(url)") { database in
            try Self.addStatusColumnIfMissing(database)
            try database.run(
                "INSERT OR REPLACE INTO failures (url, reason, failed_at, expires_at, status) VALUES (?, ?, ?, ?, ?)",
                [.text(url), .text(reason), .real(now.timeIntervalSince1970), .real(record.expiresAt.timeIntervalSince1970),
                 status.map { .integer(Int64($0)) } ?? .null])
        }
        return record
    }

    /// Adds `failures.status` to an index made before it existed. Additive, so the index keeps
    /// its version: an older imgfetch names its columns and never sees this one. Checked only
    /// where failures are recorded or listed (both rare), never on the load path.
    static func addStatusColumnIfMissing(_ database: SQLiteDatabase) throws {
        var hasStatus = false
        try database.query("PRAGMA table_info(failures)") { row in
            if row.text(1) == "status" { hasStatus = true }
        }
        guard !hasStatus else { return }
        try database.writeTransaction {
            var added = false
            try database.query("PRAGMA table_info(failures)") { row in
                if row.text(1) == "status" { added = true }
            }
            // Re-checked under the write lock: another process may have just added it.
            if !added { try database.execute("ALTER TABLE failures ADD COLUMN status INTEGER") }
        }
    }

    /// Takes `url` off the failed-URL list (after it loaded). Returns whether it was on it.
    @discardableResult
    public func removeFailure(for url: String) throws(Error) -> Bool {
        try withIndex("clearing the failure of \(url)") { database in
            try database.run("DELETE FROM failures WHERE url = ?", [.text(url)]) > 0
        }
    }

    /// The failed-URL list: every record that has not expired, most recent failure first.
    public func failures() throws(Error) -> [FailedURL] {
        let now = configuration.currentDate().timeIntervalSince1970
        return try withIndex("listing the failed URLs") { database -> [FailedURL] in
            try Self.addStatusColumnIfMissing(database)
            var found: [FailedURL] = []
            try database.query(
                "SELECT url, reason, failed_at, expires_at, status FROM failures WHERE expires_at > ? ORDER BY failed_at DESC, url",
                [.real(now)]
            ) { row in
                found.append(FailedURL(
                    url: row.text(0) ?? "", reason: row.text(1) ?? "",
                    failedAt: Date(timeIntervalSince1970: row.real(2)),
                    expiresAt: Date(timeIntervalSince1970: row.real(3)),
                    status: row.isNull(4) ? nil : Int(row.integer(4))))
            }
            return found
        }
    }

    /// Empties the failed-URL list, expired records included. Returns how many were removed.
    @discardableResult
    public func removeFailures() throws(Error) -> Int {
        try withIndex("clearing the failed-URL list") { database in
            try database.run("DELETE FROM failures")
        }
    }
}
