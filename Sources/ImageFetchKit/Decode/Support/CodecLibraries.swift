import CImageCodecs

/// The codec libraries are loaded when a format is first decoded (see CImageCodecs.h): a cache
/// hit, `info` without `--decode` and header validation never load them.
enum CodecLibraries {
    /// Loads the library that decodes `format`, once per process.
    ///
    /// - Throws: `.libraryUnavailable` when it cannot be loaded.
    static func load(for format: ImageFormat) throws(DecodeError) {
        let failure: UnsafePointer<CChar>? = switch format {
        case .png: imgfetch_png_load()
        case .jpeg: imgfetch_jpeg_load()
        case .webp: imgfetch_webp_load()
        case .gif: imgfetch_gif_load()
        case .avif: imgfetch_avif_load()
        case .heic: imgfetch_heif_load()
        case .jxl: imgfetch_jxl_load()
        case .tiff: imgfetch_tiff_load()
        default: nil  // decoded by imgfetch itself, or never: the registry refuses them first
        }
        if let failure { throw .libraryUnavailable(format, reason: String(cString: failure)) }
    }
}
