import FoundationEssentials

extension DecoderRegistry {
    /// The first frame of `data`, decoded for a transform that needs at least
    /// `minimumStoredSize` (in stored orientation, before EXIF orientation; nil for whole size).
    ///
    /// Checks what `decode` checks first: format, header, the pixel limit (before any pixel buffer
    /// is allocated) and structure. Then, by format:
    /// - JPEG decodes with DCT scaling (1/8, 1/4, 1/2) when that keeps both sides at least the
    ///   minimum; the pixels stay as stored, with the EXIF orientation in `orientation`, and CMYK
    ///   stays CMYK (`.cmyk` or `.invertedCMYK`); the profile comes from APP2 segments.
    /// - WebP stills decode scaled by the largest integer shrink that keeps the minimum; the
    ///   profile comes from the ICCP chunk.
    /// - PNG decodes whole (an animated PNG's default image), with the iCCP profile.
    /// - GIF, AVIF and JPEG XL decode their first frame only; AVIF's `irot` turn is left in
    ///   `orientation`.
    /// - Every other format decodes as `decode` does (upright, RGBA) and reports no profile.
    /// A profile that is malformed is dropped (nil), never an error.
    ///
    /// Thread safety: as the registry, callable from any number of threads at once.
    func decodeForTransform(
        _ data: Data, minimumStoredSize: (width: Int, height: Int)?, limits: DecodeLimits
    ) throws(DecodeError) -> SourceImage {
        let (decoder, info) = try probeWithDecoder(data, limits: limits)
        try decoder.validateStructure(of: data, info: info)
        return try decodeForTransform(data, validated: info, minimumStoredSize: minimumStoredSize)
    }

    /// `decodeForTransform` of `data` that `validate` has passed already, as `info`: the header
    /// is not probed nor the structure checked again (a `--resize` miss validated its original
    /// once, when it arrived).
    func decodeForTransform(
        _ data: Data, validated info: ImageInfo, minimumStoredSize: (width: Int, height: Int)?
    ) throws(DecodeError) -> SourceImage {
        guard let decoder = decoder(for: info.format) else { throw .unsupportedFormat(info.format) }
        if let decoder = decoder as? any TransformDecoding {
            return try decoder.decodeForTransform(data, info: info, minimumStoredSize: minimumStoredSize)
        }
        let image = try decoder.decode(data, info: info)
        return SourceImage(width: image.width, height: image.height, pixels: image.pixels, colorModel: .rgba, iccProfile: nil, orientation: .up)
    }
}
