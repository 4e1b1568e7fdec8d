import FoundationEssentials

/// Variants: a transform's result, cached as an entry of its own (see `CacheKey.variant(_:)`).
///
/// A variant is looked up like an original (memory, stamp, index); a miss is made under the
/// variant key's in-process and cross-process locks, so concurrent requests, in this process or
/// another, make it once: the original is loaded through the usual path (its own caches, lock,
/// remote tier and origin), transformed, and stored. Locks are taken variant first, original
/// second, and nothing holding an original's lock ever asks for a variant's, so they cannot
/// deadlock. A variant expires with the original it was made from.
extension ImageLoader {
    /// A variant the caches did not hold: the URL, the original's key and the variant's.
    struct VariantLoad {
        let url: URL
        let spec: TransformSpec
        let original: CacheKey
        let key: CacheKey
        /// Nil with `noDiskCache`.
        let cache: DiskCache?
    }

    /// The caches' answer for the variant `spec` makes of `url`'s image (stored under `original`).
    func answerVariantFromCaches(url: URL, original: CacheKey, spec: TransformSpec, options: LoadOptions) throws(LoaderError) -> CacheAnswer {
        let key = original.variant(spec)
        if !options.refresh, var image = memoryCache?.value(for: key) {
            image.cacheType = .memory
            image.transformed = false
            return .answered(.loaded(image))
        }
        if options.noDiskCache { return .needsVariant(VariantLoad(url: url, spec: spec, original: original, key: key, cache: nil)) }
        if case .hit(var image) = try stampAnswerWhileIndexClosed(for: key, url: url, options: options) {
            image.variant = spec.description
            remember(image, for: key)
            return .answered(.loaded(image))
        }
        let cache = try diskCache(for: url)
        if !options.refresh, let stored = try lookUp(key, url: url, in: cache), isFresh(stored, in: cache, options: options) {
            var image = LoadedImage(entry: stored, cacheType: .disk)
            image.variant = spec.description
            remember(image, for: key)
            return .answered(.loaded(image))
        }
        return .needsVariant(VariantLoad(url: url, spec: spec, original: original, key: key, cache: cache))
    }

    /// Makes the variant the caches did not hold; later requests for it in this process join.
    func loadVariant(
        _ load: VariantLoad, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?
    ) async -> LoadResult.Outcome {
        await loadOnce(load.key) { () async throws(LoaderError) in
            try await self.makeVariantUnlessAnotherProcessDid(load, options: options, progress: progress)
        }
    }

    /// Under the variant's cross-process lock: looks again (another process may have made it),
    /// asks the remote tier, then makes it.
    private func makeVariantUnlessAnotherProcessDid(
        _ load: VariantLoad, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?
    ) async throws(LoaderError) -> LoadedImage {
        guard let cache = load.cache else { return try await makeVariant(load, options: options, progress: progress) }
        do {
            return try await cache.withKeyLock(load.key) { () async throws -> LoadedImage in
                if !options.refresh, let current = try lookUp(load.key, url: load.url, in: cache), isFresh(current, in: cache, options: options) {
                    var image = LoadedImage(entry: current, cacheType: .disk)
                    image.variant = load.spec.description
                    return image
                }
                if !options.refresh, let tier = remoteTier,
                   var image = try await loadFromRemote(tier, url: load.url, key: load.key, options: options, cache: cache) {
                    image.variant = load.spec.description
                    return image
                }
                return try await makeVariant(load, options: options, progress: progress)
            }
        } catch let error as LoaderError {
            throw error
        } catch let error as DiskCache.Error {
            throw .cache(load.url, error)
        } catch {
            throw .cache(load.url, .cannotLock(path: cache.directory, cause: String(describing: error)))
        }
    }

    /// The original of `url`, stored under `key`, loaded as a load without a transform loads it.
    private func loadOriginal(
        url: URL, key: CacheKey, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?
    ) async -> LoadResult.Outcome {
        switch answerOriginalFromCaches(url: url, key: key, options: options) {
        case .answered(let outcome): return outcome
        case .needsNetwork(let network): return await loadFromNetwork(network, options: options, progress: progress)
        case .needsVariant(let variant): return await loadVariant(variant, options: options, progress: progress)
        }
    }

    /// Loads the original (every cache, then the network, as a load without a transform would),
    /// transforms it, stores the result under the variant's key and offers it to the remote tier.
    private func makeVariant(
        _ load: VariantLoad, options: LoadOptions, progress: (@Sendable (LoadProgress) -> Void)?
    ) async throws(LoaderError) -> LoadedImage {
        var originalOptions = options
        originalOptions.transform = nil
        let original: LoadedImage
        switch await loadOriginal(url: load.url, key: load.original, options: originalOptions, progress: progress) {
        case .loaded(let image): original = image
        case .failed(let error): throw error
        }

        let bytes: Data
        do { bytes = try original.contents() } catch {
            throw .cache(load.url, .cannotRead(path: original.filePath ?? "", cause: SystemErrorText.describe(error)))
        }
        let transformed: TransformedImage?
        do {
            transformed = try ImageTransformer(decoders: configuration.decoders)
                .transform(bytes, spec: load.spec, limits: DecodeLimits(maxPixels: options.maxPixels))
        } catch {
            throw .transform(load.url, error)
        }
        // The spec changes nothing for this image: the original is the answer, and no variant is stored.
        guard let made = transformed else { return original }

        var image = LoadedImage(
            filePath: nil, data: made.data, format: made.format, width: made.width, height: made.height,
            frames: made.frameCount, byteCount: made.data.count, cacheType: original.cacheType,
            variant: load.spec.description, transformed: true)
        guard let cache = load.cache else { return image }
        // The variant is as fresh as its original: it expires when the original does. An original
        // fetched just now expires as a store made now does, the default, so only one from a
        // cache is looked up.
        let source = original.cacheType == .network ? nil : try? cache.entry(for: load.original, includingExpired: true)
        do {
            let entry = try await cache.store(
                made.data, info: CachedImageInfo(format: made.format, width: made.width, height: made.height),
                for: load.key, url: load.url.redactedString, expiresAt: source?.expiresAt, fetchedAt: source?.fetchedAt)
            image.filePath = entry.path
            image.data = nil
        } catch {
            throw .cache(load.url, error)
        }
        await remoteTier?.upload(made.data, for: load.key)
        return image
    }
}
