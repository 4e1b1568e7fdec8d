import ArgumentParser

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

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// The status for a run whose inputs ended with `failures` (one status per failed input)
    /// out of `total` inputs.
    static func combining(_ failures: [ExitStatus], total: Int) -> ExitStatus {
        guard let first = failures.first else { return .success }
        if failures.count == total, failures.allSatisfy({ $0 == first }) { return first }
        return .partialFailure
    }
}
