import FoundationEssentials

/// Reads TIFF's first page with libtiff; each page of a multi-page file counts as a frame.
///
/// The probe walks the chain of image file directories in Swift; validation checks that every
/// page's strips or tiles lie within the data. Pixels are decoded as stored: libtiff's RGBA
/// reader honours flips but not the quarter turns of the Orientation tag.
public struct TIFFDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .tiff }

    private enum Tag {
        static let width = 256, height = 257, bitsPerSample = 258, samplesPerPixel = 277, extraSamples = 338
        static let stripOffsets = 273, stripByteCounts = 279, tileOffsets = 324, tileByteCounts = 325
    }

    /// More samples a pixel than any colour model with alpha and a few extra channels has. Samples
    /// multiply what libtiff allocates for a strip, which the pixel limit does not see: the decode
    /// fuzz target found a 428-byte, 65343×48 TIFF declaring 513 samples a pixel (tiffinfo shows
    /// 201, after a warning about its extra samples) for which libtiff asked for 1.6 GB
    /// (Tests/Fuzz/regressions/decode/tiff-samples-a-pixel).
    static let maxSamplesPerPixel = 8

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        let directories = try TIFFDirectories(ByteReader(data))
        guard let width = directories.value(Tag.width), let height = directories.value(Tag.height) else {
            throw .corrupt(.tiff, reason: "its first directory has no image width or length")
        }
        if let samples = directories.value(Tag.samplesPerPixel), samples > Self.maxSamplesPerPixel {
            throw .corrupt(.tiff, reason: "it declares \(samples) samples a pixel, more than the \(Self.maxSamplesPerPixel) imgfetch reads")
        }
        return ImageInfo(
            format: .tiff, width: width, height: height, frameCount: directories.pages.count,
            hasAlpha: directories.value(Tag.extraSamples) != nil, bitDepth: directories.value(Tag.bitsPerSample) ?? 1
        )
    }

    /// Every page's strips (or tiles) start and end within the data, and there are as many byte
    /// counts as offsets.
    public func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {
        let directories = try TIFFDirectories(ByteReader(data))
        for page in directories.pages.indices {
            let tiled = directories.value(Tag.tileOffsets, page: page) != nil
            let offsets = try directories.values(tiled ? Tag.tileOffsets : Tag.stripOffsets, page: page)
            let counts = try directories.values(tiled ? Tag.tileByteCounts : Tag.stripByteCounts, page: page)
            guard !offsets.isEmpty, offsets.count == counts.count else {
                throw .corrupt(.tiff, reason: "page \(page + 1) has \(offsets.count) strip offsets and \(counts.count) byte counts")
            }
            for (offset, count) in zip(offsets, counts) where offset + count > data.count {
                throw .truncated(.tiff)
            }
        }
    }

    public func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        let pixels = try CodecCall.decodeRGBA(data, format: .tiff, width: info.width, height: info.height) { source, count, rgba, message, size in
            LibTIFF.decode(source, count, rgba, width: info.width, height: info.height, message, size)
        }
        return DecodedImage(info: info, width: info.width, height: info.height, rgba: pixels)
    }

    /// Decodes the first page's strips or tiles one at a time through a reused buffer, keeping
    /// none and converting none to RGBA.
    public func verifyDecoding(_ data: Data, info: ImageInfo) throws(DecodeError) {
        try LibTIFF.verify(data)
    }
}
