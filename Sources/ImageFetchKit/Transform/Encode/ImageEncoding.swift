import FoundationEssentials

/// Writes an `RGBAImage` (sRGB) as a file of one format, with no metadata: no EXIF, no ICC
/// profile, only what the format itself needs; the still encoders write a `KeptMetadata` when
/// given one (`--keep-metadata`).
///
/// Encoders are values holding their settings: thread-safe, any number of encodes at once.
protocol ImageEncoding: Sendable {
    /// The format written.
    var format: ImageFormat { get }
    /// The encoded file's bytes.
    func encode(_ image: RGBAImage) throws(EncodeError) -> Data
}

extension ImageEncoding {
    /// Throws unless `image` has pixels and no side longer than `limit`.
    func checkSize(of image: RGBAImage, limit: Int) throws(EncodeError) {
        guard image.width > 0, image.height > 0 else { throw .emptyImage(width: image.width, height: image.height) }
        guard image.width <= limit, image.height <= limit else {
            throw .tooLarge(format, width: image.width, height: image.height, limit: limit)
        }
    }
}

/// A quality setting clamped to 1...100, the scale the encoders' options use.
func clampedQuality(_ quality: Int) -> Int { min(max(quality, 1), 100) }
