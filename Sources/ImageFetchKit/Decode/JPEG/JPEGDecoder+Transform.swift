import FoundationEssentials

extension JPEGDecoder: TransformDecoding {
    /// Decodes with DCT scaling at the smallest of 1/8, 1/4, 1/2 and 1 that keeps both sides at
    /// least `minimumStoredSize`, in stored orientation: the result's `orientation` is the EXIF
    /// one, for the transform to apply to its much smaller output. A CMYK or YCCK image comes back
    /// as CMYK samples (`.invertedCMYK` when an Adobe segment marks them, as Photoshop writes them),
    /// for the transform to convert with its ICC profile. The profile is the one in the APP2
    /// segments, or nil when they are absent or malformed.
    func decodeForTransform(
        _ data: Data, info: ImageInfo, minimumStoredSize: (width: Int, height: Int)?
    ) throws(DecodeError) -> SourceImage {
        let header = try JPEGHeader(data)
        let scale = JPEGScale.smallest(storedWidth: header.width, storedHeight: header.height, minimum: minimumStoredSize)
        let (width, height) = (scale.scaled(header.width), scale.scaled(header.height))
        let isCMYK = header.components == 4
        let pixels = try TurboJPEG.decompress(
            data, width: width, height: height, cmyk: isCMYK, needsFreshDecompressor: !header.definesItsOwnTables
        )
        return SourceImage(
            width: width, height: height, pixels: pixels,
            colorModel: isCMYK ? (header.hasAdobeMarker ? .invertedCMYK : .cmyk) : .rgba,
            iccProfile: header.iccProfile(in: data), orientation: header.orientation
        )
    }
}
