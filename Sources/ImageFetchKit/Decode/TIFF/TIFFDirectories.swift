/// The image file directories (IFDs) of a TIFF file, classic or BigTIFF: the chain from the header,
/// one per page, and the few tags of each that imgfetch reads. Every offset is checked against the
/// data. BigTIFF differs only in widths: 8-byte offsets and counts, 20-byte entries.
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
    private let isBig: Bool

    /// A chain longer than this is taken for a loop the visited-offset check missed.
    private static let maxPages = 65_536

    /// Walks the IFD chain. A directory that starts or ends past the data is `.truncated`; a chain
    /// that loops back on itself or an empty first directory is `.corrupt`.
    init(_ bytes: ByteReader) throws(DecodeError) {
        self.bytes = bytes
        littleEndian = bytes.matches([0x49, 0x49], at: 0)
        isBig = (littleEndian ? bytes.uint16LE(at: 2) : bytes.uint16BE(at: 2)) == 43
        // BigTIFF's header: offset size 8, a zero, then the first directory's 8-byte offset.
        if isBig, (littleEndian ? bytes.uint16LE(at: 4) : bytes.uint16BE(at: 4)) != 8 {
            throw .corrupt(.tiff, reason: "its BigTIFF header gives an offset size other than 8")
        }
        let (countSize, entrySize, offsetSize) = isBig ? (8, 20, 8) : (2, 12, 4)
        guard var next = offset(at: isBig ? 8 : 4) else { throw .truncated(.tiff) }
        var visited = Set<Int>()
        while next != 0 {
            guard visited.insert(next).inserted, visited.count <= Self.maxPages else {
                throw .corrupt(.tiff, reason: "its chain of directories loops back on itself")
            }
            guard let count = isBig ? offset(at: next) : uint16(at: next), count <= bytes.count / entrySize,
                  let following = offset(at: next + countSize + count * entrySize) else { throw .truncated(.tiff) }
            var entries: [Entry] = []
            entries.reserveCapacity(count)
            for index in 0..<count {
                let at = next + countSize + index * entrySize
                guard let tag = uint16(at: at), let type = uint16(at: at + 2), let values = offset(at: at + 4) else { throw .truncated(.tiff) }
                let size = values.multipliedReportingOverflow(by: Self.byteSize(ofType: type))
                let inline = !size.overflow && size.partialValue <= offsetSize
                let valueOffset = inline ? at + 4 + offsetSize : (offset(at: at + 4 + offsetSize) ?? 0)
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
        guard entry.count <= bytes.count, entry.valueOffset + entry.count * Self.byteSize(ofType: entry.type) <= bytes.count else {
            throw .truncated(.tiff)
        }
        return (0..<entry.count).map { value(of: entry, index: $0) ?? 0 }
    }

    private func value(of entry: Entry, index: Int) -> Int? {
        let value: Int? = switch entry.type {
        case 1, 7: bytes.uint8(at: entry.valueOffset + index).map(Int.init)
        case 3: uint16(at: entry.valueOffset + index * 2)
        case 4, 13: uint32(at: entry.valueOffset + index * 4)
        case 16, 18: uint64(at: entry.valueOffset + index * 8)
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
        case 5, 10, 12, 16, 17, 18: 8
        default: 1
        }
    }

    private func uint16(at offset: Int) -> Int? { littleEndian ? bytes.uint16LE(at: offset) : bytes.uint16BE(at: offset) }
    private func uint32(at offset: Int) -> Int? { littleEndian ? bytes.uint32LE(at: offset) : bytes.uint32BE(at: offset) }
    /// An 8-byte value, nil when it does not fit an `Int` (no file is that large).
    private func uint64(at offset: Int) -> Int? {
        guard let low = uint32(at: littleEndian ? offset : offset + 4), let high = uint32(at: littleEndian ? offset + 4 : offset),
              high < 0x1000_0000 else { return nil }
        return high << 32 | low
    }
    /// An offset or count: 4 bytes in classic TIFF, 8 in BigTIFF.
    private func offset(at offset: Int) -> Int? { isBig ? uint64(at: offset) : uint32(at: offset) }
}
