import FoundationEssentials

/// An ICO or CUR file's directory, with each image's real size read from its own header.
///
/// The directory's one-byte sizes (0 meaning 256) are only hints: the embedded PNG's IHDR or the
/// bitmap's header says what is decoded. Every entry must lie after the directory and within the
/// file without overlapping another, and a bitmap's entry must be large enough for its pixels and
/// its AND mask; so after this parse every image's bytes can be read without further checks.
/// Entries are bounded by the file size (16 bytes each), so the array is too.
struct ICODirectory {
    /// One image of the file.
    struct Entry {
        enum Content {
            case png
            case bitmap(BMPHeader)
        }

        /// Its position in the directory, counted from 0.
        let index: Int
        /// Its bytes within the file.
        let range: Range<Int>
        let content: Content
        let width: Int
        let height: Int
        let hasAlpha: Bool
        let bitDepth: Int
        /// Bits a pixel as stored (a bitmap's bit count; a PNG's depth times its samples), which
        /// ranks images of one size: 32-bit colour with alpha over a 256-colour palette.
        let bitsPerPixel: Int
    }

    let entries: [Entry]
    /// The image with the most pixels and, among those, the most bits a pixel (the first of
    /// equals): the one imgfetch reports and returns, as an icon viewer would pick it.
    let largest: Entry

    private static let headerSize = 6
    private static let entrySize = 16

    init(_ data: Data) throws(DecodeError) {
        let bytes = ByteReader(data)
        guard let count = bytes.uint16LE(at: 4) else { throw .truncated(.ico) }
        guard count > 0 else { throw .corrupt(.ico, reason: "its directory lists no images") }
        let directoryEnd = Self.headerSize + count * Self.entrySize
        guard directoryEnd <= bytes.count else { throw .truncated(.ico) }

        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(count)
        for index in 0..<count {
            let at = Self.headerSize + index * Self.entrySize
            let size = bytes.uint32LE(at: at + 8) ?? 0, offset = bytes.uint32LE(at: at + 12) ?? 0
            guard offset >= directoryEnd else {
                throw .corrupt(.ico, reason: "image \(index + 1) starts at offset \(offset), inside the directory")
            }
            guard offset + size <= bytes.count else { throw .truncated(.ico) }
            ranges.append(offset..<(offset + size))
        }
        // Images sharing bytes would let a small file make imgfetch decode one image thousands of times.
        let byOffset = ranges.indices.sorted { ranges[$0].lowerBound < ranges[$1].lowerBound }
        for (earlier, later) in zip(byOffset, byOffset.dropFirst()) where ranges[later].lowerBound < ranges[earlier].upperBound {
            throw .corrupt(.ico, reason: "images \(min(earlier, later) + 1) and \(max(earlier, later) + 1) overlap")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for (index, range) in ranges.enumerated() {
            entries.append(try Self.entry(index: index, range: range, in: data))
        }
        self.entries = entries
        largest = entries.dropFirst().reduce(entries[0]) { best, entry in
            (entry.width * entry.height, entry.bitsPerPixel) > (best.width * best.height, best.bitsPerPixel) ? entry : best
        }
    }

    /// The bytes of `entry`, sharing `data`'s storage.
    static func bytes(of entry: Entry, in data: Data) -> Data {
        data[(data.startIndex + entry.range.lowerBound)..<(data.startIndex + entry.range.upperBound)]
    }

    private static func entry(index: Int, range: Range<Int>, in data: Data) throws(DecodeError) -> Entry {
        let image = data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)]
        let bytes = ByteReader(image)
        if bytes.matches(PNGChunks.signature, at: 0) {
            let info: ImageInfo
            do {
                info = try PNGDecoder().probe(image)
            } catch {
                throw Self.iconError(error, image: index)
            }
            try checkSize(info.width, info.height, image: index)
            return Entry(
                index: index, range: range, content: .png, width: info.width, height: info.height,
                hasAlpha: info.hasAlpha, bitDepth: info.bitDepth, bitsPerPixel: info.bitDepth * Self.pngSamples(image)
            )
        }
        let header = try BMPHeader(bytes, dibOffset: 0, pixelOffset: nil, isIcon: true, format: .ico)
        try checkSize(header.width, header.height, image: index)
        // The AND mask: one bit per pixel, rows padded to 4 bytes. A 32-bit image carries its own
        // alpha, and some writers leave the mask out.
        let maskSize = (header.width + 31) / 32 * 4 * header.height
        let needed = header.pixelDataEnd + (header.bitCount == 32 ? 0 : maskSize)
        guard needed <= bytes.count else {
            throw .corrupt(.ico, reason: "image \(index + 1) holds \(bytes.count) bytes, too few for its \(header.width)×\(header.height) bitmap and mask")
        }
        return Entry(
            index: index, range: range, content: .bitmap(header), width: header.width, height: header.height,
            hasAlpha: true, bitDepth: header.bitDepth, bitsPerPixel: header.bitCount
        )
    }

    /// Samples a pixel of an embedded PNG, from its IHDR colour type (a palette index is one).
    private static func pngSamples(_ png: Data) -> Int {
        switch ByteReader(png).uint8(at: 25) {
        case 2: 3
        case 4: 2
        case 6: 4
        default: 1
        }
    }

    private static func checkSize(_ width: Int, _ height: Int, image index: Int) throws(DecodeError) {
        guard width > 0, height > 0 else { throw .corrupt(.ico, reason: "image \(index + 1) is \(width)×\(height), which has no pixels") }
    }

    /// An embedded PNG's error told as the icon's: the file the user has is an ICO.
    static func iconError(_ error: DecodeError, image index: Int) -> DecodeError {
        switch error {
        case .truncated(.png): .truncated(.ico)
        case .corrupt(.png, let reason): .corrupt(.ico, reason: "its PNG image \(index + 1) is corrupt: \(reason)")
        default: error
        }
    }
}
