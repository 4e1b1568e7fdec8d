/// Why image data could not be probed, validated or decoded.
///
/// Descriptions are full sentences without the file name or URL; callers prefix that.
public enum DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a format the registry decodes; the format is named when it was recognised (BMP, TIFF, …).
    case unsupportedFormat(ImageFormat?)
    /// The data stops before the image is complete (no JPEG EOI, PNG IEND, GIF trailer, short RIFF).
    case truncated(ImageFormat)
    /// The data breaks the format's rules; `reason` says how.
    case corrupt(ImageFormat, reason: String)
    /// The header declares more pixels than `DecodeLimits.maxPixels`.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The header declares a width or height of zero.
    case zeroPixels(width: Int, height: Int)
    /// An animation's frames × canvas pixels exceed `DecodeLimits.maxAnimationPixels`: more work
    /// than a transform may do to compose it.
    case tooManyAnimationPixels(frames: Int, width: Int, height: Int, limit: Int)
    /// The library that decodes the format could not be loaded (`reason` names it and why): an
    /// installation problem, nothing wrong with the image.
    case libraryUnavailable(ImageFormat, reason: String)

    public var description: String {
        switch self {
        case .unsupportedFormat(let format?):
            "\(format.displayName) images are not supported; imgfetch decodes \(ImageFormat.listed(ImageFormat.decodable, conjunction: "and"))."
        case .unsupportedFormat(nil):
            "The data is not an image in a known format (\(ImageFormat.listed(ImageFormat.decodable, conjunction: "or")))."
        case .truncated(let format):
            "The \(format.displayName) data ends before the image is complete; it is truncated."
        case .corrupt(let format, let reason):
            "The \(format.displayName) data is corrupt: \(reason)."
        case .tooManyPixels(let width, let height, let limit):
            "The image is \(width)×\(height) pixels, more than the limit of \(limit) pixels."
        case .zeroPixels(let width, let height):
            "The image header declares a size of \(width)×\(height), which has no pixels."
        case .tooManyAnimationPixels(let frames, let width, let height, let limit):
            "The animation has \(frames) frames of \(width)×\(height) pixels, more than the limit of \(limit) pixels to compose in all."
        case .libraryUnavailable(let format, let reason):
            "\(format.displayName) images cannot be decoded here: \(reason)."
        }
    }
}
