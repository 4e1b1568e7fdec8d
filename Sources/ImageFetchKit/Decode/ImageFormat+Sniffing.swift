import FoundationEssentials

extension ImageFormat {
    /// The format named by the magic bytes at the start of `data`, or nil when none matches.
    ///
    /// Sniffing lives in one table here, for decodable and unsupported formats alike, so that an
    /// unsupported image can be named in its error and a decoder for one of these formats is just
    /// one new `ImageDecoding` type. Only the first few hundred bytes are looked at.
    public init?(sniffing data: Data) {
        let bytes = ByteReader(data)
        if bytes.matches([0xFF, 0xD8, 0xFF], at: 0) { self = .jpeg; return }
        if bytes.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) { self = .png; return }
        if bytes.matches(Array("GIF87a".utf8), at: 0) || bytes.matches(Array("GIF89a".utf8), at: 0) { self = .gif; return }
        if bytes.matches(Array("RIFF".utf8), at: 0), bytes.matches(Array("WEBP".utf8), at: 8) { self = .webp; return }
        if bytes.matches(Array("BM".utf8), at: 0), bytes.count >= 26 { self = .bmp; return }
        // TIFF, classic (42) or BigTIFF (43), little- or big-endian.
        if bytes.matches([0x49, 0x49, 0x2A, 0x00], at: 0) || bytes.matches([0x4D, 0x4D, 0x00, 0x2A], at: 0)
            || bytes.matches([0x49, 0x49, 0x2B, 0x00], at: 0) || bytes.matches([0x4D, 0x4D, 0x00, 0x2B], at: 0) { self = .tiff; return }
        // ICO (type 1) and its twin CUR (type 2): a reserved zero, the type, a non-zero image count.
        if bytes.matches([0x00, 0x00], at: 0), let type = bytes.uint16LE(at: 2), type == 1 || type == 2,
           let count = bytes.uint16LE(at: 4), count > 0 { self = .ico; return }
        // JPEG XL: a bare codestream (FF 0A) or the ISO container's signature box.
        if bytes.matches([0xFF, 0x0A], at: 0)
            || bytes.matches([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], at: 0) { self = .jxl; return }
        if bytes.matches(Array("qoif".utf8), at: 0) { self = .qoi; return }
        if bytes.matches(Array("8BPS".utf8), at: 0) { self = .psd; return }
        if bytes.matches(Array("%PDF-".utf8), at: 0) { self = .pdf; return }
        if let format = Self.isoMediaFormat(bytes) { self = format; return }
        if Self.looksLikeSVG(bytes) { self = .svg; return }
        return nil
    }

    /// HEIC and AVIF are ISO media files whose leading `ftyp` box names the brands: the major
    /// brand, or for the generic HEIF brands (`mif1`, `msf1`, `miaf`) the compatible brands, where
    /// `avif`/`avis` makes it AVIF and any HEVC brand HEIC. Only the first 64 brands are read.
    private static func isoMediaFormat(_ bytes: ByteReader) -> ImageFormat? {
        guard bytes.matches(Array("ftyp".utf8), at: 4), let size = bytes.uint32BE(at: 0),
              let major = bytes.ascii(at: 8, length: 4) else { return nil }
        if let format = format(ofBrand: major) { return format }
        guard ["mif1", "msf1", "miaf"].contains(major) else { return nil }
        let compatible = stride(from: 16, to: min(size, bytes.count, 16 + 64 * 4) - 3, by: 4).compactMap { bytes.ascii(at: $0, length: 4) }
        if compatible.contains(where: { format(ofBrand: $0) == .avif }) { return .avif }
        return .heic
    }

    private static func format(ofBrand brand: String) -> ImageFormat? {
        switch brand {
        case "avif", "avis": .avif
        case "heic", "heix", "hevc", "hevx", "heim", "heis": .heic
        default: nil
        }
    }

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
