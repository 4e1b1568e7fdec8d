/// The filters `--kernel` names, sharp's and libvips' names for them.
public enum ResampleKernel: String, Sendable, CaseIterable {
    /// sinc windowed by sinc over 3 lobes: the sharpest without ringing to speak of (the default).
    case lanczos3
    /// Catmull-Rom (a = −0.5), sharp's cubic.
    case cubic
    /// The triangle (bilinear when enlarging).
    case linear
    /// The nearest source pixel, unfiltered: pixel art stays hard-edged.
    case nearest

    /// The half-width in source pixels at scale 1.
    var radius: Double {
        switch self {
        case .lanczos3: 3
        case .cubic: 2
        case .linear: 1
        case .nearest: 0.5
        }
    }

    /// The filter's value at `x` source pixels from the centre (scale 1).
    func weight(_ x: Double) -> Double {
        let d = abs(x)
        switch self {
        case .lanczos3: return LanczosWeights.lanczos(x)
        case .cubic:
            if d < 1 { return 1.5 * d * d * d - 2.5 * d * d + 1 }
            if d < 2 { return -0.5 * d * d * d + 2.5 * d * d - 4 * d + 2 }
            return 0
        case .linear: return max(0, 1 - d)
        case .nearest: return d < 0.5 ? 1 : 0
        }
    }
}
