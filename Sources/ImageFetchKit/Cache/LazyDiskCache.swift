import FoundationEssentials
import Synchronization

/// A cache directory as loads meet it: hits answered from the entry files' stamps (`EntryStamp`)
/// while the index is closed, and the `DiskCache` itself (directory, key locks, index) opened at
/// the first need the stamps cannot answer, once; a failure to open it is remembered, so every
/// later need reports it without retrying.
///
/// Why not open the index at once: a cache hit is a whole process's work for `imgfetch get`,
/// and opening SQLite and reading its schema costs more than the hit itself. Once a miss has
/// opened it, the index answers every lookup: one on an open connection costs less than a miss's
/// `getxattr` calls, one per stored format (a cold prefetch of 1000 images made 4000 of them for
/// nothing when there were four formats).
///
/// The state is shaped so that a hit needs as few generic types with conformance requirements as
/// possible (see `ImageLoader`): an atomic for the directory check, an enum, not a `Result`.
final class LazyDiskCache: Sendable {
    /// The cache directory (absolute, standardised).
    let directory: String
    let configuration: DiskCacheConfiguration
    private let opened = Mutex<State?>(nil)
    /// What `CacheLocation.checkSafety` said of the directory, checked once before the first
    /// stamped hit (one `stat`): 0 not yet, 1 safe, 2 missing. An atomic, not a `Mutex`: the first
    /// lock a thread takes costs a `gettid` system call, and this is on every hit's path. An
    /// unsafe directory is not remembered: the check runs again, on a path that only fails.
    private let checkedDirectory = Atomic<Int>(0)

    private enum State {
        case open(DiskCache)
        case failed(DiskCache.Error)
    }

    /// What a key's stamps say while the index is closed.
    enum StampAnswer {
        /// A fresh disk hit: the entry file and what its stamp records.
        case hit(StampedEntry)
        /// The key has no file in any format (or the cache directory does not exist yet): nothing
        /// on disk can answer, so unless the index lists the URL as failed, only a fetch can.
        case noFile
        /// The index must answer: it is open already, or a file has no usable stamp.
        case indexMustAnswer
    }

    /// A hit as its file's stamp describes it.
    struct StampedEntry {
        let path: String
        let format: ImageFormat
        let width: Int
        let height: Int
        let bytes: Int64
    }

    init(directory: String, configuration: DiskCacheConfiguration) {
        self.directory = FilePath.standardize(directory)
        self.configuration = configuration
    }

    /// The cache, opened at the first call (creating the directory and index as needed).
    func open() throws(DiskCache.Error) -> DiskCache {
        let state = opened.withLock { opened -> State in
            if let opened { return opened }
            let state: State
            do {
                state = .open(try DiskCache(directory: directory, configuration: configuration))
            } catch let error as DiskCache.Error {
                state = .failed(error)
            } catch {
                state = .failed(.cannotCreateDirectory(path: directory, cause: SystemErrorText.describe(error)))
            }
            opened = state
            return state
        }
        switch state {
        case .open(let cache): return cache
        case .failed(let error): throw error
        }
    }

    /// Whether `open()` has run (whatever it answered).
    var hasOpened: Bool { opened.withLock { $0 != nil } }

    /// Closes the index connections if the cache was opened (`DiskCache.closeIndex()`).
    func close() {
        if case .open(let cache)? = opened.withLock({ $0 }) { cache.closeIndex() }
    }

    /// The stamps' answer for `key` while the index is closed (`indexMustAnswer` once it is open).
    /// A hit is fresh under the cache's one rule (`DiskCacheConfiguration.isFresh`) for loads
    /// that accept entries up to `maxAge` seconds old, and its use is recorded in its stamp.
    /// Nothing is read from a directory another user could have written in: that throws.
    func stampAnswer(for key: CacheKey, maxAge: TimeInterval?) throws(DiskCache.Error) -> StampAnswer {
        guard !hasOpened else { return .indexMustAnswer }
        switch checkedDirectory.load(ordering: .relaxed) {
        case 1: return answerFromStamps(for: key, maxAge: maxAge)
        case 2: return .noFile
        default: break
        }
        let safety: CacheLocation.Safety
        do { safety = try CacheLocation.checkSafety(of: directory) } catch { throw .unusableDirectory(error) }
        checkedDirectory.store(safety == .safe ? 1 : 2, ordering: .relaxed)
        return safety == .safe ? answerFromStamps(for: key, maxAge: maxAge) : .noFile
    }

    /// The fresh hit for `key` from its file's stamp; else whether the key has a file at all. The
    /// index must answer for a file without a stamp (an entry stamped by no one yet, a filesystem
    /// without extended attributes) or with one that is expired, too old for `maxAge` or not the
    /// size its stamp says.
    private func answerFromStamps(for key: CacheKey, maxAge: TimeInterval?) -> StampAnswer {
        var anyFile = false
        for format in EntryStamp.storedFormats {
            let path = directory + "/" + key.relativePath(fileExtension: format.fileExtension)
            let lookup = EntryStamp.look(at: path)
            guard case .stamp(var stamp) = lookup else {
                if case .noStamp = lookup { anyFile = true }
                continue
            }
            let now = configuration.currentDate().timeIntervalSince1970
            guard stamp.format == format,
                  configuration.isFresh(fetchedAt: stamp.fetchedAt, expiresAt: stamp.expiresAt, maxAge: maxAge, at: now),
                  DiskCache.fileSize(path) == stamp.bytes
            else { return .indexMustAnswer }
            if now - stamp.lastUsedAt >= configuration.lastUsedResolution {
                stamp.lastUsedAt = now
                // The index lacks this use now: the next catch-up must read this bucket's stamps.
                if stamp.write(to: path) { StampedUseMarks.mark(for: key, in: directory) }
            }
            return .hit(StampedEntry(path: path, format: format, width: stamp.width, height: stamp.height, bytes: stamp.bytes))
        }
        return anyFile ? .indexMustAnswer : .noFile
    }
}
