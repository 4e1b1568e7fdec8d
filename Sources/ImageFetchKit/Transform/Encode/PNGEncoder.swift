import CImageCodecs
import FoundationEssentials

/// Writes 8-bit PNG with libpng's simplified API: RGBA, or RGB when every pixel is opaque (a
/// quarter fewer bytes to compress). libpng adds an sRGB chunk, which states what the pixels are,
/// unless a kept ICC profile (an iCCP chunk) does.
struct PNGEncoder: ImageEncoding {
    /// The original's ICC profile and EXIF block, kept by `--keep-metadata` (iCCP and eXIf chunks).
    var metadata = KeptMetadata.none

    var format: ImageFormat { .png }

    func encode(_ image: RGBAImage) throws(EncodeError) -> Data {
        try checkSize(of: image, limit: Int(Int32.max))
        try EncoderCall.load(.png, for: .png)
        let hasAlpha = image.hasTransparency
        let pixels = hasAlpha ? image.pixels : Self.packedRGB(image.pixels)
        return try pixels.withUnsafeBufferPointer { pixels throws(EncodeError) in
            try EncoderCall.run(.png) { out, message, size in
                metadata.withCMetadata { metadata in
                    imgfetch_png_encode(pixels.baseAddress, UInt32(image.width), UInt32(image.height), hasAlpha ? 1 : 0, metadata, out, message, size)
                }
            }
        }
    }

    /// RGBA pixels without their alpha bytes.
    static func packedRGB(_ rgba: [UInt8]) -> [UInt8] {
        let count = rgba.count / 4
        return PixelBuffer.make(byteCount: count * 3) { out in
            rgba.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    out[i * 3] = p[i * 4]
                    out[i * 3 + 1] = p[i * 4 + 1]
                    out[i * 3 + 2] = p[i * 4 + 2]
                }
            }
        }
    }
}
