import ArgumentParser
import FoundationEssentials
import Glibc
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

    @Option(help: ArgumentHelp("Give up when connecting takes longer than this, or the body comes slower than 1 byte a second over this long (seconds).", valueName: "seconds"))
    var timeout: Double = 15

    @Option(name: [.customShort("H", allowingJoined: true), .customLong("header")], help: ArgumentHelp(
        "Send an extra request header (repeatable).", valueName: "name: value"))
    var headers: [String] = []

    @Option(help: ArgumentHelp("Basic authentication credentials.", valueName: "user:password"))
    var user: String?

    @Option(name: [.customShort("A"), .customLong("user-agent")], help: ArgumentHelp(
        "Send this User-Agent (default: imgfetch/VERSION).", valueName: "string"))
    var userAgent: String?

    @Option(help: ArgumentHelp("Give up on a transfer that takes longer than this in all (seconds), as curl's -m.", valueName: "seconds"))
    var maxTime: Double?

    @Option(name: [.customShort("b"), .customLong("cookie")], help: ArgumentHelp(
        "Send these cookies with every request.", valueName: "NAME=VALUE; ..."))
    var cookie: String?

    @Option(name: [.customShort("c"), .customLong("cookie-jar")], help: ArgumentHelp(
        "Keep the cookies servers set in this file (curl's Netscape format): read at the start, sent back only to their own domains, written at the end (mode 0600).",
        valueName: "file"))
    var cookieJar: String?

    @Option(help: ArgumentHelp("Most requests in flight to one host at once (default: no limit beyond -j).", valueName: "count"))
    var perHost: Int?

    @Option(help: ArgumentHelp("Receive at most this many bytes a second over the whole run (e.g. 500K, 2M).", valueName: "rate"))
    var limitRate: String?

    @Option(help: ArgumentHelp("Wait this long between the starts of two requests to one host (seconds), as wget's -w.", valueName: "seconds"))
    var wait: Double?

    @Flag(help: "Honour each site's robots.txt (asked once, kept in the cache up to a day as its Cache-Control allows; a refused URL is not requested) and the X-Robots-Tag opt-outs noai, noimageai, none and noindex (nothing cached): exit 9.")
    var respectRobots = false

    @Flag(help: "Skip TLS certificate verification (explicit opt-in; insecure).")
    var insecure = false

    @Option(help: ArgumentHelp("Trust the certificate authorities in this PEM file.", valueName: "file"), completion: .file())
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

    @Flag(help: "Never continue an interrupted body: ask for all of it, and keep no partial file (by default one of 64 KiB or more, with an ETag or Last-Modified, is kept and continued with Range and If-Range).")
    var noResume = false

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
        if let maxTime, !(maxTime > 0) { throw ValidationError("--max-time must be a positive number of seconds.") }
        if let userAgent, userAgent.contains(where: { $0.isNewline || $0 == "\0" }) {
            throw ValidationError("--user-agent must be one line.")
        }
        if let cookie, cookie.contains(where: { $0.isNewline || $0 == "\0" }) || !cookie.contains("=") {
            throw ValidationError("--cookie '\(cookie)' is not of the form 'NAME=VALUE; NAME2=VALUE2'.")
        }
        if let cookieJar {
            let folder = FilePath.parent(of: FilePath.standardize(cookieJar))
            var info = stat()
            if stat(folder, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
                throw ValidationError("--cookie-jar '\(cookieJar)': the folder \(folder) does not exist.")
            }
        }
        if let perHost, perHost < 1 { throw ValidationError("--per-host must be at least 1.") }
        if let limitRate, (QuantityText.bytes(limitRate) ?? 0) <= 0 {
            throw ValidationError("--limit-rate '\(limitRate)' is not a rate like 500K or 2M (bytes a second).")
        }
        if let wait, !(wait >= 0) { throw ValidationError("--wait must be a number of seconds, 0 or more.") }
    }

    /// `--per-host`, `--wait` and `--limit-rate` as the downloader takes them; call after `validate()`.
    var politeness: Politeness {
        Politeness(
            maxPerHost: perHost, waitBetweenRequests: wait.flatMap { $0 > 0 ? .milliseconds(Int64($0 * 1000)) : nil },
            maxBytesPerSecond: limitRate.flatMap(QuantityText.bytes).map { Int($0) })
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
        options.resume = !noResume
        options.maxTime = maxTime
        options.userAgent = userAgent
        options.cookie = cookie
        options.respectRobots = respectRobots
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
