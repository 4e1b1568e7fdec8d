import CImageCodecs
import FoundationEssentials

/// The PNGs whose image data the transforms read with imgfetch's own row reader (png_rows.c says
/// why: Debian's libpng unfilters a byte at a time): 8-bit, non-interlaced gray, gray + alpha, RGB
/// and RGBA, with consecutive IDATs and no chunk that would make libpng present the samples other
/// than as stored (tRNS, a gAMA other than sRGB's, sBIT, an animation's). libpng reads every other
/// PNG, and these too when the row reader does not take them (see `decodeRGBA`).
///
/// A second reader beside libpng, for what it buys: the 122 PNGs of the benchmark corpus decode in
/// 0.68–0.74 s instead of libpng's 1.71–1.81 s (C, -O2, one thread, three runs), the same pixels,
/// and no more memory than libpng's (the rows are inflated into the output buffer); with it the
/// resize batch of `scripts/bench resize` measured 0.22×, 0.24× and 0.24× img2dataset's time in
/// three runs (0.26× and 0.27× before).
struct PNGImageData {
    /// Samples per pixel: 1 gray, 2 gray and alpha, 3 RGB, 4 RGBA.
    let channels: Int
    /// Where each IDAT chunk starts (its length field).
    let chunkOffsets: [UInt]

    /// Chunks that leave the samples as stored: libpng's RGBA output of a file with only these is
    /// its samples, widened (an iCCP profile is applied later, by the transform, for both readers;
    /// cHRM and bKGD matter only to conversions to gray or onto a background, which RGBA is not).
    private static let neutralChunks: Set<String> = [
        "IHDR", "IDAT", "IEND", "sRGB", "iCCP", "cHRM", "bKGD", "pHYs", "tEXt", "zTXt", "iTXt", "tIME", "eXIf",
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

    /// The image as RGBA8, `width` × `height` (the header's size); nil when the row reader does
    /// not take the data (a wrong CRC, a damaged stream, one that ends early or runs on, an unknown
    /// filter, libdeflate missing), which libpng then reads to decode it or to say what is wrong.
    func decodeRGBA(_ data: Data, width: Int, height: Int) -> [UInt8]? {
        guard imgfetch_deflate_load() == nil else { return nil }
        let (columns, rows, samples) = (UInt32(width), UInt32(height), Int32(channels))
        var status = Int32(IMGFETCH_CODEC_FAILED)
        let pixels = PixelBuffer.make(byteCount: width * height * 4, capacity: imgfetch_png_rows_capacity(columns, rows, samples)) { rgba in
            status = data.withUnsafeBytes { file in
                chunkOffsets.withUnsafeBufferPointer { offsets in
                    imgfetch_png_decode_rows(
                        file.baseAddress?.assumingMemoryBound(to: UInt8.self), offsets.baseAddress, offsets.count,
                        columns, rows, samples, rgba.baseAddress)
                }
            }
            if status != IMGFETCH_CODEC_DECODED { rgba.initialize(repeating: 0) }
        }
        return status == IMGFETCH_CODEC_DECODED ? pixels : nil
    }
}
