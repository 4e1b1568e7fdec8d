import FoundationEssentials

extension DecoderRegistry {
    /// A reader of the composed frames of an animated GIF, animated PNG, animated WebP, AVIF image
    /// sequence or JPEG XL animation; nil for a still image (one frame) or a format whose frames
    /// are not an animation (TIFF pages, ICO images).
    ///
    /// Checks what `decode` checks first (format, header, the pixel limit, structure), then that
    /// frames × canvas pixels stay within `limits.maxAnimationPixels`, all before any frame is
    /// decoded. Damaged frames surface as `DecodeError` from the reader's `nextFrame()`.
    ///
    /// The reader is not `Sendable`: one thread uses it from start to finish, and it holds O(canvas)
    /// memory, never all frames. The registry itself stays callable from any thread.
    func animationReader(for data: Data, limits: DecodeLimits) throws(DecodeError) -> (any AnimationReading)? {
        let (decoder, info) = try probeWithDecoder(data, limits: limits)
        try decoder.validateStructure(of: data, info: info)
        guard info.frameCount > 1, let decoder = decoder as? any AnimationDecoding else { return nil }
        let (pixels, overflow) = (info.width * info.height).multipliedReportingOverflow(by: info.frameCount)
        guard !overflow, pixels <= limits.maxAnimationPixels else {
            throw .tooManyAnimationPixels(frames: info.frameCount, width: info.width, height: info.height, limit: limits.maxAnimationPixels)
        }
        return try decoder.animationReader(for: data, info: info)
    }
}
