import ImageFetchKit

extension ImageLoader {
    /// Loads `urls` at most `concurrency` at a time and yields the results in the order of `urls`,
    /// each as soon as it and every earlier one are done.
    func loadInOrder(
        _ urls: [String], options: LoadOptions, concurrency: Int, display: ProgressDisplay
    ) -> AsyncStream<LoadResult> {
        let (stream, continuation) = AsyncStream.makeStream(of: LoadResult.self)
        let task = Task {
            await withTaskGroup(of: (Int, LoadResult).self) { group in
                var next = 0
                var pending: [Int: LoadResult] = [:]
                var emitted = 0
                func startNext() {
                    guard next < urls.count else { return }
                    let index = next, url = urls[index]
                    next += 1
                    group.addTask {
                        (index, await self.load(url, options: options) { display.transfer(url, progress: $0) })
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
