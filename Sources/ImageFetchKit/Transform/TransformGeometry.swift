/// Where the pixels of a transform come from and go: the output size, the window of the source it
/// shows, and the smallest decode that still resamples down to it. Pure arithmetic on sizes, in
/// displayed orientation unless a name says stored.
struct TransformGeometry: Sendable, Equatable {
    /// A rectangle in source pixels; fractional, because a centred crop of an odd difference is.
    struct Window: Sendable, Equatable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
    }

    /// Where `contain` puts the fitted image: a canvas the size of the box, and the image's
    /// place on it (centred).
    struct Canvas: Sendable, Equatable {
        var width: Int
        var height: Int
        var x: Int
        var y: Int
    }

    /// The resampled image's size, as displayed (for `contain`, of the image placed on `canvas`).
    let width: Int
    let height: Int
    /// `contain`'s canvas; nil for every other fit, whose output is the resampled image.
    private(set) var canvas: Canvas?
    /// The part of the source (displayed orientation, source pixels) that fills the output:
    /// the whole image but for `cover`, which crops where its gravity says (the centre for
    /// attention and entropy, which `SmartCrop` moves once the pixels are decoded).
    let window: Window

    /// The geometry of `spec` applied to a source of `sourceWidth` × `sourceHeight` (displayed).
    init(spec: TransformSpec, sourceWidth: Int, sourceHeight: Int) {
        let (w0, h0) = (Double(sourceWidth), Double(sourceHeight))
        let whole = Window(x: 0, y: 0, width: w0, height: h0)
        let boxWidth = spec.width.map(Double.init)
        let boxHeight = spec.height.map(Double.init)
        switch spec.effectiveFit {
        case _ where !spec.resizes:
            (width, height, window) = (sourceWidth, sourceHeight, whole)
        case .inside, .contain:
            var scale = min(boxWidth.map { $0 / w0 } ?? .infinity, boxHeight.map { $0 / h0 } ?? .infinity)
            if !spec.upscale { scale = min(scale, 1) }
            // A side set by the box is the box's exactly; the other follows the aspect ratio.
            width = boxWidth != nil && scale == boxWidth! / w0 ? Int(boxWidth!) : Self.side(w0 * scale)
            height = boxHeight != nil && scale == boxHeight! / h0 ? Int(boxHeight!) : Self.side(h0 * scale)
            window = whole
            if spec.effectiveFit == .contain, let bw = boxWidth, let bh = boxHeight {
                canvas = Canvas(width: Int(bw), height: Int(bh), x: (Int(bw) - width) / 2, y: (Int(bh) - height) / 2)
            }
        case .outside:
            var scale = max(boxWidth! / w0, boxHeight! / h0)
            if !spec.upscale { scale = min(scale, 1) }
            (width, height, window) = (Self.side(w0 * scale), Self.side(h0 * scale), whole)
        case .cover:
            let (bw, bh) = (boxWidth!, boxHeight!)
            var scale = max(bw / w0, bh / h0)
            if !spec.upscale { scale = min(scale, 1) }
            // Each side is the box's, or the scaled image's where that is smaller (no enlargement):
            // libvips' and sharp's rule, so a 1×400 strip in a 256×256 box is 1×256, not 1×1.
            width = min(Int(bw), Self.side(w0 * scale))
            height = min(Int(bh), Self.side(h0 * scale))
            let (cw, ch) = (min(w0, Double(width) / scale), min(h0, Double(height) / scale))
            let anchor = spec.gravity.anchor ?? (0.5, 0.5)
            window = Window(x: (w0 - cw) * anchor.x, y: (h0 - ch) * anchor.y, width: cw, height: ch)
        case .fill:
            let (bw, bh) = (boxWidth!, boxHeight!)
            width = spec.upscale ? Int(bw) : min(Int(bw), sourceWidth)
            height = spec.upscale ? Int(bh) : min(Int(bh), sourceHeight)
            window = whole
        }
    }

    /// The output's size: the canvas's for `contain`, else the resampled image's.
    var outputSize: (width: Int, height: Int) { canvas.map { ($0.width, $0.height) } ?? (width, height) }

    /// Whether the output is the source unchanged in size (nothing to resample).
    var keepsSize: Bool {
        window.x == 0 && window.y == 0 && Double(width) == window.width && Double(height) == window.height
    }

    /// The smallest stored size a shrink-on-load decode may produce: twice the output's resolution
    /// across the window, as libvips and sharp shrink on load, so that Lanczos does the last
    /// factor of two or more. A decode straight to the output size (JPEG's 1/8 at an exact 8×
    /// reduction) is a box filter, and it aliases: a zone plate at 256 px showed moiré. That is
    /// the whole stored image scaled by twice the window's output/window ratio on each axis, never
    /// more than the image; `orientation` swaps the axes of a quarter turn.
    func minimumStoredDecodeSize(sourceWidth: Int, sourceHeight: Int, orientation: ImageOrientation) -> (width: Int, height: Int) {
        let scaleX = min(1, 2 * Double(width) / window.width)
        let scaleY = min(1, 2 * Double(height) / window.height)
        var minimum = (width: Self.ceilingSide(Double(sourceWidth) * scaleX), height: Self.ceilingSide(Double(sourceHeight) * scaleY))
        if orientation.swapsWidthAndHeight { minimum = (minimum.height, minimum.width) }
        return minimum
    }

    /// `window` in the stored orientation, for a source decoded at `decodedWidth` × `decodedHeight`
    /// (stored) from a source of `sourceWidth` × `sourceHeight` (displayed): its corners taken
    /// back through `orientation`, so a crop at the north of an image stored on its side is found
    /// at the side it is stored at.
    func storedWindow(
        sourceWidth: Int, sourceHeight: Int, orientation: ImageOrientation, decodedWidth: Int, decodedHeight: Int
    ) -> Window {
        let (storedWidth, storedHeight) = orientation.swapsWidthAndHeight ? (sourceHeight, sourceWidth) : (sourceWidth, sourceHeight)
        let (sw, sh) = (Double(storedWidth), Double(storedHeight))
        // Continuous coordinates: a displayed point (x, y) is this stored point.
        func stored(_ x: Double, _ y: Double) -> (Double, Double) {
            switch orientation {
            case .up: (x, y)
            case .upMirrored: (sw - x, y)
            case .down: (sw - x, sh - y)
            case .downMirrored: (x, sh - y)
            case .leftMirrored: (y, x)
            case .right: (y, sh - x)
            case .rightMirrored: (sw - y, sh - x)
            case .left: (sw - y, x)
            }
        }
        let a = stored(window.x, window.y), b = stored(window.x + window.width, window.y + window.height)
        let (x0, y0) = (min(a.0, b.0), min(a.1, b.1))
        let (sx, sy) = (Double(decodedWidth) / sw, Double(decodedHeight) / sh)
        return Window(x: x0 * sx, y: y0 * sy, width: abs(b.0 - a.0) * sx, height: abs(b.1 - a.1) * sy)
    }

    /// The output size in the stored orientation (what is resampled before it is turned upright).
    func storedSize(orientation: ImageOrientation) -> (width: Int, height: Int) {
        orientation.swapsWidthAndHeight ? (height, width) : (width, height)
    }

    /// A computed side: rounded to the nearest pixel, never 0.
    private static func side(_ value: Double) -> Int { max(1, Int(value.rounded())) }
    private static func ceilingSide(_ value: Double) -> Int { max(1, Int((value - 1e-9).rounded(.up))) }
}
