/// The codec libraries are loaded when a format is first decoded (see CImageCodecs.h): a cache
/// hit, `info` without `--decode` and header validation never load them.
enum CodecLibraries {
    /// Loads the library that decodes `format` (its `ImageFormatSpec.library`), once per process.
    ///
    /// - Throws: `.libraryUnavailable` when it cannot be loaded.
    static func load(for format: ImageFormat) throws(DecodeError) {
        // A format without a library is decoded by imgfetch itself, or never: the registry refuses it first.
        guard let library = format.spec.library, let failure = library.load() else { return }
        throw .libraryUnavailable(format, reason: String(cString: failure))
    }
}
