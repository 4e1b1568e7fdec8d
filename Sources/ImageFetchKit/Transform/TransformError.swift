/// Why a transform could not make its variant of an image that loaded.
///
/// Descriptions are full sentences without the URL; callers prefix it.
public enum TransformError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The original did not decode (it validated when it was stored, so it is damaged, or it
    /// needs a codec library that cannot be loaded).
    case decode(DecodeError)
    /// The encoder refused the output: `reason` is its sentence (e.g. a size over the format's limit).
    case encode(reason: String)
    /// The output would have more pixels than the limit (`--max-pixels`), which bounds what a
    /// transform makes as it bounds what a decoder reads (a free side follows the aspect ratio,
    /// so `--resize 20000 --upscale` of a tall image can exceed it).
    case outputTooLarge(width: Int, height: Int, limit: Int)
    /// A library the transform needs (an encoder, Little CMS) could not be loaded: an installation
    /// problem, nothing wrong with the image.
    case libraryUnavailable(reason: String)

    public var description: String {
        switch self {
        case .decode(let error):
            "The image could not be decoded for the transform: \(error.description)"
        case .encode(let reason):
            reason
        case .outputTooLarge(let width, let height, let limit):
            "The transform would make an image of \(width)×\(height) pixels, more than the limit of \(limit) pixels."
        case .libraryUnavailable(let reason):
            "The transform cannot run here: \(reason.hasSuffix(".") ? reason : reason + ".")"
        }
    }

    /// Whether this machine, not the image, is at fault.
    public var isLibraryUnavailable: Bool {
        switch self {
        case .decode(.libraryUnavailable), .libraryUnavailable: true
        default: false
        }
    }
}
