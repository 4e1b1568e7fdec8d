import CGlibcExtras
import FoundationEssentials
import Glibc

/// The 2xx body a transfer has received so far: in memory, or written straight to the file of its
/// request's spool (`BodySpool`). Owned by the engine thread, like its transfer.
///
/// A file that fails (a full disk) does not fail the transfer: its bytes are read back and the body
/// goes on in memory, so the store that follows reports the disk's error as it would have. Only
/// bytes that cannot be read back fail it (`append` and `finish` say so).
struct ReceivedBody {
    private(set) var count = 0
    private var memory = Data()
    private var file: BodySpool.File?
    private var spool: BodySpool?
    /// The capacity to give `memory` when it gets its first bytes (a file may take them instead).
    private var expectedCount = 0

    /// Appends `chunk`, to a new file of `spool` when the body is empty and one is given. False
    /// when the bytes already written to the file could not be read back.
    mutating func append(_ chunk: UnsafeRawBufferPointer, spoolingTo spool: BodySpool?) -> Bool {
        guard !chunk.isEmpty else { return true }
        if file == nil, count == 0, let spool, let made = spool.create() {
            file = made
            self.spool = spool
            memory = Data()
        }
        if let file {
            if Self.writeAll(file.descriptor, chunk.baseAddress!, chunk.count, at: count) {
                count += chunk.count
                return true
            }
            guard let held = copied() else { return false }
            discardFile()
            memory = held
        }
        if memory.isEmpty, expectedCount > chunk.count { memory.reserveCapacity(expectedCount) }
        memory.append(contentsOf: chunk)
        count += chunk.count
        return true
    }

    /// Room for `capacity` bytes in all, when the body is held in memory.
    mutating func reserve(_ capacity: Int) {
        if file != nil { return }
        if memory.isEmpty { expectedCount = capacity } else { memory.reserveCapacity(capacity) }
    }

    /// Forgets the bytes (a reply that replaces them); a file is kept, emptied, for the new ones.
    mutating func removeAll() {
        if let file, ftruncate(file.descriptor, 0) != 0 { discardFile() }
        memory = Data()
        count = 0
        expectedCount = 0
    }

    /// A copy of the bytes, for a partial body handed on: never a mapping of the file, which a
    /// later attempt of the transfer may empty.
    func copied() -> Data? {
        guard let file, count > 0 else { return memory }
        var bytes = Data(count: count)
        let read = bytes.withUnsafeMutableBytes { Self.readAll(file.descriptor, $0.baseAddress!, count, at: 0) }
        return read ? bytes : nil
    }

    /// Writes bytes `from...` to `descriptor` at its file offset (a checkpoint).
    func write(from start: Int, to descriptor: Int32) -> Bool {
        guard let file else {
            return memory.withUnsafeBytes { Self.writeAll(descriptor, $0.baseAddress! + start, count - start, at: nil) }
        }
        var offset = off_t(start)
        while offset < off_t(count) {
            let copied = copy_file_range(file.descriptor, &offset, descriptor, nil, count - Int(offset), 0)
            if copied < 0, errno == EINTR { continue }
            if copied <= 0 { return false }
        }
        return true
    }

    /// The whole body, ending this one: the file's bytes mapped (and the file, to take), or memory;
    /// nil when the file's bytes could not be read back.
    mutating func finish() -> (bytes: Data, file: SpooledBody?)? {
        defer { self = ReceivedBody() }
        guard let file, let spool else { return (memory, nil) }
        guard let mapped = Self.map(file.descriptor, count) else {
            let held = copied()
            discardFile()
            return held.map { ($0, nil) }
        }
        close(file.descriptor)
        return (mapped, SpooledBody(path: file.path, byteCount: count, discard: spool.discard))
    }

    /// Closes and removes a file no response took (the transfer failed or was dropped).
    mutating func discardFile() {
        guard let file, let spool else { return }
        close(file.descriptor)
        spool.discard(file.path)
        self.file = nil
        self.spool = nil
    }

    /// `count` bytes of `descriptor` mapped read-only, unmapped when the data goes.
    private static func map(_ descriptor: Int32, _ count: Int) -> Data? {
        guard count > 0 else { return Data() }
        guard let start = mmap(nil, count, PROT_READ, MAP_SHARED, descriptor, 0), start != MAP_FAILED else { return nil }
        return Data(bytesNoCopy: start, count: count, deallocator: .custom { start, count in munmap(start, count) })
    }

    private static func writeAll(_ descriptor: Int32, _ start: UnsafeRawPointer, _ count: Int, at offset: Int?) -> Bool {
        var done = 0
        while done < count {
            let written = offset.map { pwrite(descriptor, start + done, count - done, off_t($0 + done)) }
                ?? Glibc.write(descriptor, start + done, count - done)
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return false }
            done += written
        }
        return true
    }

    private static func readAll(_ descriptor: Int32, _ start: UnsafeMutableRawPointer, _ count: Int, at offset: Int) -> Bool {
        var done = 0
        while done < count {
            let read = pread(descriptor, start + done, count - done, off_t(offset + done))
            if read < 0, errno == EINTR { continue }
            if read <= 0 { return false }
            done += read
        }
        return true
    }
}
