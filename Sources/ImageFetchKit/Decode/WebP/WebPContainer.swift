import FoundationEssentials

/// The RIFF/WebP container read without decoding: canvas size, alpha and frames from the first
/// chunk (VP8, VP8L or VP8X) and, for an animation, a walk over chunk headers counting ANMF.
struct WebPContainer {
    let width: Int
    let height: Int
    let hasAlpha: Bool
    let frameCount: Int
    let isLossless: Bool
    /// VP8X's animation flag: the image is ANMF frames, which only the animation decoder reads,
    /// even when there is only one.
    let isAnimated: Bool
    /// The size the RIFF header declares for the whole file (its size field + 8).
    let declaredFileSize: Int
    /// The orientation in a still image's `EXIF` chunk (VP8X's EXIF flag set); `.up` otherwise.
    /// The chunk follows the image data, so finding it walks every chunk header.
    private(set) var orientation = ImageOrientation.up

    init(_ data: Data) throws(DecodeError) {
        let bytes = ByteReader(data)
        guard let riffSize = bytes.uint32LE(at: 4), let chunk = bytes.ascii(at: 12, length: 4) else { throw .truncated(.webp) }
        declaredFileSize = riffSize + 8
        let payload = 20
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard let tag = bytes.uint8(at: payload), let w = bytes.uint16LE(at: payload + 6), let h = bytes.uint16LE(at: payload + 8)
            else { throw .truncated(.webp) }
            guard tag & 0x01 == 0, bytes.matches([0x9D, 0x01, 0x2A], at: payload + 3) else {
                throw .corrupt(.webp, reason: "the VP8 frame header is not a key frame")
            }
            (width, height, hasAlpha, frameCount, isLossless, isAnimated) = (w & 0x3FFF, h & 0x3FFF, false, 1, false, false)
        case "VP8L":
            // Signature 0x2F, then 14 bits width-1, 14 bits height-1, 1 bit alpha hint.
            guard let signature = bytes.uint8(at: payload), let bits = bytes.uint32LE(at: payload + 1) else { throw .truncated(.webp) }
            guard signature == 0x2F else { throw .corrupt(.webp, reason: "the VP8L signature is wrong") }
            (width, height, hasAlpha, frameCount, isLossless) = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, bits & (1 << 28) != 0, 1, true)
            isAnimated = false
        case "VP8X":
            // Flags byte, 3 reserved bytes, then 24-bit canvas width-1 and height-1.
            guard let flags = bytes.uint8(at: payload), let w = bytes.uint24LE(at: payload + 4), let h = bytes.uint24LE(at: payload + 7)
            else { throw .truncated(.webp) }
            let animated = flags & 0x02 != 0
            let frames = animated ? Self.countFrames(bytes) : 1
            guard frames > 0 else { throw .truncated(.webp) }
            (width, height, hasAlpha, frameCount) = (w + 1, h + 1, flags & 0x10 != 0, frames)
            isLossless = false
            isAnimated = animated
            if !animated, flags & 0x08 != 0 { orientation = Self.exifOrientation(bytes) ?? .up }
        default:
            throw .corrupt(.webp, reason: "the first chunk is \"\(chunk)\", not VP8, VP8L or VP8X")
        }
    }

    /// The orientation tag of the first top-level EXIF chunk.
    private static func exifOrientation(_ bytes: ByteReader) -> ImageOrientation? {
        guard let chunk = exifChunk(bytes) else { return nil }
        return EXIFOrientation.read(bytes, at: chunk.lowerBound, length: chunk.count)
    }

    /// The payload of the first top-level EXIF chunk, cut at the end of the data.
    static func exifChunk(_ bytes: ByteReader) -> Range<Int>? {
        var offset = 12
        while let size = bytes.uint32LE(at: offset + 4), let type = bytes.ascii(at: offset, length: 4) {
            if type == "EXIF" { return (offset + 8)..<(offset + 8 + max(0, min(size, bytes.count - offset - 8))) }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// ANMF chunks at the top level of the RIFF body (chunks are padded to even sizes).
    private static func countFrames(_ bytes: ByteReader) -> Int {
        var offset = 12
        var frames = 0
        while let size = bytes.uint32LE(at: offset + 4), let type = bytes.ascii(at: offset, length: 4) {
            if type == "ANMF" { frames += 1 }
            offset += 8 + size + (size & 1)
        }
        return frames
    }
}
