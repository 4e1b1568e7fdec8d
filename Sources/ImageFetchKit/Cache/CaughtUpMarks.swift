import Glibc

/// Which entry stamps may hold uses the index lacks, so that catching up reads only those.
///
/// Entries fall in 256 buckets by the first two hex digits of their key's hash. The empty file
/// `<cache>/caught-up/<ab>` exists while the index holds every use the stamps of bucket `ab`
/// recorded: the catch-up creates it before it reads that bucket's stamps, and a hit that records
/// a use only in its stamp removes it after writing the stamp (one `unlink`, mostly of nothing).
/// Either order of the two leaves the use read or the mark gone, never both missed.
///
/// Why: reading every stamp costs one `getxattr` per entry, about 5 µs here, so 5 s before the
/// first line of `cache ls` (most recently used first) on a million entries, and as long again
/// at every eviction. With the marks, a listing after no stamped hit reads no stamp, and after
/// one `get` the 1/256 of the stamps in its bucket. A build from before the marks does not remove
/// them: on a cache shared with one, the uses its hits record in stamps reach the index once a
/// hit of a newer build clears the same bucket's mark (deleting the folder clears them all).
enum CaughtUpMarks {
    static let folderName = "caught-up"

    /// The bucket of a key with `hash`: its first two hex digits.
    static func bucket(ofHash hash: String) -> String { String(hash.prefix(2)) }

    /// Every bucket, "00" to "ff".
    static let buckets: [String] = (0..<256).map { value in
        let digits = Array("0123456789abcdef")
        return String([digits[value >> 4], digits[value & 15]])
    }

    /// Says that a stamp of `key`'s bucket recorded a use the index lacks. Call after writing it.
    static func removeMark(for key: CacheKey, in directory: String) {
        unlink(directory + "/" + folderName + "/" + bucket(ofHash: key.hash))
    }

    /// What `mark` found.
    enum Marking {
        /// The bucket was caught up already: nothing to read.
        case alreadyCaughtUp
        /// Marked now: read the bucket's stamps (and `unmark` it if that fails).
        case marked
        /// The mark could not be made (a read-only cache): read the stamps, and let it be.
        case unmarkable
    }

    /// Marks `bucket` caught up, before its stamps are read.
    static func mark(_ bucket: String, in directory: String) -> Marking {
        let descriptor = open(directory + "/" + folderName + "/" + bucket, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return .marked
        }
        return errno == EEXIST ? .alreadyCaughtUp : .unmarkable
    }

    static func unmark(_ bucket: String, in directory: String) {
        unlink(directory + "/" + folderName + "/" + bucket)
    }

    /// Makes the marks' folder if it is missing. As for shard folders, anything else in its place
    /// (a symbolic link) is removed first, so no mark is made through it.
    static func prepareFolder(in directory: String) {
        let folder = directory + "/" + folderName
        var info = stat()
        if lstat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT != S_IFDIR else { return }
            unlink(folder)
        }
        mkdir(folder, 0o700)
    }
}
