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
            read as it is consumed, so a list of any length runs in constant memory. Standard \
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

    func validate() throws {
        if !(1...1000).contains(jobs) { throw ValidationError("--jobs must be between 1 and 1000.") }
        if list != "-", !FileManager.default.isReadableFile(atPath: list) {
            throw ValidationError("The URL list '\(list)' is not a readable file (use '-' for standard input).")
        }
    }

    func run() async throws {
        Terminal.prepare()
        let reader: URLListReader
        do {
            reader = try URLListReader(path: list)
        } catch {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.fileError.exitCode
        }
        // A small memory cache keeps a long run flat: it only has to catch repeats close together
        // (about 1000 recent entries; loads in flight share their result anyway); anything older is
        // a disk hit.
        let loader = try loaderOptions.makeLoader(concurrency: jobs, memoryCostLimit: 1024 * 1024)
        let stdout = StandardOutput.shared
        let display = ProgressDisplay(quiet: outputOptions.quiet, total: nil) { reader.fractionRead }
        let (json, verbose) = (self.json, outputOptions.verbose)
        let failures = FailureTally()

        // Twice as many loads as transfers: while some loads validate and store, the next
        // transfers are already queued, so the network never waits on the disk.
        let summary = await ImagePrefetcher(loader: loader, concurrency: 2 * jobs).prefetch(
            reader, options: loaderOptions.loadOptions, shouldContinue: { !stdout.isClosed }
        ) { event in
            switch event {
            case .progress(let url, let progress):
                display.transfer(url, progress: progress)
            case .finished(let result):
                display.finished(result)
                if let error = result.error { failures.record(error) }
                if let line = result.errorLine { display.message(line) } else if verbose { display.message(result.verboseLine) }
                if json { stdout.writeLine(result.jsonLine) }
            }
        }
        display.finish()
        stdout.flush()
        if let error = reader.error {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.fileError.exitCode
        }
        if !outputOptions.quiet { Terminal.writeError(summary.text + "\n") }
        let status = failures.status(failed: summary.failed, total: summary.total)
        if status != .success, !stdout.isClosed { throw status.exitCode }
    }
}

extension PrefetchSummary {
    /// `prefetch: 950 fetched, 40 already cached, 10 failed; 123.4 MiB fetched in 3.21 s`
    var text: String {
        "prefetch: \(fetched) fetched, \(alreadyCached) already cached, \(failed) failed; "
            + "\(ByteText.format(fetchedBytes)) fetched in \(DecimalText.fixed(elapsed, digits: 2)) s"
    }
}
