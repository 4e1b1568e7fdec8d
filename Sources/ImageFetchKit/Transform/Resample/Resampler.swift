import CResample

/// Resizes RGBA images with a separable Lanczos-3 filter on premultiplied alpha: the quality of
/// Pillow's `Image.resize(size, LANCZOS)` and libvips' `reduce`, in both directions.
///
/// A horizontal pass over the source rows any output row reads, then a vertical pass into the
/// result, both in fixed point in C (CResample): 16-bit values, 15 bits of precision, colour
/// premultiplied by alpha for an image with transparency, so a fully transparent pixel, whatever
/// colour it stores, lends no colour to its neighbours. Thread-safe: every call uses its own buffers.
///
/// Why fixed point in C: the same passes in Swift, four Float channels at a time, took 13% of
/// `bench resize`'s CPU, most of it on corpus JPEGs decoded at 1/4 (369×257) and resampled to
/// 256×178. SSE2's pmaddwd does two taps of four channels in one instruction, and 15 bits are
/// enough for Pillow's results (44–62 dB against it, `ResamplerTests`). Release build, one process
/// timing both in turn, median of 200 runs (15 for the largest), random opaque pixels:
///
///     source → 256 wide     Float (Swift)   fixed point (C, SSE2)
///     369×257               0.85 ms         0.57 ms
///     1474×1025             5.74 ms         4.85 ms
///     4000×3000             38.2 ms         35.7 ms
///
/// Large reductions stay near the Float figures (each source pixel is read by ~6 × the reduction
/// taps either way); in the pipeline they are rare, since JPEG and WebP shrink on load first.
///
/// Why our own kernel and not Debian's stb_image_resize (libstb-dev, v0.97): stb has no Lanczos
/// (its sharpest filters are 4-tap cubics) and measured 2–4× slower than even the Float passes.
enum Resampler {
    /// `image` resampled to exactly `width` × `height` (both at least 1), from `region` of it
    /// (by default the whole image). The region is in source pixels and may be fractional, so
    /// cover-mode crops such as x 12.5, width 375 sample where they should; parts of it outside
    /// the image read the nearest edge pixel.
    ///
    /// Resizing the whole image to its own size returns it unchanged. `opaque` says every pixel is
    /// (a JPEG, say), which spares a look at every alpha byte; nil looks.
    static func resize(
        _ image: RGBAImage, width: Int, height: Int, from region: SourceRegion? = nil, opaque: Bool? = nil, kernel: ResampleKernel = .lanczos3
    ) -> RGBAImage {
        precondition(width > 0 && height > 0, "a resize needs an output of at least 1×1")
        precondition(image.width > 0 && image.height > 0, "an empty image cannot be resized")
        let whole = SourceRegion(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        let region = region ?? whole
        if region == whole, width == image.width, height == image.height { return image }

        let columns = LanczosWeights(sourceCount: image.width, outputCount: width, start: region.x, length: region.width, kernel: kernel)
        let rows = LanczosWeights(sourceCount: image.height, outputCount: height, start: region.y, length: region.height, kernel: kernel)
        let premultiply: Int32 = (opaque ?? !image.hasTransparency) ? 0 : 1
        // Only the source rows some output row reads, and their columns some output pixel reads.
        let usedRows = rows.sourceRange, usedColumns = columns.sourceRange
        let values = width * 4
        // Every value of both buffers is written by its pass before it is read.
        let filtered = [Int16](unsafeUninitializedCapacity: usedRows.count * values) { buffer, initialized in
            let scratch = UnsafeMutablePointer<Int16>.allocate(capacity: usedColumns.count * 4)
            defer { scratch.deallocate() }
            image.pixels.withUnsafeBufferPointer { source in
                columns.withFixedPoint(startingAt: usedColumns.lowerBound) { starts, counts, weights in
                    imgfetch_resample_horizontal(
                        source.baseAddress! + usedRows.lowerBound * image.width * 4, image.width * 4, premultiply,
                        Int32(usedColumns.lowerBound), Int32(usedColumns.count), buffer.baseAddress, values, Int32(usedRows.count),
                        Int32(width), starts, counts, weights, Int32(columns.pairStride), scratch)
                }
            }
            initialized = buffer.count
        }
        let resampled = [Int16](unsafeUninitializedCapacity: height * values) { buffer, initialized in
            let sums = UnsafeMutablePointer<Int32>.allocate(capacity: values)
            defer { sums.deallocate() }
            rows.withFixedPoint(startingAt: usedRows.lowerBound) { starts, counts, weights in
                imgfetch_resample_vertical(
                    filtered, values, buffer.baseAddress, values, Int32(width), Int32(height), starts, counts, weights,
                    Int32(rows.pairStride), sums)
            }
            initialized = buffer.count
        }
        let pixels = PixelBuffer.make(byteCount: height * values) { output in
            imgfetch_resample_finish(resampled, output.baseAddress, width * height, premultiply)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}

/// A rectangle of a source image in source pixels, fractions allowed: pixel (i, j) covers
/// `i ..< i + 1` × `j ..< j + 1`. Width and height must be positive and finite.
struct SourceRegion: Sendable, Hashable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
}
