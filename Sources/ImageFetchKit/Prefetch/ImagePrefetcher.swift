/// Loads a stream of URLs through an `ImageLoader`, at most `concurrency` at a time, and counts
/// what happened (SDWebImagePrefetcher's role).
///
/// Memory stays flat however long the list: URLs are pulled from the sequence only as loads
/// finish, and each result is handed to the caller and then dropped.
public struct ImagePrefetcher: Sendable {
    public let loader: ImageLoader
    /// Loads in flight at once (≥ 1).
    public let concurrency: Int

    public init(loader: ImageLoader, concurrency: Int = 6) {
        self.loader = loader
        self.concurrency = max(1, concurrency)
    }

    /// One step of a run, reported as it happens.
    public enum Event: Sendable {
        /// A running transfer received bytes.
        case progress(url: String, LoadProgress)
        /// One URL finished, loaded or failed.
        case finished(LoadResult)
    }

    /// Loads every URL of `urls` with `options`, calling `onEvent` from any task (it must be
    /// thread-safe and quick). Returns when all are done, or early — without starting more — when
    /// `shouldContinue` returns false or the task is cancelled. Cancelling the task also cancels
    /// the running transfers; a load that ends because of it is neither counted nor reported, as
    /// if it had never started (a load already storing its image finishes and is counted).
    public func prefetch<URLs: Sequence>(
        _ urls: URLs,
        options: LoadOptions,
        shouldContinue: @escaping @Sendable () -> Bool = { true },
        onEvent: @escaping @Sendable (Event) -> Void
    ) async -> PrefetchSummary where URLs.Element == String {
        let start = ContinuousClock.now
        var summary = PrefetchSummary()
        var iterator = urls.makeIterator()
        let loader = self.loader
        await withTaskGroup(of: LoadResult.self) { group in
            var running = 0
            func startNext() -> Bool {
                guard shouldContinue(), !Task.isCancelled, let url = iterator.next() else { return false }
                group.addTask {
                    await loader.load(url, options: options) { progress in
                        onEvent(.progress(url: url, progress))
                    }
                }
                return true
            }
            while running < concurrency, startNext() { running += 1 }
            while let result = await group.next() {
                running -= 1
                if Task.isCancelled, result.error?.isCancellation == true { continue }
                summary.count(result)
                onEvent(.finished(result))
                if startNext() { running += 1 }
            }
        }
        summary.elapsed = (ContinuousClock.now - start) / .seconds(1)
        return summary
    }
}
