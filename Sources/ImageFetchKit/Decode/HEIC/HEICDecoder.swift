import FoundationEssentials

/// Reads HEIC/HEIF's primary image with libheif (HEVC through libde265); a HEIF image sequence
/// reports the sample count of its first track as its frame count, and decodes its primary image.
///
/// The probe walks the ISO-BMFF boxes in Swift. libheif crops by `clap` and turns by `irot`
/// itself, so the size reported is the primary item's after both.
public struct HEICDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .heic }

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        let file = try HEIFFile(ByteReader(data), format: .heic)
        guard let stored = file.cleanApertureSize ?? file.itemSize else {
            throw .corrupt(.heic, reason: "it has no primary image, which is what imgfetch decodes")
        }
        let turned = file.rotation % 2 == 1
        return ImageInfo(
            format: .heic, width: turned ? stored.height : stored.width, height: turned ? stored.width : stored.height,
            frameCount: max(1, file.trackSamples ?? 1), hasAlpha: file.hasAlpha, bitDepth: file.bitDepth
        )
    }

    /// Every top-level box lies within the data: `HEIFFile` checks it while reading.
    public func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {
        _ = try HEIFFile(ByteReader(data), format: .heic)
    }

    public func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        let pixels = try CodecCall.decodeRGBA(data, format: .heic, width: info.width, height: info.height) { source, count, rgba, message, size in
            LibHeif.decode(source, count, rgba, width: info.width, height: info.height, message, size)
        }
        return DecodedImage(info: info, width: info.width, height: info.height, rgba: pixels)
    }

    /// Decodes the primary image and leaves it in its coded colour space, as `heif-convert` does
    /// writing y4m.
    public func verifyDecoding(_ data: Data, info: ImageInfo) throws(DecodeError) {
        try CodecLibraries.load(for: .heic)
        if let failure = CodecCall.run(data, format: .heic, { source, count, message, size in
            LibHeif.decode(source, count, nil, width: info.width, height: info.height, message, size)
        }) { throw failure }
    }
}
