/// The two passes of `Resampler` over raw buffers: no bounds checks, no allocation per pixel.
/// Pixels travel as `SIMD4<Float>` (R, G, B, A in 0...255, colour premultiplied by alpha / 255).
///
/// The vertical pass reads a window of horizontally filtered rows that slides down the image as
/// output rows are made, so those rows live in a ring just big enough for one window (about 400
/// KB for a 256-pixel-wide thumbnail) instead of a buffer of every source row: memory stays
/// bounded and the rows are still in cache when read.
struct ResamplePasses {
    let columns: LanczosWeights
    let rows: LanczosWeights

    /// Resamples the RGBA8 image `source` (`sourceWidth` pixels a row) into `output`,
    /// `columns.outputCount` × `rows.outputCount` RGBA8 straight-alpha pixels.
    func run(_ source: UnsafeBufferPointer<UInt8>, sourceWidth: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        guard let source = source.baseAddress, let output = output.baseAddress else { return }
        let width = columns.outputCount
        let ringRows = rows.stride
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: ringRows * width)
        let sourceRow = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: columns.sourceRange.count)
        let sum = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        // Each horizontal weight repeated in four lanes, so a tap is a load, a multiply and an add.
        let weights = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: columns.weights.count)
        defer { ring.deallocate(); sourceRow.deallocate(); sum.deallocate(); weights.deallocate() }
        for (k, weight) in columns.weights.enumerated() { weights[k] = SIMD4(repeating: weight) }

        var nextRow = 0  // the first source row not yet filtered into the ring
        rows.weights.withUnsafeBufferPointer { verticalWeights in
            guard let verticalWeights = verticalWeights.baseAddress else { return }
            for y in 0..<rows.outputCount {
                let start = rows.starts[y], count = rows.counts[y]
                // Windows only move down, so each source row is filtered once, when first needed.
                for row in max(nextRow, start)..<(start + count) {
                    filterRow(source + row * sourceWidth * 4, weights: weights, scratch: sourceRow, into: ring + (row % ringRows) * width)
                }
                nextRow = max(nextRow, start + count)
                sum.initialize(repeating: .zero, count: width)
                let taps = verticalWeights + y * rows.stride
                // Tap by tap across the whole row: contiguous reads, and `sum` stays in L1.
                for k in 0..<count {
                    let weight = taps[k]
                    let line = ring + ((start + k) % ringRows) * width
                    for x in 0..<width { sum[x] += line[x] * weight }
                }
                Self.unpremultiply(sum, count: width, into: output + y * width * 4)
            }
        }
    }

    /// One source row, premultiplied once into `scratch` (each source pixel is read by several
    /// output pixels), then filtered horizontally into `target`.
    private func filterRow(
        _ pixels: UnsafePointer<UInt8>, weights: UnsafePointer<SIMD4<Float>>,
        scratch: UnsafeMutablePointer<SIMD4<Float>>, into target: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let used = columns.sourceRange
        Self.premultiply(pixels + used.lowerBound * 4, count: used.count, into: scratch)
        columns.starts.withUnsafeBufferPointer { starts in
            columns.counts.withUnsafeBufferPointer { counts in
                for x in 0..<columns.outputCount {
                    target[x] = Self.dot(scratch + (starts[x] - used.lowerBound), weights + x * columns.stride, count: counts[x])
                }
            }
        }
    }

    /// Σ `pixels[k]` · `weights[k]` for k < `count`, in four sums: one sum's chain of dependent
    /// adds would wait on each add's latency (this loop is most of a large reduction).
    @inline(__always)
    private static func dot(_ pixels: UnsafePointer<SIMD4<Float>>, _ weights: UnsafePointer<SIMD4<Float>>, count: Int) -> SIMD4<Float> {
        var s0 = SIMD4<Float>.zero, s1 = SIMD4<Float>.zero, s2 = SIMD4<Float>.zero, s3 = SIMD4<Float>.zero
        var k = 0
        while k &+ 3 < count {
            s0 += pixels[k] * weights[k]
            s1 += pixels[k &+ 1] * weights[k &+ 1]
            s2 += pixels[k &+ 2] * weights[k &+ 2]
            s3 += pixels[k &+ 3] * weights[k &+ 3]
            k &+= 4
        }
        while k < count {
            s0 += pixels[k] * weights[k]
            k &+= 1
        }
        return (s0 + s1) + (s2 + s3)
    }

    /// `count` RGBA8 pixels as Float with colour scaled by alpha / 255.
    @inline(__always)
    private static func premultiply(_ bytes: UnsafePointer<UInt8>, count: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        // A plain byte-to-float loop, which the compiler vectorises 16 bytes at a time; then one
        // multiply per pixel by (a, a, a, 255) / 255, built without inserting lanes one by one.
        row.withMemoryRebound(to: Float.self, capacity: count * 4) { floats in
            for j in 0..<(count &* 4) { floats[j] = Float(bytes[j]) }
        }
        let perAlpha = SIMD4<Float>(1 / 255, 1 / 255, 1 / 255, 0), keepAlpha = SIMD4<Float>(0, 0, 0, 1)
        for i in 0..<count {
            let pixel = row[i]
            row[i] = pixel * (SIMD4(repeating: pixel.w) * perAlpha + keepAlpha)
        }
    }

    /// `count` premultiplied pixels back to RGBA8 straight alpha, clamped (Lanczos overshoots at
    /// edges) and rounded. A pixel whose alpha rounds to 0 becomes (0, 0, 0, 0).
    @inline(__always)
    private static func unpremultiply(_ sums: UnsafePointer<SIMD4<Float>>, count: Int, into bytes: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count {
            let pixel = sums[i]
            let alpha = min(max(pixel.w, 0), 255)
            let p = bytes + i &* 4
            guard alpha >= 0.5 else {
                p.update(repeating: 0, count: 4)
                continue
            }
            let scale = 255 / alpha
            p[0] = Self.byte(pixel.x * scale)
            p[1] = Self.byte(pixel.y * scale)
            p[2] = Self.byte(pixel.z * scale)
            p[3] = Self.byte(alpha)
        }
    }

    /// `value` rounded to the nearest of 0...255.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        UInt8(min(max(value, 0), 255) + 0.5)
    }
}
