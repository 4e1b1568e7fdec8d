import FoundationEssentials
import ImageFetchKit
import Glibc
import Synchronization

extension GetRequest {
    /// Loads every URL in order, printing paths, bytes or JSON; throws the exit code when any failed.
    ///
    /// The leading URLs the caches answer are loaded right here, on the caller's thread
    /// (`nonisolated(nonsending)`), and only the rest go to the loader's tasks: a `get` of cached
    /// URLs never starts the concurrency runtime's threads, which cost a cache hit 0.6 ms.
    nonisolated(nonsending) func run() async throws {
        Terminal.prepare()
        // One URL is loaded once: a memory cache could only cost (its setup is a tenth of a hit).
        let loader = try settings.makeLoader(
            concurrency: 6, memoryCostLimit: urls.count > 1 ? LoaderConfiguration.defaultMemoryCostLimit : 0)
        let (options, verbose) = (settings.load, settings.verbose)
        let stdout = StandardOutput.shared
        let display = ProgressDisplay(quiet: settings.quiet, total: urls.count)
        var failures: [ExitStatus] = []
        let folder = try openOutputFolder()
        let manifestFile = try openManifest()
        // Digests for records come from the index (one computed is kept there).
        let cache = json || manifestFile != nil ? try? loader.diskCache() : nil

        // The URL's position, for `{index}` in names.
        var position = 0
        /// Shows one result; false once stdout is closed and nothing more can reach the reader.
        var fetchedAny = false
        func report(_ result: LoadResult) -> Bool {
            position += 1
            display.finished(result)
            if let type = result.image?.cacheType, type == .network || type == .remote { fetchedAny = true }
            if let line = result.errorLine {
                display.message(line)
                failures.append(ExitStatus(result.error?.category ?? .file))
            } else if verbose {
                display.message(result.verboseLine)
            }
            // The copy is written before the record, so `output` names a file that exists.
            var delivered: String?
            if let image = result.image, let folder {
                switch folder.write(image, url: result.url, keyFilter: settings.load.keyFilter, index: position) {
                case .success(let path):
                    delivered = path
                    if !json { stdout.writeLine(path) }
                case .failure(let error):
                    display.message("imgfetch: \(URL.redacting(result.url)): \(error)")
                    failures.append(.fileError)
                }
            } else if let image = result.image {
                if let failure = deliver(image, url: result.url, to: stdout) {
                    display.message(failure.line)
                    failures.append(failure.status)
                } else if let output, output != "-" {
                    delivered = output
                }
            }
            if json || manifestFile != nil {
                let record = ManifestRecord(result, output: delivered, cache: cache)
                if json { stdout.writeLine(record.jsonLine) }
                manifestFile?.write(record)
            }
            return !stdout.isClosed
        }

        var pending = urls[...]
        // The first miss's lookup goes along to its load, which does not look again.
        var firstMiss: PendingLoad?
        lookUp: while let url = pending.first {
            switch loader.lookUpInCaches(url, options: options) {
            case .loaded(let result):
                pending.removeFirst()
                guard report(result) else { break lookUp }
            case .miss(let miss):
                firstMiss = miss
                break lookUp
            }
        }
        // A stop signal ends the transfers (each keeps its bytes as a partial file to continue)
        // instead of the process: watched only once the network is needed.
        let stopSignal = Mutex<Int32?>(nil)
        if !pending.isEmpty, !stdout.isClosed {
            StopSignals.watch { signal, count in
                guard count == 1 else {
                    // Asked twice: the user is not waiting for the running stores.
                    DiskCache.removeWritesInProgress()
                    Glibc._exit(StopSignals.exitStatus(for: signal).rawValue)
                }
                stopSignal.withLock { $0 = signal }
                loader.stopTransfers()
            }
            let progress: @Sendable (String, LoadProgress) -> Void = { url, progress in
                if verbose, let retry = progress.retry { display.message(retry.verboseLine) }
                display.transfer(url, progress: progress)
            }
            for await result in loader.loadInOrder(Array(pending), first: firstMiss, options: options, concurrency: 6, progress: progress) {
                if stopSignal.withLock({ $0 }) != nil, result.error?.isCancellation == true { continue }
                guard report(result) else { break }
            }
        }
        // Only a run whose loads reached the remote tier waits for it (a hit never starts it).
        if loader.hasUsedRemoteCache, let report = await loader.finishRemoteCache(), report.uploadFailures > 0,
           let tier = loader.configuration.remoteCache?.location {
            display.message("imgfetch: warning: \(report.uploadFailures) images were not uploaded to the remote cache \(tier).")
        }
        if fetchedAny, !options.noDiskCache { CacheSizeLimit.warnIfOver(loader, display: display) }
        let cookiesSaved = await loader.savingCookies(report: display.message)
        // The loads are done; the process exits without waiting for tasks that still hold the loader.
        loader.closeDiskCache()
        display.finish()
        stdout.flush()
        do { try manifestFile?.finish() } catch {
            display.message("imgfetch: \(error)")
            failures.append(.fileError)
        }
        var status = stdout.isClosed ? .outputClosed : ExitStatus.combining(failures, total: urls.count)
        if let signal = stopSignal.withLock({ $0 }) { status = StopSignals.exitStatus(for: signal) }
        if status == .success, !cookiesSaved { status = .fileError }
        if status != .success { throw status.exitCode }
    }

    /// Prints the path, or writes the image where `--output` says; a failure to write is returned.
    private func deliver(_ image: LoadedImage, url: String, to stdout: StandardOutput) -> (line: String, status: ExitStatus)? {
        switch output {
        case nil:
            if !json { stdout.writeLine(image.filePath ?? "") }
            return nil
        case "-":
            do {
                stdout.write(try image.contents())
                return nil
            } catch {
                return ("imgfetch: \(URL.redacting(url)): Cannot read the cached image: \(SystemErrorText.describe(error)).", .fileError)
            }
        case let path?:
            do {
                try WholeFile.write(image.contents(), to: path)
                return nil
            } catch let error as OutputError {
                return ("imgfetch: \(URL.redacting(url)): \(error)", .fileError)
            } catch {
                return ("imgfetch: \(URL.redacting(url)): Cannot write \(path): \(SystemErrorText.describe(error)).", .fileError)
            }
        }
    }

    /// The `--output-dir` folder, opened (and made) before any load; nil without one.
    private func openOutputFolder() throws -> OutputFolder? {
        guard let outputDirectory else { return nil }
        do { return try OutputFolder(directory: outputDirectory, template: nameTemplate) } catch {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.fileError.exitCode
        }
    }

    /// The `--manifest` file, made before any load; nil without one.
    private func openManifest() throws -> ManifestFile? {
        guard let manifest else { return nil }
        do { return try ManifestFile(path: manifest) } catch {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.fileError.exitCode
        }
    }
}
