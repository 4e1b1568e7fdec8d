import CImageCodecs

extension ImageFormat {
    public static let jpeg: ImageFormat = .init(rawValue: "jpeg", displayName: "JPEG", fileExtension: "jpg", stampCode: 0) { ImageFormatSpec.jpeg }
}

extension ImageFormatSpec {
    static let jpeg = ImageFormatSpec(
        .jpeg, decoder: JPEGDecoder(), library: CodecLibrary(file: IMGFETCH_JPEG_LIBRARY, load: imgfetch_jpeg_load)
    ) { bytes in
        bytes.matches([0xFF, 0xD8, 0xFF], at: 0)
    }
}
