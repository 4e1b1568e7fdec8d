import FoundationEssentials

extension JXLDecoder: TransformDecoding, AnimationDecoding {
    /// The first displayed frame only (an animation's later frames are not decoded), upright as
    /// libjxl turns it. No colour profile is read: libjxl's RGB output is taken as sRGB.
    func decodeForTransform(
        _ data: Data, info: ImageInfo, minimumStoredSize: (width: Int, height: Int)?
    ) throws(DecodeError) -> SourceImage {
        let pixels = try CodecCall.decodeRGBA(data, format: .jxl, width: info.width, height: info.height) { source, count, rgba, message, size in
            LibJXL.decode(source, count, rgba, width: info.width, height: info.height, everyFrame: false, message, size)
        }
        return SourceImage(width: info.width, height: info.height, pixels: pixels, colorModel: .rgba, iccProfile: nil, orientation: .up)
    }

    /// libjxl's composing reader, for more than one displayed frame.
    func animationReader(for data: Data, info: ImageInfo) throws(DecodeError) -> (any AnimationReading)? {
        try JXLAnimationReader(data, info: info)
    }
}
