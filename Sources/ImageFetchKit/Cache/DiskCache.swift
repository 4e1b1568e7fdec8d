import FoundationEssentials
import Glibc
import Synchronization

/// The persistent cache: one image file per entry under `directory`, and an SQLite index of their
/// metadata, safe to share between any number of processes and threads, and across crashes.
///
/// How it stays consistent (every method follows these):
/// - A file is written whole into a temporary file beside its final name first, then renamed into
///   place and its index row inserted inside one SQLite write transaction (`BEGIN IMMEDIATE`,
///   which is one lock for all processes), which stores waiting at the same moment share.
///   A killed writer leaves at most a temporary file (swept later) or a file with no row (an orphan,
///   removed by `trim`, `verify --fix` and evicting stores), never a row whose file is missing or
///   partial.
/// - Removal deletes rows first and commits, then, in a second write transaction, unlinks each
///   file that no row references any more. Because renames and unlinks both happen only under the
///   write lock, an evicting process can never delete a file another process just stored.
/// - A hit checks the file's size against the row; a missing or short file is dropped and missed.
/// - Each file carries a stamp, a copy of what a hit needs (`EntryStamp`), so most hits are
///   answered without opening the index (`LazyDiskCache`). Only a file whose row is committed is stamped (after the
///   commit, under the key's lock); the transaction that deletes a row removes its file's stamp
///   before it commits; a renewal, and a hit the index answers, stamp the file again. So a file a
///   crash leaves unindexed carries no stamp and is not served, with one exception: a hit in
///   another process that read the row just before a removal committed may stamp the file again,
///   and if the removing process then dies before its unlink, the file stays stamped. It is whole,
///   it is the key's image, and it goes with the other unindexed files at the next sweep.
///
/// The directory must be on a local filesystem: SQLite's WAL needs shared memory between processes.
///
/// Thread safety: all methods may be called from any thread; the one index connection sits behind
/// a `Mutex`, held only for index work and the rename/unlink that must share its transaction.
/// Methods block the calling thread on disk I/O and, briefly, on other processes' transactions.
public final class DiskCache: Sendable {
    /// The cache directory (absolute).
    public let directory: String
    public let configuration: DiskCacheConfiguration
    /// The connection lookups and removals use; nil once `close()` ran.
    let index: Mutex<SQLiteDatabase?>
    let keyLocks: KeyLockFile
    private let openedPublisher = Mutex<IndexPublisher?>(nil)
    /// Set once an eviction left the cache over `maxSize` with only this run's loads to remove:
    /// later stores of the run skip eviction (see `DiskCacheConfiguration.runStartedAt`).
    private let runOutgrewLimit = Mutex(false)

    /// Closes the publisher's connection here, on the thread that lets the cache go: otherwise the
    /// queue's last block could close it while the process exits, cutting short the checkpoint
    /// that empties the write-ahead log, and the next process would read all of it back.
    deinit {
        openedPublisher.withLock { $0 }?.close()
    }

    /// Closes the index connections now instead of when the cache is released. A command calls it
    /// once its work is done: a task that finishes after the command returns may still hold the
    /// cache, and the process exits without waiting for it (see `ProcessExit` in the command
    /// line), so without this the index could be left as a crash leaves it. Later calls on this
    /// cache fail with `Error.index` (a store opens the publisher's connection again).
    public func closeIndex() {
        openedPublisher.withLock { $0 }?.close()
        // The connection closes as the last reference to it goes, here, under the lock.
        index.withLock { $0 = nil }
    }

    /// Commits stores in batches with its own connection; made at the first store, so a process
    /// that only reads opens one connection.
    var publisher: IndexPublisher {
        openedPublisher.withLock { opened in
            if let opened { return opened }
            let publisher = IndexPublisher(directory: directory, configuration: configuration)
            opened = publisher
            return publisher
        }
    }

    /// Opens the cache in `directory`, creating it (mode 0700, with a `CACHEDIR.TAG`), its folders
    /// and its index as needed. Temporary files left by killed writers are swept by `trim`,
    /// `verify` with `fix` and evicting stores, not here: that would scan every shard folder.
    ///
    /// - Throws: `DiskCache.Error` only: `cannotCreateDirectory` when the directory cannot be made,
    ///   `unusableDirectory` when it is not safe (`CacheLocation.checkSafety`) or not writable.
    public init(directory: String, configuration: DiskCacheConfiguration = DiskCacheConfiguration()) throws {
        self.directory = FilePath.standardize(directory)
        self.configuration = configuration
        do {
            try CacheLocation.prepare(directory: self.directory)
        } catch .cannotCreate(let path, let cause) {
            throw Error.cannotCreateDirectory(path: path, cause: cause)
        } catch {
            throw Error.unusableDirectory(error)
        }
        let keyLocks = try KeyLockFile(path: self.directory + "/keys.lock")
        self.keyLocks = keyLocks
        // Processes opening a new cache at once would race to create the index and switch it to
        // WAL, and SQLite answers one of them "locked" at once, without waiting: open one at a time.
        let setup = try keyLocks.lockIndexSetup()
        defer { keyLocks.unlock(setup) }
        self.index = Mutex(try Self.openIndex(directory: self.directory, configuration: configuration))
    }

    /// The entry stored for `key`, or nil when there is none, it has expired (unless
    /// `includingExpired`, e.g. to revalidate it), or its file is missing or the wrong size — then
    /// the entry is also removed, so it heals on the next store. A hit marks the entry used, and
    /// stamps its file again if the stamp is missing or behind the row (see `EntryStamp`).
    /// Another process may still evict the entry after this returns; `contents(of:)` then throws.
    public func entry(for key: CacheKey, includingExpired: Bool = false) throws(Error) -> CacheEntry? {
        let columns = Self.entryColumns
        let found = try withIndex("looking up \(key)") { database -> CacheEntry? in
            var found: CacheEntry?
            try database.query("SELECT \(columns) FROM entries WHERE key = ?", [.text(key.rawValue)]) { row in
                found = self.entry(from: row, knownKey: key)
            }
            return found
        }
        guard var entry = found else { return nil }
        let now = configuration.currentDate()
        if !includingExpired && isExpired(entry, at: now) { return nil }
        guard Self.fileSize(entry.path) == entry.bytes else {
            try removeDamaged(entry)
            return nil
        }
        let stamp = EntryStamp.read(from: entry.path)
        if let stamp, stamp.lastUsedAt > entry.lastUsedAt.timeIntervalSince1970 {
            // A hit answered from the stamp used it since the index last heard.
            entry.lastUsedAt = Date(timeIntervalSince1970: stamp.lastUsedAt)
        }
        if now.timeIntervalSince(entry.lastUsedAt) >= configuration.lastUsedResolution {
            // Best effort: a hit is served even if the bookkeeping write loses to a busy index.
            _ = try? withIndex("marking \(key) used") { database in
                try database.run(
                    "UPDATE entries SET last_used_at = ? WHERE key = ?",
                    [.real(now.timeIntervalSince1970), .text(key.rawValue)])
            }
            entry.lastUsedAt = now
        }
        let current = EntryStamp(entry)
        if stamp != current { current.write(to: entry.path) }
        return entry
    }

    /// The bytes of `entry`'s file. Throws `cannotRead` if the file went away meanwhile (another
    /// process evicted it) or no longer has the entry's size; callers treat that as a miss.
    public func contents(of entry: CacheEntry) throws(Error) -> Data {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: entry.path), options: .mappedIfSafe)
        } catch {
            throw .cannotRead(path: entry.path, cause: SystemErrorText.describe(error))
        }
        guard Int64(data.count) == entry.bytes else {
            throw .cannotRead(path: entry.path, cause: "it holds \(data.count) bytes, the index says \(entry.bytes)")
        }
        return data
    }

    /// Stores `data` (already validated: `info` is what the probe found) as the entry for `key`,
    /// replacing any previous one, then enforces `maxSize`. The file is written outside any lock;
    /// only its rename and index row share a write transaction, with the other stores waiting at
    /// the same moment (see `IndexPublisher`). Blocks the calling thread until it is committed.
    ///
    /// - Parameter expiresAt: when the entry stops being served; default now + `maxAge`.
    /// - Parameter fetchedAt: when the bytes left their origin, if earlier than now (an object
    ///   from a remote tier); the max age counts from it.
    @discardableResult
    public func store(
        _ data: Data, info: CachedImageInfo, for key: CacheKey, url: String,
        validators: CacheValidators = CacheValidators(), expiresAt: Date? = nil, fetchedAt: Date? = nil
    ) throws(Error) -> CacheEntry {
        let publication = try prepareStore(
            data, info: info, for: key, url: url, validators: validators, expiresAt: expiresAt, fetchedAt: fetchedAt)
        return try finishStore(publication, publisher.publishAndWait(publication))
    }

    /// `store`, suspending the calling task instead of blocking its thread until it is committed.
    @discardableResult
    public func store(
        _ data: Data, info: CachedImageInfo, for key: CacheKey, url: String,
        validators: CacheValidators = CacheValidators(), expiresAt: Date? = nil, fetchedAt: Date? = nil
    ) async throws(Error) -> CacheEntry {
        let publication = try prepareStore(
            data, info: info, for: key, url: url, validators: validators, expiresAt: expiresAt, fetchedAt: fetchedAt)
        return try finishStore(publication, await publisher.publish(publication))
    }

    /// Writes the temporary file and describes the entry it will become.
    private func prepareStore(
        _ data: Data, info: CachedImageInfo, for key: CacheKey, url: String, validators: CacheValidators, expiresAt: Date?,
        fetchedAt: Date?
    ) throws(Error) -> IndexPublisher.Publication {
        let relativePath = key.relativePath(fileExtension: info.format.fileExtension)
        let temporaryFile = try writeTemporaryFile(data, for: key)
        let now = configuration.currentDate()
        let entry = CacheEntry(
            key: key, url: url, path: absolutePath(relativePath), format: info.format,
            width: info.width, height: info.height, bytes: Int64(data.count), validators: validators,
            fetchedAt: fetchedAt ?? now, lastUsedAt: now,
            expiresAt: expiresAt ?? (fetchedAt ?? now).addingTimeInterval(configuration.maxAge))
        return IndexPublisher.Publication(entry: entry, relativePath: relativePath, temporaryFile: temporaryFile)
    }

    /// The stored entry, once its publication is committed and the cache is within `maxSize`.
    private func finishStore(_ publication: IndexPublisher.Publication, _ outcome: IndexPublisher.Outcome) throws(Error) -> CacheEntry {
        let totalBytes: Int64
        switch outcome {
        case .failed(let error): throw error
        case .published(let total): totalBytes = total
        }
        // Only now that its row is committed: a file a crash leaves between its rename and its
        // commit, unindexed, carries no stamp, and no hit serves it.
        EntryStamp(publication.entry).write(to: publication.entry.path)
        let key = publication.entry.key
        if let maxSize = configuration.maxSize, totalBytes > maxSize, !runOutgrewLimit.withLock({ $0 }) {
            try evict(toBytes: Int64(Double(maxSize) * configuration.trimRatio), sparing: key, sparingRun: true)
            // What is left over the limit is this run's own: evicting again would find nothing.
            if configuration.runStartedAt != nil, try statistics().bytes > maxSize { runOutgrewLimit.withLock { $0 = true } }
            // Eviction is rare (it frees half the cache), so it also sweeps the orphans and stale
            // temporary files of killed writers from one shard — the stored key's, which spreads
            // sweeps evenly — so they cannot pile up outside the size limit between explicit trims.
            let shard = key.shard
            try removeUnindexedFiles(shard: shard)
            sweepTemporaryFiles(shard: shard)
        }
        return publication.entry
    }

    /// Marks the entry for `key` fresh again after the server answered 304 Not Modified: its
    /// fetch time and expiry restart, and validators the server sent replace the stored ones.
    /// Returns the renewed entry, or nil if there is none.
    @discardableResult
    public func renew(_ key: CacheKey, validators: CacheValidators = CacheValidators(), expiresAt: Date? = nil) throws(Error) -> CacheEntry? {
        let now = configuration.currentDate()
        let expiry = expiresAt ?? now.addingTimeInterval(configuration.maxAge)
        let changed = try withIndex("renewing \(key)") { database in
            try database.run(
                """
                UPDATE entries SET fetched_at = ?, last_used_at = ?, expires_at = ?,
                    etag = COALESCE(?, etag), last_modified = COALESCE(?, last_modified) WHERE key = ?
                """,
                [.real(now.timeIntervalSince1970), .real(now.timeIntervalSince1970), .real(expiry.timeIntervalSince1970),
                 validators.etag.map { .text($0) } ?? .null, validators.lastModified.map { .text($0) } ?? .null,
                 .text(key.rawValue)])
        }
        return changed > 0 ? try entry(for: key) : nil
    }

    /// Whether `entry` may answer a load that accepts entries up to `maxAge` seconds old (nil: the
    /// cache's own max age): see `DiskCacheConfiguration.isFresh`.
    public func isFresh(_ entry: CacheEntry, maxAge: TimeInterval? = nil) -> Bool {
        configuration.isFresh(
            fetchedAt: entry.fetchedAt.timeIntervalSince1970, expiresAt: entry.expiresAt.timeIntervalSince1970,
            maxAge: maxAge, at: configuration.currentDate().timeIntervalSince1970)
    }

    /// Whether `entry` is past its own expiry or older than the current `maxAge` allows.
    public func isExpired(_ entry: CacheEntry, at date: Date? = nil) -> Bool {
        configuration.isExpired(
            fetchedAt: entry.fetchedAt.timeIntervalSince1970, expiresAt: entry.expiresAt.timeIntervalSince1970,
            at: (date ?? configuration.currentDate()).timeIntervalSince1970)
    }
}
