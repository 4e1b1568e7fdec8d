import FoundationEssentials

extension AVIFDecoder: TransformDecoding, AnimationDecoding {
    /// The first frame only (a sequence's later frames are not decoded), as stored: `orientation`
    /// carries the `irot` turn for the transform to apply. No colour profile is read: the pixels
    /// are libavif's RGB conversion of the coded YUV, taken as sRGB.
    func decodeForTransform(
        _ data: Data, info: ImageInfo, minimumStoredSize: (width: Int, height: Int)?
    ) throws(DecodeError) -> SourceImage {
        let (width, height) = (info.storedWidth, info.storedHeight)
        let pixels = try CodecCall.decodeRGBA(data, format: .avif, width: width, height: height) { source, count, rgba, message, size in
            LibAVIF.decode(source, count, rgba, width: width, height: height, everyFrame: false, message, size)
        }
        return SourceImage(width: width, height: height, pixels: pixels, colorModel: .rgba, iccProfile: nil, orientation: info.orientation)
    }

    /// A sequence's frames (major brand `avis`); nil for a still image.
    func animationReader(for data: Data, info: ImageInfo) throws(DecodeError) -> (any AnimationReading)? {
        try AVIFAnimationReader(data, info: info)
    }
}
