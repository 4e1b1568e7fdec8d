import CImageCodecs

extension ImageFormat {
    public static let avif: ImageFormat = .init(rawValue: "avif", displayName: "AVIF", fileExtension: "avif", stampCode: 7) { ImageFormatSpec.avif }
}

extension ImageFormatSpec {
    /// An ISO media file whose brands name AVIF (a still or a sequence); a generic HEIF file is
    /// AVIF when any compatible brand is, even beside HEVC brands.
    static let avif = ImageFormatSpec(
        .avif, decoder: AVIFDecoder(), library: CodecLibrary(file: IMGFETCH_AVIF_LIBRARY, load: imgfetch_avif_load),
        accept: AcceptToken(mediaType: "image/avif", rank: 1)
    ) { bytes in
        FileTypeBox(bytes)?.names(avifBrands) ?? false
    }

    static let avifBrands: Set<String> = ["avif", "avis"]
}
