import CImageCodecs
import FoundationEssentials

/// The PNGs whose image data the transforms read with imgfetch's own row reader (png_rows.c says
/// why: Debian's libpng unfilters a byte at a time): 8-bit, non-interlaced gray, gray + alpha, RGB
/// and RGBA, with consecutive IDATs and no chunk that would make libpng present the samples other
/// than as stored (tRNS, a gAMA other than sRGB's, sBIT, an animation's). libpng reads every other PNG.
///
/// The PNG rows of the benchmark's resize batch (122 corpus PNGs, 8-bit RGB, nearly every row
/// Paeth-filtered) took 1.80 s through libpng's simplified API and 0.91 s here; the resize batch
/// row of `scripts/bench resize` went from 5.13 to 4.74 s.
struct PNGImageData {
    /// Samples per pixel: 1 gray, 2 gray and alpha, 3 RGB, 4 RGBA.
    let channels: Int
    /// Where each IDAT chunk starts (its length field).
    let chunkOffsets: [UInt]

    /// Chunks that leave the samples as stored: libpng's RGBA output of a file with only these is
    /// its samples, widened (an iCCP profile is applied later, by the transform, for both readers;
    /// cHRM and bKGD matter only to conversions to gray or onto a background, which RGBA is not).
    private static let neutralChunks: Set<String> = [
        "IHDR", "IDAT", "IEND", "sRGB", "iCCP", "cHRM", "bKGD", "pHYs", "tEXt", "zTXt", "iTXt", "tIME",
    ]
    /// sRGB's gamma as a gAMA chunk states it (1/2.2 × 100000), which ImageMagick writes into
    /// every PNG: libpng leaves such samples as they are, as for a file without gAMA.
    private static let sRGBGamma = 45455

    /// The image data of `png`, or nil when libpng should read it.
    init?(_ png: PNGChunks) throws(DecodeError) {
        guard png.bitDepth == 8, !png.isInterlaced else { return nil }
        switch png.colorType {
        case 0: channels = 1
        case 4: channels = 2
        case 2: channels = 3
        case 6: channels = 4
        default: return nil
        }
        var offsets: [UInt] = []
        var ours = true
        var previous = ""
        _ = try png.walk { chunk throws(DecodeError) in
            // IDATs must follow one another; libpng refuses them split, so such a file is its to refuse.
            let split = chunk.type == "IDAT" && !offsets.isEmpty && previous != "IDAT"
            let neutral = Self.neutralChunks.contains(chunk.type)
                || (chunk.type == "gAMA" && chunk.length == 4 && png.bytes.uint32BE(at: chunk.offset + 8) == Self.sRGBGamma)
            guard neutral, !split else {
                ours = false
                return false
            }
            if chunk.type == "IDAT" { offsets.append(UInt(chunk.offset)) }
            previous = chunk.type
            return true
        }
        guard ours, !offsets.isEmpty else { return nil }
        chunkOffsets = offsets
    }

    /// The image as RGBA8, `width` × `height` (the header's size).
    func decodeRGBA(_ data: Data, width: Int, height: Int) throws(DecodeError) -> [UInt8] {
        if let failure = imgfetch_zlib_load() { throw .libraryUnavailable(.png, reason: String(cString: failure)) }
        return try CodecCall.fillRGBA(format: .png, width: width, height: height) { rgba, message, messageSize in
            data.withUnsafeBytes { file in
                chunkOffsets.withUnsafeBufferPointer { offsets in
                    imgfetch_png_decode_rows(
                        file.baseAddress?.assumingMemoryBound(to: UInt8.self), offsets.baseAddress, offsets.count,
                        UInt32(width), UInt32(height), Int32(channels), rgba, message, messageSize)
                }
            }
        }
    }
}
