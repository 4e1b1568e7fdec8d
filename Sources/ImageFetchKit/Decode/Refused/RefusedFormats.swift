// Formats recognised only to be named in an "unsupported" error: they have no decoder.

extension ImageFormat {
    public static let svg: ImageFormat = .init(rawValue: "svg", displayName: "SVG", fileExtension: "svg", stampCode: 9) { ImageFormatSpec.svg }
    public static let qoi: ImageFormat = .init(rawValue: "qoi", displayName: "QOI", fileExtension: "qoi", stampCode: 11) { ImageFormatSpec.qoi }
    public static let psd: ImageFormat = .init(rawValue: "psd", displayName: "PSD", fileExtension: "psd", stampCode: 12) { ImageFormatSpec.psd }
    public static let pdf: ImageFormat = .init(rawValue: "pdf", displayName: "PDF", fileExtension: "pdf", stampCode: 13) { ImageFormatSpec.pdf }
}

extension ImageFormatSpec {
    static let svg = ImageFormatSpec(.svg, decoder: nil) { looksLikeSVG($0) }
    static let qoi = ImageFormatSpec(.qoi, decoder: nil) { $0.matches(Array("qoif".utf8), at: 0) }
    static let psd = ImageFormatSpec(.psd, decoder: nil) { $0.matches(Array("8BPS".utf8), at: 0) }
    static let pdf = ImageFormatSpec(.pdf, decoder: nil) { $0.matches(Array("%PDF-".utf8), at: 0) }

    /// SVG is XML text: it counts when an `<svg` element opens within the first kilobyte,
    /// after an optional byte-order mark, XML declaration, comments or doctype. An HTML page does not.
    private static func looksLikeSVG(_ bytes: ByteReader) -> Bool {
        guard let head = bytes.ascii(at: 0, length: min(bytes.count, 1024), lossy: true) else { return false }
        let text = head.drop(while: { $0 == "\u{FEFF}" || $0.isWhitespace }).lowercased()
        guard text.hasPrefix("<") else { return false }
        if text.hasPrefix("<svg") { return true }
        let preamble = text.hasPrefix("<?xml") || text.hasPrefix("<!--") || text.hasPrefix("<!doctype svg")
        return preamble && text.contains("<svg") && !text.contains("<html")
    }
}
