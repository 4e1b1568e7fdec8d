import FoundationEssentials
import Glibc

/// A file the user named on the command line (`get --output FILE`, `--summary-json FILE`, the
/// cookie file), written whole.
package enum NamedFile {
    /// Writes `data` to `path`: a regular file (or a new name) through a temporary file beside it
    /// (created with `permissions`, less the umask) and a rename, so no reader ever sees half of
    /// it; anything else that exists there (a device such as /dev/null, a pipe, a terminal) is
    /// opened and written in place.
    ///
    /// Why: renaming over /dev/null replaced the device with a regular file for every process on
    /// the machine (`imgfetch get URL -o /dev/null` as root did), and over `/dev/stderr` or a
    /// shell's `>(…)` pipe it replaces the link instead of writing to what it names.
    package static func write(_ data: Data, to path: String, permissions: mode_t = 0o666) throws(Failure) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Failure(errno: errno) }
            defer { close(descriptor) }
            try writeAll(data, to: descriptor)
            return
        }
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, permissions)
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        do throws(Failure) {
            try writeAll(data, to: descriptor)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let failure = Failure(errno: errno)
            unlink(temporary)
            throw failure
        }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) throws(Failure) {
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { bytes in Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(errno: errno) }
            written += count
        }
    }

    /// Why a write failed, in the system's words.
    package struct Failure: Error, CustomStringConvertible {
        package let errno: Int32
        package var description: String { String(cString: strerror(errno)) }
    }
}
