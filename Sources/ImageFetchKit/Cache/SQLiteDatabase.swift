import CSQLite
import Glibc

/// One SQLite connection: the only file in the cache that imports the C library.
///
/// Not thread-safe and not `Sendable`: `DiskCache` owns exactly one behind its mutex. Prepared
/// statements are kept per SQL text, so a hot lookup costs a bind and a step, not a parse.
final class SQLiteDatabase {
    /// A failed SQLite call: the result code and SQLite's own message.
    struct Failure: Error, Sendable {
        var code: Int32
        var message: String
        /// SQLITE_BUSY or SQLITE_LOCKED: another process held the database past the busy timeout.
        var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }
        /// SQLITE_FULL: the disk (or quota) is full.
        var isDiskFull: Bool { code & 0xff == SQLITE_FULL }
        /// SQLITE_IOERR: the operating system reported an I/O error.
        var isIOError: Bool { code & 0xff == SQLITE_IOERR }
    }

    /// A value bound to a `?` parameter.
    enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case null
    }

    /// The current result row of a query; valid only inside the closure it is passed to.
    struct Row {
        fileprivate let statement: OpaquePointer
        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        func text(_ column: Int32) -> String? {
            guard let bytes = sqlite3_column_text(statement, column) else { return nil }
            return String(cString: bytes)
        }
    }

    private let handle: OpaquePointer
    /// The database file's path (its write-ahead log is this plus "-wal").
    let path: String
    /// Prepared statements and their SQL, found by a scan: there are a dozen at most, and a
    /// dictionary keyed by `String` would cost a cache hit a scan of the Swift runtime's
    /// conformance records (see `ImageLoader`).
    private var statements: [(sql: String, statement: OpaquePointer)] = []

    /// Opens (creating if needed) the database at `path`, waiting up to `busyTimeoutMilliseconds`
    /// whenever another connection holds a lock.
    init(path: String, busyTimeoutMilliseconds: Int32) throws(Failure) {
        _ = Self.processConfiguration
        var handle: OpaquePointer?
        // NOFOLLOW: an index replaced by a symbolic link is refused, never written through.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw Failure(code: code, message: message)
        }
        self.handle = handle
        self.path = path
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 1)
    }

    /// Leaves the write-ahead log and its shared-memory index on disk when the last connection
    /// closes, instead of deleting them for the next connection to create again.
    func keepWriteAheadLogFiles() throws(Failure) {
        var on: Int32 = 1
        let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// SQLite's process-wide settings, made once before the first connection opens (see the shim).
    private static let processConfiguration: Void = {
        _ = imgfetch_sqlite_configure_page_cache()
    }()

    /// The most frames a closing connection leaves in the write-ahead log without checkpointing it.
    ///
    /// Why: the last connection to close checkpoints the log into the database, which costs three
    /// syncs (the log, its directory, the database) and a truncation that makes the next writer
    /// sync a new log header and the directory again: five syncs in every `imgfetch get` that
    /// stores one image — about 1 ms on this machine when it is quiet, 4–10 ms while other work
    /// writes to the disk (a whole curl fetch takes 7–9 ms). A small log is
    /// left for later instead; SQLite reads it back when the next process opens the index (0.1 ms
    /// for a hundred frames, 2–3 ms for a thousand, measured), and a connection that finds the
    /// log over this size checkpoints it at close as before. One stored image adds about six
    /// frames, so about one `get` in twenty pays for the checkpoint. Nothing is lost meanwhile:
    /// the log is part of the database, and `synchronous=NORMAL` never promised that the newest
    /// commits survive a power loss, only that the database stays consistent, which it does.
    static let uncheckpointedFrameLimit = 128

    deinit {
        for (_, statement) in statements { sqlite3_finalize(statement) }
        if Self.frameCount(ofLogAt: path + "-wal") <= Self.uncheckpointedFrameLimit {
            _ = imgfetch_sqlite_skip_checkpoint_on_close(handle)
        }
        sqlite3_close_v2(handle)
    }

    /// Frames in the write-ahead log at `path`, from its size (a 32-byte header, then frames of a
    /// 24-byte header and one page each; the index uses SQLite's default 4096-byte pages); 0 when
    /// there is no log.
    static func frameCount(ofLogAt path: String, pageSize: Int = 4096) -> Int {
        var status = stat()
        guard stat(path, &status) == 0, status.st_size > 32 else { return 0 }
        return (Int(status.st_size) - 32) / (pageSize + 24)
    }

    /// Runs one or more statements that bind nothing and return nothing (schema, pragmas, BEGIN).
    func execute(_ sql: String) throws(Failure) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// Runs one statement with `bindings`, discarding any rows; returns the number of rows changed.
    @discardableResult
    func run(_ sql: String, _ bindings: [Value] = []) throws(Failure) -> Int {
        try query(sql, bindings) { _ in }
        return Int(sqlite3_changes(handle))
    }

    /// Runs one statement with `bindings`, calling `body` for each result row.
    func query(_ sql: String, _ bindings: [Value] = [], _ body: (Row) throws(Failure) -> Void) throws(Failure) {
        try stepRows(sql, bindings, while: { row throws(Failure) in
            try body(row)
            return true
        })
    }

    /// Runs one statement with `bindings`, calling `body` for each result row as SQLite steps to
    /// it, until `body` returns false.
    func stepRows(_ sql: String, _ bindings: [Value] = [], while body: (Row) throws(Failure) -> Bool) throws(Failure) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in bindings.enumerated() {
            let position = Int32(offset + 1)
            let code: Int32 = switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .real(let number): sqlite3_bind_double(statement, position, number)
            case .text(let string): sqlite3_bind_text(statement, position, string, -1, imgfetch_sqlite_transient())
            case .null: sqlite3_bind_null(statement, position)
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code) }
            guard try body(Row(statement: statement)) else { return }
        }
    }

    /// The first column of the first row, as an integer; nil when there is no row or it is NULL.
    func integer(_ sql: String, _ bindings: [Value] = []) throws(Failure) -> Int64? {
        var result: Int64?
        try query(sql, bindings) { row in
            if result == nil, !row.isNull(0) { result = row.integer(0) }
        }
        return result
    }

    /// Runs `body` in a write transaction taken at once (`BEGIN IMMEDIATE`), so it holds SQLite's
    /// write lock from the start: every process's writes are serialised, and a `busy` waits for the
    /// busy timeout instead of failing mid-transaction. Rolls back if `body` throws.
    /// BEGIN and COMMIT are prepared once like any statement (`execute` would parse them each time).
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    private func prepared(_ sql: String) throws(Failure) -> OpaquePointer {
        if let kept = statements.first(where: { $0.sql == sql }) { return kept.statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        statements.append((sql, statement))
        return statement
    }

    private func failure(_ code: Int32) -> Failure {
        Failure(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}
