import ArgumentParser
import FoundationEssentials
import ImageFetchKit

/// What `imgfetch prefetch` was asked to do, resolved from its arguments: by argument-parser
/// (`PrefetchCommand`) or, for the common short command lines, by `init?(quickParsing:)`.
struct PrefetchRequest: Sendable {
    /// The URL list's path, or "-" for standard input.
    var list: String
    var jobs = 6
    var json = false
    /// `--shard I/N` or `auto`, as given: only that shard's lines (see `resolvedShard()`).
    var shard: String?
    /// `--max-failures`: failures that still exit 0.
    var maxFailures: FailureBudget?
    /// `--summary-json`: where to write the run's counts as JSON.
    var summaryJSON: String?
    var settings = LoadingSettings()

    /// The rules `prefetch`'s own arguments must follow; the option groups check theirs.
    func validate() throws {
        if !(1...1000).contains(jobs) { throw ValidationError("--jobs must be between 1 and 1000.") }
    }

    /// Refuses a list that is not a readable file, as a usage error. Not part of `validate()`:
    /// argument-parser runs that before it reports arguments it does not know, so in
    /// `prefetch --unknown VALUE LIST` it would call VALUE an unreadable list instead of naming
    /// the unknown option. `run()` checks it first thing.
    func validateList() throws {
        if list != "-", !FileManager.default.isReadableFile(atPath: list) {
            throw ValidationError("The URL list '\(list)' is not a readable file (use '-' for standard input).")
        }
    }
}
