/// Where a key's object lives under a tier's prefix: `imgfetch-2/<first two hex digits>/<hash>`,
/// the hash being the key's SHA-256 (`CacheKey.hash`), as the disk cache names its files.
///
/// The version folder is the object format's (`RemoteEnvelope.formatVersion`): builds that write
/// different formats keep apart on one tier, each missing the other's objects. The two-digit
/// folder keeps listings of a large tier short. Any machine computes the same name for the same key.
enum RemoteObjectName {
    static let version = "imgfetch-\(RemoteEnvelope.formatVersion)"

    static func path(for key: CacheKey) -> String {
        "\(version)/\(key.hash.prefix(2))/\(key.hash)"
    }

    /// `prefix` and the key's path joined with single slashes (an empty prefix adds nothing).
    static func path(for key: CacheKey, under prefix: String) -> String {
        let trimmed = prefix.split(separator: "/").joined(separator: "/")
        return trimmed.isEmpty ? path(for: key) : "\(trimmed)/\(path(for: key))"
    }
}
