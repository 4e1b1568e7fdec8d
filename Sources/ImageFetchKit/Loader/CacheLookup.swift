/// What the caches said of one URL before any fetch (`ImageLoader.lookUpInCaches`).
public enum CacheLookup: Sendable {
    /// The caches answered: a hit, or a failure no fetch would change.
    case loaded(LoadResult)
    /// Only producing it can answer; the lookup is kept so that producing it does not repeat it.
    case miss(PendingLoad)
}

/// A miss whose lookup is made: what to produce and where to store it, and when the load began.
public struct PendingLoad: Sendable {
    public let url: String
    let production: ImageLoader.Production
    let start: ContinuousClock.Instant
}
