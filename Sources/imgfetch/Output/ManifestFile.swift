import FoundationEssentials
import Glibc
import Synchronization

/// `--manifest FILE`: the run's records written to a file, JSON Lines or (for a name ending in
/// `.csv`) CSV with a header line, while stdout and the progress line stay as they are.
///
/// The file is made (or emptied) before the first load, so a path that cannot be written fails
/// the run before any transfer. Safe to call from any task.
final class ManifestFile: Sendable {
    let path: String
    private let isCSV: Bool
    private let descriptor: Int32
    private let buffer = Mutex<[UInt8]>([])

    /// Why the manifest could not be written: the path and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "Cannot write the manifest \(path): \(reason)." }
    }

    init(path: String) throws(Failure) {
        self.path = path
        isCSV = path.lowercased().hasSuffix(".csv")
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        if isCSV { append(ManifestRecord.csvHeader) }
    }

    deinit { close(descriptor) }

    func write(_ record: ManifestRecord) {
        append(isCSV ? record.csvLine : record.jsonLine)
    }

    private func append(_ line: String) {
        buffer.withLock { buffer in
            buffer.append(contentsOf: line.utf8)
            buffer.append(0x0A)
            if buffer.count >= 64 * 1024 { try? Self.drain(&buffer, to: descriptor, path: path) }
        }
    }

    /// Writes out what is buffered; call once the run is done.
    func finish() throws(Failure) {
        try buffer.withLock { (buffer) throws(Failure) in try Self.drain(&buffer, to: descriptor, path: path) }
    }

    private static func drain(_ buffer: inout [UInt8], to fd: Int32, path: String) throws(Failure) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                buffer.removeAll()
                throw Failure(path: path, reason: reason)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
