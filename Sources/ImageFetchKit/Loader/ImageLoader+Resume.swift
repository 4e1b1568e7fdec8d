import FoundationEssentials

extension ImageLoader {
    /// Cancels every transfer in flight and every later one, for a process told to stop: the
    /// loads fail as cancelled, and each keeps what its transfer received as a partial file.
    public func stopTransfers() {
        dataLoader.stop()
    }

    /// Downloads `request` whole: continuing the partial file `partials` keeps for `key`, if any,
    /// and keeping there what an interrupted transfer received, for the next load to continue
    /// (`Resume`). Runs under the key's lock, like the store that follows. With `partials` nil
    /// (`--no-resume`, `--no-disk-cache`, a conditional request), a plain download.
    func downloadWhole(
        _ request: DownloadRequest, key: CacheKey, partials: DiskCache?,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws(DownloadError) -> DownloadResponse {
        guard let partials else { return try await dataLoader.load(request, progress: progress) }
        let kept = partials.partialFile(for: key)
        var continuing = request
        continuing.resume = kept.map { Resume.Point(offset: Int64($0.bytes.count), validator: $0.validator) }
        continuing.checkpoint = partials.partialFileCheckpoint(for: key)
        do throws(DownloadError) {
            var response = try await dataLoader.load(continuing, progress: progress)
            // A body past the checkpoint interval was mirrored into the partial file too.
            if kept != nil || response.body.count >= Resume.Checkpoint.interval { partials.removePartialFile(for: key) }
            if let kept {
                if response.resumedFrom > 0 {
                    response.body = Self.joined(kept.bytes.prefix(Int(response.resumedFrom)), response.body)
                    response.resumedFrom = 0
                }
            }
            return response
        } catch {
            if error.kind == .resumeRefused, kept != nil {
                // The server cannot continue those bytes: they go, and the body is asked for whole.
                partials.removePartialFile(for: key)
                return try await downloadWhole(request, key: key, partials: partials, progress: progress)
            }
            if let partial = error.partial, let whole = Self.joined(kept, partial) {
                partials.keepPartialFile(whole, validator: partial.validator, for: key)
            } else if kept != nil, !error.isTransient {
                partials.removePartialFile(for: key)
            }
            throw error
        }
    }

    /// The body's start from `kept` and the bytes a transfer received after it, if they meet.
    private static func joined(_ kept: DiskCache.PartialFile?, _ partial: Resume.PartialBody) -> Data? {
        if partial.offset == 0 { return partial.bytes }
        guard let kept, partial.offset <= Int64(kept.bytes.count) else { return nil }
        return joined(kept.bytes.prefix(Int(partial.offset)), partial.bytes)
    }

    /// `start` then `rest` in one buffer allocated once (`+` would grow it as it copies).
    private static func joined(_ start: Data, _ rest: Data) -> Data {
        var whole = Data(capacity: start.count + rest.count)
        whole.append(start)
        whole.append(rest)
        return whole
    }
}
