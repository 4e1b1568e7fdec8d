import FoundationEssentials

/// Reads JPEG (baseline, progressive, grayscale, CMYK) with libjpeg-turbo's TurboJPEG API.
///
/// The probe parses marker segments in Swift; width and height are reported as displayed after
/// EXIF orientation, and decoded pixels are turned upright the same way.
public struct JPEGDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .jpeg }

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        let header = try JPEGHeader(data)
        let turned = header.orientation.swapsWidthAndHeight
        return ImageInfo(
            format: .jpeg,
            width: turned ? header.height : header.width,
            height: turned ? header.width : header.height,
            orientation: header.orientation,
            bitDepth: header.precision,
            isProgressive: header.isProgressive
        )
    }

    /// A complete JPEG ends with the EOI marker (FF D9). Some writers pad the file after it with
    /// zero or whitespace bytes, which are allowed; entropy-coded data never contains FF D9.
    public func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {
        var end = data.endIndex
        while end > data.startIndex, [0x00, 0x0A, 0x0D, 0x20].contains(data[end - 1]) { end -= 1 }
        guard end - data.startIndex >= 4, data[end - 2] == 0xFF, data[end - 1] == 0xD9 else { throw .truncated(.jpeg) }
    }

    public func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        let header = try JPEGHeader(data)
        let pixels = try TurboJPEG.decodeRGBA(
            data, width: header.width, height: header.height,
            cmyk: header.components == 4 ? (header.hasAdobeMarker ? .inverted : .plain) : nil,
            needsFreshDecompressor: !header.definesItsOwnTables
        )
        let stored = DecodedImage(info: info, width: header.width, height: header.height, rgba: pixels)
        return stored.turnedUpright()
    }

    /// Streams the scanlines through libjpeg instead of filling a whole-image buffer, whose fresh
    /// pages the kernel would have to zero first (a third of the time of a 12-megapixel decode).
    public func verifyDecoding(_ data: Data, info: ImageInfo) throws(DecodeError) {
        try LibJPEG.decodeDiscarding(data)
    }
}
