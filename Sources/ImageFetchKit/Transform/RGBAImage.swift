import CResample

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
    ///
    /// Why in C: the byte-by-byte loop here was 0.8 % of `bench resize`'s CPU (it runs on every
    /// decoded PNG, GIF and WebP before resampling), and Swift's range checks kept even a 64-bit
    /// word loop from vectorising; clang vectorises CResample's.
    var hasTransparency: Bool {
        pixels.withUnsafeBufferPointer { imgfetch_has_transparency($0.baseAddress, $0.count / 4) != 0 }
    }
}
