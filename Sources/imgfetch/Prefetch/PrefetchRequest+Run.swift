import FoundationEssentials
import ImageFetchKit

extension PrefetchRequest {
    /// Loads every URL of the list, printing JSON Lines if asked and a summary; throws the exit
    /// code when any failed.
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
        let loader = try settings.makeLoader(concurrency: jobs, memoryCostLimit: 1024 * 1024)
        let stdout = StandardOutput.shared
        let display = ProgressDisplay(quiet: settings.quiet, total: nil) { reader.fractionRead }
        let (json, verbose) = (self.json, settings.verbose)
        let failures = FailureTally()

        // Twice as many loads as transfers: while some loads validate and store, the next
        // transfers are already queued, so the network never waits on the disk.
        let summary = await ImagePrefetcher(loader: loader, concurrency: 2 * jobs).prefetch(
            reader, options: settings.load, shouldContinue: { !stdout.isClosed }
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
        if !settings.quiet { Terminal.writeError(summary.text + "\n") }
        // A closed stdout ended the run early: whatever failed or not, it did not finish.
        if stdout.isClosed { throw ExitStatus.outputClosed.exitCode }
        let status = failures.status(failed: summary.failed, total: summary.total)
        if status != .success { throw status.exitCode }
    }
}
