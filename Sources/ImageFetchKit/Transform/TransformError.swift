/// Why a transform could not make its variant of an image that loaded.
///
/// Descriptions are full sentences without the URL; callers prefix it.
public enum TransformError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The original did not decode (it validated when it was stored, so it is damaged, or it
    /// needs a codec library that cannot be loaded).
    case decode(DecodeError)
    /// The encoder refused the output (`reason` says why, e.g. a size over the format's limit).
    case encode(ImageFormat, reason: String)
    /// A library the transform needs (an encoder, Little CMS) could not be loaded: an installation
    /// problem, nothing wrong with the image.
    case libraryUnavailable(reason: String)

    public var description: String {
        switch self {
        case .decode(let error):
            "The image could not be decoded for the transform: \(error.description)"
        case .encode(let format, let reason):
            "The \(format.displayName) encoder failed: \(reason.hasSuffix(".") ? reason : reason + ".")"
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
