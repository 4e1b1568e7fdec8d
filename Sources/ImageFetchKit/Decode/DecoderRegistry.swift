import FoundationEssentials

/// Knows every image decoder and what any bytes are: format sniffing, header probe, structural
/// validation and full decode, with the pixel limit checked before any pixel buffer is allocated.
///
/// A value type holding `Sendable` decoders: safe to use from any number of threads at once.
public struct DecoderRegistry: Sendable {
    /// The decoder of every format that has one (`ImageFormatSpec.decoder`).
    public static let standard = DecoderRegistry(chosen: nil)

    /// One decoder per format; nil for the standard ones, which are looked up at the first use:
    /// every loader holds a registry, and a cache hit should not make the format specs. A list,
    /// not a dictionary: ten entries are found as fast by a scan, and a dictionary's generic
    /// types and hashing cost every process that makes one.
    private let chosen: [any ImageDecoding]?

    private var decoders: [any ImageDecoding] { chosen ?? Self.standardDecoders }

    private static let standardDecoders = ImageFormatSpec.all.compactMap(\.decoder)

    private init(chosen: [any ImageDecoding]?) {
        self.chosen = chosen
    }

    /// A registry of `decoders`; a later decoder for the same format replaces an earlier one.
    public init(decoders: [any ImageDecoding]) {
        var kept: [any ImageDecoding] = []
        for decoder in decoders {
            kept.removeAll { $0.format == decoder.format }
            kept.append(decoder)
        }
        self.init(chosen: kept)
    }

    /// This registry with `decoder` added (replacing any decoder for its format).
    public func registering(_ decoder: any ImageDecoding) -> DecoderRegistry {
        DecoderRegistry(decoders: decoders + [decoder])
    }

    /// The formats this registry decodes.
    public var supportedFormats: Set<ImageFormat> { Set(decoders.map(\.format)) }

    /// The decoder for `format`, if one is registered.
    public func decoder(for format: ImageFormat) -> (any ImageDecoding)? { decoders.first { $0.format == format } }

    /// The format named by the magic bytes of `data` (never by a file name or Content-Type);
    /// nil when no known format matches. May name a format this registry cannot decode.
    public func format(of data: Data) -> ImageFormat? { ImageFormat(sniffing: data) }

    /// Reads only the header: format, displayed size, frames, alpha. Never allocates pixels.
    /// Throws `.unsupportedFormat`, `.truncated`/`.corrupt` for a bad header, `.zeroPixels`
    /// and `.tooManyPixels`.
    public func probe(_ data: Data, limits: DecodeLimits = DecodeLimits()) throws(DecodeError) -> ImageInfo {
        try probeWithDecoder(data, limits: limits).info
    }

    /// `probe` plus a structural check that the data is complete (JPEG ends with EOI, PNG has
    /// IEND and consistent APNG frame chunks, GIF ends with its trailer, WebP's RIFF size equals
    /// the data length, BMP's rows and ICO's images lie within the data). Decodes no
    /// pixels, so it is cheap enough to run on every downloaded image.
    @discardableResult
    public func validate(_ data: Data, limits: DecodeLimits = DecodeLimits()) throws(DecodeError) -> ImageInfo {
        let (decoder, info) = try probeWithDecoder(data, limits: limits)
        try decoder.validateStructure(of: data, info: info)
        if decoder.provesCompletenessOnlyByDecoding(data) { try decoder.verifyDecoding(data, info: info) }
        return info
    }

    /// `validate`, then decodes the first frame to RGBA8 (and every frame of an animation, to
    /// verify them). The result is upright (EXIF orientation applied).
    public func decode(_ data: Data, limits: DecodeLimits = DecodeLimits()) throws(DecodeError) -> DecodedImage {
        let (decoder, info) = try probeWithDecoder(data, limits: limits)
        try decoder.validateStructure(of: data, info: info)
        return try decoder.decode(data, info: info)
    }

    /// `validate`, then decodes every pixel of every frame without keeping them: the proof behind
    /// `--verify decode`. JPEG streams through a few rows; other formats decode whole and let go.
    @discardableResult
    public func verifyDecoding(_ data: Data, limits: DecodeLimits = DecodeLimits()) throws(DecodeError) -> ImageInfo {
        let (decoder, info) = try probeWithDecoder(data, limits: limits)
        try decoder.validateStructure(of: data, info: info)
        try decoder.verifyDecoding(data, info: info)
        return info
    }

    /// The decoder for the format of `data` and what its probe reads, held to `limits`: every
    /// entry point's first step.
    func probeWithDecoder(
        _ data: Data, limits: DecodeLimits
    ) throws(DecodeError) -> (decoder: any ImageDecoding, info: ImageInfo) {
        guard let format = format(of: data) else { throw .unsupportedFormat(nil) }
        guard let decoder = decoder(for: format) else { throw .unsupportedFormat(format) }
        let info = try decoder.probe(data, limits: limits)
        guard info.width > 0, info.height > 0 else { throw .zeroPixels(width: info.width, height: info.height) }
        // Compare without multiplying first: two 32-bit sizes can overflow a product check elsewhere.
        guard info.width <= limits.maxPixels / info.height else {
            throw .tooManyPixels(width: info.width, height: info.height, limit: limits.maxPixels)
        }
        return (decoder, info)
    }
}
