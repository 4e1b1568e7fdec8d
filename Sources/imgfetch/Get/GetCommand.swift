import ArgumentParser
import FoundationEssentials
import Glibc
import ImageFetchKit

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
        valueName: "file"))
    var output: String?

    @Flag(help: "Print one JSON object per URL: url, path, format, width, height, bytes, cache, elapsed_ms, error.")
    var json = false

    @OptionGroup(title: "Cache and network options") var loaderOptions: LoaderOptions
    @OptionGroup(title: "Output options") var outputOptions: OutputOptions

    func validate() throws {
        if urls.isEmpty { throw ValidationError("Give at least one URL.") }
        if output != nil, urls.count != 1 { throw ValidationError("--output takes exactly one URL; \(urls.count) were given.") }
        if output == "-", json { throw ValidationError("--output - writes the image bytes to stdout; it cannot be combined with --json.") }
        if loaderOptions.noDiskCache, output == nil, !json {
            throw ValidationError("--no-disk-cache leaves no cached file to print: add --output FILE, --output - or --json.")
        }
    }

    func run() async throws {
        Terminal.prepare()
        let loader = try loaderOptions.makeLoader(concurrency: 6)
        let options = loaderOptions.loadOptions
        let stdout = StandardOutput.shared
        let display = ProgressDisplay(quiet: outputOptions.quiet, total: urls.count)

        var failures: [ExitStatus] = []
        for await result in loader.loadInOrder(urls, options: options, concurrency: 6, progress: display.transfer) {
            display.finished(result)
            if let line = result.errorLine {
                display.message(line)
                failures.append(ExitStatus(result.error?.category ?? .file))
            } else if outputOptions.verbose {
                display.message(result.verboseLine)
            }
            if json {
                stdout.writeLine(result.jsonLine)
            } else if let image = result.image {
                if let failure = deliver(image, url: result.url, to: stdout) {
                    display.message(failure.line)
                    failures.append(failure.status)
                }
            }
            if stdout.isClosed { break }
        }
        display.finish()
        stdout.flush()
        let status = stdout.isClosed ? .success : ExitStatus.combining(failures, total: urls.count)
        if status != .success { throw status.exitCode }
    }

    /// Prints the path, or writes the image where `--output` says; a failure to write is returned.
    private func deliver(_ image: LoadedImage, url: String, to stdout: StandardOutput) -> (line: String, status: ExitStatus)? {
        switch output {
        case nil:
            stdout.writeLine(image.fileURL?.path ?? "")
            return nil
        case "-":
            do {
                stdout.write(try image.contents())
                return nil
            } catch {
                return ("imgfetch: \(url): Cannot read the cached image: \(SystemErrorText.describe(error)).", .fileError)
            }
        case let path?:
            do {
                try image.contents().write(to: URL(fileURLWithPath: path), options: .atomic)
                return nil
            } catch {
                return ("imgfetch: \(url): Cannot write \(path): \(SystemErrorText.describe(error)).", .fileError)
            }
        }
    }
}
