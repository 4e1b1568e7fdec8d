import FoundationEssentials

/// Reads PNG (palette, gray, 16-bit, Adam7-interlaced, with alpha) and animated PNG with
/// libpng's simplified API.
///
/// The probe reads IHDR and walks chunk headers up to the first IDAT, looking for tRNS, acTL and
/// an eXIf orientation (applied to a still image as JPEG's is);
/// so a 100000×100000 header is refused by the registry's limit without libpng ever seeing it.
/// An animated PNG's frame count is its acTL's; libpng (Debian's has no APNG support) decodes
/// the default image as a still PNG, and every other frame as a still PNG composed of that frame.
public struct PNGDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .png }

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        let png = try PNGChunks(data)
        var hasTransparencyChunk = false
        var orientation = ImageOrientation.up
        _ = try png.walk { chunk throws(DecodeError) in
            if chunk.type == "tRNS" { hasTransparencyChunk = true }
            if chunk.type == "eXIf" { orientation = EXIFOrientation.read(png.bytes, at: chunk.offset + 8, length: chunk.length) ?? .up }
            return chunk.type != "IDAT"  // tRNS and eXIf must come before the image data
        }
        let frames = try APNGFrames.declaredFrameCount(png)
        // An animation's frames are composed as stored; only a still is turned by its EXIF orientation.
        if frames != nil { orientation = .up }
        let turned = orientation.swapsWidthAndHeight
        return ImageInfo(
            format: .png, width: turned ? png.height : png.width, height: turned ? png.width : png.height, frameCount: frames ?? 1,
            hasAlpha: png.colorType == 4 || png.colorType == 6 || hasTransparencyChunk,
            orientation: orientation, bitDepth: png.bitDepth, isProgressive: png.isInterlaced
        )
    }

    /// Complete means every chunk is whole, at least one IDAT exists and IEND is reached; an
    /// animated PNG's frame chunks must also keep the APNG rules (see `APNGFrames`).
    /// CRCs are left to the decoder, since checking them means reading every byte.
    public func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {
        let png = try PNGChunks(data)
        var sawImageData = false
        var sawEnd = false
        let complete = try png.walk { chunk throws(DecodeError) in
            if chunk.type == "IDAT" { sawImageData = true }
            if chunk.type == "IEND" { sawEnd = true }
            return true
        }
        guard complete, sawEnd else { throw .truncated(.png) }
        guard sawImageData else { throw .corrupt(.png, reason: "it has no IDAT image data") }
        if let declared = try APNGFrames.declaredFrameCount(png) { _ = try APNGFrames(png, declaredCount: declared) }
    }

    /// Returns the default image (the first frame, or the still image shown where animation is
    /// not supported); decodes every other frame of an animation to verify it.
    public func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        let pixels = try LibPNG.decodeRGBA(data, width: info.storedWidth, height: info.storedHeight)
        let png = try PNGChunks(data)
        if let declared = try APNGFrames.declaredFrameCount(png) {
            let animation = try APNGFrames(png, declaredCount: declared)
            for (index, frame) in animation.frames.enumerated() where !frame.isDefaultImage {
                do {
                    _ = try LibPNG.decodeRGBA(animation.standalonePNG(of: frame, from: png), width: frame.width, height: frame.height)
                } catch .corrupt(.png, let reason) {
                    throw .corrupt(.png, reason: "frame \(index + 1): \(reason)")
                }
            }
        }
        return DecodedImage(info: info, width: info.storedWidth, height: info.storedHeight, rgba: pixels).turnedUpright()
    }
}
