import FoundationEssentials

/// Reads GIF, still and animated, with giflib. The probe walks the block structure to count
/// frames; width and height are the logical screen's.
public struct GIFDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .gif }

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        let gif = try GIFBlocks(data)
        guard gif.frameCount > 0 || gif.isComplete else { throw .truncated(.gif) }
        guard gif.frameCount > 0 else { throw .corrupt(.gif, reason: "it has no image in it") }
        return ImageInfo(
            format: .gif, width: gif.width, height: gif.height, frameCount: gif.frameCount,
            hasAlpha: gif.hasTransparency, isProgressive: gif.firstFrameInterlaced
        )
    }

    /// Complete means the block walk reaches the 0x3B trailer.
    public func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {
        guard try GIFBlocks(data).isComplete else { throw .truncated(.gif) }
    }

    public func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        let pixels = try GifLib.decodeFirstFrameRGBA(data, width: info.width, height: info.height)
        return DecodedImage(info: info, width: info.width, height: info.height, rgba: pixels)
    }

    /// Decodes every frame without painting a canvas the size of the image.
    public func verifyDecoding(_ data: Data, info: ImageInfo) throws(DecodeError) {
        try GifLib.verifyDecoding(data)
    }
}
