/// What a header says about an image, as the registry's probe reads it.
///
/// Width and height are as displayed: for a JPEG whose EXIF orientation turns it on its side
/// they are swapped relative to the stored pixels (`storedWidth`, `storedHeight`).
public struct ImageInfo: Sendable, Hashable {
    public var format: ImageFormat
    /// Width in pixels as displayed (after EXIF orientation).
    public var width: Int
    /// Height in pixels as displayed (after EXIF orientation).
    public var height: Int
    /// 1 for a still image; the frames of an animation or image sequence (for an animated PNG its
    /// acTL's count, which leaves out a default image that is not part of the animation); a
    /// TIFF's pages; the number of images in an ICO/CUR file.
    public var frameCount: Int
    /// Whether any pixel may be less than opaque (alpha channel, tRNS chunk, GIF transparent index).
    public var hasAlpha: Bool
    /// The EXIF orientation of a JPEG, or an AVIF's `irot` rotation as one; `.up` otherwise.
    public var orientation: ImageOrientation
    /// Bits per channel as stored (8 for most images, 16 for some PNGs, 1–8 for palettes).
    public var bitDepth: Int
    /// Progressive JPEG, Adam7-interlaced PNG or interlaced GIF.
    public var isProgressive: Bool

    public init(
        format: ImageFormat, width: Int, height: Int, frameCount: Int = 1, hasAlpha: Bool = false,
        orientation: ImageOrientation = .up, bitDepth: Int = 8, isProgressive: Bool = false
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.hasAlpha = hasAlpha
        self.orientation = orientation
        self.bitDepth = bitDepth
        self.isProgressive = isProgressive
    }

    /// Width of the pixels as stored, before orientation is applied.
    public var storedWidth: Int { orientation.swapsWidthAndHeight ? height : width }
    /// Height of the pixels as stored, before orientation is applied.
    public var storedHeight: Int { orientation.swapsWidthAndHeight ? width : height }
    /// width × height.
    public var pixelCount: Int { width * height }
}
