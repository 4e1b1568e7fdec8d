import ArgumentParser
import FoundationEssentials
import ImageFetchKit

/// `imgfetch info FILE|URL...`: what the decoder registry sees in each file or URL.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show what the decoder registry sees in image files: format, size, frames and bytes.",
        discussion: """
            Each file is identified by its bytes (never its name), its header is probed and its \
            structure checked. A file that is not a usable image is reported on stderr and the \
            other files are still done. An http or https URL is loaded through the cache first \
            (as 'get' loads it) and reported under its URL.
            """
    )

    @Argument(help: ArgumentHelp("The image files or http(s) URLs to inspect.", valueName: "file|url"), completion: .file())
    var files: [String]

    @Flag(help: "Print one JSON object per file (keys: file, format, width, height, frames, bytes; for a URL also those of 'get --json').")
    var json = false

    @Flag(help: "Also decode every pixel (every frame of an animation), not just the header and structure.")
    var decode = false

    @OptionGroup(title: "Transform options (for URLs: the variant is reported)") var transformOptions: TransformOptions
    @OptionGroup(title: "Cache and network options (for URLs)") var loaderOptions: LoaderOptions

    func validate() throws {
        try transformOptions.validate(maxPixels: loaderOptions.maxPixels)
    }

    func run() async throws {
        Terminal.prepare()
        var failures: [ExitStatus] = []
        let out = StandardOutput.shared
        let loader = files.contains(where: Self.isURL) ? try loaderOptions.makeLoader(concurrency: 6) : nil
        for path in files where !out.isClosed {
            if let loader, Self.isURL(path) {
                switch await inspect(url: path, with: loader) {
                case .success(let line): out.writeLine(line)
                case .failure(let failure):
                    Terminal.writeError("imgfetch: \(URL.redacting(path)): \(failure.reason)\n")
                    failures.append(failure.status)
                }
                continue
            }
            let file: ImageFile
            do {
                file = try ImageFile(path: path, decodePixels: decode)
            } catch {
                Terminal.writeError("imgfetch: \(error)\n")
                failures.append(Self.status(for: error))
                continue
            }
            out.writeLine(json ? jsonLine(file) : textLine(file))
        }
        try await out.endList(loader: loader, failures: failures, total: files.count)
    }

    func textLine(_ file: ImageFile) -> String {
        textLine(name: file.path, info: file.info, byteCount: file.byteCount)
    }

    func textLine(name: String, info: ImageInfo, byteCount: Int) -> String {
        let frames = info.frameCount == 1 ? "1 frame" : "\(info.frameCount) frames"
        return "\(name): \(info.format.rawValue) \(info.width)x\(info.height) \(frames) \(byteCount) bytes"
    }

    func jsonLine(_ file: ImageFile) -> String {
        jsonLine(name: file.path, info: file.info, byteCount: file.byteCount)
    }

    /// The keys `get --json` uses for the same facts, in the same order.
    func jsonLine(name: String, info: ImageInfo, byteCount: Int) -> String {
        var line = JSONLine()
        line.add("file", name)
        line.add("format", info.format.rawValue)
        line.add("width", info.width)
        line.add("height", info.height)
        line.add("frames", info.frameCount)
        line.add("bytes", byteCount)
        return line.text
    }

    private static func status(for error: ImageFile.Error) -> ExitStatus {
        switch error {
        case .unreadable: .fileError
        case .notAnImage(_, let cause): ExitStatus(decodeError: cause)
        }
    }
}
