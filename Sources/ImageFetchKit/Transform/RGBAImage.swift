/// Pixels on their way through a transform: RGBA, 8 bits per channel, straight (not premultiplied)
/// alpha, rows top to bottom with no padding (row stride `width * 4`).
///
/// A value: every step of the pipeline (colour conversion, resampling, orientation) takes one and
/// returns a new one, so a step never sees another's half-finished buffer.
struct RGBAImage: Sendable, Equatable {
    let width: Int
    let height: Int
    /// `width * height * 4` bytes.
    var pixels: [UInt8]

    /// An image of `pixels`, which must hold exactly `width * height * 4` bytes.
    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "RGBA8 pixels must be width * height * 4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Whether any pixel is less than opaque.
    var hasTransparency: Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return true }
                i += 4
            }
            return false
        }
    }
}
