import FoundationEssentials
import Glibc

/// Writes one file whole: a temporary file in the same folder, filled by a reflink of the source
/// where the file system has them (btrfs, XFS: no bytes copied), else from the bytes; then
/// renamed over the name. Mode 0666 (or the one asked for) less the umask.
package enum WholeFile {
    /// FICLONE, `_IOW(0x94, 9, int)`: Glibc's module does not export the constant.
    private static let cloneRequest: UInt = 0x4004_9409

    /// Writes `name` in the folder `folder` (a descriptor) from the file `source` or `data`;
    /// `path` is only for messages.
    static func write(
        into folder: Int32, name: String, from source: String?, data: Data?, path: String, permissions: mode_t = 0o666
    ) throws(OutputError) {
        let temporary = ".\(name).\(getpid()).tmp"
        // open applies the umask, as for any file a user's tool makes.
        let fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: OutputFolder.text(errno)) }
        var published = false
        defer {
            if !published { unlinkat(folder, temporary, 0) }
        }
        do throws(OutputError) {
            if let data {
                try writeAll(data, to: fd, path: path)
            } else if let source {
                try copy(source, to: fd, path: path)
            }
        } catch {
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw .cannotWrite(path: path, reason: OutputFolder.text(errno)) }
        guard renameat(folder, temporary, folder, name) == 0 else { throw .cannotWrite(path: path, reason: OutputFolder.text(errno)) }
        published = true
    }

    /// Writes `data` to `path`, a file the user named (`get --output`, `--summary-json`, the
    /// cookie file): a regular file, or a new name, as `write(into:…)` writes one; anything else
    /// there (a device such as /dev/null, a pipe, a terminal) is opened and written in place.
    ///
    /// Why: renaming over /dev/null replaced the device with a regular file for every process on
    /// the machine (`imgfetch get URL -o /dev/null` as root did), and over `/dev/stderr` or a
    /// shell's `>(…)` pipe it replaces the link instead of writing to what it names.
    package static func write(_ data: Data, to path: String, permissions: mode_t = 0o666) throws(OutputError) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .cannotWrite(path: path, reason: OutputFolder.text(errno)) }
            defer { close(fd) }
            try writeAll(data, to: fd, path: path)
            return
        }
        let slash = path.lastIndex(of: "/")
        let folderPath = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw .cannotWrite(path: path, reason: OutputFolder.text(errno)) }
        defer { close(folder) }
        try write(into: folder, name: name, from: nil, data: data, path: path, permissions: permissions)
    }

    private static func copy(_ source: String, to fd: Int32, path: String) throws(OutputError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .cannotRead(path: source, reason: OutputFolder.text(errno)) }
        defer { close(input) }
        if ioctl(fd, cloneRequest, input) == 0 { return }
        // No reflinks here (ext4, tmpfs, another file system): the bytes, read whole.
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: source), options: .mappedIfSafe) } catch {
            throw .cannotRead(path: source, reason: SystemErrorText.describe(error))
        }
        try writeAll(data, to: fd, path: path)
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(OutputError) {
        let failure: Int32? = data.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .cannotWrite(path: path, reason: OutputFolder.text(failure)) }
    }
}
