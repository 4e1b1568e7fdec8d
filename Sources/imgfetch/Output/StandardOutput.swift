import FoundationEssentials
import Glibc
import Synchronization

/// Results on stdout, buffered and safe to call from any task.
///
/// A closed pipe (`imgfetch prefetch --json list | head`) ends the run as it ends a Unix filter: the
/// first EPIPE marks the output closed, later writes are dropped, and `isClosed` tells the command
/// to stop without an error message and exit with `ExitStatus.outputClosed` (141).
/// SIGPIPE must be ignored (see `Terminal.prepare()`) so that the write returns EPIPE instead of
/// killing the process.
final class StandardOutput: Sendable {
    static let shared = StandardOutput(fileDescriptor: STDOUT_FILENO)

    private struct State {
        var buffer: [UInt8] = []
        var lastFlush = ContinuousClock.now
        var closed = false
    }

    private let fileDescriptor: Int32
    private let state = Mutex(State())
    /// A terminal sees every line at once; a pipe gets 64 KiB blocks (or whatever is due after 0.2 s).
    private let lineBuffered: Bool

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        self.lineBuffered = isatty(fileDescriptor) == 1
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Appends `line` and a newline.
    func writeLine(_ line: String) {
        write(Array(line.utf8) + [0x0A])
    }

    func write(_ data: Data) {
        write([UInt8](data))
    }

    func write(_ bytes: [UInt8]) {
        state.withLock { state in
            guard !state.closed else { return }
            state.buffer.append(contentsOf: bytes)
            let now = ContinuousClock.now
            if lineBuffered || state.buffer.count >= 64 * 1024 || now - state.lastFlush > .milliseconds(200) {
                Self.drain(&state, to: fileDescriptor)
                state.lastFlush = now
            }
        }
    }

    /// Writes out everything buffered; call before the process exits.
    func flush() {
        state.withLock { Self.drain(&$0, to: fileDescriptor) }
    }

    private static func drain(_ state: inout State, to fd: Int32) {
        var offset = 0
        let count = state.buffer.count
        while offset < count, !state.closed {
            let written = state.buffer.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, count - offset)
            }
            if written >= 0 {
                offset += written
            } else if errno != EINTR {
                // EPIPE (reader gone) or any other failure: nothing more can reach the reader.
                state.closed = true
            }
        }
        state.buffer.removeAll(keepingCapacity: true)
    }
}
