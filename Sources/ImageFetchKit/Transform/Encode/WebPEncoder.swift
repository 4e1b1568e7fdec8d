import CImageCodecs
import FoundationEssentials

/// Writes WebP with libwebp, lossy unless `lossless`. Alpha is kept (losslessly, in WebP's separate alpha plane)
/// when some pixel is not opaque; an opaque image has no alpha plane.
struct WebPEncoder: ImageEncoding {
    /// 1–100, mapped directly onto libwebp's 0–100 quality (values outside are clamped).
    var quality: Int
    /// VP8L, every pixel kept (`quality` then sets how hard libwebp compresses).
    var lossless = false
    /// The original's ICC profile and EXIF block, kept by `--keep-metadata` (ICCP and EXIF chunks,
    /// written by libwebpmux).
    var metadata = KeptMetadata.none

    var format: ImageFormat { .webp }

    /// WebP's largest side.
    static let maxSide = 16383

    func encode(_ image: RGBAImage) throws(EncodeError) -> Data {
        try checkSize(of: image, limit: Self.maxSide)
        try EncoderCall.load(metadata.isEmpty ? .webp : .webpMux, for: .webp)
        return try image.pixels.withUnsafeBufferPointer { rgba throws(EncodeError) in
            try EncoderCall.run(.webp) { out, message, size in
                metadata.withCMetadata { metadata in
                    imgfetch_webp_encode(
                        rgba.baseAddress, UInt32(image.width), UInt32(image.height), Float(clampedQuality(quality)), lossless ? 1 : 0,
                        metadata, out, message, size)
                }
            }
        }
    }
}
