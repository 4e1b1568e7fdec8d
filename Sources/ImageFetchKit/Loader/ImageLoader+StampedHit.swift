import FoundationEssentials

/// Disk hits answered from the entry file's stamp, without the index (see `EntryStamp`).
extension ImageLoader {
    /// What a key's stamp says while the index is closed.
    enum StampAnswer {
        /// A fresh disk hit.
        case hit(LoadedImage)
        /// The key has no file in any format (or the cache directory does not exist yet): nothing
        /// on disk can answer, so unless the index lists the URL as failed (or the load is
        /// cache-only), only a fetch can.
        case noFile
        /// The index must answer.
        case indexMustAnswer
    }

    /// `stampAnswer(for:options:)` while the index is closed, for originals and variants alike.
    /// Once a miss has opened it, the index answers: a lookup on an open connection costs less
    /// than a miss's `getxattr` calls, one per stored format (a cold prefetch of 1000 images made
    /// 4000 of them for nothing when there were four formats). Nothing is read from a directory
    /// another user could have written in.
    func stampAnswerWhileIndexClosed(for key: CacheKey, url: URL, options: LoadOptions) throws(LoaderError) -> StampAnswer {
        guard !options.refresh, !hasOpenedDiskCache else { return .indexMustAnswer }
        switch directoryCheck {
        case .unsafe(let error): throw .cache(url, error)
        case .missing: return .noFile
        case .safe: return stampAnswer(for: key, options: options)
        }
    }

    /// The fresh disk hit for `key` from its file's stamp, recording the use in the stamp; else
    /// whether the key has a file at all. The index must answer for a file without a stamp (an
    /// entry stamped by no one yet, a filesystem without extended attributes) or with one that is
    /// expired, too old for `options.maxAge` or not the size its stamp says.
    func stampAnswer(for key: CacheKey, options: LoadOptions) -> StampAnswer {
        let cache = configuration.diskCache
        let directory = FilePath.standardize(configuration.cacheDirectory)
        var anyFile = false
        for format in EntryStamp.storedFormats {
            let path = directory + "/" + key.relativePath(fileExtension: format.fileExtension)
            let lookup = EntryStamp.look(at: path)
            guard case .stamp(var stamp) = lookup else {
                if case .noStamp = lookup { anyFile = true }
                continue
            }
            let now = cache.currentDate().timeIntervalSince1970
            guard stamp.format == format,
                  cache.isFresh(fetchedAt: stamp.fetchedAt, expiresAt: stamp.expiresAt, maxAge: options.maxAge, at: now),
                  DiskCache.fileSize(path) == stamp.bytes
            else { return .indexMustAnswer }
            if now - stamp.lastUsedAt >= cache.lastUsedResolution {
                stamp.lastUsedAt = now
                // The index lacks this use now: the next catch-up must read this bucket's stamps.
                if stamp.write(to: path) { StampedUseMarks.mark(for: key, in: directory) }
            }
            return .hit(LoadedImage(
                filePath: path, data: nil, format: format, width: stamp.width, height: stamp.height, frames: nil,
                byteCount: Int(stamp.bytes), cacheType: .disk))
        }
        return anyFile ? .indexMustAnswer : .noFile
    }
}
