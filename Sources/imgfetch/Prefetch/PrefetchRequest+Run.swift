import FoundationEssentials
import Glibc
import ImageFetchKit
import Synchronization

extension PrefetchRequest {
    /// Loads every URL of the list, printing JSON Lines if asked and a summary; throws the exit
    /// code when any failed, when stdout closed early, or when a stop signal ended the run.
    ///
    /// SIGINT, SIGTERM and SIGHUP stop the run: no new loads start, running transfers are
    /// cancelled, stores already writing finish (so no temporary file stays), and the summary so
    /// far is printed before exiting 130 (SIGINT) or 143. A second stop signal exits at once,
    /// after removing the temporary files of the stores still writing. The first one is
    /// acknowledged on stderr, even with `-q`: it says how to exit at once.
    ///
    /// A list that cannot be opened or read is a file error (exit 8), said in one line.
    func run() async throws {
        Terminal.prepare()
        let stdout = StandardOutput.shared
        let (json, verbose, options) = (self.json, settings.verbose, settings.load)
        let failures = FailureTally()
        let openedReader = Mutex<URLListReader?>(nil)
        // A list file is counted first (one quick pass) when a progress line will show it, for a
        // total, a percentage and an ETA; standard input is streamed, with no total.
        let total = !settings.quiet && Terminal.stderrIsTerminal ? URLListReader.countEntries(path: list) : nil
        let display = ProgressDisplay(quiet: settings.quiet, total: total) { openedReader.withLock { $0 }?.fractionRead }
        let listName = list == "-" ? "standard input" : list
        let rejectedLines = Atomic<Int>(0)
        let tally = try resolvedShard().map(ShardTally.init(shard:))
        let reader: URLListReader
        do {
            reader = try URLListReader(path: list) { line in
                // A refused line is a failure of the shard that owns it only.
                if let tally, !tally.owns(line) { return }
                rejectedLines.add(1, ordering: .relaxed)
                failures.record(.usage)
                display.skipped()
                display.message("imgfetch: \(listName):\(line.number): \(line.excerpt): \(line.reason)")
                if json { stdout.writeLine(line.jsonLine) }
            }
        } catch {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.fileError.exitCode
        }
        openedReader.withLock { $0 = reader }
        let folder: OutputFolder?
        do { folder = try outputDirectory.map { directory throws(OutputError) in try OutputFolder(directory: directory, template: nameTemplate) } } catch {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.fileError.exitCode
        }
        let keyFilter = settings.load.keyFilter
        let manifestFile: ManifestFile?
        do { manifestFile = try manifest.map { path throws(ManifestFile.Failure) in try ManifestFile(path: path) } } catch {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.fileError.exitCode
        }
        // Images loaded but not written out: they fail the run as loads that failed do.
        let unwritten = Atomic<Int>(0)
        // A small memory cache keeps a long run flat: it only has to catch repeats close together
        // (about 1000 recent entries; loads in flight share their result anyway); anything older is
        // a disk hit.
        let loader = try settings.makeLoader(concurrency: jobs, memoryCostLimit: 1024 * 1024)
        // Digests for records come from the index (one computed is kept there).
        let cache = json || manifestFile != nil ? try? loader.diskCache() : nil

        // Twice as many loads as transfers: while some loads validate and store, the next
        // transfers are already queued, so the network never waits on the disk.
        let prefetcher = ImagePrefetcher(loader: loader, concurrency: 2 * jobs)
        // Watching starts before the run, so no signal finds the default action (death, with
        // temporary files left); one that comes before the run's task exists cancels it at once.
        let stopSignal = Mutex<Int32?>(nil)
        let running = Mutex<Task<PrefetchSummary, Never>?>(nil)
        StopSignals.watch { signal, count in
            if count == 1 {
                // Said before cancelling, so it comes before the summary the cancelled run prints.
                display.message("imgfetch: stopping: no new transfers, the running ones cancelled; signal again to exit at once.")
                stopSignal.withLock { $0 = signal }
                running.withLock { $0 }?.cancel()
                return
            }
            // Asked twice: the user is not waiting for the running stores.
            DiskCache.removeWritesInProgress()
            display.finish()
            stdout.flush()
            let first = stopSignal.withLock { $0 } ?? signal
            Glibc._exit(StopSignals.exitStatus(for: first).rawValue)
        }
        let listed = ListedURLs(reader) { tally?.takes($0) ?? true }
        let shardText = tally?.shard.description
        let order = self.order
        let work = Task.detached {
            let urls = listed
            let onEvent: @Sendable (ImagePrefetcher.Event) -> Void = { event in
                switch event {
                case .progress(let url, let progress):
                    if verbose, let retry = progress.retry { display.message(retry.verboseLine) }
                    display.transfer(url, progress: progress)
                case .finished(let result):
                    display.finished(result)
                    if let error = result.error { failures.record(error) }
                    if let line = result.errorLine { display.message(line) } else if verbose { display.message(result.verboseLine) }
                    let position = listed.position(ofFinished: result.url)
                    var written: String?
                    if let folder, let image = result.image {
                        switch folder.write(image, url: result.url, keyFilter: keyFilter, index: position?.index ?? 0, line: position?.line) {
                        case .success(let path): written = path
                        case .failure(let error):
                            display.message("imgfetch: \(URL.redacting(result.url)): \(error)")
                            failures.record(.fileError)
                            unwritten.add(1, ordering: .relaxed)
                        }
                    }
                    if json || manifestFile != nil {
                        var record = ManifestRecord(result, output: written, cache: cache)
                        record.batch = (position?.line, shardText)
                        if json { stdout.writeLine(record.jsonLine) }
                        manifestFile?.write(record)
                    }
                }
            }
            switch order {
            case .fifo:
                return await prefetcher.prefetch(urls, options: options, shouldContinue: { !stdout.isClosed }, onEvent: onEvent)
            case .lifo:
                return await prefetcher.prefetch(Array(urls).reversed(), options: options, shouldContinue: { !stdout.isClosed }, onEvent: onEvent)
            }
        }
        running.withLock { $0 = work }
        if stopSignal.withLock({ $0 }) != nil { work.cancel() }
        var summary = await work.value
        summary.failed += rejectedLines.load(ordering: .relaxed)
        // Uploads to the remote tier run behind the loads; they finish before the summary.
        let remote = await loader.finishRemoteCache()
        if summary.fetched + summary.fromRemote > 0, !settings.load.noDiskCache { CacheSizeLimit.warnIfOver(loader, display: display) }
        let cookiesSaved = await loader.savingCookies(report: display.message)
        // The loads are done; the process exits without waiting for tasks that still hold the loader.
        loader.closeDiskCache()
        display.finish()
        stdout.flush()
        var manifestFailed = false
        do { try manifestFile?.finish() } catch {
            Terminal.writeError("imgfetch: \(error)\n")
            manifestFailed = true
        }
        if let error = reader.error {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.fileError.exitCode
        }
        let signal = stopSignal.withLock { $0 }
        if !settings.quiet {
            let stopped = signal == nil ? "" : " (stopped by a signal)"
            Terminal.writeError((tally.map { "\($0.text)\n" } ?? "") + summary.text + stopped + "\n")
            if let remote, let tier = loader.configuration.remoteCache?.location {
                Terminal.writeError(remote.text(tier: tier.description) + "\n")
            }
        }
        let failed = summary.failed + unwritten.load(ordering: .relaxed)
        var status = failures.status(failed: failed, total: summary.total)
        if status != .success, let budget = maxFailures, budget.allows(failed: failed, total: summary.total) {
            if !settings.quiet { Terminal.writeError("imgfetch: prefetch: \(summary.failed) failed, within --max-failures \(budget): exit 0\n") }
            status = .success
        }
        // A closed stdout ended the run early: whatever failed or not, it did not finish.
        if stdout.isClosed { status = .outputClosed }
        if let signal { status = StopSignals.exitStatus(for: signal) }
        // The manifest or the cookie jar could not be written: the run did not deliver all it should.
        if status == .success, manifestFailed || !cookiesSaved { status = .fileError }
        if let summaryJSON {
            let record = SummaryJSON(
                list: listName, summary: summary, failures: failures.byStatus, shard: tally, remote: remote,
                tier: loader.configuration.remoteCache?.location.description, exitStatus: status, stoppedBySignal: signal != nil)
            do { try record.write(to: summaryJSON) } catch {
                Terminal.writeError("imgfetch: cannot write the summary to '\(summaryJSON)': \(error)\n")
                throw ExitStatus.fileError.exitCode
            }
        }
        if status != .success { throw status.exitCode }
    }
}
