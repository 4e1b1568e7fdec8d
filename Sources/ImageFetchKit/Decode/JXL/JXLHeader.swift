/// The size and orientation a JPEG XL codestream states in its first bytes (the SizeHeader and
/// the start of ImageMetadata, ISO/IEC 18181-1 §D.2–D.3), found inside the ISO-BMFF container
/// when there is one. Enough to check the pixel limit before libjxl is asked anything.
struct JXLHeader {
    var storedWidth = 0
    var storedHeight = 0
    var orientation = ImageOrientation.up

    var width: Int { orientation.swapsWidthAndHeight ? storedHeight : storedWidth }
    var height: Int { orientation.swapsWidthAndHeight ? storedWidth : storedHeight }

    /// Reads a bare codestream (FF 0A) or the container's boxes, which must all lie within the
    /// data, up to the first codestream box (`jxlc`, or the first `jxlp` part).
    init(_ bytes: ByteReader) throws(DecodeError) {
        var start = 0
        if !bytes.matches([0xFF, 0x0A], at: 0) {
            let boxes = try ISOBox.children(of: bytes, from: 0, to: bytes.count, format: .jxl)
            if let whole = boxes.first(ISOBox.code("jxlc")) { start = whole.payload }
            else if let part = boxes.first(ISOBox.code("jxlp")) { start = part.payload + 4 }
            else { throw .corrupt(.jxl, reason: "the container holds no codestream box") }
            guard bytes.matches([0xFF, 0x0A], at: start) else { throw .corrupt(.jxl, reason: "the codestream does not start with FF 0A") }
        }
        var bits = BitReader(bytes, at: start + 2)
        try readSize(&bits)
        if try bits.flag() == false, try bits.flag() {  // not all_default, then extra_fields
            orientation = ImageOrientation(rawValue: try bits.read(3) + 1) ?? .up
        }
    }

    private mutating func readSize(_ bits: inout BitReader) throws(DecodeError) {
        let small = try bits.flag()
        storedHeight = small ? (try bits.read(5) + 1) * 8 : try bits.u32Size()
        let ratio = try bits.read(3)
        // Fixed aspect ratios (numerator, denominator) for ratio 1…7; 0 means the width follows.
        let ratios = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)]
        if ratio == 0 {
            storedWidth = small ? (try bits.read(5) + 1) * 8 : try bits.u32Size()
        } else {
            storedWidth = storedHeight * ratios[ratio - 1].0 / ratios[ratio - 1].1
        }
    }

    /// JPEG XL's fields are packed least significant bit first.
    private struct BitReader {
        let bytes: ByteReader
        var position: Int  // in bits

        init(_ bytes: ByteReader, at offset: Int) {
            self.bytes = bytes
            self.position = offset * 8
        }

        mutating func read(_ count: Int) throws(DecodeError) -> Int {
            var value = 0
            for i in 0..<count {
                guard let byte = bytes.uint8(at: position >> 3) else { throw .truncated(.jxl) }
                value |= Int(byte >> UInt8(position & 7) & 1) << i
                position += 1
            }
            return value
        }

        mutating func flag() throws(DecodeError) -> Bool { try read(1) == 1 }

        /// A dimension coded as U32(1 + u(9), 1 + u(13), 1 + u(18), 1 + u(30)).
        mutating func u32Size() throws(DecodeError) -> Int {
            try read([9, 13, 18, 30][try read(2)]) + 1
        }
    }
}
