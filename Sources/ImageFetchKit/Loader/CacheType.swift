/// Where a loaded image came from.
public enum CacheType: String, Sendable, Codable, CaseIterable {
    /// Already loaded by this process (or by an earlier request for the same key in this call).
    case memory
    /// Found in the disk cache.
    case disk
    /// Found in the shared remote cache tier (and now stored in the disk cache).
    case remote
    /// Fetched from the network now.
    case network
}
