import FoundationEssentials
import Glibc
import Synchronization

/// Reads a URL list one line at a time, in fixed-size chunks, so a list of any length streams in
/// constant memory: one URL a line, surrounding whitespace trimmed, blank lines and `#` comments skipped.
///
/// Iterate from one task at a time (it owns a file descriptor and a buffer). `fractionRead` may be
/// read from any thread, for an ETA.
public final class URLListReader: Sequence, Sendable {
    /// Why a URL list could not be read.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        case cannotOpen(path: String, errno: Int32)
        case readFailed(path: String, errno: Int32)

        public var description: String {
            switch self {
            case .cannotOpen(let path, let code): "Cannot open the URL list \(path): \(String(cString: strerror(code)))."
            case .readFailed(let path, let code): "Cannot read the URL list \(path): \(String(cString: strerror(code)))."
            }
        }
    }

    /// The name used in errors: the path, or `-` for standard input.
    public let path: String
    private let fileDescriptor: Int32
    private let ownsDescriptor: Bool
    /// Size of a regular file, for `fractionRead`; nil for pipes and terminals.
    private let totalBytes: Int64?
    private let bytesRead = Atomic<Int64>(0)
    private let failure = Mutex<Error?>(nil)

    /// Opens `path`, or standard input when `path` is `-`.
    public init(path: String) throws(Error) {
        self.path = path
        if path == "-" {
            fileDescriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw Error.cannotOpen(path: path, errno: errno) }
            fileDescriptor = fd
            ownsDescriptor = true
        }
        var info = stat()
        if fstat(fileDescriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            totalBytes = Int64(info.st_size)
        } else {
            totalBytes = nil
        }
    }

    deinit {
        if ownsDescriptor { close(fileDescriptor) }
    }

    /// How much of a regular file has been consumed (0...1); nil when reading a pipe.
    public var fractionRead: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return Swift.min(1, Double(bytesRead.load(ordering: .relaxed)) / Double(totalBytes))
    }

    /// The read error that ended iteration early, if any.
    public var error: Error? { failure.withLock { $0 } }

    public func makeIterator() -> Iterator { Iterator(reader: self) }

    /// Yields each URL line; stops at end of input or at a read error (then see `error`).
    public struct Iterator: IteratorProtocol {
        private let reader: URLListReader
        private var buffer: [UInt8] = []
        private var start = 0
        private var atEnd = false

        init(reader: URLListReader) {
            self.reader = reader
            buffer.reserveCapacity(64 * 1024)
        }

        public mutating func next() -> String? {
            while true {
                if let newline = buffer[start...].firstIndex(of: 0x0A) {
                    let line = buffer[start..<newline]
                    start = newline + 1
                    if let url = Self.url(in: line) { return url }
                    continue
                }
                if atEnd {
                    guard start < buffer.count else { return nil }
                    let line = buffer[start...]
                    start = buffer.count
                    if let url = Self.url(in: line) { return url }
                    return nil
                }
                refill()
            }
        }

        private mutating func refill() {
            buffer.removeSubrange(0..<start)
            start = 0
            let chunk = 64 * 1024
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: chunk))
            var count: Int
            repeat {
                count = buffer.withUnsafeMutableBytes { read(reader.fileDescriptor, $0.baseAddress! + old, chunk) }
            } while count < 0 && errno == EINTR
            if count < 0 {
                let code = errno
                reader.failure.withLock { $0 = .readFailed(path: reader.path, errno: code) }
            }
            buffer.removeSubrange((old + Swift.max(count, 0))...)
            if count <= 0 { atEnd = true } else { reader.bytesRead.add(Int64(count), ordering: .relaxed) }
        }

        private static func url(in line: ArraySlice<UInt8>) -> String? {
            var trimmed = line
            while let first = trimmed.first, first == 0x20 || first == 0x09 || first == 0x0D { trimmed.removeFirst() }
            while let last = trimmed.last, last == 0x20 || last == 0x09 || last == 0x0D { trimmed.removeLast() }
            guard let first = trimmed.first, first != UInt8(ascii: "#") else { return nil }
            return String(decoding: trimmed, as: UTF8.self)
        }
    }
}
