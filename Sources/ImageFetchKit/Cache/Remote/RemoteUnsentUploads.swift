import FoundationEssentials

/// Uploads the backlog had no room for while loads could not wait for it, named by the file in the
/// disk cache that holds each image (not its bytes), to be sent when the loads are done if by then
/// the tier keeps pace (`RemoteCacheTier.finish`).
///
/// Why: a worker filling a tier may judge its first reads slow (a busy tier's 404s) before it has
/// timed enough PUTs to know they keep pace, and in that window an upload that found the backlog
/// full was dropped: four workers filling a tier at once left it 1-9 objects short in five of
/// eight runs of `scripts/bench remote`. Waiting instead would hold every load of a truly slow tier.
struct RemoteUnsentUploads {
    typealias Unsent = (key: CacheKey, path: String)

    /// Keys and paths beyond this many are not kept (a few MB): the rest count as not uploaded.
    static let limit = 10_000

    private var unsent: [Unsent] = []

    /// Keeps `key`'s file for later; false when the list is full.
    mutating func keep(_ key: CacheKey, storedAt path: String) -> Bool {
        guard unsent.count < Self.limit else { return false }
        unsent.append((key, path))
        return true
    }

    /// Every upload kept, leaving none.
    mutating func takeAll() -> [Unsent] {
        defer { unsent = [] }
        return unsent
    }

    /// The image of `unsent`, or nil when its file is gone (another process trimmed the cache)
    /// or unreadable.
    static func image(of unsent: Unsent) -> Data? {
        try? Data(contentsOf: URL(fileURLWithPath: unsent.path), options: .mappedIfSafe)
    }
}
