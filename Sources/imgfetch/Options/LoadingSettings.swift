import ImageFetchKit

/// What the flags every loading command shares (`LoaderOptions`, `OutputOptions`) come to:
/// where the cache is, how to load, how much to say on stderr.
struct LoadingSettings: Sendable {
    /// `--cache-dir`, when given (else the environment decides).
    var cacheDir: String?
    /// `--remote-cache`, when given (else the environment decides).
    var remoteCache: String?
    var remoteCacheMode = RemoteCacheConfiguration.Mode.readWrite
    var load = LoadOptions()
    var quiet = false
    var verbose = false
}

extension LoadingSettings {
    /// The settings argument-parser's option groups hold; `transform` must have passed its
    /// `validate(maxPixels:)`.
    init(_ loader: LoaderOptions, _ output: OutputOptions, _ transform: TransformOptions? = nil) {
        self.init(
            cacheDir: loader.location.cacheDir, remoteCache: loader.remote.remoteCache, remoteCacheMode: loader.remote.remoteCacheMode,
            load: loader.loadOptions, quiet: output.quiet, verbose: output.verbose)
        load.transform = try? transform?.spec(maxPixels: loader.maxPixels)
    }

    /// The shared flags a quick command line may hold (see `QuickArguments`): names and spellings.
    static let quickFlags = [["--quiet", "-q"], ["--cache-only"]]
    static let quickOptions = [["--cache-dir"]]

    /// The settings a quick command line read with `quickFlags` and `quickOptions` gives.
    init(_ line: QuickArguments) {
        self.init(cacheDir: line.value(of: "--cache-dir"), quiet: line.has("--quiet"))
        load.cacheOnly = line.has("--cache-only")
    }

    /// A loader on the cache these settings name, running at most `concurrency` transfers at once.
    func makeLoader(concurrency: Int, memoryCostLimit: Int) throws -> ImageLoader {
        try LoaderOptions.makeLoader(
            cacheDir: cacheDir, remoteCache: remoteCache, remoteCacheMode: remoteCacheMode,
            concurrency: concurrency, memoryCostLimit: memoryCostLimit)
    }
}
