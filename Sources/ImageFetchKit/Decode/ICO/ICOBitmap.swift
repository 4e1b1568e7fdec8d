import FoundationEssentials

/// An icon's bitmap: BMP pixels without a file header, followed by the AND mask, a 1-bit
/// bitmap in which a set bit makes the pixel transparent.
enum ICOBitmap {
    /// Decodes `image` (one directory entry's bytes, checked by `ICODirectory` to hold the
    /// pixels and, below 32 bits, the mask) into RGBA8.
    ///
    /// A 32-bit bitmap's fourth byte is alpha; when every one of them is 0 the writer meant none,
    /// and the mask (if present) decides as it does for fewer bits.
    static func decode(_ image: Data, header: BMPHeader) throws(DecodeError) -> [UInt8] {
        var pixels = try BMPPixels.decode(image, header: header, format: .ico)
        let hasOwnAlpha = header.bitCount == 32 && stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] != 0 }
        guard !hasOwnAlpha else { return pixels }

        let bytes = ByteReader(image)
        let maskRowSize = (header.width + 31) / 32 * 4
        let hasMask = header.pixelDataEnd + maskRowSize * header.height <= bytes.count
        for stored in 0..<header.height {
            let y = header.isTopDown ? stored : header.height - 1 - stored
            let row = header.pixelDataEnd + stored * maskRowSize
            for x in 0..<header.width {
                let masked = hasMask && (bytes.uint8(at: row + x >> 3) ?? 0) >> (7 - UInt8(x & 7)) & 1 == 1
                let at = (y * header.width + x) * 4
                if masked {
                    (pixels[at], pixels[at + 1], pixels[at + 2], pixels[at + 3]) = (0, 0, 0, 0)
                } else {
                    pixels[at + 3] = 255
                }
            }
        }
        return pixels
    }
}
