import CImageCodecs

extension ImageFormat {
    public static let gif: ImageFormat = .init(rawValue: "gif", displayName: "GIF", fileExtension: "gif", stampCode: 2) { ImageFormatSpec.gif }
}

extension ImageFormatSpec {
    static let gif = ImageFormatSpec(
        .gif, decoder: GIFDecoder(), library: CodecLibrary(file: IMGFETCH_GIF_LIBRARY, load: imgfetch_gif_load)
    ) { bytes in
        bytes.matches(Array("GIF87a".utf8), at: 0) || bytes.matches(Array("GIF89a".utf8), at: 0)
    }
}
