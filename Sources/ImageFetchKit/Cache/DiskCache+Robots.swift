import FoundationEssentials

/// Sites' robots.txt files, kept in the index until they expire, so `--respect-robots` asks a
/// site once however many runs there are (RFC 9309 §2.4: a cached copy for at most 24 hours, less
/// when its Cache-Control says so).
///
/// Kept in a table of its own, made on first use, as the digests are: an index made by an older
/// imgfetch needs no migration. What could not be had (5xx, no connection) is never kept.
extension DiskCache {
    static let robotsSchema = """
        CREATE TABLE IF NOT EXISTS robots_files (
            site TEXT PRIMARY KEY NOT NULL,
            status INTEGER NOT NULL,
            body TEXT NOT NULL,
            expires_at REAL NOT NULL
        ) WITHOUT ROWID;
        """

    /// The longest a robots.txt is trusted, whatever its Cache-Control says.
    public static let robotsFileMaxAge: TimeInterval = 24 * 3600

    /// A site's robots.txt as it was answered: 200 with its text, or a 4xx (no rules).
    public struct RobotsFile: Sendable, Equatable {
        public var status: Int
        public var body: String

        public init(status: Int, body: String) {
            self.status = status
            self.body = body
        }
    }

    /// The robots.txt kept for `site` (`https://host[:port]`), if it has not expired.
    public func robotsFile(for site: String) throws(Error) -> RobotsFile? {
        let now = configuration.currentDate().timeIntervalSince1970
        return try withIndex("looking up the robots.txt of \(site)") { database -> RobotsFile? in
            try database.execute(Self.robotsSchema)
            var file: RobotsFile?
            try database.query(
                "SELECT status, body FROM robots_files WHERE site = ? AND expires_at > ?", [.text(site), .real(now)]
            ) { row in
                file = RobotsFile(status: Int(row.integer(0)), body: row.text(1) ?? "")
            }
            return file
        }
    }

    /// Keeps `file` for `site` for `maxAge` seconds (at most `robotsFileMaxAge`; nothing for 0).
    public func keepRobotsFile(_ file: RobotsFile, for site: String, maxAge: TimeInterval) throws(Error) {
        let age = min(maxAge, Self.robotsFileMaxAge)
        guard age > 0 else { return }
        let expires = configuration.currentDate().timeIntervalSince1970 + age
        _ = try withIndex("keeping the robots.txt of \(site)") { database in
            try database.execute(Self.robotsSchema)
            return try database.run(
                "INSERT OR REPLACE INTO robots_files (site, status, body, expires_at) VALUES (?, ?, ?, ?)",
                [.text(site), .integer(Int64(file.status)), .text(file.body), .real(expires)])
        }
    }
}
