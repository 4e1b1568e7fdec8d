import ArgumentParser
import FoundationEssentials
import Glibc
import ImageFetchKit

/// `imgfetch prefetch FILE|-`: warms the cache with a list of URLs.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Load a list of URLs into the cache, several at a time.",
        discussion: """
            The list has one URL a line; blank lines and lines starting with # are skipped. It is \
            read as it is consumed, so a list of any length runs in constant memory. A line that \
            cannot be a URL (not UTF-8, a control character such as NUL, over 64 KiB, not http or \
            https) is reported with its line number, counted as failed, and skipped. Standard \
            input is read only when the list is given as '-'. A closing summary on stderr counts \
            the URLs fetched, taken from the remote cache, already cached and failed. The exit \
            status is non-zero if any failed: the failure's own status when every URL failed for \
            one reason, else 1; with --max-failures, 0 while the failures stay within it.

            --shard I/N splits one list across N workers a job engine starts: a line belongs to \
            shard I when the first 8 bytes of the SHA-256 of the line as written (trimmed), read \
            as a big-endian 64-bit number, are I modulo N. The same on every machine, run and \
            version; the shards are disjoint and together the whole list, and a line that is not \
            a URL fails only the shard that owns it. --shard auto reads the engine's variables: \
            Slurm's SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT, or \
            a Kubernetes Indexed Job's JOB_COMPLETION_INDEX of IMGFETCH_SHARD_COUNT; \
            IMGFETCH_SHARD (I/N or auto) stands for the flag. A shard that took no URL exits 0. \
            With --remote-cache, the workers share what each fetched.
            """
    )

    @Argument(help: ArgumentHelp("A file with one URL a line, or '-' for standard input.", valueName: "list"), completion: .file())
    var list: String

    @Option(name: [.customShort("j", allowingJoined: true), .customLong("jobs")], help: ArgumentHelp("Run this many transfers at once (with --remote-cache, as many reads of the tier too; its uploads, at most 4, run beside them).", valueName: "n"))
    var jobs: Int = 6

    @Option(help: ArgumentHelp(
        "Take only the lines that hash to I modulo N (0 <= I < N): N workers with 0/N to N-1/N split the list between them; "
            + "auto takes I and N from Slurm or Kubernetes variables (default: $IMGFETCH_SHARD).",
        valueName: "I/N|auto"))
    var shard: String?

    @Option(help: ArgumentHelp(
        "Exit 0 when at most N URLs, or P percent of the URLs taken, failed (they are still reported and counted).",
        valueName: "N|P%"))
    var maxFailures: String?

    @Option(help: ArgumentHelp(
        "When the run ends, write its counts to this file as one JSON object (loaded per cache type, failed by kind, bytes, "
            + "the remote cache's counts and why it paused, the shard, elapsed time, exit status), for a job engine to collect.",
        valueName: "file"))
    var summaryJSON: String?

    @Flag(help: "Print JSON Lines on stdout, one object per URL as it finishes (the keys of 'get --json', with the list's line and the shard).")
    var json = false

    @Option(help: ArgumentHelp(
        "Which URLs of the list to take first: fifo (from its start) or lifo (from its end: newest first for a list that grows at its tail; the list is read whole first).",
        valueName: "order"))
    var order: ListOrder = .fifo

    @OptionGroup(title: "Output files") var directoryOptions: OutputDirectoryOptions
    @OptionGroup(title: "Output files") var manifestOptions: ManifestOptions
    @OptionGroup(title: "Transform options") var transformOptions: TransformOptions
    @OptionGroup(title: "Cache and network options") var loaderOptions: LoaderOptions
    @OptionGroup(title: "Output options") var outputOptions: OutputOptions

    /// The arguments as `PrefetchRequest`, the form both parsers produce and `run()` executes.
    var request: PrefetchRequest {
        PrefetchRequest(
            list: list, jobs: jobs, json: json, shard: shard, maxFailures: maxFailures.flatMap(FailureBudget.init(parsing:)),
            summaryJSON: summaryJSON,
            outputDirectory: directoryOptions.outputDir, nameTemplate: (try? directoryOptions.template()) ?? .standard, manifest: manifestOptions.manifest,
            order: order,
            settings: LoadingSettings(loaderOptions, outputOptions, transformOptions))
    }

    func validate() throws {
        if let shard, shard != "auto", PrefetchShard(parsing: shard) == nil {
            throw ValidationError("--shard '\(shard)' is not I/N with 0 ≤ I < N (e.g. 0/4) or auto.")
        }
        if let maxFailures, FailureBudget(parsing: maxFailures) == nil {
            throw ValidationError("--max-failures '\(maxFailures)' is neither a count (e.g. 10) nor a percentage from 0 to 100 (e.g. 0.5%).")
        }
        try transformOptions.validate(maxPixels: loaderOptions.maxPixels)
        try request.validate()
    }

    func run() async throws {
        try await request.run()
    }
}

extension PrefetchSummary {
    /// `imgfetch: prefetch: 950 fetched, 40 already cached, 10 failed; 123.4 MiB fetched in 3.21 s`, with
    /// `N from the remote cache` after the fetched count when there were any, and
    /// `; 950 variants made (2.1 MiB)` when a transform made some: fetched counts bytes received
    /// from the network, never what was written.
    var text: String {
        "imgfetch: prefetch: \(fetched) fetched, " + (fromRemote > 0 ? "\(fromRemote) from the remote cache, " : "")
            + "\(alreadyCached) already cached, \(failed) failed; "
            + "\(ByteText.format(fetchedBytes)) fetched in \(DecimalText.fixed(elapsed, digits: 2)) s"
            + (variantsMade > 0 ? "; \(variantsMade) variants made (\(ByteText.format(variantBytes)))" : "")
    }
}
