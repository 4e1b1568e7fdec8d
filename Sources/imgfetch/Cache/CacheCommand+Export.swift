import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension CacheCommand {
    /// `cache export DIR`: cached images written out under names, for people and other tools.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write cached images into a directory, named by a template.",
            usage: "imgfetch cache export [<options>] <dir> [<url> ...]",
            discussion: """
                Each image is written whole (a temporary file, then renamed), readable (0666 less \\
                the umask), as a reflink of the cached file where the file system has them. Names \\
                come from --name as for 'get --output-dir'; a name that would leave the directory, \\
                or that an earlier image of the run took, is an error for that image. The paths \\
                written are printed, one a line. A URL that is not cached is an error (exit 6).
                """)

        @Argument(help: ArgumentHelp("The directory to write into (made if missing).", valueName: "dir"), completion: .directory)
        var directory: String
        @Argument(help: ArgumentHelp("The URLs whose images to write.", valueName: "url"))
        var urls: [String] = []
        @Flag(help: "Write every cached image.")
        var all = false
        @Flag(help: "Also write the variants (--resize, --format) of the URLs, or every variant with --all.")
        var variants = false
        @Option(help: ArgumentHelp("The name of each file: text and {name} {stem} {ext} {host} {path} {sha256} {key} {format} {width} {height} {index}. (default: {name})", valueName: "template"))
        var name: String?
        @OptionGroup var location: CacheLocationOptions
        @OptionGroup var keyFilter: KeyFilterOptions

        func validate() throws {
            if urls.isEmpty == !all { throw ValidationError("Give URLs or --all (not both).") }
            for url in urls where URL(string: url)?.scheme == nil {
                throw ValidationError("'\(URL.redacting(url))' is not an absolute URL.")
            }
            _ = try template()
        }

        private func template() throws -> OutputNameTemplate {
            guard let name else { return .standard }
            do { return try OutputNameTemplate(parsing: name) } catch { throw ValidationError(error.description) }
        }

        func run() throws {
            Terminal.prepare()
            let cache = try location.openCache()
            let folder: OutputFolder
            do { folder = try OutputFolder(directory: directory, template: try template()) } catch {
                Terminal.writeError("imgfetch: \(error)\n")
                throw ExitStatus.fileError.exitCode
            }
            let out = StandardOutput.shared
            var failures: [ExitStatus] = []
            var attempted = 0
            func export(_ entry: CacheEntry) -> Bool {
                attempted += 1
                let facts = OutputFacts(
                    url: entry.url, format: entry.format, width: entry.width, height: entry.height, key: entry.key.hash, index: attempted)
                do {
                    out.writeLine(try folder.write(file: entry.path, data: nil, facts: facts))
                } catch {
                    Terminal.writeError("imgfetch: \(entry.url)\(entry.key.variantSpec.map { " [\($0)]" } ?? ""): \(error)\n")
                    failures.append(.fileError)
                }
                return !out.isClosed
            }
            do {
                if all {
                    try cache.forEachEntry(sortedBy: .url) { entry in
                        variants || entry.key.variantSpec == nil ? export(entry) : true
                    }
                }
                for text in urls where !out.isClosed {
                    guard let url = URL(string: text) else { continue }
                    let key = CacheKey(url: url, filter: keyFilter.filter)
                    guard let entry = try cache.entry(for: key, includingExpired: true) else {
                        attempted += 1
                        Terminal.writeError("imgfetch: \(URL.redacting(text)): Not in the cache.\n")
                        failures.append(.cacheMiss)
                        continue
                    }
                    _ = export(entry)
                    if variants { for variant in try cache.variants(of: key) where !out.isClosed { _ = export(variant) } }
                }
            } catch {
                throw CacheCommand.fail(error)
            }
            out.flush()
            if out.isClosed { throw ExitStatus.outputClosed.exitCode }
            let status = ExitStatus.combining(failures, total: attempted)
            if status != .success { throw status.exitCode }
        }
    }
}
