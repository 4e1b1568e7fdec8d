import FoundationEssentials

/// Reads WebP (lossy, lossless, with alpha, animated) with libwebp and its demux library.
public struct WebPDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .webp }

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        let webp = try WebPContainer(data)
        return ImageInfo(format: .webp, width: webp.width, height: webp.height, frameCount: webp.frameCount, hasAlpha: webp.hasAlpha)
    }

    /// Complete means the RIFF header's size field accounts for exactly the bytes present.
    public func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {
        let declared = try WebPContainer(data).declaredFileSize
        if data.count < declared { throw .truncated(.webp) }
        if data.count > declared {
            throw .corrupt(.webp, reason: "the RIFF header declares \(declared) bytes but there are \(data.count)")
        }
    }

    public func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        let pixels = info.frameCount > 1
            ? try LibWebP.decodeAnimationRGBA(data, width: info.width, height: info.height, frameCount: info.frameCount)
            : try LibWebP.decodeRGBA(data, width: info.width, height: info.height)
        return DecodedImage(info: info, width: info.width, height: info.height, rgba: pixels)
    }
}
