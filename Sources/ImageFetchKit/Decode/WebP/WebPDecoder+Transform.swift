import FoundationEssentials

extension WebPDecoder: TransformDecoding, AnimationDecoding {
    /// A still image decodes scaled by libwebp at the largest integer shrink that keeps both sides
    /// at least `minimumStoredSize`, its EXIF orientation left for the transform; an animation's
    /// first frame, composed, decodes whole (libwebp scales single images only). Either way with the `ICCP` chunk's profile, if any.
    func decodeForTransform(
        _ data: Data, info: ImageInfo, minimumStoredSize: (width: Int, height: Int)?
    ) throws(DecodeError) -> SourceImage {
        let profile = WebPContainer.iccProfile(in: data)
        if try WebPContainer(data).isAnimated {
            let reader = try WebPAnimationReader(data, width: info.width, height: info.height, frameCount: info.frameCount)
            guard let frame = try reader.nextFrame() else { throw .corrupt(.webp, reason: "the animation has no frames") }
            return SourceImage(
                width: frame.image.width, height: frame.image.height, pixels: frame.image.pixels,
                colorModel: .rgba, iccProfile: profile, orientation: .up
            )
        }
        let (storedWidth, storedHeight) = (info.storedWidth, info.storedHeight)
        let shrink = WebPShrink.largest(width: storedWidth, height: storedHeight, minimum: minimumStoredSize)
        let (width, height) = (shrink.scaled(storedWidth), shrink.scaled(storedHeight))
        let pixels = try LibWebP.decodeRGBA(data, width: width, height: height, scaled: shrink != .whole)
        return SourceImage(width: width, height: height, pixels: pixels, colorModel: .rgba, iccProfile: profile, orientation: info.orientation)
    }

    /// libwebp's composing reader, for a file of more than one frame.
    func animationReader(for data: Data, info: ImageInfo) throws(DecodeError) -> (any AnimationReading)? {
        try WebPAnimationReader(data, width: info.width, height: info.height, frameCount: info.frameCount)
    }
}
