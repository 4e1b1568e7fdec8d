/// Why the remote tier was not used for a load. Never a load's failure: the loader falls back to
/// the origin and the command line warns. The texts name the tier without any credentials.
public enum RemoteCacheError: Error, Sendable, CustomStringConvertible {
    /// The tier could not be used: unreachable, timed out, an error status, refused credentials.
    case unavailable(tier: String, reason: String)
    /// An object failed its checks (content hash, length, or image validation).
    case damaged(tier: String, url: String, reason: String)

    public var description: String {
        switch self {
        case .unavailable(let tier, let reason):
            "The remote cache \(tier) is not used for the rest of this run: \(reason)"
        case .damaged(let tier, let url, let reason):
            "The remote cache \(tier) holds a damaged object for \(url) (\(reason)); it was fetched from its origin."
        }
    }
}
