import ArgumentParser
import Foundation

@main
struct IMGFetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgfetch",
        abstract: "Fetch images from URLs once, validate them, and keep them in a local cache.",
        discussion: """
            Every URL is looked up in the memory cache, then the disk cache, then fetched; only a \
            complete image in a supported format (JPEG, PNG, GIF, WebP) is cached. Results go to \
            stdout, everything else to stderr.

            The cache lives in --cache-dir, else $IMGFETCH_CACHE_DIR, else $XDG_CACHE_HOME/imgfetch, \
            else ~/.cache/imgfetch.

            Exit status: \(ExitStatus.allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ")).
            """,
        version: "0.1.0",
        subcommands: [GetCommand.self, PrefetchCommand.self, CacheCommand.self, InfoCommand.self]
    )

    /// Runs the command, mapping argument-parser's usage errors (EX_USAGE, 64) onto our documented
    /// usage status, 2, so every usage problem — a bad flag or a bad URL — exits the same way.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            guard code.rawValue == 64 else { exit(withError: error) }
            Terminal.writeError(fullMessage(for: error) + "\n")
            Foundation.exit(ExitStatus.usage.rawValue)
        }
    }
}
