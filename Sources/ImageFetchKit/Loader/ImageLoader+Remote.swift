import FoundationEssentials

extension ImageLoader {
    /// The remote tier, then the origin: what the caches of this machine could not answer.
    /// An origin fetch is uploaded to the tier in the background (the load waits only while the
    /// upload backlog is full: the tier is slower than the origin); nothing the tier does fails
    /// the load (it falls back to the origin).
    func fetchFromRemoteOrOrigin(
        _ url: URL, key: CacheKey, stale: CacheEntry?, options: LoadOptions, cache: DiskCache?,
        progress: (@Sendable (LoadProgress) -> Void)?
    ) async throws(LoaderError) -> LoadedImage {
        guard let tier = remoteTier else {
            return try await fetch(url, key: key, stale: stale, options: options, cache: cache, progress: progress)
        }
        // --refresh asks the origin whether the image changed; the tier cannot answer that.
        if !options.refresh, let image = try await loadFromRemote(tier, url: url, key: key, options: options, cache: cache) {
            return image
        }
        let start = ContinuousClock.now
        let image = try await fetch(url, key: key, stale: stale, options: options, cache: cache, progress: progress)
        // The tier's speed rule compares its reads with what the origin takes.
        if image.cacheType == .network { tier.recordOriginFetch(after: ContinuousClock.now - start) }
        if image.cacheType == .network, let data = image.data { await tier.upload(data, for: key) }
        return image
    }

    /// The tier's object for `key`, checked like an origin response (its checksum, then the
    /// decoders' validation) and within the max age counted from its `Last-Modified`, stored in the
    /// disk cache; nil when the tier has no usable object.
    func loadFromRemote(
        _ tier: RemoteCacheTier, url: URL, key: CacheKey, options: LoadOptions, cache: DiskCache?
    ) async throws(LoaderError) -> LoadedImage? {
        // The envelope's trailer is well under 1 KiB.
        guard let object = await tier.fetch(key, maxBytes: options.maxBytes + 1024) else { return nil }
        let now = configuration.diskCache.currentDate()
        let storedAt = min(object.lastModified ?? now, now)
        let age = now.timeIntervalSince(storedAt)
        if age >= configuration.diskCache.maxAge || age >= (options.maxAge ?? .infinity) {
            tier.recordMiss()
            return nil
        }
        let body: Data
        switch RemoteEnvelope.open(object.contents, for: key) {
        case .image(let image): body = image
        case .otherFormat:
            // Another build's object, whole as far as anyone knows: the origin's upload replaces it.
            tier.recordMiss()
            return nil
        case .damaged(let reason):
            tier.recordDamage(of: url, reason: reason)
            return nil
        }
        let info: ImageInfo
        do {
            let limits = DecodeLimits(maxPixels: options.maxPixels)
            switch options.verification {
            case .header: info = try configuration.decoders.validate(body, limits: limits)
            case .decode: info = try configuration.decoders.verifyDecoding(body, limits: limits)
            }
        } catch {
            tier.recordDamage(of: url, reason: error.description)
            return nil
        }
        tier.recordHit()
        var image = LoadedImage(
            filePath: nil, data: body, format: info.format, width: info.width, height: info.height,
            frames: info.frameCount, byteCount: body.count, cacheType: .remote)
        guard let cache, !options.noDiskCache else { return image }
        do {
            let entry = try await cache.store(
                body, info: CachedImageInfo(format: info.format, width: info.width, height: info.height),
                for: key, url: url.redactedString, fetchedAt: storedAt)
            image.filePath = entry.path
        } catch {
            throw .cache(url, error)
        }
        return image
    }
}
