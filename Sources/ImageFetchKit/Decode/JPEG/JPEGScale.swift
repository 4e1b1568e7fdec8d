/// A DCT scaling factor libjpeg-turbo decodes at: 1/`denominator` of the stored size, where a
/// scaled side is rounded up as TurboJPEG's `TJSCALED` rounds it (a 4000-pixel side at 1/8 is
/// 500, a 203-pixel side 26).
///
/// Decoding at 1/8 skips most of the inverse DCT and writes 1/64 of the pixels, so a thumbnail
/// of a large JPEG costs little more than its entropy decoding.
struct JPEGScale: Sendable, Hashable, CustomStringConvertible {
    /// 1, 2, 4 or 8.
    let denominator: Int

    static let whole = JPEGScale(denominator: 1)

    /// The factors tried, largest shrink first. libjpeg-turbo offers others (3/8, 5/8, …), but
    /// only these four are the fast paths that skip DCT work.
    static let candidates = [8, 4, 2, 1].map(JPEGScale.init(denominator:))

    /// A side of `length` stored pixels, scaled.
    func scaled(_ length: Int) -> Int { (length + denominator - 1) / denominator }

    /// The smallest of 1/8, 1/4, 1/2 and 1 whose scaled width and height are both at least
    /// `minimum` (in stored orientation); whole size when there is no minimum or even the whole
    /// image is smaller than it.
    static func smallest(storedWidth: Int, storedHeight: Int, minimum: (width: Int, height: Int)?) -> JPEGScale {
        guard let minimum else { return .whole }
        return candidates.first { scale in
            scale.scaled(storedWidth) >= minimum.width && scale.scaled(storedHeight) >= minimum.height
        } ?? .whole
    }

    var description: String { "1/\(denominator)" }
}
