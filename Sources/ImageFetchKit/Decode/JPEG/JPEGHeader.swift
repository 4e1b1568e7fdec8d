import FoundationEssentials

/// The facts a JPEG's markers state before the scan data: frame size and components from the SOF
/// segment, orientation from an EXIF APP1 segment, whether an Adobe APP14 segment is present
/// (which tells that 4-component data is inverted CMYK), whether the tables are its own, and where
/// the APP2 segments of an embedded ICC profile lie.
struct JPEGHeader {
    var width = 0
    var height = 0
    var components = 0
    var precision = 8
    var isProgressive = false
    var orientation = ImageOrientation.up
    var hasAdobeMarker = false
    /// The payloads of the APP2 segments that start with `iccSignature`, in file order, as offsets
    /// from the first byte of the data; `iccProfile(in:)` reassembles them.
    var iccSegments: [Range<Int>] = []
    /// The payload of the first APP1 segment that starts with "Exif\0\0" (kept by `--keep-metadata`).
    var exifSegment: Range<Int>?
    /// Whether DQT and DHT segments precede the first scan. A stream may omit them (abbreviated
    /// streams, Motion-JPEG frames), and then a reused libjpeg object would silently apply the
    /// tables of the previous image; such streams get a fresh decompressor.
    var definesItsOwnTables: Bool { hasQuantizationTables && hasHuffmanTables }
    private var hasFrame = false
    private var hasQuantizationTables = false
    private var hasHuffmanTables = false

    /// Walks the marker segments from SOI to the first scan (SOS). Failing before the frame
    /// header (SOF) is an error; after it the probe has what it needs, and a broken tail is for
    /// validation or the decoder to report.
    init(_ data: Data) throws(DecodeError) {
        do {
            try walkSegments(ByteReader(data))
        } catch {
            if !hasFrame { throw error }
        }
    }

    private mutating func walkSegments(_ bytes: ByteReader) throws(DecodeError) {
        guard bytes.matches([0xFF, 0xD8], at: 0) else { throw .corrupt(.jpeg, reason: "it does not start with an SOI marker") }
        var offset = 2
        while true {
            guard let prefix = bytes.uint8(at: offset) else { throw .truncated(.jpeg) }
            guard prefix == 0xFF else {
                throw .corrupt(.jpeg, reason: "byte \(offset) should start a marker but is 0x\(String(prefix, radix: 16))")
            }
            // Any number of 0xFF fill bytes may precede a marker code.
            var markerOffset = offset + 1
            while bytes.uint8(at: markerOffset) == 0xFF { markerOffset += 1 }
            guard let marker = bytes.uint8(at: markerOffset) else { throw .truncated(.jpeg) }
            offset = markerOffset + 1
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // standalone markers
            if marker == 0xD9 { throw .corrupt(.jpeg, reason: "it ends (EOI) before any scan") }
            if marker == 0xDA {
                guard hasFrame else { throw .corrupt(.jpeg, reason: "scan data starts before any frame header") }
                return
            }
            guard let length = bytes.uint16BE(at: offset) else { throw .truncated(.jpeg) }
            guard length >= 2 else { throw .corrupt(.jpeg, reason: "a marker segment has the impossible length \(length)") }
            guard offset + length <= bytes.count else { throw .truncated(.jpeg) }
            let payload = offset + 2
            switch marker {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                if !hasFrame { try readFrame(bytes, at: payload, marker: marker) }
                hasFrame = true
            case 0xDB:
                hasQuantizationTables = true
            case 0xC4:
                hasHuffmanTables = true
            case 0xE1:
                if exifSegment == nil, bytes.matches(Array("Exif".utf8) + [0, 0], at: payload) {
                    exifSegment = payload..<(payload + length - 2)
                }
                if bytes.matches(Array("Exif".utf8) + [0, 0], at: payload),
                   let value = EXIFOrientation.read(bytes, at: payload, length: length - 2) { orientation = value }
            case 0xE2:
                if bytes.matches(Self.iccSignature, at: payload) { iccSegments.append(payload..<(payload + length - 2)) }
            case 0xEE:
                hasAdobeMarker = bytes.matches(Array("Adobe".utf8), at: payload)
            default:
                break
            }
            offset = payload + length - 2
        }
    }

    private mutating func readFrame(_ bytes: ByteReader, at offset: Int, marker: UInt8) throws(DecodeError) {
        guard let precision = bytes.uint8(at: offset), let height = bytes.uint16BE(at: offset + 1),
              let width = bytes.uint16BE(at: offset + 3), let components = bytes.uint8(at: offset + 5)
        else { throw .truncated(.jpeg) }
        guard [1, 3, 4].contains(components) else {
            throw .corrupt(.jpeg, reason: "the frame header declares \(components) colour components")
        }
        self.precision = Int(precision)
        self.height = height
        self.width = width
        self.components = Int(components)
        self.isProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
    }
}
