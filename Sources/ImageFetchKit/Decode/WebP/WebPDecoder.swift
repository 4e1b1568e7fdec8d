import FoundationEssentials

/// Reads WebP (lossy, lossless, with alpha, animated) with libwebp and its demux library. A still
/// image's EXIF orientation is applied, as a JPEG's is.
public struct WebPDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .webp }

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        let webp = try WebPContainer(data)
        let turned = webp.orientation.swapsWidthAndHeight
        return ImageInfo(
            format: .webp, width: turned ? webp.height : webp.width, height: turned ? webp.width : webp.height,
            frameCount: webp.frameCount, hasAlpha: webp.hasAlpha, orientation: webp.orientation)
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
            : try LibWebP.decodeRGBA(data, width: info.storedWidth, height: info.storedHeight)
        return DecodedImage(info: info, width: info.storedWidth, height: info.storedHeight, rgba: pixels).turnedUpright()
    }
}
