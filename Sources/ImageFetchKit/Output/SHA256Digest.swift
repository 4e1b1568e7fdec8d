import FoundationEssentials

/// The SHA-256 of bytes the loader holds in memory (an image kept with `--no-disk-cache`), for
/// manifests and `{sha256}` names; cached files get theirs from `DiskCache.sha256(ofEntryFile:)`.
public enum SHA256Digest {
    /// 64 lowercase hex characters.
    public static func hex(of data: Data) -> String {
        SHA256.hexDigest(data)
    }
}
