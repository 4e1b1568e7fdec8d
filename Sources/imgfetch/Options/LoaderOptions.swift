import ArgumentParser
import FoundationEssentials
import ImageFetchKit

/// The flags every loading command shares (`get`, `prefetch`, `info URL`): how to use the caches
/// and the network.
struct LoaderOptions: ParsableArguments {
    @OptionGroup var location: CacheLocationOptions

    @Flag(help: "Revalidate cached images with their stored ETag / Last-Modified (a 304 keeps the cached file).")
    var refresh = false

    @Flag(help: "Never touch the network; an image that is not cached is an error.")
    var cacheOnly = false

    @Flag(help: "Use the memory cache only: read nothing from and write nothing to the disk cache.")
    var noDiskCache = false

    @Flag(help: "Fetch URLs even if they are on the failed-URL list.")
    var retryFailed = false

    @Option(help: ArgumentHelp(
        "Treat cached images older than this as missing (e.g. 90s, 12h, 7d; default: the cache's max age, 7d).",
        valueName: "duration"))
    var maxAge: String?

    @Option(help: ArgumentHelp("Give up when connecting, or waiting for the next byte, takes longer than this (seconds).", valueName: "seconds"))
    var timeout: Double = 15

    @Option(name: [.customShort("H", allowingJoined: true), .customLong("header")], help: ArgumentHelp(
        "Send an extra request header (repeatable).", valueName: "name: value"))
    var headers: [String] = []

    @Option(help: ArgumentHelp("Basic authentication credentials.", valueName: "user:password"))
    var user: String?

    @Flag(help: "Skip TLS certificate verification (explicit opt-in; insecure).")
    var insecure = false

    @Option(help: ArgumentHelp("Trust the certificate authorities in this PEM file.", valueName: "file"))
    var cacert: String?

    @Option(help: ArgumentHelp("Refuse bodies larger than this (e.g. 512K, 20M).", valueName: "size"))
    var maxBytes: String = "100M"

    @Option(help: ArgumentHelp(
        "Keep the disk cache under this size (e.g. 500M, 2G), evicting least recently used entries, but never one this run "
            + "loaded (default: $IMGFETCH_CACHE_MAX_SIZE, else 1G).",
        valueName: "size"))
    var maxSize: String?

    @Option(help: ArgumentHelp("Refuse images with more pixels than this (width × height), checked from the header.", valueName: "count"))
    var maxPixels: Int = 100_000_000

    @Option(name: .customLong("retry"), help: ArgumentHelp(
        "Retry transient failures up to this many times, with backoff, honouring Retry-After.", valueName: "count"))
    var retries: Int = 0

    @Option(help: ArgumentHelp("How to check an image before caching it: header (sniff, probe, completeness) or decode (also decode every pixel).", valueName: "level"))
    var verify: LoadOptions.Verification = .header

    @OptionGroup var keyFilter: KeyFilterOptions

    @OptionGroup var remote: RemoteCacheOptions

    func validate() throws {
        if cacheOnly && refresh { throw ValidationError("--cache-only and --refresh contradict each other: --refresh needs the network.") }
        if cacheOnly && noDiskCache { throw ValidationError("--cache-only with --no-disk-cache could never find an image.") }
        if maxAge != nil, QuantityText.seconds(maxAge ?? "") == nil {
            throw ValidationError("--max-age '\(maxAge ?? "")' is not a duration like 90s, 12h or 7d.")
        }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds.") }
        for header in headers where parseHeader(header) == nil {
            throw ValidationError("--header '\(header)' is not of the form 'Name: value'.")
        }
        if let user, !user.contains(":") { throw ValidationError("--user must be of the form user:password.") }
        if let cacert, !FileManager.default.isReadableFile(atPath: cacert) {
            throw ValidationError("--cacert '\(cacert)' is not a readable file.")
        }
        if let maxSize, QuantityText.bytes(maxSize) == nil { throw ValidationError("--max-size '\(maxSize)' is not a size like 500M or 2G.") }
        guard let bytes = QuantityText.bytes(maxBytes), bytes > 0 else {
            throw ValidationError("--max-bytes '\(maxBytes)' is not a size like 512K or 20M.")
        }
        if maxPixels <= 0 { throw ValidationError("--max-pixels must be positive.") }
        if retries < 0 { throw ValidationError("--retry must not be negative.") }
    }

    /// The options as the loader takes them; call after `validate()`.
    var loadOptions: LoadOptions {
        var options = LoadOptions()
        options.refresh = refresh
        options.cacheOnly = cacheOnly
        options.noDiskCache = noDiskCache
        options.retryFailed = retryFailed
        options.maxAge = maxAge.flatMap(QuantityText.seconds)
        options.timeout = timeout
        options.headers = headers.compactMap(parseHeader)
        options.user = user
        options.insecure = insecure
        options.caCertificatePath = cacert
        options.maxBytes = QuantityText.bytes(maxBytes) ?? options.maxBytes
        options.maxPixels = maxPixels
        options.retries = retries
        options.verification = verify
        options.keyFilter = keyFilter.filter
        return options
    }

    private func parseHeader(_ text: String) -> (name: String, value: String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = String(text[..<colon].trimmingWhitespace())
        let value = String(text[text.index(after: colon)...].trimmingWhitespace())
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        return (name, value)
    }
}

extension LoadOptions.Verification: ExpressibleByArgument {}
