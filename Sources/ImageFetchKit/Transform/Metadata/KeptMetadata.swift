import CImageCodecs
import FoundationEssentials

/// What `--keep-metadata` (sharp's `keepMetadata`) carries from an original into its still
/// variant: the ICC profile, when the pixels can stay in its RGB colour space, and the EXIF block
/// with its orientation set to 1, since the variant's pixels are upright. XMP and IPTC are not
/// kept; an animation's variant keeps nothing.
struct KeptMetadata: Sendable, Equatable {
    var iccProfile: [UInt8]?
    /// TIFF-structured, from its II*\0 or MM\0* header (no "Exif\0\0" before it).
    var exif: [UInt8]?

    static let none = KeptMetadata()

    var isEmpty: Bool { iccProfile == nil && exif == nil }

    /// The profile `source`'s pixels may keep instead of being converted to sRGB: an RGB profile on
    /// RGBA pixels. CMYK and gray profiles describe pixels the RGB output no longer has, so those
    /// images are converted and keep no profile.
    static func keepableProfile(of source: SourceImage) -> [UInt8]? {
        guard source.colorModel == .rgba, let profile = source.iccProfile, isRGB(profile) else { return nil }
        return profile
    }

    /// What an animated variant of the original in `data` keeps: its EXIF (`uprightEXIF`) and its
    /// RGB ICC profile (`animationProfile`). Animation frames are composed as stored, and a frame
    /// under a kept profile stays in its space, as a still does.
    static func ofAnimation(in data: Data, format: ImageFormat) -> KeptMetadata {
        KeptMetadata(iccProfile: animationProfile(in: data, format: format), exif: uprightEXIF(in: data, format: format))
    }

    /// The RGB ICC profile of an animation: a WebP's `ICCP` chunk or an APNG's `iCCP`; nil for
    /// other formats, none, or one of another colour space.
    static func animationProfile(in data: Data, format: ImageFormat) -> [UInt8]? {
        let profile: [UInt8]? = switch format {
        case .webp: WebPContainer.iccProfile(in: data)
        case .png: (try? PNGChunks(data))?.iccProfile()
        default: nil
        }
        return profile.flatMap { isRGB($0) ? $0 : nil }
    }

    /// Whether `profile` describes RGB data (its header's colour space field).
    private static func isRGB(_ profile: [UInt8]) -> Bool {
        profile.count >= ICCProfile.headerLength && Array(profile[16..<20]) == Array("RGB ".utf8)
    }

    /// The EXIF block of a JPEG (first APP1 Exif segment), PNG (`eXIf`) or WebP (`EXIF` chunk)
    /// original, found by the decoders' own walkers, with its orientation set to 1; nil for other
    /// formats or when the block is not TIFF-structured.
    static func uprightEXIF(in data: Data, format: ImageFormat) -> [UInt8]? {
        let bytes = ByteReader(data)
        var found: Range<Int>?
        switch format {
        case .jpeg:
            found = (try? JPEGHeader(data))?.exifSegment
        case .png:
            _ = try? (try? PNGChunks(data))?.walk { chunk in
                if chunk.type == "eXIf" { found = (chunk.offset + 8)..<(chunk.offset + 8 + chunk.length) }
                return found == nil
            }
        case .webp:
            found = WebPContainer.exifChunk(bytes)
        default:
            return nil
        }
        guard var range = found else { return nil }
        if bytes.matches(Array("Exif".utf8) + [0, 0], at: range.lowerBound) { range = (range.lowerBound + 6)..<range.upperBound }
        guard bytes.matches([0x49, 0x49, 0x2A, 0x00], at: range.lowerBound) || bytes.matches([0x4D, 0x4D, 0x00, 0x2A], at: range.lowerBound)
        else { return nil }
        var exif = [UInt8](data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)])
        if let tag = EXIFOrientation.tag(in: ByteReader(Data(exif)), at: 0, length: exif.count) {
            exif[tag.value] = tag.littleEndian ? 1 : 0
            exif[tag.value + 1] = tag.littleEndian ? 0 : 1
        }
        return exif
    }

    /// Calls `body` with these parts as the encoders' `imgfetch_metadata`, or nil when nothing is kept.
    func withCMetadata<Result>(_ body: (UnsafePointer<imgfetch_metadata>?) -> Result) -> Result {
        guard !isEmpty else { return body(nil) }
        let icc = iccProfile ?? [], exifBytes = exif ?? []
        return icc.withUnsafeBufferPointer { icc in
            exifBytes.withUnsafeBufferPointer { exifBuffer in
                var metadata = imgfetch_metadata(
                    icc: iccProfile == nil ? nil : icc.baseAddress, icc_size: icc.count,
                    exif: exif == nil ? nil : exifBuffer.baseAddress, exif_size: exifBuffer.count)
                return withUnsafePointer(to: &metadata) { body($0) }
            }
        }
    }
}
