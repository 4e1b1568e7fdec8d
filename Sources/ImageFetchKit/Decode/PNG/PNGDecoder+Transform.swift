import FoundationEssentials

extension PNGDecoder: TransformDecoding, AnimationDecoding {
    /// The image `decode` returns (for an animated PNG the default image; its other frames are
    /// not decoded), with the profile of its `iCCP` chunk, if any and well formed. libpng writes
    /// the samples as stored (16-bit ones rounded to 8), converting gamma only for a gAMA chunk
    /// that is not sRGB's.
    func decodeForTransform(
        _ data: Data, info: ImageInfo, minimumStoredSize: (width: Int, height: Int)?
    ) throws(DecodeError) -> SourceImage {
        let pixels = try LibPNG.decodeRGBA(data, width: info.width, height: info.height)
        return SourceImage(
            width: info.width, height: info.height, pixels: pixels,
            colorModel: .rgba, iccProfile: try PNGChunks(data).iccProfile(), orientation: .up
        )
    }

    /// An animated PNG's frames (acTL), composed.
    func animationReader(for data: Data, info: ImageInfo) throws(DecodeError) -> (any AnimationReading)? {
        try APNGFrames.declaredFrameCount(PNGChunks(data)) == nil ? nil : try APNGAnimationReader(data, info: info)
    }
}
