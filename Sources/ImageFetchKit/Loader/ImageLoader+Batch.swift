extension ImageLoader {
    /// Loads `urls` at most `concurrency` at a time and yields the results in the order of `urls`,
    /// each as soon as it and every earlier one are done. Ending the iteration early cancels the
    /// loads not yet started.
    ///
    /// - Parameter progress: called with a URL and its transfer's progress, from the downloader's thread.
    public func loadInOrder(
        _ urls: [String], options: LoadOptions = LoadOptions(), concurrency: Int = 6,
        progress: (@Sendable (String, LoadProgress) -> Void)? = nil
    ) -> AsyncStream<LoadResult> {
        let (stream, continuation) = AsyncStream.makeStream(of: LoadResult.self)
        let concurrency = max(1, concurrency)
        let task = Task {
            await withTaskGroup(of: (Int, LoadResult).self) { group in
                var next = 0
                var pending: [Int: LoadResult] = [:]
                var emitted = 0
                func startNext() {
                    guard next < urls.count, !Task.isCancelled else { return }
                    let index = next, url = urls[index]
                    next += 1
                    group.addTask {
                        let report = progress.map { report in { @Sendable (value: LoadProgress) in report(url, value) } }
                        return (index, await self.load(url, options: options, progress: report))
                    }
                }
                for _ in 0..<min(concurrency, urls.count) { startNext() }
                while let (index, result) = await group.next() {
                    pending[index] = result
                    while let ready = pending.removeValue(forKey: emitted) {
                        continuation.yield(ready)
                        emitted += 1
                    }
                    startNext()
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
