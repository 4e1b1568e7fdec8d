import FoundationEssentials

/// The one load flow, for originals and variants alike: look the key up once (memory, the entry
/// file's stamp, else the index), then, for a miss, produce it once: in this process (later loads
/// of the key join), under the cross-process key lock, after one more look (another process may
/// have made it while this one waited), from the remote tier if it has it, else from the target's
/// producer (the origin, or a transform of the original's load).
extension ImageLoader {
    /// What the caches say about one load.
    enum CacheAnswer {
        /// The caches answered: a hit, or a failure a fetch would not change.
        case answered(LoadResult.Outcome)
        /// Only producing the target can answer.
        case mustProduce(Production)
    }

    /// A miss: what to produce, the disk cache to store it in (nil with `noDiskCache`).
    struct Production {
        let target: LoadTarget
        let cache: DiskCache?
    }

    /// The caches' answer for `text` under `options`: the variant `options.transform` asks for,
    /// else the original.
    func answerFromCaches(_ text: String, options: LoadOptions) -> CacheAnswer {
        do throws(LoaderError) {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host != nil else {
                throw .invalidURL(text)
            }
            let key = CacheKey(url: url, filter: options.keyFilter)
            let target = options.transform.map { LoadTarget.variant(url, original: key, spec: $0) } ?? .original(url, key: key)
            return try answer(target, options: options)
        } catch {
            return .answered(.failed(error))
        }
    }

    /// Memory, then the disk (the entry file's stamp while the index is closed, else the index;
    /// a disk hit is promoted to memory), then the checks that stop a fetch of an original:
    /// `cacheOnly` and the failed-URL list. A variant is made locally from a cached original, so
    /// neither check applies to it: its original's load makes them.
    func answer(_ target: LoadTarget, options: LoadOptions) throws(LoaderError) -> CacheAnswer {
        let (url, key) = (target.url, target.key)
        if !options.refresh, var image = memoryCache?.value(for: key) {
            image.cacheType = .memory
            image.transformed = false
            return .answered(.loaded(image))
        }
        if options.noDiskCache {
            // The failed-URL list lives in the disk index, which this mode never touches.
            if options.cacheOnly, !target.isVariant { throw .notCached(url) }
            return .mustProduce(Production(target: target, cache: nil))
        }
        var indexMayHoldIt = true
        switch try stampAnswer(for: key, url: url, options: options) {
        case .hit(let stamped):
            let hit = target.labelled(LoadedImage(stamped: stamped))
            remember(hit, for: key)
            return .answered(.loaded(hit))
        case .noFile:
            // No file in any format: the index cannot hold a usable entry, so it is not asked.
            indexMayHoldIt = false
            // A fetch is all but certain: libcurl loads while the index opens (see
            // `Downloader.startEngine`).
            if !options.cacheOnly, !target.isVariant, configuration.dataLoader == nil {
                Downloader.startEngine()
            }
        case .indexMustAnswer:
            break
        }
        let cache = try diskCache(for: url)
        if indexMayHoldIt, !options.refresh, let stored = try lookUp(key, url: url, in: cache),
           cache.isFresh(stored, maxAge: options.maxAge) {
            let hit = target.labelled(LoadedImage(entry: stored, cacheType: .disk))
            remember(hit, for: key)
            return .answered(.loaded(hit))
        }
        if !target.isVariant {
            if options.cacheOnly { throw .notCached(url) }
            try checkFailedList(url, options: options, cache: cache)
        }
        return .mustProduce(Production(target: target, cache: cache))
    }

    /// Produces a miss once: later loads of its key in this process wait for this one and report
    /// `memory`; other processes wait on the key lock and then find it on disk.
    func produce(
        _ production: Production, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?
    ) async -> LoadResult.Outcome {
        let (outcome, joined) = await inFlight.run(production.target.key) {
            do throws(LoaderError) {
                let image = try await self.produceUnderKeyLock(production, options: options, progress: progress)
                self.remember(image, for: production.target.key)
                return .loaded(image)
            } catch {
                return .failed(error)
            }
        }
        return joined ? outcome.shared : outcome
    }

    /// Under the cross-process key lock: one more look (another process may have produced the
    /// key meanwhile; a stale entry is kept for revalidation), then the remote tier, then the
    /// target's own producer.
    private func produceUnderKeyLock(
        _ production: Production, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?
    ) async throws(LoaderError) -> LoadedImage {
        let target = production.target
        guard let cache = production.cache else {
            return try await produceFromTierOrSource(target, stale: nil, options: options, cache: nil, progress: progress)
        }
        do {
            return try await cache.withKeyLock(target.key) { () async throws -> LoadedImage in
                let current = try lookUp(target.key, url: target.url, in: cache)
                if let current, !options.refresh, cache.isFresh(current, maxAge: options.maxAge) {
                    return target.labelled(LoadedImage(entry: current, cacheType: .disk))
                }
                return try await produceFromTierOrSource(target, stale: current, options: options, cache: cache, progress: progress)
            }
        } catch let error as LoaderError {
            throw error
        } catch let error as DiskCache.Error {
            throw .cache(target.url, error)
        } catch {
            throw .cache(target.url, .cannotLock(path: cache.directory, cause: String(describing: error)))
        }
    }

    /// The remote tier (unless `refresh`: only the origin can say whether an image changed), then
    /// the producer: the origin for an original, a transform of the original's load for a variant.
    /// What the origin or a transform produced is offered to the tier.
    private func produceFromTierOrSource(
        _ target: LoadTarget, stale: CacheEntry?, options: LoadOptions, cache: DiskCache?,
        progress: (@Sendable (LoadProgress) -> Void)?
    ) async throws(LoaderError) -> LoadedImage {
        let tier = remoteTier
        var read = RemoteRead.notFound
        if let tier, !options.refresh {
            // The envelope's trailer is well under 1 KiB.
            read = await tier.fetch(target.key, maxBytes: options.maxBytes + 1024)
            if case .found(let object) = read {
                if let image = try await loadFromRemote(object, of: tier, url: target.url, key: target.key, options: options, cache: cache) {
                    return target.labelled(image)
                }
                // Stale, damaged or another build's: the origin's image replaces it (and the
                // object's bytes are not held through the origin's fetch).
                read = .notFound
            }
        }
        let image: LoadedImage
        if let spec = target.spec {
            image = try await makeVariant(of: target, spec: spec, options: options, cache: cache, progress: progress)
        } else {
            image = try await fetch(target.url, key: target.key, stale: stale, options: options, cache: cache, tier: tier, progress: progress)
        }
        // What this run made: an original from the origin, or a variant it transformed (a spec that
        // changes nothing for the image answers with the original, which has its own key).
        let made = target.isVariant ? image.transformed : image.cacheType == .network
        guard let tier, made, let bytes = image.data else { return image }
        await tier.upload(bytes, for: target.key, storedAt: image.filePath, after: read)
        // A stored variant's bytes are its file now; an original's stay for a variant made of it.
        var uploaded = image
        if target.isVariant, uploaded.filePath != nil { uploaded.data = nil }
        return uploaded
    }

    /// Loads `url` through the whole flow with `options`: for a variant's original.
    func loadThroughCaches(_ target: LoadTarget, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?) async -> LoadResult.Outcome {
        do throws(LoaderError) {
            switch try answer(target, options: options) {
            case .answered(let outcome): return outcome
            case .mustProduce(let production): return await produce(production, options: options, progress: progress)
            }
        } catch {
            return .failed(error)
        }
    }

    /// What the disk cache's stamps say of `key` (nothing for a `refresh`, which the origin answers).
    private func stampAnswer(for key: CacheKey, url: URL, options: LoadOptions) throws(LoaderError) -> LazyDiskCache.StampAnswer {
        guard !options.refresh else { return .indexMustAnswer }
        do { return try disk.stampAnswer(for: key, maxAge: options.maxAge) } catch { throw .cache(url, error) }
    }

    func lookUp(_ key: CacheKey, url: URL, in cache: DiskCache) throws(LoaderError) -> CacheEntry? {
        do { return try cache.entry(for: key, includingExpired: true) } catch { throw .cache(url, error) }
    }

    /// Throws `blocked` when the URL is on the failed-URL list and `retryFailed` is off.
    private func checkFailedList(_ url: URL, options: LoadOptions, cache: DiskCache) throws(LoaderError) {
        guard !options.retryFailed else { return }
        let failure: FailedURL?
        do { failure = try cache.failure(for: url.redactedString) } catch { throw .cache(url, error) }
        if let failure { throw .blocked(url, reason: failure.reason, failedAt: failure.failedAt) }
    }
}

extension LoadedImage {
    init(entry: CacheEntry, cacheType: CacheType) {
        self.init(
            filePath: entry.path, data: nil, format: entry.format, width: entry.width,
            height: entry.height, frames: nil, byteCount: Int(entry.bytes), cacheType: cacheType)
    }

    /// A disk hit its file's stamp answered.
    init(stamped entry: LazyDiskCache.StampedEntry) {
        self.init(
            filePath: entry.path, data: nil, format: entry.format, width: entry.width,
            height: entry.height, frames: nil, byteCount: Int(entry.bytes), cacheType: .disk)
    }
}
