/// The two passes of `Resampler`, over raw buffers: no bounds checks, no allocation per pixel.
/// Pixels travel as `SIMD4<Float>` (R, G, B, A in 0...255, colour premultiplied by alpha / 255).
enum ResamplePasses {
    /// Filters source rows `rows` of the RGBA8 image `source` (`sourceWidth` pixels a row)
    /// horizontally into `output`, `columns.outputCount` premultiplied pixels per row, row
    /// `rows.lowerBound` first.
    static func horizontal(
        _ source: UnsafeBufferPointer<UInt8>, sourceWidth: Int, rows: Range<Int>,
        columns: LanczosWeights, into output: UnsafeMutableBufferPointer<SIMD4<Float>>
    ) {
        guard let pixels = source.baseAddress, var target = output.baseAddress else { return }
        let used = columns.sourceRange
        // One source row, premultiplied once: every output pixel reads each source pixel many times.
        let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: used.count)
        defer { row.deallocate() }
        columns.weights.withUnsafeBufferPointer { weights in
            columns.starts.withUnsafeBufferPointer { starts in
                columns.counts.withUnsafeBufferPointer { counts in
                    guard let weights = weights.baseAddress, let starts = starts.baseAddress, let counts = counts.baseAddress else { return }
                    for y in rows {
                        premultiply(pixels + (y * sourceWidth + used.lowerBound) * 4, count: used.count, into: row)
                        for x in 0..<columns.outputCount {
                            target.pointee = dot(row + (starts[x] - used.lowerBound), weights + x * columns.stride, count: counts[x])
                            target += 1
                        }
                    }
                }
            }
        }
    }

    /// Filters the premultiplied rows of `input` (`width` pixels each, the first being source
    /// row `firstRow`) vertically into `output`, `rows.outputCount` rows of RGBA8 straight alpha.
    static func vertical(
        _ input: UnsafeBufferPointer<SIMD4<Float>>, firstRow: Int, rows: LanczosWeights, width: Int,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard let input = input.baseAddress, let output = output.baseAddress else { return }
        let sum = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        defer { sum.deallocate() }
        rows.weights.withUnsafeBufferPointer { weights in
            guard let weights = weights.baseAddress else { return }
            for y in 0..<rows.outputCount {
                sum.initialize(repeating: .zero, count: width)
                let taps = weights + y * rows.stride
                // Tap by tap across the whole row: contiguous reads, and `sum` stays in L1.
                for k in 0..<rows.counts[y] {
                    let weight = taps[k]
                    let line = input + (rows.starts[y] + k - firstRow) * width
                    for x in 0..<width { sum[x] += line[x] * weight }
                }
                unpremultiply(sum, count: width, into: output + y * width * 4)
            }
        }
    }

    /// Σ `pixels[k]` · `weights[k]` for k < `count`, with two sums to halve the chain of dependent adds.
    @inline(__always)
    private static func dot(_ pixels: UnsafePointer<SIMD4<Float>>, _ weights: UnsafePointer<Float>, count: Int) -> SIMD4<Float> {
        var even = SIMD4<Float>.zero, odd = SIMD4<Float>.zero
        var k = 0
        while k + 1 < count {
            even += pixels[k] * weights[k]
            odd += pixels[k + 1] * weights[k + 1]
            k += 2
        }
        if k < count { even += pixels[k] * weights[k] }
        return even + odd
    }

    /// `count` RGBA8 pixels as Float with colour scaled by alpha / 255.
    @inline(__always)
    private static func premultiply(_ bytes: UnsafePointer<UInt8>, count: Int, into row: UnsafeMutablePointer<SIMD4<Float>>) {
        for i in 0..<count {
            let p = bytes + i * 4
            let alpha = Float(p[3])
            let scale = alpha * (1 / 255)
            row[i] = SIMD4(Float(p[0]) * scale, Float(p[1]) * scale, Float(p[2]) * scale, alpha)
        }
    }

    /// `count` premultiplied pixels back to RGBA8 straight alpha, clamped (Lanczos overshoots at
    /// edges) and rounded. A pixel whose alpha rounds to 0 becomes (0, 0, 0, 0).
    @inline(__always)
    private static func unpremultiply(_ sums: UnsafePointer<SIMD4<Float>>, count: Int, into bytes: UnsafeMutablePointer<UInt8>) {
        let low = SIMD4<Float>(repeating: 0), high = SIMD4<Float>(repeating: 255)
        for i in 0..<count {
            var pixel = sums[i]
            let alpha = min(max(pixel.w, 0), 255)
            let p = bytes + i * 4
            guard alpha >= 0.5 else {
                p.update(repeating: 0, count: 4)
                continue
            }
            let scale = 255 / alpha
            pixel = SIMD4(pixel.x * scale, pixel.y * scale, pixel.z * scale, alpha)
            let rounded = (pixel.clamped(lowerBound: low, upperBound: high) + 0.5).rounded(.down)
            p[0] = UInt8(rounded.x)
            p[1] = UInt8(rounded.y)
            p[2] = UInt8(rounded.z)
            p[3] = UInt8(rounded.w)
        }
    }
}
