/// What a run did with its remote cache tier, for the closing summary and `--summary-json`.
public struct RemoteCacheReport: Sendable, Equatable {
    /// Objects that passed every check and were served.
    public var hits = 0
    /// Keys the tier did not hold, or held older than the max age.
    public var misses = 0
    /// Objects that failed their checks and were fetched from the origin instead.
    public var damaged = 0
    /// Origin fetches stored on the tier.
    public var uploaded = 0
    /// Origin fetches not stored: the upload failed, writes were paused or refused, or the
    /// backlog was full while the tier was too slow to wait for.
    public var uploadFailures = 0
    /// What the health rules decided.
    public var health = Health()

    /// The health rules' decisions, counted (reasons without credentials).
    public struct Health: Sendable, Equatable {
        /// Transient failures (429, 5xx, a reset) tried once more.
        public var retries = 0
        /// Times the read breaker opened, and the last reason.
        public var readPauses = 0
        public var readPauseReason: String?
        /// Times the write breaker opened, and the last reason.
        public var writePauses = 0
        public var writePauseReason: String?
        /// Why the run stopped writing (a refused upload), if it did.
        public var readOnlyReason: String?
        /// Loads that skipped the tier while reads were paused.
        public var readsSkippedWhilePaused = 0
        /// Times reads were found slower than the origin's fetches.
        public var timesFoundSlow = 0
        /// Loads that skipped the tier as too slow (or to time the origin).
        public var readsSkippedAsSlow = 0

        public init() {}
    }

    public init() {}
}
