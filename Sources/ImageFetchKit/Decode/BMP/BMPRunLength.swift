/// The RLE8 and RLE4 streams of a BMP: runs of one index, absolute runs, end-of-line, delta and
/// end-of-bitmap codes.
enum BMPRunLength {
    /// Walks the stream from `header.pixelOffset` (to the header's image size, or the end of
    /// `source`) and calls `paint` for every pixel it sets that lies inside the image, with `y`
    /// counted from the bottom row as stored. Pixels past a row's end are dropped; the stream ends
    /// at the end-of-bitmap code or once a delta or end-of-line moves past the last row.
    ///
    /// - Throws: `.truncated` when the bytes end before that.
    static func walk(
        _ source: UnsafeRawBufferPointer, header: BMPHeader, format: ImageFormat, paint: (Int, Int, UInt8) -> Void
    ) throws(DecodeError) {
        let end = header.pixelDataSize > 0 ? min(source.count, header.pixelOffset + header.pixelDataSize) : source.count
        let isFourBit = header.compression == .runLength4
        var offset = header.pixelOffset
        var x = 0, y = 0

        func byte() throws(DecodeError) -> UInt8 {
            guard offset < end else { throw .truncated(format) }
            defer { offset += 1 }
            return source[offset]
        }
        func put(_ index: UInt8) {
            if x < header.width { paint(x, y, index) }
            x += 1
        }

        while y < header.height {
            let count = Int(try byte())
            let value = try byte()
            if count > 0 {
                for i in 0..<count { put(isFourBit ? (i & 1 == 0 ? value >> 4 : value & 0x0F) : value) }
                continue
            }
            switch value {
            case 0:
                x = 0
                y += 1
            case 1:
                return
            case 2:
                x += Int(try byte())
                y += Int(try byte())
            default:
                let literal = Int(value)
                let byteCount = isFourBit ? (literal + 1) / 2 : literal
                var last: UInt8 = 0
                for i in 0..<literal {
                    if !isFourBit {
                        put(try byte())
                    } else {
                        if i & 1 == 0 { last = try byte() }
                        put(i & 1 == 0 ? last >> 4 : last & 0x0F)
                    }
                }
                if byteCount & 1 == 1 { _ = try byte() }  // absolute runs are padded to 16 bits
            }
        }
    }
}
