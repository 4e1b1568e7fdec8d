/// What the command line warns of about the remote tier, each at most once a run. Never a load's
/// failure: the loader falls back to the origin. The texts name the tier without any credentials.
public enum RemoteCacheError: Error, Sendable, CustomStringConvertible {
    /// Requests kept failing (or the tier could not be reached): the tier is left alone for a
    /// cool-down, then tested with one request.
    case failing(tier: String, reason: String)
    /// The tier refused an upload: the run only reads from it.
    case readOnly(tier: String, reason: String)
    /// An object failed its checks (content hash, length, or image validation).
    case damaged(tier: String, url: String, reason: String)

    public var description: String {
        switch self {
        case .failing(let tier, let reason):
            "The remote cache \(tier) is failing (\(Self.phrase(reason))); loads use the origin while it is tested again now and then."
        case .readOnly(let tier, let reason):
            "The remote cache \(tier) refused an upload (\(Self.phrase(reason))); this run only reads from it."
        case .damaged(let tier, let url, let reason):
            "The remote cache \(tier) holds a damaged object for \(url) (\(reason)); it was fetched from its origin."
        }
    }

    private static func phrase(_ reason: String) -> String {
        reason.hasSuffix(".") ? String(reason.dropLast()) : reason
    }
}
