import ArgumentParser
import FoundationEssentials
import Glibc
import ImageFetchKit

@main
struct IMGFetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgfetch",
        abstract: "Fetch images from URLs once, validate them, and keep them in a local cache.",
        discussion: """
            Every URL is looked up in the memory cache, then the disk cache, then a shared remote \
            cache if one is given, then fetched; only a complete image in a supported format (JPEG, \
            PNG, GIF, WebP, AVIF, HEIC, JPEG XL, TIFF, BMP, ICO) within the limits is cached. Each \
            result reports its cache type: memory, disk, remote or network. Results go to stdout, \
            errors and progress to stderr; a live progress line is drawn only when stderr is a terminal.

            ENVIRONMENT:
              IMGFETCH_CACHE_DIR  The cache directory if --cache-dir is not given.
              IMGFETCH_CACHE_MAX_SIZE  The disk cache's size limit if --max-size is not
                                  given (default 1G). A run never evicts what it loaded
                                  itself; when its own loads exceed the limit it says so
                                  once, and the next run or 'cache trim' brings it back.
              IMGFETCH_SHARD      --shard for prefetch when the flag is not given (I/N or
                                  auto).
              XDG_CACHE_HOME      Else the cache is $XDG_CACHE_HOME/imgfetch.
              HOME                Else the cache is ~/.cache/imgfetch.
              IMGFETCH_REMOTE_CACHE  The remote cache tier if --remote-cache is not given.
              IMGFETCH_REMOTE_CACHE_MODE  read or read-write, if --remote-cache-mode is not
                                  given. A bad tier setting from the environment is a
                                  warning and a run without the tier.
              AWS_ACCESS_KEY_ID   The key that signs s3:// remote cache requests (SigV4).
              AWS_SECRET_ACCESS_KEY  Its secret.
              AWS_SESSION_TOKEN   Its session token, for temporary credentials.
              AWS_REGION          The S3 region (else AWS_DEFAULT_REGION, else the
                                  profile's region, else us-east-1).
              AWS_ENDPOINT_URL    An S3-compatible store instead of AWS (path-style).
              AWS_WEB_IDENTITY_TOKEN_FILE  Without the key variables: with
                                  AWS_ROLE_ARN (and AWS_ROLE_SESSION_NAME), temporary
                                  credentials from STS AssumeRoleWithWebIdentity (at
                                  AWS_ENDPOINT_URL_STS, else AWS_ENDPOINT_URL, else STS in
                                  the region).
              AWS_PROFILE         Next: the profile whose keys (and region)
                                  ~/.aws/credentials and ~/.aws/config give (default:
                                  default; AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE
                                  move the files).
              AWS_CONTAINER_CREDENTIALS_FULL_URI  Next: the container endpoint
                                  (or AWS_CONTAINER_CREDENTIALS_RELATIVE_URI; with
                                  AWS_CONTAINER_AUTHORIZATION_TOKEN or its _FILE).
              AWS_EC2_METADATA_SERVICE_ENDPOINT  Last: an EC2 instance role by
                                  IMDSv2 (default http://169.254.169.254);
                                  AWS_EC2_METADATA_DISABLED=true skips it.
              NO_COLOR            If set and not empty: a progress line without colour.
              https_proxy         Proxies are used as curl uses them (also http_proxy,
                                  all_proxy, no_proxy).

            FILES:
            \(HelpText.table(files))

            SHELL COMPLETION:
            \(HelpText.table(completions))

            EXIT STATUS:
            \(HelpText.table(ExitStatus.allCases.map { (String($0.rawValue), $0.meaning) }))
            """,
        version: ImgfetchVersion.current,
        subcommands: [GetCommand.self, PrefetchCommand.self, CacheCommand.self, InfoCommand.self, ShowCommand.self]
    )

    /// How to install the completions argument-parser generates, per shell.
    private static let completions: [(name: String, text: String)] = [
        ("bash", "imgfetch --generate-completion-script bash > ~/.local/share/bash-completion/completions/imgfetch"),
        ("zsh", "imgfetch --generate-completion-script zsh > _imgfetch, in a folder on $fpath"),
        ("fish", "imgfetch --generate-completion-script fish > ~/.config/fish/completions/imgfetch.fish"),
    ]

    /// The FILES section of `--help` and the man page: each file in the cache directory.
    private static let files: [(name: String, text: String)] = [
        ("CACHE/x/HASH.EXT", "An image: SHA-256 of its key, the format's extension. Its user.imgfetch attribute answers hits without the index."),
        ("CACHE/index.sqlite", "The index: entries, validators, times, failed URLs."),
        ("CACHE/index.sqlite-*", "Its write-ahead log and shared memory, kept between runs."),
        ("CACHE/keys.lock", "Per-key locks: processes fetch a URL only once."),
        ("CACHE/x/*.tmp", "Files being written; a killed writer's are counted by cache verify and removed by trim and verify --fix after an hour."),
        ("CACHE/x/HASH.partial", "The start of a body whose transfer stopped (lost connection, timeout, --max-time, a stop signal to get or prefetch; for a body past 4 MiB, mirrored every 4 MiB, a kill too) after 64 KiB or more, with an ETag or Last-Modified and ranges not refused: the next load asks only for the rest (Range, If-Range); a 200, a 416 or another Content-Range starts over. Never served or listed; counted by cache verify, removed by trim and verify --fix after a day; none with --no-resume."),
        ("CACHE/stamped-uses/", "Empty files, one per 1/256 of the entries whose hits recorded a use in the attribute that the index has yet to copy."),
        ("CACHE/CACHEDIR.TAG", "Tells backup tools the directory is a cache."),
    ]

    /// Runs the command, mapping argument-parser's usage errors (EX_USAGE, 64) onto our documented
    /// usage status, 2, so every usage problem — a bad flag or a bad URL — exits the same way.
    static func main() async {
        MallocTuning.keepImageBuffersForReuse()
        do {
            if try await runQuickForm() { ProcessExit.now(0) }
            try checkArgumentsBeforeParsing()
            // Not `??`: its autoclosure would tie the parsed command to the main actor.
            var command: any ParsableCommand
            if let direct = parseSubcommandDirectly() { command = direct } else { command = try parseAsRoot() }
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            ProcessExit.now(0)
        } catch let status as ExitCode where status.rawValue != 64 {
            // A command's own failure status: it has said what failed already.
            ProcessExit.now(status.rawValue)
        } catch {
            let code = exitCode(for: error)
            guard code.rawValue == 64 else { exit(withError: error) }
            Terminal.writeError(usageMessage(for: error) + "\n")
            Glibc.exit(ExitStatus.usage.rawValue)
        }
    }

    /// argument-parser's message for a usage error, with imgfetch's one prefix for every message
    /// instead of its "Error: ".
    private static func usageMessage(for error: any Error) -> String {
        let message = fullMessage(for: error)
        return message.hasPrefix("Error: ") ? "imgfetch: " + message.dropFirst("Error: ".count) : message
    }

    /// Refuses, as usage errors, what argument-parser would not report as one: no command at all
    /// (it would print the help and exit 0) and an argument that only looks like short options.
    private static func checkArgumentsBeforeParsing() throws {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.isEmpty {
            throw ValidationError("Give a command: get, prefetch, cache, info or show ('imgfetch --help' describes them).")
        }
        if let argument = ShortOptionGroups.firstImpossible(in: arguments) {
            throw ValidationError(
                "Unknown option '\(argument)'. A file whose name starts with '-' goes after '--' or is written ./\(argument).")
        }
    }
}

extension IMGFetch {
    /// Runs `imgfetch get …` or `imgfetch prefetch …` if it is one of the short forms read
    /// without argument-parser (see `QuickArguments`); false, having done nothing, for anything else.
    /// On the caller's thread, so a `get` of cached URLs starts no threads (see `GetRequest.run`).
    private nonisolated(nonsending) static func runQuickForm() async throws -> Bool {
        let arguments = CommandLine.arguments.dropFirst()
        switch arguments.first {
        case GetCommand.configuration.commandName:
            guard let request = GetRequest(quickParsing: arguments.dropFirst()) else { return false }
            try await request.run()
        case PrefetchCommand.configuration.commandName:
            guard let request = PrefetchRequest(quickParsing: arguments.dropFirst()) else { return false }
            try await request.run()
        default:
            return false
        }
        return true
    }

    /// `imgfetch SUBCOMMAND …` parsed by that subcommand alone, skipping the root: argument-parser
    /// otherwise builds the argument table of every subcommand before it looks at the first word
    /// (0.4 ms of a warm `prefetch` of 1000 URLs). Any problem, `--help` included, returns nil,
    /// and the root parse that follows reports it with the full command path, exactly as before.
    private static func parseSubcommandDirectly() -> (any ParsableCommand)? {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first,
              let subcommand = configuration.subcommands.first(where: { $0.configuration.commandName == name }),
              let command = try? subcommand.parseAsRoot(Array(arguments.dropFirst()))
        else { return nil }
        // Only one of its own commands: for `--version` and the like, parsing a subcommand as if
        // it were the root answers with argument-parser's built-in commands, which know nothing
        // of the root's version or name.
        return isDeclared(type(of: command), under: subcommand) ? command : nil
    }

    /// Whether `type` is `root` or one of the subcommands declared under it, at any depth.
    private static func isDeclared(_ type: any ParsableCommand.Type, under root: any ParsableCommand.Type) -> Bool {
        ObjectIdentifier(type) == ObjectIdentifier(root)
            || root.configuration.subcommands.contains { isDeclared(type, under: $0) }
    }
}
