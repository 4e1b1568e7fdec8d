import CResample

/// The integer pre-shrink libvips runs before its Lanczos reduce (`shrinkh` and `shrinkv`, with
/// `vips_resize`'s reducing gap of 2): a reduction of f on an axis first averages blocks of
/// ⌊f / 2⌋ pixels, so Lanczos does the last factor of 2 to 4 over fewer pixels.
///
/// Why: shrink on load does this for JPEG and WebP already; a PNG or GIF, and any residual
/// factor of 4 or more, went through Lanczos whole, whose taps grow with the factor (a 6×
/// reduction weighs 38 source pixels an output pixel on each axis). Averaging first costs one
/// add per source pixel. The result keeps Lanczos' last factor of 2 or more, as shrink on load
/// does, so it does not alias as a straight box reduction would.
struct BoxShrink: Sendable, Equatable {
    /// Block width and height in source pixels; 1 leaves that axis alone.
    let x: Int
    let y: Int

    /// The factors for resampling `region` to `width` × `height` with `kernel`: none for an
    /// enlargement, under 4×, or for `nearest` (which picks pixels and must not mix them).
    init(resampling region: SourceRegion, toWidth width: Int, height: Int, kernel: ResampleKernel) {
        guard kernel != .nearest else { (x, y) = (1, 1); return }
        // The limit keeps a column's sum of colour times alpha within 32 bits; Lanczos does the rest.
        x = min(Self.maximum, max(1, Int(region.width / Double(width) / 2)))
        y = min(Self.maximum, max(1, Int(region.height / Double(height) / 2)))
    }

    /// The largest block side.
    static let maximum = 65536

    init(x: Int, y: Int) {
        precondition(x > 0 && y > 0 && x <= Self.maximum && y <= Self.maximum)
        (self.x, self.y) = (x, y)
    }

    /// Whether this shrinks at all.
    var shrinks: Bool { x > 1 || y > 1 }

    /// `image` averaged over blocks of `x` × `y` pixels (partial blocks at the right and bottom
    /// edges average what they hold); colour weighed by alpha unless `opaque`.
    func apply(to image: RGBAImage, opaque: Bool) -> RGBAImage {
        let width = (image.width + x - 1) / x, height = (image.height + y - 1) / y
        let pixels = PixelBuffer.make(byteCount: width * height * 4) { output in
            let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: image.width * 4)
            defer { sums.deallocate() }
            image.pixels.withUnsafeBufferPointer { source in
                imgfetch_box_shrink(
                    source.baseAddress, Int32(image.width), Int32(image.height), Int32(x), Int32(y), opaque ? 0 : 1,
                    output.baseAddress, sums)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// `region` of the source in the shrunk image's pixels.
    func apply(to region: SourceRegion) -> SourceRegion {
        SourceRegion(x: region.x / Double(x), y: region.y / Double(y), width: region.width / Double(x), height: region.height / Double(y))
    }
}
