import CImageCodecs

extension ImageFormat {
    public static let heic: ImageFormat = .init(rawValue: "heic", displayName: "HEIC", fileExtension: "heic", stampCode: 6) { ImageFormatSpec.heic }
}

extension ImageFormatSpec {
    /// An ISO media file whose major brand is an HEVC one, or a generic HEIF file that AVIF's
    /// rule does not take.
    static let heic = ImageFormatSpec(
        .heic, decoder: HEICDecoder(), library: CodecLibrary(file: IMGFETCH_HEIF_LIBRARY, load: imgfetch_heif_load),
        accept: AcceptToken(mediaType: "image/heic", rank: 3)
    ) { bytes in
        guard let box = FileTypeBox(bytes) else { return false }
        if heicBrands.contains(box.majorBrand) { return true }
        return FileTypeBox.genericBrands.contains(box.majorBrand) && !box.names(avifBrands)
    }

    private static let heicBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis"]
}
