import CImageCodecs

extension ImageFormat {
    public static let png: ImageFormat = .init(rawValue: "png", displayName: "PNG", fileExtension: "png", stampCode: 1) { ImageFormatSpec.png }
}

extension ImageFormatSpec {
    static let png = ImageFormatSpec(
        .png, decoder: PNGDecoder(), library: CodecLibrary(file: IMGFETCH_PNG_LIBRARY, load: imgfetch_png_load)
    ) { bytes in
        bytes.matches(PNGChunks.signature, at: 0)
    }
}
