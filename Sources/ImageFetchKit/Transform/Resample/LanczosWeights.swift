#if canImport(Glibc)
import Glibc
#endif

/// A resampling filter (Lanczos-3 unless `--kernel` names another) laid out for one axis of a resize: for every output pixel, the run of
/// source pixels it reads and the weight of each, worked out once before any pixel is touched.
///
/// As in Pillow and libvips, the kernel is stretched by the downscale factor (a 4× reduction reads
/// 24 source pixels per output pixel, not 6), so every source pixel contributes and nothing
/// aliases; when enlarging it keeps its natural width of 6. Taps that fall outside the source
/// read the nearest edge pixel (clamped edges): their weights are added to the edge's.
struct LanczosWeights {
    /// Output pixels along this axis.
    let outputCount: Int
    /// Weights stored per output pixel: the longest run, shorter runs padded with zeros.
    let stride: Int
    /// Index of the first source pixel output pixel `i` reads.
    let starts: [Int]
    /// How many source pixels output pixel `i` reads, from `starts[i]` on.
    let counts: [Int]
    /// `outputCount * stride` weights, normalised so each output pixel's sum to 1.
    let weights: [Float]
    /// The source pixels any output pixel reads: `starts.min()` up to `(starts + counts).max()`.
    let sourceRange: Range<Int>

    /// Lanczos-3's half-width in source pixels at scale 1.
    static let radius = 3.0

    /// Weights for resampling the stretch `start ..< start + length` of an axis `sourceCount`
    /// pixels long (source pixel `j` covers `j ..< j + 1`) to `outputCount` pixels.
    init(sourceCount: Int, outputCount: Int, start: Double, length: Double, kernel: ResampleKernel = .lanczos3) {
        precondition(sourceCount > 0 && outputCount > 0 && length > 0 && length.isFinite && start.isFinite)
        let scale = length / Double(outputCount)
        // Nearest samples one pixel whatever the scale; the others stretch as they shrink.
        let stretch = kernel == .nearest ? 1 : max(scale, 1)
        let support = kernel.radius * stretch
        // A run spans at most ⌈2·support⌉ + 1 source pixels, fewer once clamped to the source.
        let stride = min(Int((2 * support).rounded(.up)) + 2, sourceCount)
        var starts = [Int](repeating: 0, count: outputCount)
        var counts = [Int](repeating: 0, count: outputCount)
        var weights = [Float](repeating: 0, count: outputCount * stride)
        var run = [Double](repeating: 0, count: stride)
        for i in 0..<outputCount {
            let center = start + (Double(i) + 0.5) * scale
            var first = Int((center - support).rounded(.down)), last = Int((center + support).rounded(.up))
            if kernel == .nearest { (first, last) = (Int(center.rounded(.down)), Int(center.rounded(.down))) }
            let low = min(max(first, 0), sourceCount - 1), high = max(min(last, sourceCount - 1), 0)
            let count = high - low + 1
            for k in 0..<count { run[k] = 0 }
            var taps = kernel == .lanczos3 ? LanczosTaps(x: (Double(first) + 0.5 - center) / stretch, step: 1 / stretch) : nil
            for j in first...last {
                let weight = taps?.next() ?? (kernel == .nearest ? 1 : kernel.weight((Double(j) + 0.5 - center) / stretch))
                run[min(max(j, 0), sourceCount - 1) - low] += weight
            }
            var sum = 0.0
            for k in 0..<count { sum += run[k] }
            if sum == 0 { (run[0], sum) = (1, 1) }  // cannot happen for Lanczos-3, whose nearest tap is > 0
            for k in 0..<count { weights[i * stride + k] = Float(run[k] / sum) }
            starts[i] = low
            counts[i] = count
        }
        self.outputCount = outputCount
        self.stride = stride
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.sourceRange = (starts.min() ?? 0)..<(zip(starts, counts).map(+).max() ?? 0)
    }

    /// sinc(x) · sinc(x / 3) on (-3, 3), 0 outside.
    static func lanczos(_ x: Double) -> Double {
        if x == 0 { return 1 }
        guard abs(x) < radius else { return 0 }
        let px = Double.pi * x
        return radius * sin(px) * sin(px / radius) / (px * px)
    }
}

/// Lanczos-3 at `x`, `x + step`, `x + 2·step`, … without two `sin` calls a tap.
///
/// Why: evaluating sinc(x)·sinc(x/3) afresh for every tap was 1.9 % of `bench resize`'s CPU (a
/// 6× reduction weighs ~38 taps for each of the output's columns and rows). The sines of
/// evenly spaced angles follow sin(a + (k+1)d) = 2 cos(d)·sin(a + kd) − sin(a + (k−1)d), so
/// a run needs four sines and two cosines; over the few hundred taps of even a 60× reduction's
/// run the values stay within 1e-9 of the closed form (`ResampleKernelTests`), far below the
/// Q14 weights' step of 6e-5.
struct LanczosTaps {
    private var x: Double
    private let step: Double
    /// sin(πx) and sin(πx/3) at the current and the previous tap, and the recurrences' factors.
    private var sine: (current: Double, previous: Double), third: (current: Double, previous: Double)
    private let sineFactor: Double, thirdFactor: Double

    init(x: Double, step: Double) {
        self.x = x
        self.step = step
        sine = (sin(.pi * x), sin(.pi * (x - step)))
        third = (sin(.pi * x / 3), sin(.pi * (x - step) / 3))
        sineFactor = 2 * cos(.pi * step)
        thirdFactor = 2 * cos(.pi * step / 3)
    }

    /// The kernel's value at the current tap; moves on to the next.
    mutating func next() -> Double {
        let value: Double
        if abs(x) < 1e-9 {
            value = 1
        } else if abs(x) >= LanczosWeights.radius {
            value = 0
        } else {
            value = LanczosWeights.radius * sine.current * third.current / (.pi * .pi * x * x)
        }
        x += step
        sine = (sineFactor * sine.current - sine.previous, sine.current)
        third = (thirdFactor * third.current - third.previous, third.current)
        return value
    }
}

extension LanczosWeights {
    /// Pairs of Q14 weights per output pixel, as the C passes of `Resampler` take them.
    var pairStride: Int { (stride + 1) / 2 }

    /// The weights in Q14 fixed point (16384 = 1.0), each output pixel's rounded so they still sum
    /// to exactly 16384 (the rounding error goes to its largest weight), packed two to an Int32
    /// (tap 2j in the low half, 2j + 1 in the high half, `pairStride` pairs per output pixel),
    /// with the starts (less `origin`) and counts as 32-bit integers: what the C passes of
    /// `Resampler` take.
    func withFixedPoint<T>(
        startingAt origin: Int = 0,
        _ body: (UnsafePointer<Int32>, UnsafePointer<Int32>, UnsafePointer<Int32>) -> T
    ) -> T {
        let one = 1 << 14
        var pairs = [Int32](repeating: 0, count: outputCount * pairStride)
        var fixed = [Int16](repeating: 0, count: stride + 1)
        for i in 0..<outputCount {
            let base = i * stride
            var sum = 0, largest = 0
            for k in 0..<counts[i] {
                fixed[k] = Int16(clamping: Int((weights[base + k] * Float(one)).rounded()))
                sum += Int(fixed[k])
                if abs(weights[base + k]) > abs(weights[base + largest]) { largest = k }
            }
            fixed[largest] = Int16(clamping: Int(fixed[largest]) + one - sum)
            for j in 0..<pairStride {
                let low = 2 * j < counts[i] ? UInt16(bitPattern: fixed[2 * j]) : 0
                let high = 2 * j + 1 < counts[i] ? UInt16(bitPattern: fixed[2 * j + 1]) : 0
                pairs[i * pairStride + j] = Int32(bitPattern: UInt32(low) | UInt32(high) << 16)
            }
        }
        let starts32 = starts.map { Int32($0 - origin) }
        let counts32 = counts.map { Int32($0) }
        return starts32.withUnsafeBufferPointer { s in
            counts32.withUnsafeBufferPointer { c in
                pairs.withUnsafeBufferPointer { w in body(s.baseAddress!, c.baseAddress!, w.baseAddress!) }
            }
        }
    }
}
