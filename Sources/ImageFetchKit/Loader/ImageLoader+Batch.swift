import FoundationEssentials

extension ImageLoader {
    /// Loads `urls` at most `concurrency` at a time and yields the results in the order of `urls`,
    /// each as soon as it and every earlier one are done. A URL repeated (by cache key) is loaded
    /// once, by its first occurrence; the later ones share that result and report `memory`.
    /// Ending the iteration early cancels the loads not yet started.
    ///
    /// - Parameters:
    ///   - first: the miss `lookUpInCaches` found for `urls[0]`, produced without a second lookup.
    ///   - progress: called with a URL and its transfer's progress, from the downloader's thread.
    public func loadInOrder(
        _ urls: [String], first: PendingLoad? = nil, options: LoadOptions = LoadOptions(), concurrency: Int = 6,
        progress: (@Sendable (String, LoadProgress) -> Void)? = nil
    ) -> AsyncStream<LoadResult> {
        precondition(first == nil || first?.url == urls.first, "first is the lookup of urls[0]")
        let (stream, continuation) = AsyncStream.makeStream(of: LoadResult.self)
        let concurrency = max(1, concurrency)
        let (firsts, repeats) = Self.firstOccurrences(urls, filter: options.keyFilter)
        let task = Task {
            await withTaskGroup(of: (Int, LoadResult).self) { group in
                var next = 0
                var pending: [Int: LoadResult] = [:]
                var emitted = 0
                func startNext() {
                    guard next < firsts.count, !Task.isCancelled else { return }
                    let index = firsts[next], url = urls[index]
                    next += 1
                    group.addTask {
                        let report = progress.map { report in { @Sendable (value: LoadProgress) in report(url, value) } }
                        if index == 0, let first { return (index, await self.finish(first, options: options, progress: report)) }
                        return (index, await self.load(url, options: options, progress: report))
                    }
                }
                for _ in 0..<min(concurrency, firsts.count) { startNext() }
                while let (index, result) = await group.next() {
                    pending[index] = result
                    for repeated in repeats[index] ?? [] {
                        pending[repeated] = LoadResult(url: urls[repeated], outcome: result.outcome.shared, elapsed: result.elapsed)
                    }
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

    /// The indices of each key's first URL, in order, and for each of them the indices repeating it.
    private static func firstOccurrences(_ urls: [String], filter: CacheKeyFilter) -> ([Int], [Int: [Int]]) {
        var first: [String: Int] = [:]
        var firsts: [Int] = []
        var repeats: [Int: [Int]] = [:]
        for (index, text) in urls.enumerated() {
            // The key's text, as `CacheKey` would hold it, without hashing it here as well.
            let key = URL(string: text).map { filter.apply(to: $0) } ?? text
            if let earlier = first[key] {
                repeats[earlier, default: []].append(index)
            } else {
                first[key] = index
                firsts.append(index)
            }
        }
        return (firsts, repeats)
    }
}
