import ArgumentParser
import FoundationEssentials
import Glibc
import ImageFetchKit

/// `imgfetch show FILE|URL...`: draws images in the terminal, fitted to it.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Draw images in the terminal.",
        discussion: """
            Each file or URL is drawn fitted to the terminal's width and its height less two \
            lines (never enlarged), below a line naming it, through the pipeline --resize uses \
            (orientation, sRGB, Lanczos). A URL is loaded through the cache as 'get' loads it; \
            the drawing itself is not cached. Terminals that speak the kitty graphics protocol \
            (kitty, WezTerm, Ghostty) get the pixels; others get 24-bit colour half blocks, two \
            pixels a character. Standard output must be a terminal.
            """
    )

    /// How the pixels reach the terminal.
    enum Drawing: String, ExpressibleByArgument, CaseIterable {
        case auto, blocks, kitty
    }

    @Argument(help: ArgumentHelp("The image files or http(s) URLs to draw.", valueName: "file|url"), completion: .file())
    var files: [String]

    @Option(help: ArgumentHelp("How to draw: auto (kitty graphics where the terminal speaks it, else blocks), blocks or kitty.", valueName: "how"))
    var drawing: Drawing = .auto

    @Option(help: ArgumentHelp("Use this many columns instead of the terminal's width.", valueName: "n"))
    var columns: Int?

    @OptionGroup(title: "Cache and network options (for URLs)") var loaderOptions: LoaderOptions

    func validate() throws {
        if let columns, columns < 1 { throw ValidationError("--columns must be at least 1.") }
    }

    func run() async throws {
        Terminal.prepare()
        guard isatty(STDOUT_FILENO) == 1 else {
            Terminal.writeError(
                "imgfetch: show draws on a terminal, and standard output is not one; save an image with 'imgfetch get -o FILE URL' instead.\n")
            throw ExitStatus.usage.exitCode
        }
        let terminal = TerminalSize.of(STDOUT_FILENO) ?? TerminalSize(columns: 80, rows: 24, pixelWidth: 0, pixelHeight: 0)
        let kitty = drawing == .kitty || (drawing == .auto && KittyGraphics.isSupported(environment: ProcessEnvironment.value))
        let box = Self.box(for: terminal, columns: columns ?? terminal.columns, kitty: kitty)
        let loader = files.contains(where: InfoCommand.isURL) ? try loaderOptions.makeLoader(concurrency: 6) : nil
        let out = StandardOutput.shared
        var failures: [ExitStatus] = []
        for name in files where !out.isClosed {
            switch await picture(of: name, loader: loader, box: box) {
            case .success(let image):
                out.writeLine("\(Self.displayName(name)): \(image.info.format.rawValue) \(image.info.width)x\(image.info.height)")
                out.write(Array((kitty ? KittyGraphics.render(image) : HalfBlockRenderer.render(image)).utf8))
            case .failure(let failure):
                Terminal.writeError("imgfetch: \(Self.displayName(name)): \(failure.reason)\n")
                failures.append(failure.status)
            }
        }
        try await out.endList(loader: loader, failures: failures, total: files.count)
    }

    /// The pixels an image may fill: half blocks show one pixel per column and two per row; the
    /// kitty protocol shows real pixels, as many as the terminal says its cells have (else a
    /// common 8×16 cell). Two rows stay free for the name and the prompt.
    static func box(for terminal: TerminalSize, columns: Int, kitty: Bool) -> (width: Int, height: Int) {
        let rows = max(1, terminal.rows - 2)
        guard kitty else { return (columns, 2 * rows) }
        let cellWidth = terminal.pixelWidth > 0 ? max(1, terminal.pixelWidth / terminal.columns) : 8
        let cellHeight = terminal.pixelHeight > 0 ? max(1, terminal.pixelHeight / terminal.rows) : 16
        return (columns * cellWidth, rows * cellHeight)
    }

    private static func displayName(_ name: String) -> String {
        InfoCommand.isURL(name) ? URL.redacting(name) : name
    }

    private struct Failure: Error {
        var reason: String
        var status: ExitStatus
    }

    /// The image in `name` (a file, or a URL loaded through the cache), fitted into `box`.
    private func picture(of name: String, loader: ImageLoader?, box: (width: Int, height: Int)) async -> Result<DecodedImage, Failure> {
        let data: Data
        if let loader, InfoCommand.isURL(name) {
            let result = await loader.load(name, options: loaderOptions.loadOptions)
            guard let image = result.image else {
                return .failure(Failure(reason: result.error?.reason ?? "Not loaded.", status: ExitStatus(result.error?.category ?? .file)))
            }
            do { data = try image.contents() } catch {
                return .failure(Failure(reason: "The cached copy cannot be read: \(SystemErrorText.describe(error)).", status: .fileError))
            }
        } else {
            do { data = try Data(contentsOf: URL(fileURLWithPath: name)) } catch {
                return .failure(Failure(reason: "Cannot read it: \(SystemErrorText.describe(error)).", status: .fileError))
            }
        }
        do {
            let limits = DecodeLimits(maxPixels: loaderOptions.maxPixels)
            return .success(try ImageTransformer(decoders: .standard).preview(data, fittingWidth: box.width, height: box.height, limits: limits))
        } catch {
            let status: ExitStatus = error.isLibraryUnavailable ? .fileError : .notAnImage
            if case .decode(let cause) = error { return .failure(Failure(reason: cause.description, status: status)) }
            return .failure(Failure(reason: error.description, status: status))
        }
    }
}
