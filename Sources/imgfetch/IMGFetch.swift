import ArgumentParser
import FoundationEssentials
import Glibc

@main
struct IMGFetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgfetch",
        abstract: "Fetch images from URLs once, validate them, and keep them in a local cache.",
        discussion: """
            Every URL is looked up in the memory cache, then the disk cache, then fetched; only a \
            complete image in a supported format (JPEG, PNG, GIF, WebP) within the limits is cached. \
            Each result reports its cache type: memory, disk or network. Results go to stdout, \
            errors and progress to stderr; a live progress line is drawn only when stderr is a terminal.

            ENVIRONMENT:
              IMGFETCH_CACHE_DIR  The cache directory if --cache-dir is not given.
              XDG_CACHE_HOME      Else the cache is $XDG_CACHE_HOME/imgfetch.
              HOME                Else the cache is ~/.cache/imgfetch.
              NO_COLOR            If set and not empty: a progress line without colour.
              https_proxy         Proxies are used as curl uses them (also http_proxy,
                                  all_proxy, no_proxy).

            FILES:
              CACHE/x/HASH.EXT    An image: SHA-256 of its key, the format's extension.
              CACHE/index.sqlite  The index: entries, validators, times, failed URLs.
              CACHE/keys.lock     Per-key locks: processes fetch a URL only once.
              CACHE/x/*.tmp       Files being written (leftovers are swept by trim).
              CACHE/CACHEDIR.TAG  Tells backup tools the directory is a cache.

            EXIT STATUS:
            \(ExitStatus.allCases.map { "  \($0.rawValue)  \($0.meaning)" }.joined(separator: "\n"))
            """,
        version: "0.1.0",
        subcommands: [GetCommand.self, PrefetchCommand.self, CacheCommand.self, InfoCommand.self]
    )

    /// Runs the command, mapping argument-parser's usage errors (EX_USAGE, 64) onto our documented
    /// usage status, 2, so every usage problem — a bad flag or a bad URL — exits the same way.
    static func main() async {
        MallocTuning.keepImageBuffersForReuse()
        do {
            if let request = quickGetRequest() {
                try await request.run()
                return
            }
            if let get = parseGetDirectly() {
                try await get.run()
                return
            }
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
            Glibc.exit(ExitStatus.usage.rawValue)
        }
    }
}

extension IMGFetch {
    /// `imgfetch get …` read by `GetRequest(quickParsing:)` when it is one of the common short
    /// forms (most of a cache hit's time otherwise goes to argument-parser); nil for anything else.
    private static func quickGetRequest() -> GetRequest? {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.first == GetCommand.configuration.commandName else { return nil }
        return GetRequest(quickParsing: arguments.dropFirst())
    }

    /// `imgfetch get …` parsed as `get`'s own arguments, skipping the root: argument-parser
    /// otherwise builds the argument table of every subcommand before it looks at the first word,
    /// and those Swift runtime type lookups are most of a cache hit's run time. Any problem,
    /// `--help` included, returns nil, and the root parse that follows reports it with the full
    /// command path, exactly as before.
    private static func parseGetDirectly() -> GetCommand? {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.first == GetCommand.configuration.commandName else { return nil }
        return try? GetCommand.parse(Array(arguments.dropFirst()))
    }
}
