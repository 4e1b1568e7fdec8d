import FoundationEssentials

/// The remote tier as a stage in front of a target's producer (see `ImageLoader+Flow`): nothing
/// the tier does fails a load; a miss, a damaged object or an unreachable tier falls through.
extension ImageLoader {
    /// The tier's `object` for `key`, checked like an origin response (its checksum, then the
    /// decoders' validation) and within the max age counted from its `Last-Modified`, stored in the
    /// disk cache; nil when it is of no use.
    func loadFromRemote(
        _ object: RemoteObject, of tier: RemoteCacheTier, url: URL, key: CacheKey, options: LoadOptions, cache: DiskCache?
    ) async throws(LoaderError) -> LoadedImage? {
        let now = configuration.diskCache.currentDate()
        let storedAt = min(object.lastModified ?? now, now)
        // An object has no expiry of its own: its age counts from when it was stored.
        guard configuration.diskCache.isFresh(
            fetchedAt: storedAt.timeIntervalSince1970, expiresAt: .infinity, maxAge: options.maxAge, at: now.timeIntervalSince1970)
        else {
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
