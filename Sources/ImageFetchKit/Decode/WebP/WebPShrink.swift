/// An integer shrink libwebp's scaled decoding (`WebPDecoderConfig.options.use_scaling`) decodes
/// at: each side divided by `factor` and rounded to nearest, halves up, as libvips' webpload
/// rounds its scaled frame.
///
/// libwebp scales while it decodes, row by row, so a 1/4-size decode writes and holds 1/16 of
/// the pixels (it still decodes every macroblock: the saving is memory and the resample after).
struct WebPShrink: Sendable, Hashable {
    /// 1 for the whole size.
    let factor: Int

    static let whole = WebPShrink(factor: 1)

    /// A side of `length` pixels, shrunk.
    func scaled(_ length: Int) -> Int { (2 * length + factor) / (2 * factor) }

    /// The largest integer shrink whose scaled width and height are both at least `minimum`;
    /// whole size when there is no minimum or the image is not larger than it.
    static func largest(width: Int, height: Int, minimum: (width: Int, height: Int)?) -> WebPShrink {
        guard let minimum else { return .whole }
        // A side of n pixels shrunk by f rounds to at least m exactly when 2n ≥ f(2m − 1).
        let (minimumWidth, minimumHeight) = (max(1, minimum.width), max(1, minimum.height))
        let factor = min(2 * width / (2 * minimumWidth - 1), 2 * height / (2 * minimumHeight - 1))
        return WebPShrink(factor: max(1, factor))
    }
}
