import FoundationEssentials

/// Reads ICO and CUR files (one format to the registry: CUR is ICO with hotspots) with a parser of
/// imgfetch's own; embedded PNG images are decoded with libpng, bitmaps in pure Swift.
///
/// An icon file holds the same picture at several sizes. imgfetch reports and returns the largest
/// (most pixels) and counts every image as a frame, so `frameCount` is the number of images;
/// decoding decodes them all, to verify them, like the frames of an animation.
public struct ICODecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .ico }

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        let directory = try ICODirectory(data)
        let largest = directory.largest
        return ImageInfo(
            format: .ico, width: largest.width, height: largest.height, frameCount: directory.entries.count,
            hasAlpha: largest.hasAlpha, bitDepth: largest.bitDepth
        )
    }

    /// Complete means every image lies within the file (checked by the directory parse), every
    /// bitmap has room for its pixels and mask, and every embedded PNG reaches IEND.
    public func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {
        for entry in try ICODirectory(data).entries where entry.isPNG {
            let image = ICODirectory.bytes(of: entry, in: data)
            do {
                let pngInfo = try PNGDecoder().probe(image)
                try PNGDecoder().validateStructure(of: image, info: pngInfo)
            } catch {
                throw ICODirectory.iconError(error, image: entry.index)
            }
        }
    }

    /// Decodes every image, smaller ones first (none has more pixels than the largest, which the
    /// registry's limit has passed), and returns the largest.
    public func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        let directory = try ICODirectory(data)
        for entry in directory.entries where entry.index != directory.largest.index {
            _ = try pixels(of: entry, in: data)
        }
        let largest = directory.largest
        return DecodedImage(info: info, width: largest.width, height: largest.height, rgba: try pixels(of: largest, in: data))
    }

    private func pixels(of entry: ICODirectory.Entry, in data: Data) throws(DecodeError) -> [UInt8] {
        let image = ICODirectory.bytes(of: entry, in: data)
        switch entry.content {
        case .png:
            do {
                return try LibPNG.decodeRGBA(image, width: entry.width, height: entry.height)
            } catch {
                throw ICODirectory.iconError(error, image: entry.index)
            }
        case .bitmap(let header):
            return try ICOBitmap.decode(image, header: header)
        }
    }
}

extension ICODirectory.Entry {
    var isPNG: Bool {
        if case .png = content { return true }
        return false
    }
}
