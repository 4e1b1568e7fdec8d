import FoundationEssentials
import Glibc

/// The SQLite index: schema, versioning and the mapping between rows and `CacheEntry`.
///
/// Why SQLite in WAL mode: readers never block the writer nor each other across processes, a
/// lookup is a primary-key probe (a hit never scans the directory), and `BEGIN IMMEDIATE` gives
/// every process one write lock to serialise file publication and removal under (see DiskCache).
extension DiskCache {
    static let indexFileName = "index.sqlite"
    static let schemaVersion = 1

    static let schema = """
        CREATE TABLE entries (
            key TEXT PRIMARY KEY NOT NULL,
            url TEXT NOT NULL,
            file TEXT NOT NULL,
            format TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            bytes INTEGER NOT NULL,
            etag TEXT,
            last_modified TEXT,
            fetched_at REAL NOT NULL,
            last_used_at REAL NOT NULL,
            expires_at REAL NOT NULL
        ) WITHOUT ROWID; -- a lookup is one descent of the key's B-tree, not key index then table
        CREATE INDEX entries_by_last_used ON entries(last_used_at);
        CREATE INDEX entries_by_expiry ON entries(expires_at);
        CREATE INDEX entries_by_file ON entries(file);
        -- A running total kept by triggers, so a size check is one row read, in every process.
        CREATE TABLE totals (id INTEGER PRIMARY KEY CHECK (id = 0), entries INTEGER NOT NULL, bytes INTEGER NOT NULL);
        INSERT INTO totals VALUES (0, 0, 0);
        CREATE TRIGGER entries_inserted AFTER INSERT ON entries BEGIN
            UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.bytes;
        END;
        CREATE TRIGGER entries_deleted AFTER DELETE ON entries BEGIN
            UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.bytes;
        END;
        CREATE TRIGGER entries_resized AFTER UPDATE OF bytes ON entries BEGIN
            UPDATE totals SET bytes = bytes - OLD.bytes + NEW.bytes;
        END;
        CREATE TABLE failures (
            url TEXT PRIMARY KEY NOT NULL,
            reason TEXT NOT NULL,
            failed_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            status INTEGER
        );
        """

    /// The columns `entry(from:)` reads, in order.
    static let entryColumns =
        "key, url, file, format, width, height, bytes, etag, last_modified, fetched_at, last_used_at, expires_at"

    /// Opens the index in `directory`, creating or checking its schema. SQLite reports some lock
    /// conflicts at open without waiting (switching a new file to WAL, a closing process's
    /// checkpoint), so a busy open is tried again, with backoff, for up to the busy timeout.
    static func openIndex(directory: String, configuration: DiskCacheConfiguration) throws(Error) -> SQLiteDatabase {
        let deadline = ContinuousClock.now + .milliseconds(Int64(configuration.busyTimeout * 1000))
        var pause = Duration.milliseconds(1)
        while true {
            do {
                return try openIndexOnce(directory: directory, configuration: configuration)
            } catch let error {
                guard case .index(_, _, _, busy: true) = error, ContinuousClock.now + pause < deadline else { throw error }
                usleep(UInt32(pause.milliseconds * 1000))
                pause = min(pause * 2, .milliseconds(50))
            }
        }
    }

    private static func openIndexOnce(directory: String, configuration: DiskCacheConfiguration) throws(Error) -> SQLiteDatabase {
        // The index is opened without following links (SQLITE_OPEN_NOFOLLOW refuses one anywhere
        // in the path), so the path starts from the directory's real location: the directory
        // itself may be a link that moves the cache to another disk.
        let path = FilePath.join(FilePath.resolvingLinks(directory), indexFileName)
        func failed(_ operation: String) -> (SQLiteDatabase.Failure) -> Error {
            { indexError($0, directory: directory, operation: operation) }
        }
        do {
            let timeout = Int32(clamping: Int((configuration.busyTimeout * 1000).rounded()))
            let database = try SQLiteDatabase(path: path, busyTimeoutMilliseconds: timeout)
            try prepare(database, directory: directory, configuration: configuration)
            return database
        } catch let error as Error {
            throw error
        } catch let failure as SQLiteDatabase.Failure {
            throw failed("opening")(failure)
        } catch {
            throw .index(directory: directory, operation: "opening", message: String(describing: error), busy: false)
        }
    }

    /// Sets the connection's pragmas and creates or checks the schema.
    private static func prepare(_ database: SQLiteDatabase, directory: String, configuration: DiskCacheConfiguration) throws {
        // A new index is made without syncs: switching a new file to WAL and writing the schema
        // cost six (the rollback journal, its directory, the database, then the new log's header
        // and its directory), 10–20 ms of a first `get` into a new cache. Opening is serialised
        // by the index-setup lock, so no other process sees the file half made; a process killed
        // meanwhile leaves what the kernel already has, which SQLite recovers as it would any
        // interrupted transaction. Only a power loss in the seconds before the kernel writes the
        // new file back could damage it, and a damaged index is reported with how to start afresh.
        let pageCount = try database.integer("PRAGMA page_count") ?? 0
        let isNew = configuration.durability == .processCrash && pageCount == 0
        if isNew { try database.execute("PRAGMA synchronous = OFF") }
        try database.execute("PRAGMA journal_mode = WAL")
        // A `get` is often the only process on the cache: SQLite would create the -wal and -shm
        // files at its open and delete them at its close, every time (0.15 ms of a 3 ms hit).
        // They stay instead, and a checkpoint truncates the log to nothing, so a later first
        // opener has no stale frames to read back.
        try database.keepWriteAheadLogFiles()
        try database.execute("PRAGMA journal_size_limit = 0")
        // No memory map of the index (SQLite's default): every mapped page a process touches
        // stays in its resident set, so a batch that probes and inserts 100k keys grew by the
        // whole index (51 MB at 100k entries, measured). Pages read with read() live in the
        // kernel's page cache and SQLite's own bounded page cache instead; a hit reads a few.
        try database.execute("PRAGMA mmap_size = 0")
        // A page cache of 512 KiB instead of SQLite's 2 MB: it holds the B-trees' upper levels,
        // all a probe or an insert needs; leaf pages come from the kernel's page cache.
        try database.execute("PRAGMA cache_size = -512")
        let version = try database.integer("PRAGMA user_version") ?? 0
        if version > schemaVersion { throw Error.newerIndexVersion(directory: directory, version: Int(version)) }
        if version < schemaVersion {
            // Created under the write lock and re-checked there: two processes opening a fresh
            // cache at once create the schema exactly once.
            try database.writeTransaction {
                let current = try database.integer("PRAGMA user_version") ?? 0
                guard current == 0 else { return }
                try database.execute(schema)
                try database.execute("PRAGMA user_version = \(schemaVersion)")
                // No entry has a stamp yet, so none holds a use the index lacks.
                StampedUseMarks.makeFolder(in: directory)
            }
        }
        switch configuration.durability {
        case .processCrash: try database.execute("PRAGMA synchronous = NORMAL")
        case .powerLoss: try database.execute("PRAGMA synchronous = FULL")
        }
    }

    /// The entry in the current row of a query that selected `entryColumns`; nil if the row is
    /// unreadable (an unknown format), which callers treat as a miss. Pass `knownKey` when the
    /// query was by key, to skip re-hashing it.
    func entry(from row: SQLiteDatabase.Row, knownKey: CacheKey? = nil) -> CacheEntry? {
        guard let keyString = row.text(0), let url = row.text(1), let file = row.text(2),
            let formatName = row.text(3), let format = ImageFormat(rawValue: formatName)
        else { return nil }
        return CacheEntry(
            key: knownKey?.rawValue == keyString ? knownKey! : CacheKey(keyString),
            url: url,
            path: absolutePath(file),
            format: format,
            width: Int(row.integer(4)),
            height: Int(row.integer(5)),
            bytes: row.integer(6),
            validators: CacheValidators(etag: row.text(7), lastModified: row.text(8)),
            fetchedAt: Date(timeIntervalSince1970: row.real(9)),
            lastUsedAt: Date(timeIntervalSince1970: row.real(10)),
            expiresAt: Date(timeIntervalSince1970: row.real(11))
        )
    }

    /// Runs `body` with the index connection, turning SQLite failures into `DiskCache.Error`.
    /// The mutex is held for the body only; never pass caller code into it.
    func withIndex<T: Sendable>(_ operation: String, _ body: (SQLiteDatabase) throws -> T) throws(Error) -> T {
        do {
            return try index.withLock { database throws -> T in
                guard let database else {
                    throw Error.index(directory: directory, operation: operation, message: "the cache was closed", busy: false)
                }
                return try body(database)
            }
        } catch {
            throw Self.indexError(error, directory: directory, operation: operation)
        }
    }

    /// `error`, thrown while `operation` used the index, as the `DiskCache.Error` it is or stands for.
    static func indexError(_ error: any Swift.Error, directory: String, operation: String) -> Error {
        if let error = error as? Error { return error }
        let failure = error as? SQLiteDatabase.Failure
        // A full disk or a failing one is no damage to the index: say what it is, not "verify".
        if let failure, failure.isDiskFull || failure.isIOError {
            return .cannotWrite(path: FilePath.join(directory, indexFileName), cause: errnoDescription(failure.isDiskFull ? ENOSPC : EIO))
        }
        return .index(
            directory: directory, operation: operation, message: failure?.message ?? String(describing: error),
            busy: failure?.isBusy ?? false)
    }
}
