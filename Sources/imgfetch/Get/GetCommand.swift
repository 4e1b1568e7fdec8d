import ArgumentParser

/// `imgfetch get URL...`: loads each URL through the caches and prints where the image is.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Load images through the cache and print their cached file paths.",
        discussion: """
            Each URL is looked up in the memory cache, then the disk cache, then fetched; only a \
            response that is a complete, supported image is cached. By default one absolute path \
            is printed per loaded URL, in the order given, so `img=$(imgfetch get URL)` works. A \
            failed URL prints one error line on stderr and nothing on stdout, and the others go on. \
            Repeated URLs are fetched once; the later ones report the cache type `memory`.
            """
    )

    @Argument(help: ArgumentHelp("http or https URLs.", valueName: "url"))
    var urls: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Write the image to this file instead of printing its path ('-' writes the bytes to stdout); one URL only.",
        valueName: "file"), completion: .file())
    var output: String?

    @Flag(help: """
        Print one JSON object per URL: url, path, output, format, width, height, bytes, sha256, status, final_url, \
        content_type, cache, variant, transformed, original_width, original_height, elapsed_ms, error.
        """)
    var json = false

    @OptionGroup(title: "Output files") var directoryOptions: OutputDirectoryOptions
    @OptionGroup(title: "Output files") var manifestOptions: ManifestOptions
    @OptionGroup(title: "Transform options") var transformOptions: TransformOptions
    @OptionGroup(title: "Cache and network options") var loaderOptions: LoaderOptions
    @OptionGroup(title: "Output options") var outputOptions: OutputOptions

    /// The arguments as `GetRequest`, the form both parsers produce and `run()` executes.
    var request: GetRequest {
        GetRequest(
            urls: urls, output: output, json: json, outputDirectory: directoryOptions.outputDir,
            nameTemplate: (try? directoryOptions.template()) ?? .standard, manifest: manifestOptions.manifest,
            settings: LoadingSettings(loaderOptions, outputOptions, transformOptions))
    }

    func validate() throws {
        try transformOptions.validate(maxPixels: loaderOptions.maxPixels)
        try request.validate()
    }

    func run() async throws {
        try await request.run()
    }
}
