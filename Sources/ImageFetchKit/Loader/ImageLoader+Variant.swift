import FoundationEssentials

/// Variants: a transform's result, cached as an entry of its own (see `CacheKey.variant(_:)`),
/// loaded through the same flow as an original (`ImageLoader+Flow`); this is its producer.
///
/// The original is loaded through the whole flow too (its own caches, lock, remote tier and
/// origin). Locks are taken variant first, original second, and nothing holding an original's
/// lock ever asks for a variant's, so they cannot deadlock. A variant expires with the original
/// it was made from.
extension ImageLoader {
    /// Loads the original, transforms it and stores the result under the variant's key. The
    /// returned image keeps its bytes (`data`) for the remote tier's upload.
    func makeVariant(
        of target: LoadTarget, spec: TransformSpec, options: LoadOptions, cache: DiskCache?,
        progress: (@Sendable (LoadProgress) -> Void)?
    ) async throws(LoaderError) -> LoadedImage {
        var originalOptions = options
        originalOptions.transform = nil
        let original: LoadedImage
        switch await loadThroughCaches(.original(target.url, key: target.original), options: originalOptions, progress: progress) {
        case .loaded(let image): original = image
        case .failed(let error): throw error
        }

        let bytes: Data
        do { bytes = try original.contents() } catch {
            throw .cache(target.url, .cannotRead(path: original.filePath ?? "", cause: SystemErrorText.describe(error)))
        }
        let transformed: TransformedImage?
        do {
            transformed = try ImageTransformer(decoders: configuration.decoders)
                .transform(bytes, validated: original.validatedInfo, spec: spec, limits: DecodeLimits(maxPixels: options.maxPixels))
        } catch {
            throw .transform(target.url, error)
        }
        // The spec changes nothing for this image: the original is the answer, and no variant is stored.
        guard let made = transformed else { return original }

        var image = LoadedImage(
            filePath: nil, data: made.data, format: made.format, width: made.width, height: made.height,
            frames: made.frameCount, byteCount: made.data.count, cacheType: original.cacheType,
            variant: spec.description, transformed: true)
        image.response = original.response
        image.originalSize = (original.width, original.height)
        image.originalByteCount = original.byteCount
        guard let cache else { return image }
        // The variant is as fresh as its original: it expires when the original does. An original
        // fetched just now expires as a store made now does, the default, so only one from a
        // cache is looked up.
        let source = original.cacheType == .network ? nil : try? cache.entry(for: target.original, includingExpired: true)
        do {
            let entry = try await cache.store(
                made.data, info: CachedImageInfo(format: made.format, width: made.width, height: made.height),
                for: target.key, url: target.url.redactedString, expiresAt: source?.expiresAt, fetchedAt: source?.fetchedAt)
            image.filePath = entry.path
        } catch {
            throw .cache(target.url, error)
        }
        return image
    }
}
