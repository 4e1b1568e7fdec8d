import Glibc
import ImageFetchKit

/// What the flags every loading command shares (`LoaderOptions`, `OutputOptions`) come to:
/// where the cache is, how to load, how much to say on stderr.
struct LoadingSettings: Sendable {
    /// `--cache-dir`, when given (else the environment decides).
    var cacheDir: String?
    /// `--remote-cache`, when given (else the environment decides).
    var remoteCache: String?
    /// `--remote-cache-mode`, when given (else the environment decides).
    var remoteCacheMode: RemoteCacheConfiguration.Mode?
    /// `--max-size`, when given (else the environment decides).
    var cacheMaxSize: String?
    var load = LoadOptions()
    /// `--per-host`, `--wait`, `--limit-rate`.
    var politeness = Politeness()
    /// `--cookie-jar`.
    var cookieJar: String?
    var quiet = false
    var verbose = false
}

extension LoadingSettings {
    /// The settings argument-parser's option groups hold; `transform` must have passed its
    /// `validate(maxPixels:)`.
    init(_ loader: LoaderOptions, _ output: OutputOptions, _ transform: TransformOptions? = nil) {
        self.init(
            cacheDir: loader.location.cacheDir, remoteCache: loader.remote.remoteCache, remoteCacheMode: loader.remote.remoteCacheMode,
            cacheMaxSize: loader.maxSize, load: loader.loadOptions, politeness: loader.politeness, cookieJar: loader.cookieJar,
            quiet: output.quiet, verbose: output.verbose)
        load.transform = try? transform?.spec(maxPixels: loader.maxPixels)
    }

    /// The shared flags a quick command line may hold (see `QuickArguments`): names and spellings.
    /// The transform flags are among them because a variant hit is as common in scripts as a hit
    /// (`thumb=$(imgfetch get --resize 256x256 "$url")`), and argument-parser made one cost
    /// 5.7 ms instead of a plain hit's 1.9 ms (hyperfine, 100 runs each).
    static let quickFlags = [["--quiet", "-q"], ["--cache-only"], ["--upscale"], ["--first-frame"]]
    /// `--cacert` is among them because argument-parser's parse (its reflection and protocol
    /// casts) was about a tenth of a one-URL https miss's CPU that a script trusting its own CA pays.
    static let quickOptions = [["--cache-dir"], ["--resize"], ["--fit"], ["--format"], ["--quality"], ["--cacert"]]

    /// The settings a quick command line read with `quickFlags` and `quickOptions` gives; nil when
    /// its transform flags are not a spec (argument-parser then reports why).
    init?(_ line: QuickArguments) {
        self.init(cacheDir: line.value(of: "--cache-dir"), quiet: line.has("--quiet"))
        load.cacheOnly = line.has("--cache-only")
        if let caFile = line.value(of: "--cacert") {
            // Unreadable: argument-parser's validation says so.
            guard access(caFile, R_OK) == 0 else { return nil }
            load.caCertificatePath = caFile
        }
        var quality: Int?
        if let text = line.value(of: "--quality") {
            guard let number = Int(text) else { return nil }
            quality = number
        }
        do {
            load.transform = try TransformSpec.parse(
                resize: line.value(of: "--resize"), fit: line.value(of: "--fit"), upscale: line.has("--upscale"),
                format: line.value(of: "--format"), quality: quality, firstFrame: line.has("--first-frame"),
                maxPixels: load.maxPixels)
        } catch {
            return nil
        }
    }

    /// A loader on the cache these settings name, running at most `concurrency` transfers at once.
    func makeLoader(concurrency: Int, memoryCostLimit: Int) throws -> ImageLoader {
        try LoaderOptions.makeLoader(
            cacheDir: cacheDir, remoteCache: remoteCache, remoteCacheMode: remoteCacheMode, verbose: verbose,
            cacheMaxSize: cacheMaxSize, politeness: politeness, cookieJar: cookieJar, concurrency: concurrency, memoryCostLimit: memoryCostLimit)
    }
}
