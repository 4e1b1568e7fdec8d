/// What a run did with its remote cache tier, for the closing summary.
public struct RemoteCacheReport: Sendable, Equatable {
    /// Objects that passed every check and were served.
    public var hits = 0
    /// Keys the tier did not hold, or held older than the max age.
    public var misses = 0
    /// Objects that failed their checks and were fetched from the origin instead.
    public var damaged = 0
    /// Origin fetches stored on the tier.
    public var uploaded = 0
    /// Origin fetches not stored: the upload failed, or the tier was down by then.
    public var uploadFailures = 0
    /// Why the tier went out of use for the rest of the run, if it did (no credentials in it).
    public var downReason: String?

    public init() {}
}
