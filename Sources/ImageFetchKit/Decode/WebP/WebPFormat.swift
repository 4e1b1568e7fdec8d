import CImageCodecs

extension ImageFormat {
    public static let webp: ImageFormat = .init(rawValue: "webp", displayName: "WebP", fileExtension: "webp", stampCode: 3) { ImageFormatSpec.webp }
}

extension ImageFormatSpec {
    static let webp = ImageFormatSpec(
        .webp, decoder: WebPDecoder(), library: CodecLibrary(file: IMGFETCH_WEBP_LIBRARY, load: imgfetch_webp_load),
        accept: AcceptToken(mediaType: "image/webp", rank: 4)
    ) { bytes in
        bytes.matches(Array("RIFF".utf8), at: 0) && bytes.matches(Array("WEBP".utf8), at: 8)
    }
}
