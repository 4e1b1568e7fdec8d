import ArgumentParser
import ImageFetchKit

/// `--output-dir DIR` and `--name TEMPLATE`: named copies of each loaded image, for `get`,
/// `prefetch` and `cache export`.
struct OutputDirectoryOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Also write each image (the variant when a transform is asked) into this directory, named by --name; readable (0666 less the umask).",
        valueName: "dir"), completion: .directory)
    var outputDir: String?

    @Option(help: ArgumentHelp(
        "The name of each image written by --output-dir: text and the fields {name} {stem} {ext} {host} {path} {sha256} {key} {format} {width} {height} {line} {index}; slashes make folders. (default: {name}, the URL's last segment with the format's extension)",
        valueName: "template"))
    var name: String?

    func validate() throws {
        if name != nil, outputDir == nil { throw ValidationError("--name names the files --output-dir writes: add --output-dir DIR.") }
        _ = try template()
    }

    /// The parsed `--name`, or the default.
    func template() throws -> OutputNameTemplate {
        guard let name else { return .standard }
        do { return try OutputNameTemplate(parsing: name) } catch { throw ValidationError(error.description) }
    }
}
