import CImageCodecs
import FoundationEssentials

/// Writes AVIF with libavif (AV1 by libaom): 8-bit 4:2:0, at sharp's defaults of quality 50 and
/// effort 4 unless told otherwise. Alpha is kept when some pixel is not opaque.
struct AVIFEncoder: ImageEncoding {
    /// 1–100, as sharp's `quality`.
    var quality: Int
    /// 0 (fastest) to 9 (smallest), as sharp's `effort`.
    var effort = 4
    /// The original's ICC profile and EXIF block, kept by `--keep-metadata` (colr profile, Exif item).
    var metadata = KeptMetadata.none

    var format: ImageFormat { .avif }

    /// AV1's largest frame side.
    static let maxSide = 65536

    func encode(_ image: RGBAImage) throws(EncodeError) -> Data {
        try checkSize(of: image, limit: Self.maxSide)
        try EncoderCall.load(.avif, for: .avif)
        let hasAlpha = image.hasTransparency
        return try image.pixels.withUnsafeBufferPointer { rgba throws(EncodeError) in
            try EncoderCall.run(.avif) { out, message, size in
                metadata.withCMetadata { metadata in
                    imgfetch_avif_encode(
                        rgba.baseAddress, UInt32(image.width), UInt32(image.height), Int32(clampedQuality(quality)), Int32(effort),
                        hasAlpha ? 1 : 0, metadata, out, message, size)
                }
            }
        }
    }
}
