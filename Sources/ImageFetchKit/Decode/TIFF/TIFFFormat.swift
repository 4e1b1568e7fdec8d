import CImageCodecs

extension ImageFormat {
    public static let tiff: ImageFormat = .init(rawValue: "tiff", displayName: "TIFF", fileExtension: "tif", stampCode: 5) { ImageFormatSpec.tiff }
}

extension ImageFormatSpec {
    /// Classic TIFF (42) or BigTIFF (43), little- or big-endian.
    static let tiff = ImageFormatSpec(
        .tiff, decoder: TIFFDecoder(), library: CodecLibrary(file: IMGFETCH_TIFF_LIBRARY, load: imgfetch_tiff_load)
    ) { bytes in
        bytes.matches([0x49, 0x49, 0x2A, 0x00], at: 0) || bytes.matches([0x4D, 0x4D, 0x00, 0x2A], at: 0)
            || bytes.matches([0x49, 0x49, 0x2B, 0x00], at: 0) || bytes.matches([0x4D, 0x4D, 0x00, 0x2B], at: 0)
    }
}
