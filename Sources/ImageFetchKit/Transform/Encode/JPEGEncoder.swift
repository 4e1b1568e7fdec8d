import CImageCodecs
import FoundationEssentials

/// Writes JPEG with libjpeg-turbo: 4:2:0 chroma, optimised Huffman tables, baseline unless
/// `progressive`. JPEG has no alpha: a transparent pixel is composited over `background` first
/// (white unless `--background` says otherwise), so a logo on a transparent background comes out
/// on white, not on black.
struct JPEGEncoder: ImageEncoding {
    /// 1–100, libjpeg's scale (values outside are clamped).
    var quality: Int
    var progressive: Bool = false
    /// What transparency is flattened onto (its own alpha is ignored).
    var background = BackgroundColor.white
    /// The original's ICC profile and EXIF block, kept by `--keep-metadata` (APP2 and APP1 segments).
    var metadata = KeptMetadata.none

    var format: ImageFormat { .jpeg }

    /// JPEG's largest side (libjpeg's JPEG_MAX_DIMENSION).
    static let maxSide = 65500

    func encode(_ image: RGBAImage) throws(EncodeError) -> Data {
        try checkSize(of: image, limit: Self.maxSide)
        try EncoderCall.load(.jpeg, for: .jpeg)
        // libjpeg reads the RGBA rows as RGBX, ignoring the fourth byte: opaque pixels need no copy.
        let rows = image.hasTransparency ? Self.flattened(image.pixels, onto: background) : image.pixels
        return try rows.withUnsafeBufferPointer { rgbx throws(EncodeError) in
            try EncoderCall.run(.jpeg) { out, message, size in
                metadata.withCMetadata { metadata in
                    imgfetch_jpeg_encode(rgbx.baseAddress, UInt32(image.width), UInt32(image.height), Int32(clampedQuality(quality)),
                                         progressive ? 1 : 0, metadata, out, message, size)
                }
            }
        }
    }

    /// RGBA pixels composited over `background`, opaque (straight alpha: c · a + b · (1 − a)).
    static func flattened(_ pixels: [UInt8], onto background: BackgroundColor) -> [UInt8] {
        let fill = [Int(background.red), Int(background.green), Int(background.blue)]
        return PixelBuffer.make(byteCount: pixels.count) { out in
            pixels.withUnsafeBufferPointer { p in
                var i = 0
                while i < p.count {
                    let alpha = Int(p[i + 3])
                    for c in 0..<3 { out[i + c] = UInt8((Int(p[i + c]) * alpha + fill[c] * (255 - alpha) + 127) / 255) }
                    out[i + 3] = 255
                    i += 4
                }
            }
        }
    }
}
