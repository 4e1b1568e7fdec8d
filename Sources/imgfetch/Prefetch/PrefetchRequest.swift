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
    /// `--output-dir` and `--name`: where named copies go, if anywhere.
    var outputDirectory: String?
    var nameTemplate = OutputNameTemplate.standard
    /// `--manifest`: a file that gets every record `--json` would print.
    var manifest: String?
    /// `--order`: which end of the list goes first.
    var order = ListOrder.fifo
    var settings = LoadingSettings()

    /// The rules `prefetch`'s own arguments must follow; the option groups check theirs.
    func validate() throws {
        if !(1...1000).contains(jobs) { throw ValidationError("--jobs must be between 1 and 1000.") }
    }
}
