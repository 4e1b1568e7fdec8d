/// What one load's read of the remote tier came to (`RemoteCacheTier.fetch`). The load carries it
/// to the upload of what the origin then gave it (`RemoteCacheTier.upload`), which goes up or not
/// by it: the answer travels with the load, not in a set of keys the tier would keep.
enum RemoteRead: Sendable {
    /// The tier's object, not yet checked.
    case found(RemoteObject)
    /// A miss, a failed read or a paused tier: what the origin gives the load goes up.
    case notFound
    /// The health rules sent the load to the origin for the tier's speed (to time the origin,
    /// judged slow, or before the tier had answered any read): whether the origin's image goes
    /// up depends on what the tier's other reads found (`RemoteCacheTier.uploadTurn`).
    case skippedForSpeed
}
