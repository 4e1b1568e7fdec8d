import ArgumentParser

/// What `imgfetch get` was asked to do, resolved from its arguments: by argument-parser
/// (`GetCommand`) or, for the common short command lines, by `init?(quickParsing:)`.
struct GetRequest: Sendable {
    /// The URLs as given, in order.
    var urls: [String]
    /// `--output`: a file to write the one image to, or "-" for stdout; nil prints paths.
    var output: String?
    var json = false
    var settings = LoadingSettings()

    /// The rules `get`'s own arguments must follow together; the option groups check theirs.
    func validate() throws {
        if urls.isEmpty { throw ValidationError("Give at least one URL.") }
        if output != nil, urls.count != 1 { throw ValidationError("--output takes exactly one URL; \(urls.count) were given.") }
        if output == "-", json { throw ValidationError("--output - writes the image bytes to stdout; it cannot be combined with --json.") }
        if settings.load.noDiskCache, output == nil, !json {
            throw ValidationError("--no-disk-cache leaves no cached file to print: add --output FILE, --output - or --json.")
        }
    }
}
