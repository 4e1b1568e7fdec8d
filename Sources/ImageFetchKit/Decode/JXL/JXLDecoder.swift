import FoundationEssentials

/// Reads JPEG XL stills and animations (bare codestream or ISO-BMFF container) with libjxl.
///
/// The size comes from the codestream's SizeHeader, read in Swift and held to the pixel limit
/// first; then libjxl reads the remaining headers — alpha, bit depth, and every frame header to
/// count an animation's frames — skipping the pixel data and allocating no pixels. That loads
/// libjxl on a JPEG XL probe (never on a cache hit, which does not probe).
public struct JXLDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .jxl }

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        try probe(data, limits: DecodeLimits())
    }

    public func probe(_ data: Data, limits: DecodeLimits) throws(DecodeError) -> ImageInfo {
        let header = try JXLHeader(ByteReader(data))
        guard header.width > 0, header.height > 0 else { throw .zeroPixels(width: header.width, height: header.height) }
        guard header.width <= limits.maxPixels / header.height else {
            throw .tooManyPixels(width: header.width, height: header.height, limit: limits.maxPixels)
        }
        let headers = try LibJXL.readHeaders(data)
        guard Int(headers.width) == header.width, Int(headers.height) == header.height else {
            throw .corrupt(.jxl, reason: "libjxl reads a size other than the size header's")
        }
        return ImageInfo(
            format: .jxl, width: header.width, height: header.height, frameCount: max(1, Int(headers.frames)),
            hasAlpha: headers.has_alpha != 0, bitDepth: Int(headers.bits_per_sample)
        )
    }

    /// The container's boxes lie within the data (checked by the probe's `JXLHeader`), and libjxl
    /// found every frame header.
    public func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {}

    /// A bare codestream has no end marker, and libjxl reads a frame's sections only to decode
    /// them (skipping a frame succeeds on a cut one), so a codestream cut inside its last frame is
    /// found only by decoding it: the registry's validation decodes bare codestreams (a 12-megapixel
    /// image costs about 0.6 s of CPU; JPEG XL is rare on the web, and a cut file must never be
    /// cached). A container is cut inside a box, which the probe's box walk refuses.
    public func provesCompletenessOnlyByDecoding(_ data: Data) -> Bool {
        ByteReader(data).matches([0xFF, 0x0A], at: 0)
    }

    /// Verification: libjxl runs to its end (every frame, every box read), so damage after the
    /// first full image, such as a compressed metadata box that does not decompress, fails it as
    /// it fails djxl.
    public func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        let pixels = try CodecCall.decodeRGBA(data, format: .jxl, width: info.width, height: info.height) { source, count, rgba, message, size in
            LibJXL.decode(source, count, rgba, width: info.width, height: info.height, everyFrame: true, message, size)
        }
        return DecodedImage(info: info, width: info.width, height: info.height, rgba: pixels)
    }
}
