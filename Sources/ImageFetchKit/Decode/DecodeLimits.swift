/// Guards against decompression bombs. Checked against the header before any pixel buffer exists.
public struct DecodeLimits: Sendable, Hashable {
    /// The most pixels (width × height of the canvas) an image may have. Default 100 million
    /// (400 MB of RGBA8).
    public var maxPixels: Int

    public init(maxPixels: Int = 100_000_000) {
        self.maxPixels = maxPixels
    }
}
