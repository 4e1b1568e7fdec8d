import ArgumentParser
import ImageFetchKit

/// The exit codes scripts can rely on; `man/imgfetch.1` documents the same table.
///
/// A command that handles several inputs exits with the class of its failures when every input
/// failed for the same class of reason, and with `partialFailure` when the failures were mixed or
/// some inputs succeeded.
enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    case partialFailure = 1
    case usage = 2
    case network = 3
    case http = 4
    case notAnImage = 5
    case cacheMiss = 6
    case blockedAsFailed = 7
    case fileError = 8
    case refusedByRobots = 9
    /// SIGINT (Ctrl-C): 128 + the signal's number, as a shell reports a process the signal killed.
    case interrupted = 130
    /// Standard output closed before the run finished: 128 + SIGPIPE, the status a shell shows for
    /// a filter that stopped writing because its reader went away (`imgfetch … | head`).
    case outputClosed = 141
    /// SIGTERM or SIGHUP: 128 + SIGTERM's number.
    case terminated = 143

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// The status for a run whose inputs ended with `failures` (one status per failed input)
    /// out of `total` inputs.
    static func combining(_ failures: [ExitStatus], total: Int) -> ExitStatus {
        guard let first = failures.first else { return .success }
        if failures.count == total, failures.allSatisfy({ $0 == first }) { return first }
        return .partialFailure
    }
}

extension ExitStatus {
    /// The exit status for one failed load.
    init(_ category: LoaderError.Category) {
        switch category {
        case .network: self = .network
        case .http: self = .http
        case .notAnImage: self = .notAnImage
        case .notCached: self = .cacheMiss
        case .blocked: self = .blockedAsFailed
        case .file: self = .fileError
        case .usage: self = .usage
        case .refused: self = .refusedByRobots
        }
    }

    /// The exit status for data that did not decode: not an image, unless the codec library
    /// itself could not be loaded, which is this machine's problem (as `LoaderError` says).
    init(decodeError: DecodeError) {
        if case .libraryUnavailable = decodeError { self = .fileError } else { self = .notAnImage }
    }

    /// What a user reads in `--help` and the man page for each code.
    var meaning: String {
        switch self {
        case .success: "Every input succeeded."
        case .partialFailure: "Some inputs failed (or all, for different reasons); verify found damage."
        case .usage: "Usage error: a bad flag, argument or URL."
        case .network: "Network failure: DNS, connect, TLS, timeout, connection lost."
        case .http: "The server answered with an HTTP error status."
        case .notAnImage: "Not an image: unsupported, truncated, corrupt, or over a limit."
        case .cacheMiss: "Not cached (--cache-only, cache show)."
        case .blockedAsFailed: "The URL is on the failed-URL list; --retry-failed fetches it."
        case .fileError: "A local file or the cache could not be read or written, or a codec library could not be loaded."
        case .refusedByRobots: "Refused by the site's robots.txt or the image's X-Robots-Tag (--respect-robots); not cached."
        case .interrupted: "Interrupted (SIGINT): the run stopped early; its summary counts what finished."
        case .outputClosed: "Standard output was closed (a pipe's reader went away) before the run finished."
        case .terminated: "Terminated (SIGTERM or SIGHUP): the run stopped early, as for SIGINT."
        }
    }
}
