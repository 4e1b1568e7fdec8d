import FoundationEssentials

extension ImageLoader {
    /// Fetches `url` (conditionally when a `stale` entry has validators), validates the body and
    /// stores it. A 304 renews `stale` and serves its file. Permanent failures go on the failed-URL
    /// list. The remote `tier`'s speed rule is told what the origin took.
    func fetch(
        _ url: URL, key: CacheKey, stale: CacheEntry?, options: LoadOptions, cache: DiskCache?, tier: RemoteCacheTier?,
        progress: (@Sendable (LoadProgress) -> Void)?
    ) async throws(LoaderError) -> LoadedImage {
        if let cache, !options.noDiskCache { cache.publisher.prepare() }
        if options.respectRobots { try await checkRobots(url, options: options, cache: cache) }
        let request = downloadRequest(url, stale: stale, options: options)
        var reportProgress: (@Sendable (DownloadProgress) -> Void)?
        if let progress {
            reportProgress = { progress(LoadProgress(receivedBytes: $0.received, expectedBytes: $0.expected, retry: $0.retry)) }
        }
        let response: DownloadResponse
        do throws(DownloadError) {
            // A conditional request may end in a 304 and has no body to continue.
            let partials = options.resume && !options.noDiskCache && stale == nil ? cache : nil
            response = try await downloadWhole(request, key: key, partials: partials, progress: reportProgress)
        } catch {
            throw remembering(.download(url, error), of: url, in: cache)
        }

        // What the remote tier's speed rule compares its reads with: the origin's own time, not
        // its queue behind the other transfers nor the validation and store that follow. Why:
        // timed whole, a fresh worker's first fetches from the origin, sent there while the
        // tier's first reads were late, took 76-118 ms on a busy disk, not a quarter of the
        // tier's first loads (133-174 ms), and the tier, 10 times slower than the origin's
        // transfers, was read throughout (968 of 1000 objects, 7.0 s against 0.9 s from the
        // origin, in the bench's last round).
        if !response.isNotModified { tier?.recordOriginFetch(after: response.transferTime) }

        if response.isNotModified, let stale, let cache {
            let validators = CacheValidators(etag: response.etag, lastModified: response.lastModified)
            do {
                if let renewed = try cache.renew(key, validators: validators) {
                    return LoadedImage(entry: renewed, cacheType: .disk)
                }
            } catch {
                throw .cache(url, error)
            }
            return LoadedImage(entry: stale, cacheType: .disk)
        }

        if options.respectRobots { try checkRobotsTag(of: response, url: url, options: options) }
        let info: ImageInfo
        do {
            let limits = DecodeLimits(maxPixels: options.maxPixels)
            switch options.verification {
            case .header: info = try configuration.decoders.validate(response.body, limits: limits)
            case .decode: info = try configuration.decoders.verifyDecoding(response.body, limits: limits)
            }
        } catch {
            throw remembering(.invalidImage(url, error), of: url, in: cache)
        }
        // Only a retried URL can be on the list (the loader checked it before fetching).
        if options.retryFailed { forgetFailure(of: url, in: cache) }

        var image = LoadedImage(
            filePath: nil, data: response.body, format: info.format, width: info.width, height: info.height,
            frames: info.frameCount, byteCount: response.body.count, cacheType: .network)
        image.response = ResponseFacts(response)
        image.validatedInfo = info
        guard let cache, !options.noDiskCache else { return image }
        do {
            let entry = try await cache.store(
                response.body, info: CachedImageInfo(format: info.format, width: info.width, height: info.height),
                for: key, url: url.redactedString,
                validators: CacheValidators(etag: response.etag, lastModified: response.lastModified))
            image.filePath = entry.path
            // New bytes replaced what the variants were made of: they go with it (the variants of
            // a first fetch are left alone, which saves a write per store in a batch; any left
            // from an evicted original expire as it did).
            if stale != nil { try cache.removeVariants(of: key) }
        } catch {
            throw .cache(url, error)
        }
        return image
    }

    func downloadRequest(_ url: URL, stale: CacheEntry?, options: LoadOptions) -> DownloadRequest {
        var headers: [String: String] = [:]
        for header in options.headers { headers[header.name] = header.value }
        let credentials = options.user.map { user -> DownloadRequest.Credentials in
            let parts = user.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            return DownloadRequest.Credentials(user: String(parts[0]), password: parts.count > 1 ? String(parts[1]) : "")
        }
        let transfer = DownloadRequest.Options(
            timeout: .milliseconds(Int64(options.timeout * 1000)),
            totalTimeout: options.maxTime.map { .milliseconds(Int64($0 * 1000)) },
            maxBytes: options.maxBytes,
            retry: RetryPolicy(maxRetries: options.retries),
            insecure: options.insecure,
            caFile: options.caCertificatePath,
            credentials: credentials,
            userAgent: options.userAgent,
            cookie: options.cookie)
        // Only a cached file can answer a 304, so validators are sent only when one exists.
        let validators = stale.map {
            DownloadRequest.Validators(etag: $0.validators.etag, lastModified: $0.validators.lastModified)
        } ?? DownloadRequest.Validators()
        return DownloadRequest(url: url, headers: headers, validators: validators, options: transfer)
    }

    /// Puts a permanent failure on the failed-URL list (best effort) and returns the error to throw.
    private func remembering(_ error: LoaderError, of url: URL, in cache: DiskCache?) -> LoaderError {
        if error.isPermanent, let cache {
            _ = try? cache.recordFailure(url: url.redactedString, reason: error.reason, status: error.httpStatus)
        }
        return error
    }

    private func forgetFailure(of url: URL, in cache: DiskCache?) {
        _ = try? cache?.removeFailure(for: url.redactedString)
    }
}
