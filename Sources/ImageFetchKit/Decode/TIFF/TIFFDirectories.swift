/// The image file directories (IFDs) of a classic TIFF file: the chain from the header, one per
/// page, and the few tags of each that imgfetch reads. Every offset is checked against the data.
struct TIFFDirectories {
    /// One IFD entry: its tag, field type, value count, and where the value lies (inline in the
    /// entry when it fits in four bytes).
    struct Entry {
        let tag: Int
        let type: Int
        let count: Int
        let valueOffset: Int
    }

    /// Each page's entries, in chain order.
    private(set) var pages: [[Entry]] = []
    private let bytes: ByteReader
    private let littleEndian: Bool

    /// A chain longer than this is taken for a loop the visited-offset check missed.
    private static let maxPages = 65_536

    /// Walks the IFD chain. A directory that starts or ends past the data is `.truncated`; a chain
    /// that loops back on itself or an empty first directory is `.corrupt`.
    init(_ bytes: ByteReader) throws(DecodeError) {
        self.bytes = bytes
        littleEndian = bytes.matches([0x49, 0x49], at: 0)
        guard var next = uint32(at: 4) else { throw .truncated(.tiff) }
        var visited = Set<Int>()
        while next != 0 {
            guard visited.insert(next).inserted, visited.count <= Self.maxPages else {
                throw .corrupt(.tiff, reason: "its chain of directories loops back on itself")
            }
            guard let count = uint16(at: next), let following = uint32(at: next + 2 + count * 12) else { throw .truncated(.tiff) }
            var entries: [Entry] = []
            entries.reserveCapacity(count)
            for index in 0..<count {
                let at = next + 2 + index * 12
                guard let tag = uint16(at: at), let type = uint16(at: at + 2), let values = uint32(at: at + 4) else { throw .truncated(.tiff) }
                let size = values * Self.byteSize(ofType: type)
                let valueOffset = size <= 4 ? at + 8 : (uint32(at: at + 8) ?? 0)
                entries.append(Entry(tag: tag, type: type, count: values, valueOffset: valueOffset))
            }
            guard !entries.isEmpty || !pages.isEmpty else { throw .corrupt(.tiff, reason: "its first directory is empty") }
            pages.append(entries)
            next = following
        }
        guard !pages.isEmpty else { throw .corrupt(.tiff, reason: "it has no image directory") }
    }

    /// The `index`th value of `tag` (SHORT or LONG, or BYTE, or their signed kinds, which libtiff
    /// also takes for its counts and sizes) on `page`; nil when absent, short or negative.
    func value(_ tag: Int, page: Int = 0, index: Int = 0) -> Int? {
        guard let entry = pages[page].first(where: { $0.tag == tag }), index < entry.count else { return nil }
        return value(of: entry, index: index)
    }

    /// Every value of `tag` on `page` (an empty array when absent); `.truncated` when they lie
    /// past the data.
    func values(_ tag: Int, page: Int) throws(DecodeError) -> [Int] {
        guard let entry = pages[page].first(where: { $0.tag == tag }) else { return [] }
        guard entry.valueOffset + entry.count * Self.byteSize(ofType: entry.type) <= bytes.count else { throw .truncated(.tiff) }
        return (0..<entry.count).map { value(of: entry, index: $0) ?? 0 }
    }

    private func value(of entry: Entry, index: Int) -> Int? {
        let value: Int? = switch entry.type {
        case 1, 7: bytes.uint8(at: entry.valueOffset + index).map(Int.init)
        case 3: uint16(at: entry.valueOffset + index * 2)
        case 4, 13: uint32(at: entry.valueOffset + index * 4)
        case 6: bytes.uint8(at: entry.valueOffset + index).map { Int(Int8(truncatingIfNeeded: $0)) }
        case 8: uint16(at: entry.valueOffset + index * 2).map { Int(Int16(truncatingIfNeeded: $0)) }
        case 9: uint32(at: entry.valueOffset + index * 4).map { Int(Int32(truncatingIfNeeded: $0)) }
        default: nil
        }
        return value.flatMap { $0 < 0 ? nil : $0 }
    }

    private static func byteSize(ofType type: Int) -> Int {
        switch type {
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: 1
        }
    }

    private func uint16(at offset: Int) -> Int? { littleEndian ? bytes.uint16LE(at: offset) : bytes.uint16BE(at: offset) }
    private func uint32(at offset: Int) -> Int? { littleEndian ? bytes.uint32LE(at: offset) : bytes.uint32BE(at: offset) }
}
