import FoundationEssentials

/// Reads AVIF stills and image sequences with libavif (AV1 through dav1d).
///
/// The probe walks the ISO-BMFF boxes in Swift. libavif applies neither the `irot` rotation nor
/// the `imir` mirroring, so together they are reported as an orientation and the decoded pixels
/// are turned upright like a JPEG's.
public struct AVIFDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .avif }

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        let file = try HEIFFile(ByteReader(data), format: .avif)
        let size = try Self.storedSize(file)
        let orientation = Self.orientation(quarterTurnsAnticlockwise: file.rotation, mirrorAxis: file.mirrorAxis)
        let turned = orientation.swapsWidthAndHeight
        return ImageInfo(
            format: .avif, width: turned ? size.height : size.width, height: turned ? size.width : size.height,
            frameCount: Self.isSequence(file) ? max(1, file.trackSamples ?? 1) : 1,
            hasAlpha: file.hasAlpha, orientation: orientation, bitDepth: file.bitDepth
        )
    }

    /// Every top-level box lies within the data: `HEIFFile` checks it while reading.
    public func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {
        _ = try HEIFFile(ByteReader(data), format: .avif)
    }

    public func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        let (width, height) = (info.storedWidth, info.storedHeight)
        let pixels = try CodecCall.decodeRGBA(data, format: .avif, width: width, height: height) { source, count, rgba, message, size in
            LibAVIF.decode(source, count, rgba, width: width, height: height, everyFrame: info.frameCount > 1, message, size)
        }
        return DecodedImage(info: info, width: width, height: height, rgba: pixels).turnedUpright()
    }

    /// Decodes every frame and converts none to RGB, as `avifdec` does writing y4m.
    public func verifyDecoding(_ data: Data, info: ImageInfo) throws(DecodeError) {
        try CodecLibraries.load(for: .avif)
        let (width, height) = (info.storedWidth, info.storedHeight)
        if let failure = CodecCall.run(data, format: .avif, { source, count, message, size in
            LibAVIF.decode(source, count, nil, width: width, height: height, everyFrame: true, message, size)
        }) { throw failure }
    }

    /// libavif decodes the track of a file whose major brand is `avis`, and the primary item otherwise.
    private static func isSequence(_ file: HEIFFile) -> Bool {
        file.majorBrand == ISOBox.code("avis") && file.trackSize != nil
    }

    private static func storedSize(_ file: HEIFFile) throws(DecodeError) -> (width: Int, height: Int) {
        if isSequence(file), let size = file.trackSize { return size }
        guard let size = file.itemSize else { throw .corrupt(.avif, reason: "it has no primary image") }
        return size
    }

    /// `irot` turns anticlockwise by quarter turns, then `imir` mirrors: EXIF names the
    /// combination that displays the image. An `imir` axis of 0 flips top to bottom and 1 left to
    /// right, as libheif (which applies it to HEIC) and avifenc's `--imir` read it.
    private static func orientation(quarterTurnsAnticlockwise turns: Int, mirrorAxis: Int?) -> ImageOrientation {
        let turned: [ImageOrientation] = [.up, .left, .down, .right]
        let leftToRight: [ImageOrientation] = [.upMirrored, .rightMirrored, .downMirrored, .leftMirrored]
        let topToBottom: [ImageOrientation] = [.downMirrored, .leftMirrored, .upMirrored, .rightMirrored]
        switch mirrorAxis {
        case 0: return topToBottom[turns & 3]
        case 1: return leftToRight[turns & 3]
        default: return turned[turns & 3]
        }
    }
}
