/// An image container format, as named by its magic bytes.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, gif, webp
    case avif, heic, jxl, tiff, bmp, ico
    /// Recognised only to be named in an "unsupported" error.
    case svg, qoi, psd, pdf

    /// The formats the decoder registry can decode, in the order messages list them; the rest are
    /// only recognised to name them in errors.
    public static let decodable: [ImageFormat] = [.jpeg, .png, .gif, .webp, .avif, .heic, .jxl, .tiff, .bmp, .ico]

    /// The file extension a cached file of this format gets, so a printed path is usable as is.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .tiff: "tif"
        default: rawValue
        }
    }

    /// The name people use for the format: "JPEG", "WebP", "JPEG XL".
    public var displayName: String {
        switch self {
        case .webp: "WebP"
        case .jxl: "JPEG XL"
        default: rawValue.uppercased()
        }
    }

    /// "JPEG, PNG, … and ICO": the decodable formats, for messages.
    static func listed(_ formats: [ImageFormat], conjunction: String) -> String {
        let names = formats.map(\.displayName)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }
}
