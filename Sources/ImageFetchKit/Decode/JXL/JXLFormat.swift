import CImageCodecs

extension ImageFormat {
    public static let jxl: ImageFormat = .init(rawValue: "jxl", displayName: "JPEG XL", fileExtension: "jxl", stampCode: 10) { ImageFormatSpec.jxl }
}

extension ImageFormatSpec {
    /// A bare codestream (FF 0A) or the ISO container's signature box.
    static let jxl = ImageFormatSpec(
        .jxl, decoder: JXLDecoder(), library: CodecLibrary(file: IMGFETCH_JXL_LIBRARY, load: imgfetch_jxl_load),
        accept: AcceptToken(mediaType: "image/jxl", rank: 2)
    ) { bytes in
        bytes.matches([0xFF, 0x0A], at: 0)
            || bytes.matches([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], at: 0)
    }
}
