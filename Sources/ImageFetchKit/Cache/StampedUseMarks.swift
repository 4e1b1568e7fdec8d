import Glibc

/// Which entry stamps may hold uses the index lacks, so that catching up reads only those.
///
/// Entries fall in 256 buckets by the first two hex digits of their key's hash. A hit that records
/// a use only in its entry's stamp then makes the empty file `<cache>/stamped-uses/<ab>` for its
/// bucket (an `openat`, which finds it there already but for the first such hit since the last
/// catch-up; a stamp is rewritten at most once a minute). The catch-up removes a bucket's mark before it reads that bucket's stamps, and reads
/// none of an unmarked bucket. Either order of the two leaves the use read or the mark there,
/// never both missed. A cache without the folder was made by a build from before the marks: its
/// first catch-up makes the folder, then reads every stamp.
///
/// Why: reading every stamp costs one `getxattr` per entry, so `cache ls` (most recently used
/// first) on a million entries just fetched printed its first line after 10.6 s (`scripts/bench
/// soak`), and every eviction paid as much. With the marks, a listing after no stamped hit reads
/// no stamp, and after one `get` the 1/256 of the stamps in its bucket. A build from before the
/// marks sharing the cache makes none: the uses its hits record in stamps reach the index only
/// with a later mark in the same bucket.
enum StampedUseMarks {
    static let folderName = "stamped-uses"

    /// The bucket of a key with `hash`: its first two hex digits.
    static func bucket(ofHash hash: String) -> String { String(hash.prefix(2)) }

    /// Every bucket, "00" to "ff".
    static let buckets: [String] = (0..<256).map { value in
        let digits = Array("0123456789abcdef")
        return String([digits[value >> 4], digits[value & 15]])
    }

    /// Says that a stamp of `key`'s bucket recorded a use the index lacks. Call after writing it.
    static func mark(for key: CacheKey, in directory: String) {
        mark(bucketNamed: bucket(ofHash: key.hash), in: directory)
    }

    /// Whether the stamps of `bucket` must be read: true when it was marked (the mark is removed
    /// now, before the reading) or when its mark cannot be told or removed (a read-only cache).
    static func takeMark(_ bucket: String, in directory: String) -> Bool {
        unlink(directory + "/" + folderName + "/" + bucket) == 0 || errno != ENOENT
    }

    /// Marks `bucket` again, after its stamps could not be read to the end.
    static func restoreMark(_ bucket: String, in directory: String) {
        mark(bucketNamed: bucket, in: directory)
    }

    /// Through the folder opened without following a link: a folder replaced by one gets no
    /// mark, and the next catch-up, finding no folder, replaces it and reads every stamp.
    private static func mark(bucketNamed bucket: String, in directory: String) {
        let folder = open(directory + "/" + folderName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return }
        defer { close(folder) }
        let descriptor = openat(folder, bucket, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether the marks' folder is there (as a folder, not a link to one).
    static func hasFolder(in directory: String) -> Bool {
        var info = stat()
        return lstat(directory + "/" + folderName, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Makes the marks' folder: when the index is created (a new cache, whose stamps hold nothing
    /// the index lacks), or before a first catch-up reads every stamp. As for shard folders,
    /// anything else in its place (a symbolic link) is removed first, so no mark goes through it.
    static func makeFolder(in directory: String) {
        let folder = directory + "/" + folderName
        var info = stat()
        if lstat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT != S_IFDIR else { return }
            unlink(folder)
        }
        mkdir(folder, 0o700)
    }
}
