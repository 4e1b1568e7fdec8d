/// One decoded frame in a single layout: RGBA, 8 bits per channel, not premultiplied, rows top
/// to bottom with no padding (row stride `width * 4`), already turned upright by EXIF orientation.
public struct DecodedImage: Sendable, Hashable {
    /// What the probe read; `info.frameCount` counts every frame of an animation.
    public let info: ImageInfo
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes.
    public let pixels: [UInt8]

    /// An image from RGBA8 `pixels`; nil unless there are exactly `width * height * 4` of them.
    /// For decoders outside this module.
    public init?(info: ImageInfo, width: Int, height: Int, pixels: [UInt8]) {
        guard width >= 0, height >= 0, pixels.count == width * height * 4 else { return nil }
        self.init(info: info, width: width, height: height, rgba: pixels)
    }

    /// For this module's decoders, which allocate exactly `width * height * 4` bytes.
    init(info: ImageInfo, width: Int, height: Int, rgba pixels: [UInt8]) {
        assert(pixels.count == width * height * 4, "RGBA8 pixels must be width * height * 4 bytes")
        self.info = info
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public var frameCount: Int { info.frameCount }

    /// The pixel at (x, y), counted from the top-left corner; both must lie inside the image.
    public func pixel(x: Int, y: Int) -> RGBA {
        let i = (y * width + x) * 4
        return RGBA(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: pixels[i + 3])
    }
}

/// One RGBA8 pixel.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    public var red, green, blue, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
}
