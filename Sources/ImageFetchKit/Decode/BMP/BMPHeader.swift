import FoundationEssentials

/// A device-independent bitmap's headers, read and checked without allocating anything that
/// grows with the declared size: the part of BMP that ICO shares.
///
/// Reads the OS/2 core header (12 bytes) and BITMAPINFOHEADER with its V2–V5 extensions (40, 52,
/// 56, 108, 124 bytes). Every field that later drives a read or an allocation is checked here, so
/// the pixel readers can trust offsets and sizes: the palette lies before the pixel data, row and
/// image sizes do not overflow, the bit count exists for the compression.
struct BMPHeader {
    enum Compression: Equatable {
        case none, runLength8, runLength4, bitFields
    }

    /// Where a pixel's channels sit in a 16- or 32-bit little-endian value.
    struct ChannelMasks: Equatable {
        var red, green, blue, alpha: UInt32
    }

    /// Pixels per row.
    let width: Int
    /// Rows of the image (for an icon, without the AND mask's rows).
    let height: Int
    /// Rows are stored top row first (negative height in the header) instead of bottom row first.
    let isTopDown: Bool
    /// Bits per pixel: 1, 4, 8, 16, 24 or 32.
    let bitCount: Int
    let compression: Compression
    /// For 16- and 32-bit pixels.
    let masks: ChannelMasks
    /// Offset of the first palette entry, from the start of the data the header was read from.
    let paletteOffset: Int
    /// Palette entries present; pixel indexes at or past this count are painted black.
    let paletteCount: Int
    /// 3 bytes (blue, green, red) in a core header's palette, 4 in the others'.
    let paletteEntrySize: Int
    /// Offset of the first pixel row (or the RLE stream).
    let pixelOffset: Int
    /// Bytes per stored row, padded to 4 bytes (uncompressed only).
    let rowSize: Int
    /// Bytes of uncompressed pixel data (`rowSize * height`); for RLE, the header's image size (0 if unset).
    let pixelDataSize: Int

    /// Reads the header at `dibOffset` of `bytes`. `pixelOffset` is the BMP file header's pointer to
    /// the pixels; nil for an icon's bitmap, whose pixels follow the palette. `isIcon` halves the
    /// height (an icon's header counts the AND mask's rows too) and reads the fourth byte of
    /// 32-bit pixels as alpha. Errors name `format`.
    ///
    /// - Throws: `.truncated` when a header or the palette runs past the end; `.corrupt` for a header
    ///   size, bit count or compression that does not exist, contradicting or overflowing sizes.
    init(_ bytes: ByteReader, dibOffset: Int, pixelOffset declaredPixelOffset: Int?, isIcon: Bool, format: ImageFormat) throws(DecodeError) {
        func corrupt(_ reason: String) -> DecodeError { .corrupt(format, reason: reason) }
        guard let headerSize = bytes.uint32LE(at: dibOffset) else { throw .truncated(format) }
        guard [12, 40, 52, 56, 108, 124].contains(headerSize) else {
            throw corrupt("a bitmap header of \(headerSize) bytes is none of the known sizes (12, 40, 52, 56, 108, 124)")
        }
        guard dibOffset + headerSize <= bytes.count else { throw .truncated(format) }
        let isCore = headerSize == 12
        let field = Fields(bytes: bytes, base: dibOffset)

        let width: Int, signedHeight: Int, bitCount: Int, compressionCode: Int, colorsUsed: Int
        if isCore {
            (width, signedHeight, bitCount, compressionCode, colorsUsed) = (field.u16(4), field.u16(6), field.u16(10), 0, 0)
        } else {
            (width, signedHeight) = (field.i32(4), field.i32(8))
            (bitCount, compressionCode, colorsUsed) = (field.u16(14), field.u32(16), field.u32(32))
        }
        guard width >= 0 else { throw corrupt("the width \(width) is negative") }
        guard signedHeight != Int(Int32.min) else { throw corrupt("the height \(signedHeight) is out of range") }
        let validBitCounts = isCore ? [1, 4, 8, 24] : [1, 4, 8, 16, 24, 32]
        guard validBitCounts.contains(bitCount) else { throw corrupt("\(bitCount) bits per pixel does not exist") }

        let compression: Compression
        switch compressionCode {
        case 0: compression = .none
        case 1 where bitCount == 8: compression = .runLength8
        case 2 where bitCount == 4: compression = .runLength4
        case 3 where bitCount == 16 || bitCount == 32, 6 where bitCount == 16 || bitCount == 32: compression = .bitFields
        case 1, 2, 3, 6: throw corrupt("compression \(compressionCode) cannot be used with \(bitCount) bits per pixel")
        case 4, 5: throw corrupt("it holds a \(compressionCode == 4 ? "JPEG" : "PNG") image, an unsupported compression")
        default: throw corrupt("compression \(compressionCode) does not exist")
        }
        let isTopDown = signedHeight < 0
        guard !(isTopDown && (compression == .runLength8 || compression == .runLength4)) else {
            throw corrupt("a run-length compressed bitmap cannot be stored top-down")
        }
        guard !(isIcon && compression != .none && compression != .bitFields) else {
            throw corrupt("an icon's bitmap cannot be run-length compressed")
        }
        let storedHeight = abs(signedHeight)
        guard !isIcon || storedHeight % 2 == 0 else {
            throw corrupt("the icon bitmap's height \(storedHeight) is odd, so it cannot hold an image and its mask")
        }

        // BI_BITFIELDS masks follow a 40-byte header; longer headers hold them (V3 adds alpha).
        var masksEnd = dibOffset + headerSize
        var masks = Self.defaultMasks(bitCount: bitCount, alphaInFourthByte: isIcon)
        if compression == .bitFields {
            let fieldCount = headerSize == 40 ? (compressionCode == 6 ? 4 : 3) : (headerSize >= 56 ? 4 : 3)
            let maskField = Fields(bytes: bytes, base: headerSize == 40 ? masksEnd : dibOffset + 40)
            if headerSize == 40 { masksEnd += fieldCount * 4 }
            guard masksEnd <= bytes.count else { throw .truncated(format) }
            masks = ChannelMasks(
                red: UInt32(maskField.u32(0)), green: UInt32(maskField.u32(4)), blue: UInt32(maskField.u32(8)),
                alpha: fieldCount == 4 ? UInt32(maskField.u32(12)) : 0
            )
            try Self.check(masks, bitCount: bitCount, format: format)
        }

        let entrySize = isCore ? 3 : 4
        var paletteCount = 0
        if bitCount <= 8 {
            let most = 1 << bitCount
            guard colorsUsed <= most else {
                throw corrupt("a palette of \(colorsUsed) colours is more than \(bitCount) bits per pixel can index")
            }
            paletteCount = colorsUsed == 0 ? most : colorsUsed
        }
        let pixelOffset: Int
        if let declaredPixelOffset {
            guard declaredPixelOffset >= masksEnd else {
                throw corrupt("the pixel data offset \(declaredPixelOffset) lies inside the headers")
            }
            // Writers that leave the count at 0 may store fewer entries than the bit count allows.
            let room = (declaredPixelOffset - masksEnd) / entrySize
            if paletteCount > room {
                guard colorsUsed == 0 else {
                    throw corrupt("the palette of \(paletteCount) colours runs into the pixel data")
                }
                paletteCount = room
            }
            pixelOffset = declaredPixelOffset
        } else {
            pixelOffset = masksEnd + paletteCount * entrySize
        }
        guard masksEnd + paletteCount * entrySize <= bytes.count, pixelOffset <= bytes.count else { throw .truncated(format) }

        // Fits: width < 2^31 and 32 bits per pixel make under 2^37 bits.
        let rowSize = (width * bitCount + 31) / 32 * 4
        let pixelDataSize: Int
        if compression == .runLength8 || compression == .runLength4 {
            pixelDataSize = isCore ? 0 : field.u32(20)
        } else {
            let (size, overflow) = rowSize.multipliedReportingOverflow(by: storedHeight)
            guard !overflow, !pixelOffset.addingReportingOverflow(size).overflow else {
                throw corrupt("the size \(width)×\(storedHeight) at \(bitCount) bits per pixel overflows")
            }
            pixelDataSize = size
        }

        self.width = width
        self.height = isIcon ? storedHeight / 2 : storedHeight
        self.isTopDown = isTopDown
        self.bitCount = bitCount
        self.compression = compression
        self.masks = masks
        self.paletteOffset = masksEnd
        self.paletteCount = paletteCount
        self.paletteEntrySize = entrySize
        self.pixelOffset = pixelOffset
        self.rowSize = rowSize
        self.pixelDataSize = isIcon ? rowSize * (storedHeight / 2) : pixelDataSize
    }

    /// Whether any pixel can be less than opaque from the bitmap itself (an icon's AND mask aside).
    var hasAlpha: Bool { (bitCount == 16 || bitCount == 32) && masks.alpha != 0 }

    /// Bits per channel as stored: the palette index size, or the widest channel mask.
    var bitDepth: Int {
        switch bitCount {
        case 16, 32: max(masks.red.nonzeroBitCount, masks.green.nonzeroBitCount, masks.blue.nonzeroBitCount)
        case 24: 8
        default: bitCount
        }
    }

    /// The end of the uncompressed pixel rows.
    var pixelDataEnd: Int { pixelOffset + pixelDataSize }

    private static func defaultMasks(bitCount: Int, alphaInFourthByte: Bool) -> ChannelMasks {
        switch bitCount {
        case 16: ChannelMasks(red: 0x7C00, green: 0x03E0, blue: 0x001F, alpha: 0)
        // The fourth byte of a BI_RGB pixel is "reserved" in a BMP file, but an icon's alpha.
        default: ChannelMasks(red: 0xFF_0000, green: 0xFF00, blue: 0xFF, alpha: alphaInFourthByte ? 0xFF00_0000 : 0)
        }
    }

    /// Each mask must be one run of bits inside the pixel, and no two may share a bit.
    private static func check(_ masks: ChannelMasks, bitCount: Int, format: ImageFormat) throws(DecodeError) {
        let all = [masks.red, masks.green, masks.blue, masks.alpha]
        for mask in all where mask != 0 {
            let run = mask >> mask.trailingZeroBitCount
            guard run & (run &+ 1) == 0 else { throw .corrupt(format, reason: "the channel mask \(hex(mask)) is not one run of bits") }
            guard bitCount == 32 || mask >> UInt32(bitCount) == 0 else {
                throw .corrupt(format, reason: "the channel mask \(hex(mask)) reaches past \(bitCount) bits")
            }
        }
        guard masks.red & masks.green == 0, masks.red & masks.blue == 0, masks.green & masks.blue == 0,
              (masks.red | masks.green | masks.blue) & masks.alpha == 0
        else { throw .corrupt(format, reason: "two channel masks share bits") }
    }

    private static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16, uppercase: true) }
}

/// Little-endian header fields at offsets from `base`; the caller has checked they are in range.
private struct Fields {
    let bytes: ByteReader
    let base: Int

    func u16(_ offset: Int) -> Int { bytes.uint16LE(at: base + offset) ?? 0 }
    func u32(_ offset: Int) -> Int { bytes.uint32LE(at: base + offset) ?? 0 }
    func i32(_ offset: Int) -> Int { Int(Int32(truncatingIfNeeded: u32(offset))) }
}
