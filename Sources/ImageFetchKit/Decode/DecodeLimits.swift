/// Guards against decompression bombs. Checked against the header before any pixel buffer exists.
public struct DecodeLimits: Sendable, Hashable {
    /// The most pixels (width × height of the canvas) an image may have. Default 100 million
    /// (400 MB of RGBA8).
    public var maxPixels: Int

    /// The most pixels an animation reader may compose in all: frames × canvas pixels, as the
    /// header declares them, checked before the first frame is decoded. A small file can declare
    /// thousands of frames on a large canvas, and a transform composes, resamples and encodes
    /// every one; this bounds that work as `maxPixels` bounds one frame's memory.
    /// Default 10 × `maxPixels` (a billion pixels: 100 frames at the largest allowed size, or
    /// 480 frames of 1920×1080).
    public var maxAnimationPixels: Int

    /// Limits of `maxPixels`, and of `maxAnimationPixels` when given, else 10 × `maxPixels`.
    public init(maxPixels: Int = 100_000_000, maxAnimationPixels: Int? = nil) {
        self.maxPixels = maxPixels
        let (tenfold, overflow) = maxPixels.multipliedReportingOverflow(by: 10)
        self.maxAnimationPixels = maxAnimationPixels ?? (overflow ? Int.max : tenfold)
    }
}
