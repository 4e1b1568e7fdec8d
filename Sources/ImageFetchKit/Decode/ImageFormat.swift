/// An image container format, as named by its magic bytes.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, gif, webp
    case bmp, tiff, heic, avif, ico, svg

    /// The formats the decoder registry can decode; the rest are only recognised to name them in errors.
    public static let decodable: Set<ImageFormat> = [.jpeg, .png, .gif, .webp]

    /// The file extension a cached file of this format gets, so a printed path is usable as is.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .webp: "webp"
        case .bmp: "bmp"
        case .tiff: "tiff"
        case .heic: "heic"
        case .avif: "avif"
        case .ico: "ico"
        case .svg: "svg"
        }
    }
}
