extension ImageFormat {
    public static let bmp: ImageFormat = .init(rawValue: "bmp", displayName: "BMP", fileExtension: "bmp", stampCode: 4) { ImageFormatSpec.bmp }
}

extension ImageFormatSpec {
    /// Read by imgfetch's own parser: no library.
    static let bmp = ImageFormatSpec(.bmp, decoder: BMPDecoder()) { bytes in
        bytes.matches(Array("BM".utf8), at: 0) && bytes.count >= 26
    }
}
