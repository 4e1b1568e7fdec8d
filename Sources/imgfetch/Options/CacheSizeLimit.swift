import ImageFetchKit

/// The disk cache's size limit for a run: `--max-size`, else `IMGFETCH_CACHE_MAX_SIZE`, else the
/// cache's default (1 GiB). A bad value in the variable is a warning and the default: it may be
/// set for a whole fleet, and must not stop a `get` of a cached image.
enum CacheSizeLimit {
    /// The limit in bytes; nil keeps the default. `flag` must have passed `QuantityText.bytes`.
    static func resolve(flag: String?) -> Int64? {
        if let flag, let bytes = QuantityText.bytes(flag) { return Int64(bytes) }
        guard let text = ProcessEnvironment.value("IMGFETCH_CACHE_MAX_SIZE"), !text.isEmpty else { return nil }
        guard let bytes = QuantityText.bytes(text) else {
            Terminal.writeError("imgfetch: warning: IMGFETCH_CACHE_MAX_SIZE '\(text)' is not a size like 500M or 2G; the cache keeps its default limit.\n")
            return nil
        }
        return Int64(bytes)
    }

    /// Says once, at the end of a run that stored images, that the cache is over its limit: what
    /// the run loaded itself is never evicted by it, so its own loads can exceed the limit.
    static func warnIfOver(_ loader: ImageLoader, display: ProgressDisplay) {
        guard let cache = try? loader.diskCache(), let limit = cache.configuration.maxSize,
              let bytes = try? cache.statistics().bytes, bytes > limit else { return }
        display.message(
            "imgfetch: warning: the cache holds \(ByteText.format(bytes)), \(ByteText.format(bytes - limit)) over its limit of "
                + "\(ByteText.format(limit)): a run never evicts what it loaded itself. The next run, or 'imgfetch cache trim', brings it back.")
    }
}
