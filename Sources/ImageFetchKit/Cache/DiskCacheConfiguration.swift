import FoundationEssentials

/// The disk cache's limits and policies.
public struct DiskCacheConfiguration: Sendable {
    /// How much a store is protected against, and what it costs.
    ///
    /// Measured on the build machine (ext4, 2 shared cores): a bare write + rename of a 280 KB file
    /// costs 0.16 ms, with `fsync` 0.91 ms; a whole `store` of 280 KB (file + index) costs 0.33–0.69
    /// ms, with `fsync` 1.6–2.6 ms (`cache-hammer bench-stores DIR 1000 280000 nofsync|fsync`, three
    /// runs each under a load of 7). fsync would make storing a 1000-image batch take 1.6–2.6 s
    /// instead of 0.3–0.7 s, for a protection a refetchable cache does not need: not the default.
    public enum Durability: Sendable {
        /// The default. No fsync: a process killed at any instant leaves a consistent cache,
        /// because the file is complete before `rename` publishes it and the index (SQLite WAL,
        /// `synchronous=NORMAL`) commits after. After a power loss the newest files may be empty
        /// or short; the size check on every hit and `verify` find them, drop them and they are
        /// refetched: a cache can always be rebuilt, so it does not pay for power-loss durability.
        case processCrash
        /// Each file is fsynced before it is renamed into place, its folder after, and the index
        /// uses `synchronous=FULL`: a completed store survives a power loss.
        case powerLoss
    }

    /// An entry older than this (since fetched or revalidated) is a miss. Default one week.
    public var maxAge: TimeInterval
    /// The most bytes of image files kept; when a store goes over it, expired entries and then
    /// the least recently used are removed until the total is under `maxSize * trimRatio`,
    /// sparing every entry used since `runStartedAt` (see there). nil means no limit. Default 1 GiB.
    public var maxSize: Int64?
    /// When the run using this cache began, if it is to be spared: a store's eviction never
    /// removes an entry used since then (less `lastUsedResolution`, since a hit may leave an
    /// older use in place), since the run loaded it and may have handed out its path. When the
    /// run's own loads exceed `maxSize`, the cache stays over it until a later run or an explicit
    /// `trim`. nil (the default) spares only the entry just stored.
    public var runStartedAt: Date?
    /// The fraction of `maxSize` eviction trims down to (SDImageCache uses one half).
    public var trimRatio: Double
    /// How long a URL stays on the failed-URL list. Default one day.
    public var failureMaxAge: TimeInterval
    /// `lastUsedAt` is rewritten on a hit only when older than this, so hits stay reads. Default 60 s.
    public var lastUsedResolution: TimeInterval
    /// Temporary files older than this are leftovers of killed writers and are deleted. Default 1 h.
    public var temporaryFileMaxAge: TimeInterval
    /// How long to wait for another process holding the index before failing. Default 30 s.
    public var busyTimeout: TimeInterval
    public var durability: Durability
    /// The clock; tests pass their own to step time without sleeping.
    public var currentDate: @Sendable () -> Date

    public init(
        maxAge: TimeInterval = 7 * 24 * 3600,
        maxSize: Int64? = 1 << 30,
        trimRatio: Double = 0.5,
        failureMaxAge: TimeInterval = 24 * 3600,
        lastUsedResolution: TimeInterval = 60,
        temporaryFileMaxAge: TimeInterval = 3600,
        busyTimeout: TimeInterval = 30,
        durability: Durability = .processCrash,
        currentDate: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maxAge = maxAge
        self.maxSize = maxSize
        self.trimRatio = trimRatio
        self.failureMaxAge = failureMaxAge
        self.lastUsedResolution = lastUsedResolution
        self.temporaryFileMaxAge = temporaryFileMaxAge
        self.busyTimeout = busyTimeout
        self.durability = durability
        self.currentDate = currentDate
    }

    /// Whether an entry fetched at `fetchedAt`, with its own expiry `expiresAt`, is expired at
    /// `now` (all in seconds since 1970): past its expiry or older than `maxAge` allows.
    func isExpired(fetchedAt: Double, expiresAt: Double, at now: Double) -> Bool {
        now >= expiresAt || now - fetchedAt >= maxAge
    }

    /// The one freshness rule, for index entries, stamps and remote objects alike: not expired,
    /// and younger than `requested` (a load's `maxAge`) when one is given.
    func isFresh(fetchedAt: Double, expiresAt: Double, maxAge requested: TimeInterval?, at now: Double) -> Bool {
        !isExpired(fetchedAt: fetchedAt, expiresAt: expiresAt, at: now) && now - fetchedAt < (requested ?? .infinity)
    }
}
