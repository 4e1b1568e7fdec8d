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
            the URLs fetched, already cached and failed. The exit status is non-zero if any \
            failed: the failure's own status when every URL failed for one reason, else 1.
            """
    )

    @Argument(help: ArgumentHelp("A file with one URL a line, or '-' for standard input.", valueName: "list"))
    var list: String

    @Option(name: [.customShort("j"), .customLong("jobs")], help: ArgumentHelp("Run this many transfers at once.", valueName: "n"))
    var jobs: Int = 6

    @Flag(help: "Print JSON Lines on stdout, one object per URL as it finishes (the keys of 'get --json').")
    var json = false

    @OptionGroup(title: "Cache and network options") var loaderOptions: LoaderOptions
    @OptionGroup(title: "Output options") var outputOptions: OutputOptions

    /// The arguments as `PrefetchRequest`, the form both parsers produce and `run()` executes.
    var request: PrefetchRequest {
        PrefetchRequest(list: list, jobs: jobs, json: json, settings: LoadingSettings(loaderOptions, outputOptions))
    }

    func validate() throws {
        try request.validate()
    }

    func run() async throws {
        try await request.run()
    }
}

extension PrefetchSummary {
    /// `prefetch: 950 fetched, 40 already cached, 10 failed; 123.4 MiB fetched in 3.21 s`
    var text: String {
        "prefetch: \(fetched) fetched, \(alreadyCached) already cached, \(failed) failed; "
            + "\(ByteText.format(fetchedBytes)) fetched in \(DecimalText.fixed(elapsed, digits: 2)) s"
    }
}
