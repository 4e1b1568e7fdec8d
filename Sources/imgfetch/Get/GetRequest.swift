import ArgumentParser
import ImageFetchKit
import Glibc

/// What `imgfetch get` was asked to do, resolved from its arguments: by argument-parser
/// (`GetCommand`) or, for the common short command lines, by `init?(quickParsing:)`.
struct GetRequest: Sendable {
    /// The URLs as given, in order.
    var urls: [String]
    /// `--output`: a file to write the one image to, or "-" for stdout; nil prints paths.
    var output: String?
    var json = false
    /// `--output-dir` and `--name`: where named copies go, if anywhere.
    var outputDirectory: String?
    var nameTemplate = OutputNameTemplate.standard
    /// `--manifest`: a file that gets every record `--json` would print.
    var manifest: String?
    var settings = LoadingSettings()

    /// The rules `get`'s own arguments must follow together; the option groups check theirs.
    func validate() throws {
        if urls.isEmpty { throw ValidationError("Give at least one URL.") }
        if output != nil, urls.count != 1 { throw ValidationError("--output takes exactly one URL; \(urls.count) were given.") }
        if output == "-", json { throw ValidationError("--output - writes the image bytes to stdout; it cannot be combined with --json.") }
        if let output, output != "-", Self.namesADirectory(output) {
            throw ValidationError("--output '\(output)' is a directory: --output names a file; --output-dir DIR writes into a directory.")
        }
        if output != nil, outputDirectory != nil {
            throw ValidationError("--output writes one file and --output-dir a directory of them: give one of the two.")
        }
        if settings.load.noDiskCache, output == nil, outputDirectory == nil, !json {
            throw ValidationError("--no-disk-cache leaves no cached file to print: add --output FILE, --output - or --json.")
        }
    }

    /// Whether `path` ends in "/" or is an existing directory (a link to one included): a file
    /// cannot be written there, and `rename` onto it would otherwise fail or, for a new name
    /// ending in "/", make a file the user never meant.
    static func namesADirectory(_ path: String) -> Bool {
        if path.hasSuffix("/") { return true }
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
