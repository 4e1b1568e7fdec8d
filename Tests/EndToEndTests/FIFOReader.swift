import Foundation
import Glibc

/// A named pipe made for a test, and what was written into it: for commands told to write to
/// something that is not a regular file (a pipe, as a shell's `>(…)` or a device would be).
final class FIFOReader {
    let path: String
    private let descriptor: Int32

    /// Makes the pipe at `path` and holds it open for reading and writing, so a writer never
    /// blocks on opening it and the reader never sees an end of file before the test says.
    init(path: String) throws {
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        self.path = path
        descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(descriptor) }

    /// Whatever is waiting in the pipe now (the writer has exited).
    func drain() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Whether `path` is still the pipe (not replaced by a regular file).
    var isStillAPipe: Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    }
}
