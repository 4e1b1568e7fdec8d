import FoundationEssentials

/// Turns a bitmap's stored pixels into RGBA8, top row first, in pure Swift.
enum BMPPixels {
    /// Decodes the pixels `header` describes (its offsets count from the start of `data`) into a
    /// new `width * height * 4` array. The caller has checked the structure (`BMPDecoder`'s
    /// `validateStructure` or the icon's entry size), so uncompressed rows lie within `data`.
    ///
    /// - Throws: `.truncated` or `.corrupt` from a run-length stream, naming `format`.
    static func decode(_ data: Data, header: BMPHeader, format: ImageFormat) throws(DecodeError) -> [UInt8] {
        let palette = palette(ByteReader(data), header: header)
        var failure: DecodeError?
        let pixels = PixelBuffer.make(byteCount: header.width * header.height * 4) { out in
            data.withUnsafeBytes { source in
                switch header.compression {
                case .none, .bitFields:
                    decodeRows(source, header: header, palette: palette, into: out)
                case .runLength8, .runLength4:
                    // Pixels a run never paints (skipped by a delta or an early end) stay opaque black.
                    for i in stride(from: 0, to: out.count, by: 4) {
                        out[i] = 0; out[i + 1] = 0; out[i + 2] = 0; out[i + 3] = 255
                    }
                    do throws(DecodeError) {
                        try BMPRunLength.walk(source, header: header, format: format) { x, y, index in
                            let at = ((header.height - 1 - y) * header.width + x) * 4
                            let colour = Int(index) * 4
                            for c in 0..<4 { out[at + c] = palette[colour + c] }
                        }
                    } catch {
                        failure = error
                    }
                }
            }
        }
        if let failure { throw failure }
        return pixels
    }

    /// 256 RGBA entries; those the file does not hold are opaque black, so any index is safe.
    private static func palette(_ bytes: ByteReader, header: BMPHeader) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 256 * 4)
        for entry in 0..<256 {
            let at = header.paletteOffset + entry * header.paletteEntrySize
            if entry < header.paletteCount, let blue = bytes.uint8(at: at), let green = bytes.uint8(at: at + 1), let red = bytes.uint8(at: at + 2) {
                (table[entry * 4], table[entry * 4 + 1], table[entry * 4 + 2]) = (red, green, blue)
            }
            table[entry * 4 + 3] = 255
        }
        return table
    }

    private static func decodeRows(
        _ source: UnsafeRawBufferPointer, header: BMPHeader, palette: [UInt8], into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        let width = header.width
        let channels = MaskedChannels(header.masks)
        for stored in 0..<header.height {
            let raw = source.baseAddress! + header.pixelOffset + stored * header.rowSize
            let row = raw.assumingMemoryBound(to: UInt8.self)
            let y = header.isTopDown ? stored : header.height - 1 - stored
            var at = y * width * 4
            for x in 0..<width {
                switch header.bitCount {
                case 24:
                    let p = row + x * 3
                    (out[at], out[at + 1], out[at + 2], out[at + 3]) = (p[2], p[1], p[0], 255)
                case 32:
                    channels.write(UInt32(littleEndian: (raw + x * 4).loadUnaligned(as: UInt32.self)), to: out, at: at)
                case 16:
                    channels.write(UInt32(UInt16(littleEndian: (raw + x * 2).loadUnaligned(as: UInt16.self))), to: out, at: at)
                default:
                    let index = paletteIndex(row, x: x, bitCount: header.bitCount)
                    for c in 0..<4 { out[at + c] = palette[index * 4 + c] }
                }
                at += 4
            }
        }
    }

    /// The `x`th index of a 1-, 4- or 8-bit row, most significant bits first.
    private static func paletteIndex(_ row: UnsafePointer<UInt8>, x: Int, bitCount: Int) -> Int {
        switch bitCount {
        case 8: Int(row[x])
        case 4: Int(x & 1 == 0 ? row[x >> 1] >> 4 : row[x >> 1] & 0x0F)
        default: Int(row[x >> 3] >> (7 - UInt8(x & 7)) & 1)
        }
    }
}

/// Channel masks turned into shifts and 8-bit scales, once per image.
private struct MaskedChannels {
    private struct Channel {
        let mask: UInt32
        let shift: UInt32
        let bits: Int

        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            bits = mask.nonzeroBitCount
        }

        /// The channel scaled to 0...255: wide channels keep their top 8 bits, narrow ones stretch.
        func value(of pixel: UInt32, absent: UInt8) -> UInt8 {
            guard bits > 0 else { return absent }
            let raw = Int((pixel & mask) >> shift)
            if bits >= 8 { return UInt8(truncatingIfNeeded: raw >> (bits - 8)) }
            let most = (1 << bits) - 1
            return UInt8((raw * 255 + most / 2) / most)
        }
    }

    private let red, green, blue, alpha: Channel

    init(_ masks: BMPHeader.ChannelMasks) {
        red = Channel(masks.red)
        green = Channel(masks.green)
        blue = Channel(masks.blue)
        alpha = Channel(masks.alpha)
    }

    func write(_ pixel: UInt32, to out: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        out[index] = red.value(of: pixel, absent: 0)
        out[index + 1] = green.value(of: pixel, absent: 0)
        out[index + 2] = blue.value(of: pixel, absent: 0)
        out[index + 3] = alpha.value(of: pixel, absent: 255)
    }
}
