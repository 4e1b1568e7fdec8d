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
    /// Why eight bytes at a time: the byte-by-byte loop was 0.8 % of `bench resize`'s CPU (it runs
    /// on every decoded PNG, GIF and WebP before resampling); ANDing 64-bit words and checking
    /// their alpha bytes once per block lets the compiler vectorise it.
    var hasTransparency: Bool {
        pixels.withUnsafeBytes { bytes in
            let alphas: UInt64 = 0xFF00_0000_FF00_0000
            let words = bytes.count / 8
            var word = 0
            while word < words {
                let end = min(word + 512, words)
                var all = UInt64.max
                for i in word..<end { all &= bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self) }
                if all & alphas != alphas { return true }
                word = end
            }
            // A last pixel when the count of pixels is odd.
            var i = words * 8 + 3
            while i < bytes.count {
                if bytes[i] != 255 { return true }
                i += 4
            }
            return false
        }
    }
}
