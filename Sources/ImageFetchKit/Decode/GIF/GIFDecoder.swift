import FoundationEssentials

/// Reads GIF, still and animated, with giflib. The probe walks the block structure to count
/// frames; width and height are the logical screen's.
public struct GIFDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .gif }

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        try probe(data, limits: DecodeLimits())
    }

    /// Besides the canvas, which the registry holds to the pixel limit, each frame's declared size
    /// is held to it too, and all frames together to four times it: giflib allocates every frame
    /// at its declared size, whatever the canvas, and keeps them all while decoding, so a 159-byte
    /// file declaring one 65535-pixel-wide frame made it allocate 2 GB (found by `scripts/fuzz decode`).
    public func probe(_ data: Data, limits: DecodeLimits) throws(DecodeError) -> ImageInfo {
        let gif = try GIFBlocks(data)
        let frame = gif.largestFrame
        if frame.width > 0, frame.height > 0, frame.width > limits.maxPixels / frame.height {
            throw .tooManyPixels(width: frame.width, height: frame.height, limit: limits.maxPixels)
        }
        if gif.totalFramePixels / 4 > limits.maxPixels {
            throw .corrupt(.gif, reason: "its \(gif.frameCount) frames hold \(gif.totalFramePixels) pixels, more than four times the limit of \(limits.maxPixels)")
        }
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
