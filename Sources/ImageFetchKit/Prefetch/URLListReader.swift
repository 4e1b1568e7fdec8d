import FoundationEssentials
import Glibc
import Synchronization

/// Reads a URL list one line at a time, in fixed-size chunks, so a list of any length streams in
/// constant memory: one URL a line, surrounding whitespace trimmed, blank lines and `#` comments
/// skipped, LF or CRLF line ends, and a UTF-8 byte-order mark at the start ignored. A line that
/// cannot be a URL (invalid UTF-8, a control character such as NUL, longer than `maxLineBytes`,
/// not http or https) is not yielded: it goes to `onRejectedLine` with its line number.
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
    private let onRejectedLine: (@Sendable (RejectedLine) -> Void)?

    /// Opens `path`, or standard input when `path` is `-`. `onRejectedLine` is called, on the
    /// iterating thread and in list order, for each line that is skipped as not a URL.
    public init(path: String, onRejectedLine: (@Sendable (RejectedLine) -> Void)? = nil) throws(Error) {
        self.path = path
        self.onRejectedLine = onRejectedLine
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
        /// Lines consumed so far: after `next()` returned a URL, the number of its line.
        public private(set) var lineNumber = 0
        private var atStartOfInput = true
        /// While skipping a line over the limit: its first bytes and its length so far.
        private var longLine: (excerpt: [UInt8], bytes: Int)?

        init(reader: URLListReader) {
            self.reader = reader
            buffer.reserveCapacity(64 * 1024)
        }

        public mutating func next() -> String? {
            while true {
                if atStartOfInput, buffer.count - start >= 3 || atEnd {
                    atStartOfInput = false
                    if buffer[start...].starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
                }
                if !atStartOfInput, let newline = buffer[start...].firstIndex(of: 0x0A) {
                    let line = buffer[start..<newline]
                    start = newline + 1
                    if let url = take(line) { return url }
                    continue
                }
                if atEnd {
                    guard start < buffer.count || longLine != nil else { return nil }
                    let line = buffer[start...]
                    start = buffer.count
                    return take(line)
                }
                if !atStartOfInput, buffer.count - start > URLListReader.maxLineBytes || longLine != nil {
                    // No line break within the limit: keep the start for the message, drop the rest.
                    let pending = buffer[start...]
                    var long = longLine ?? ([], 0)
                    if long.excerpt.count < URLListReader.excerptBytes + 4 {
                        long.excerpt += pending.prefix(URLListReader.excerptBytes + 4 - long.excerpt.count)
                    }
                    long.bytes += pending.count
                    longLine = long
                    start = buffer.count
                }
                refill()
            }
        }

        /// The URL on `line` (the rest of a long line, if one is being skipped), or nil when it
        /// is blank, a comment or rejected.
        private mutating func take(_ line: ArraySlice<UInt8>) -> String? {
            lineNumber += 1
            if let long = longLine {
                longLine = nil
                reject(.tooLong(bytes: long.bytes + line.count), excerpt: long.excerpt + line.prefix(URLListReader.excerptBytes), total: long.bytes + line.count)
                return nil
            }
            var trimmed = line
            while let first = trimmed.first, first == 0x20 || first == 0x09 || first == 0x0D { trimmed.removeFirst() }
            while let last = trimmed.last, last == 0x20 || last == 0x09 || last == 0x0D { trimmed.removeLast() }
            guard let first = trimmed.first, first != UInt8(ascii: "#") else { return nil }
            if trimmed.count > URLListReader.maxLineBytes {
                reject(.tooLong(bytes: trimmed.count), excerpt: Array(trimmed.prefix(URLListReader.excerptBytes + 4)), total: trimmed.count)
                return nil
            }
            if let problem = URLListReader.problem(with: trimmed) {
                reject(problem, excerpt: Array(trimmed.prefix(URLListReader.excerptBytes + 4)), total: trimmed.count, line: trimmed)
                return nil
            }
            guard let url = String(validating: trimmed, as: UTF8.self) else {
                reject(.invalidUTF8, excerpt: Array(trimmed.prefix(URLListReader.excerptBytes + 4)), total: trimmed.count, line: trimmed)
                return nil
            }
            return url
        }

        private func reject(_ problem: RejectedLine.Problem, excerpt: [UInt8], total: Int, line: ArraySlice<UInt8>? = nil) {
            let text = URLListReader.excerpt(of: excerpt, totalBytes: total)
            let shardBytes = line.map(Array.init) ?? Array(excerpt.prefix(URLListReader.excerptBytes + 4))
            reader.onRejectedLine?(RejectedLine(number: lineNumber, excerpt: text, problem: problem, shardBytes: shardBytes))
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
    }
}
