import FoundationEssentials

extension LoadedImage {
    /// What remembering this image under `key` costs the memory cache, in bytes: the bytes it
    /// holds (only an image without a disk file keeps them) plus the heap behind its metadata —
    /// the key's URL and hash strings, the file's path, and a fixed share for the
    /// cache's slot, its dictionary bucket and the allocations' headers.
    ///
    /// Why an estimate from the real sizes and not a round figure: the memory cache's limit bounds
    /// memory only if each entry's cost covers what it keeps alive. `LoaderMemoryTests` checks it
    /// against the heap malloc reports for thousands of remembered entries.
    func memoryCost(for key: CacheKey) -> Int {
        let strings = key.rawValue.utf8.count + key.hash.utf8.count + (filePath?.utf8.count ?? 0)
        return (data?.count ?? 0) + strings + Self.fixedMemoryCost
    }

    /// The part of `memoryCost` that does not depend on the strings' lengths, in bytes (measured:
    /// 700 since `validatedInfo` made every slot larger, with a margin for malloc's rounding).
    static let fixedMemoryCost = 736
}
