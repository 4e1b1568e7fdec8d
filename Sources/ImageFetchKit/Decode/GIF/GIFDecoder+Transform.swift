import FoundationEssentials

extension GIFDecoder: TransformDecoding, AnimationDecoding {
    /// The first frame, read alone (the later frames are not decoded), on its transparent canvas.
    /// GIF carries no colour profile: the pixels are sRGB.
    func decodeForTransform(
        _ data: Data, info: ImageInfo, minimumStoredSize: (width: Int, height: Int)?
    ) throws(DecodeError) -> SourceImage {
        guard let frame = try GIFAnimationReader(data, info: info).nextFrame() else {
            throw .corrupt(.gif, reason: "it has no image in it")
        }
        return SourceImage(
            width: frame.image.width, height: frame.image.height, pixels: frame.image.pixels,
            colorModel: .rgba, iccProfile: nil, orientation: .up
        )
    }

    func animationReader(for data: Data, info: ImageInfo) throws(DecodeError) -> (any AnimationReading)? {
        try GIFAnimationReader(data, info: info)
    }
}
