import FoundationEssentials

/// Disk hits answered from the entry file's stamp, without the index (see `EntryStamp`).
extension ImageLoader {
    /// `stampedHit(for:options:)` while the index is closed, for originals and variants alike.
    /// Once a miss has opened it, the index answers: a lookup on an open connection costs less
    /// than a miss's four `getxattr` (a cold prefetch of 1000 images made 4000 of them for
    /// nothing). Nothing is read from a directory another user could have written in.
    func stampedHitWhileIndexClosed(for key: CacheKey, url: URL, options: LoadOptions) throws(LoaderError) -> LoadedImage? {
        guard !options.refresh, !hasOpenedDiskCache else { return nil }
        switch directoryCheck {
        case .unsafe(let error): throw .cache(url, error)
        case .missing: return nil
        case .safe: return stampedHit(for: key, options: options)
        }
    }

    /// The fresh disk hit for `key` from its file's stamp, recording the use in the stamp; nil
    /// when the index must answer: no stamped file (a miss, an entry stamped by no one yet, a
    /// filesystem without extended attributes), or one that is expired, too old for
    /// `options.maxAge` or not the size its stamp says.
    func stampedHit(for key: CacheKey, options: LoadOptions) -> LoadedImage? {
        let cache = configuration.diskCache
        let directory = FilePath.standardize(configuration.cacheDirectory)
        for format in EntryStamp.storedFormats {
            let path = directory + "/" + key.relativePath(fileExtension: format.fileExtension)
            guard var stamp = EntryStamp.read(from: path) else { continue }
            let now = cache.currentDate().timeIntervalSince1970
            guard stamp.format == format,
                  !cache.isExpired(fetchedAt: stamp.fetchedAt, expiresAt: stamp.expiresAt, at: now),
                  options.maxAge.map({ now - stamp.fetchedAt < $0 }) ?? true,
                  DiskCache.fileSize(path) == stamp.bytes
            else { return nil }
            if now - stamp.lastUsedAt >= cache.lastUsedResolution {
                stamp.lastUsedAt = now
                // The index lacks this use now: the next catch-up must read this bucket's stamps.
                if stamp.write(to: path) { StampedUseMarks.mark(for: key, in: directory) }
            }
            return LoadedImage(
                filePath: path, data: nil, format: format, width: stamp.width, height: stamp.height, frames: nil,
                byteCount: Int(stamp.bytes), cacheType: .disk)
        }
        return nil
    }
}
