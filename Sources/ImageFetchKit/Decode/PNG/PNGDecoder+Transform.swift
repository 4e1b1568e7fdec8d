import FoundationEssentials

extension PNGDecoder: TransformDecoding, AnimationDecoding {
    /// The image `decode` returns (for an animated PNG the default image; its other frames are
    /// not decoded), with the profile of its `iCCP` chunk, if any and well formed. The samples
    /// come as stored (16-bit ones rounded to 8), with gamma converted only for a gAMA chunk that
    /// is not sRGB's, by libpng. An eXIf orientation is left in `orientation` for the transform.
    func decodeForTransform(
        _ data: Data, info: ImageInfo, minimumStoredSize: (width: Int, height: Int)?
    ) throws(DecodeError) -> SourceImage {
        let png = try PNGChunks(data)
        let (width, height) = (info.storedWidth, info.storedHeight)
        let pixels = try LibPNG.decodeRGBA(data, width: width, height: height)
        return SourceImage(
            width: width, height: height, pixels: pixels,
            colorModel: .rgba, iccProfile: png.iccProfile(), orientation: info.orientation
        )
    }

    /// An animated PNG's frames (acTL), composed.
    func animationReader(for data: Data, info: ImageInfo) throws(DecodeError) -> (any AnimationReading)? {
        try APNGFrames.declaredFrameCount(PNGChunks(data)) == nil ? nil : try APNGAnimationReader(data, info: info)
    }
}
