import FoundationEssentials
import ImageFetchKit

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

        /// Shows one result; false once stdout is closed and nothing more can reach the reader.
        var fetchedAny = false
        func report(_ result: LoadResult) -> Bool {
            display.finished(result)
            if let type = result.image?.cacheType, type == .network || type == .remote { fetchedAny = true }
            if let line = result.errorLine {
                display.message(line)
                failures.append(ExitStatus(result.error?.category ?? .file))
            } else if verbose {
                display.message(result.verboseLine)
            }
            if json {
                stdout.writeLine(result.jsonLine)
            } else if let image = result.image, let failure = deliver(image, url: result.url, to: stdout) {
                display.message(failure.line)
                failures.append(failure.status)
            }
            return !stdout.isClosed
        }

        var pending = urls[...]
        while let url = pending.first, let result = loader.loadFromCaches(url, options: options) {
            pending.removeFirst()
            guard report(result) else { break }
        }
        if !pending.isEmpty, !stdout.isClosed {
            for await result in loader.loadInOrder(Array(pending), options: options, concurrency: 6, progress: display.transfer) {
                guard report(result) else { break }
            }
        }
        // Only a run whose loads reached the remote tier waits for it (a hit never starts it).
        if loader.hasUsedRemoteCache, let report = await loader.finishRemoteCache(), report.uploadFailures > 0,
           let tier = loader.configuration.remoteCache?.location {
            display.message("imgfetch: warning: \(report.uploadFailures) images were not uploaded to the remote cache \(tier).")
        }
        if fetchedAny, !options.noDiskCache { CacheSizeLimit.warnIfOver(loader, display: display) }
        // The loads are done; the process exits without waiting for tasks that still hold the loader.
        loader.closeDiskCache()
        display.finish()
        stdout.flush()
        let status = stdout.isClosed ? .outputClosed : ExitStatus.combining(failures, total: urls.count)
        if status != .success { throw status.exitCode }
    }

    /// Prints the path, or writes the image where `--output` says; a failure to write is returned.
    private func deliver(_ image: LoadedImage, url: String, to stdout: StandardOutput) -> (line: String, status: ExitStatus)? {
        switch output {
        case nil:
            stdout.writeLine(image.filePath ?? "")
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
                try image.contents().write(to: URL(fileURLWithPath: path), options: .atomic)
                return nil
            } catch {
                return ("imgfetch: \(URL.redacting(url)): Cannot write \(path): \(SystemErrorText.describe(error)).", .fileError)
            }
        }
    }
}
