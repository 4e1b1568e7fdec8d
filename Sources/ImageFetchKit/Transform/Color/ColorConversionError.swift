/// Why a `SourceImage` could not be brought to sRGB. A profile Little CMS rejects is not an error
/// (its pixels are taken as sRGB or plain CMYK, as browsers do): only a missing library is.
enum ColorConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Little CMS could not be loaded; `reason` names the library, its Debian package and why.
    /// An installation problem, nothing wrong with the image.
    case libraryUnavailable(reason: String)

    var description: String {
        switch self {
        case .libraryUnavailable(let reason):
            "The image's colour profile cannot be converted to sRGB here: \(reason)."
        }
    }
}
