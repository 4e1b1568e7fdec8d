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
            one reason, else 1.

            --shard I/N splits one list across N workers a job engine starts (a Kubernetes Indexed \
            Job's $JOB_COMPLETION_INDEX, a Slurm array's $SLURM_ARRAY_TASK_ID, GNU parallel): a \
            URL belongs to shard I when the first 8 bytes of the SHA-256 of its cache key, read as \
            a big-endian 64-bit number, are I modulo N. The same on every machine, run and \
            version; the shards are disjoint and together the whole list. With --remote-cache, \
            the workers share what each fetched.
            """
    )

    @Argument(help: ArgumentHelp("A file with one URL a line, or '-' for standard input.", valueName: "list"), completion: .file())
    var list: String

    @Option(name: [.customShort("j", allowingJoined: true), .customLong("jobs")], help: ArgumentHelp("Run this many transfers at once.", valueName: "n"))
    var jobs: Int = 6

    @Option(help: ArgumentHelp(
        "Take only the URLs whose cache key hashes to I modulo N (0 <= I < N): N workers with 0/N to N-1/N split the list between them.",
        valueName: "I/N"))
    var shard: String?

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
            list: list, jobs: jobs, json: json, shard: shard.flatMap(PrefetchShard.init(parsing:)),
            outputDirectory: directoryOptions.outputDir, nameTemplate: (try? directoryOptions.template()) ?? .standard, manifest: manifestOptions.manifest,
            order: order,
            settings: LoadingSettings(loaderOptions, outputOptions, transformOptions))
    }

    func validate() throws {
        if let shard, PrefetchShard(parsing: shard) == nil {
            throw ValidationError("--shard '\(shard)' is not I/N with 0 ≤ I < N, e.g. 0/4.")
        }
        try transformOptions.validate(maxPixels: loaderOptions.maxPixels)
        try request.validate()
    }

    func run() async throws {
        try await request.run()
    }
}

extension PrefetchSummary {
    /// `prefetch: 950 fetched, 40 already cached, 10 failed; 123.4 MiB fetched in 3.21 s`, with
    /// `N from the remote cache` after the fetched count when there were any, and
    /// `; 950 variants made (2.1 MiB)` when a transform made some: fetched counts bytes received
    /// from the network, never what was written.
    var text: String {
        "prefetch: \(fetched) fetched, " + (fromRemote > 0 ? "\(fromRemote) from the remote cache, " : "")
            + "\(alreadyCached) already cached, \(failed) failed; "
            + "\(ByteText.format(fetchedBytes)) fetched in \(DecimalText.fixed(elapsed, digits: 2)) s"
            + (variantsMade > 0 ? "; \(variantsMade) variants made (\(ByteText.format(variantBytes)))" : "")
    }
}
